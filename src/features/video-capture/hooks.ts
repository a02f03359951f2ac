/**
 * What the video screen reads besides the local store: how far each waiting video's upload has come
 * (the server's count: what a resumed upload goes on from), and the names of the places videos show.
 */
import { useEffect, useMemo, useState } from 'react';
import { type UploadProgress, type VideoDocument, videoUploadProgress } from '../../api/videos';
import { useApiContext, useLocalQuery } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import type { CompanyDoc, GridDoc, RoomDoc } from '../rooms/model';
import { useBoxNames } from '../plant-moves/places';
import { videoCaptureTexts } from './texts';

/** How often the server is asked how far the waiting uploads have come, while the tablet is online. */
const PROGRESS_EVERY_MS = 1500;

/**
 * The server's progress of each waiting video, by client id: `null` while the server has none of it
 * (its upload has not begun), absent while unknown (offline, or not asked yet). Asked only while
 * online and while some wait; offline there is nothing to ask, and the screen says it waits for the
 * network.
 */
export function useUploadProgress(clientIds: readonly string[], online: boolean): ReadonlyMap<string, UploadProgress | null> {
  const context = useApiContext();
  const [progress, setProgress] = useState<ReadonlyMap<string, UploadProgress | null>>(new Map());
  const key = [...clientIds].sort().join(',');
  useEffect(() => {
    if (!context || !online || key === '') return undefined;
    const ids = key.split(',');
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const next = new Map<string, UploadProgress | null>();
      for (const clientId of ids) {
        try {
          next.set(clientId, await videoUploadProgress(context, { clientId }));
        } catch {
          // No answer (the signal went) or a refusal: unknown until the next round.
        }
      }
      if (!alive) return;
      setProgress(next);
      timer = setTimeout(() => void ask(), PROGRESS_EVERY_MS);
    };
    void ask();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [context, online, key]);
  return progress;
}

/**
 * Where each video was recorded, as people read it: "Flower room · Bench A · Box 3" for a box,
 * "Flower room · Bench A · row 2" for a row.
 */
export function useVideoPlaces(videos: readonly VideoDocument[], company: CompanyDoc | null): (video: VideoDocument) => string {
  const boxIds = useMemo(() => videos.filter((video) => video.what === 'box').map((video) => video.grid_box_id), [videos]);
  const boxName = useBoxNames(boxIds, company);
  const gridIds = [...new Set(videos.filter((video) => video.what === 'row').map((video) => String(video.grid_id)))].sort();
  const grids = useLocalQuery<GridDoc>('grids', { id: { $in: gridIds } }, `video-grids-${gridIds.join(',')}`);
  const roomIds = [...new Set(grids.documents.map((grid) => grid.roomId))].sort();
  const rooms = useLocalQuery<RoomDoc>('rooms', { id: { $in: roomIds } }, `video-rooms-${roomIds.join(',')}`);
  return useMemo(() => {
    const gridById = new Map(grids.documents.map((grid) => [grid.id, grid]));
    const roomById = new Map(rooms.documents.map((room) => [room.id, room]));
    return (video) => {
      if (video.what === 'box') return boxName(video.grid_box_id);
      const grid = gridById.get(String(video.grid_id));
      const room = grid ? roomById.get(grid.roomId) : undefined;
      const ns = videoCaptureTexts;
      return [room?.Name, grid?.Name ?? i18next.t('place.gridNotHere', { ns }), i18next.t('place.videoRow', { ns, row: video.row ?? '?' })].filter(Boolean).join(' · ');
    };
  }, [boxName, grids.documents, rooms.documents]);
}
