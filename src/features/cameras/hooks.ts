/**
 * The cameras screens' server reads. Cameras and their images live on the server only (src/api/cameras.ts
 * says why), so these read online: offline they hold nothing and the screens say cameras need the
 * connection; back online they read again. Images are files behind the session's token, shown as
 * object URLs that are revoked when they leave the screen.
 */
import { useEffect, useState } from 'react';
import { type Camera, type CameraImage, type CameraLimits, type DeviceToken, getCamera, getCameraImages, getCameras, getDeviceLinks } from '../../api/cameras';
import { fileObjectUrl } from '../../api/files';
import { type ServerRead, useApiContext, useServerRead } from '../../app/hooks';
import { timeLapseFrames } from './model';

/** Reads again every `ms` while `active` (a camera's state and new images arrive without the Admin asking). */
export function useEvery(ms: number, active: boolean, reload: () => void) {
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(reload, ms);
    return () => clearInterval(timer);
  }, [ms, active, reload]);
}

export function useCameras(companyId: number): ServerRead<{ cameras: Camera[]; limits: CameraLimits }> {
  return useServerRead((context) => getCameras(context, { companyId }), `cameras-${companyId}`);
}

export function useCamera(cameraId: number): ServerRead<{ camera: Camera; limits: CameraLimits }> {
  return useServerRead(Number.isInteger(cameraId) && cameraId > 0 ? (context) => getCamera(context, { cameraId }) : null, `camera-${cameraId}`);
}

export function useCameraImages(cameraId: number, page: number, perPage: number): ServerRead<{ images: CameraImage[]; total: number }> {
  return useServerRead(Number.isInteger(cameraId) && cameraId > 0 ? (context) => getCameraImages(context, { cameraId, page, perPage }) : null, `camera-images-${cameraId}-${page}-${perPage}`);
}

/** A camera's device links; read only once `open`. */
export function useDeviceLinks(cameraId: number, open: boolean): ServerRead<DeviceToken[]> {
  return useServerRead(open ? (context) => getDeviceLinks(context, { cameraId }) : null, `device-links-${cameraId}`);
}

/** Pages read for a time-lapse, at most: 10 pages of 200 images. */
const TIME_LAPSE_PAGES = 10;
const TIME_LAPSE_PAGE_SIZE = 200;

/** The frames of a camera's last `days` days, oldest first and thinned (model.ts `timeLapseFrames`). */
export function useTimeLapseImages(cameraId: number, days: number): ServerRead<CameraImage[]> {
  return useServerRead(
    Number.isInteger(cameraId) && cameraId > 0
      ? async (context) => {
          const start = new Date(Date.now() - days * 86_400_000).toISOString();
          const images: CameraImage[] = [];
          for (let page = 1; page <= TIME_LAPSE_PAGES; page += 1) {
            const answer = await getCameraImages(context, { cameraId, start, page, perPage: TIME_LAPSE_PAGE_SIZE });
            images.push(...answer.images);
            if (images.length >= answer.total || answer.images.length === 0) break;
          }
          return timeLapseFrames(images);
        }
      : null,
    `time-lapse-${cameraId}-${days}`,
  );
}

/** Files loaded at once by `useObjectUrls`: a tablet on a weak signal gets the first frames first. */
const PARALLEL_LOADS = 3;

/**
 * Object URLs of stored files, loaded progressively in the order given (a time-lapse's thumbnails,
 * oldest first) a few at a time; each appears as it arrives. All are revoked when the list changes or
 * the screen closes.
 */
export function useObjectUrls(references: readonly string[]): { urls: ReadonlyMap<string, string>; loaded: number } {
  const context = useApiContext();
  const [urls, setUrls] = useState<ReadonlyMap<string, string>>(new Map());
  const key = references.join('|');
  useEffect(() => {
    if (!context) return undefined;
    let alive = true;
    const made = new Map<string, string>();
    setUrls(new Map());
    let next = 0;
    const loadNext = async (): Promise<void> => {
      while (alive && next < references.length) {
        const reference = references[next]!;
        next += 1;
        try {
          const url = await fileObjectUrl(context, { file: reference });
          if (!alive) {
            URL.revokeObjectURL(url);
            return;
          }
          made.set(reference, url);
          setUrls(new Map(made));
        } catch {
          // A frame that cannot be loaded (removed by retention meanwhile) is skipped.
        }
      }
    };
    for (let loop = 0; loop < PARALLEL_LOADS; loop += 1) void loadNext();
    return () => {
      alive = false;
      for (const url of made.values()) URL.revokeObjectURL(url);
    };
    // The references are described by `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, key]);
  return { urls, loaded: urls.size };
}
