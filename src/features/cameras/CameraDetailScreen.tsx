/**
 * One automated camera (spec part 1 §2 `automatedcameradetail/{camera_id}`; issue 17): where it looks
 * and its state, a time-lapse of its last days, and the timeline of its images, newest first, a page
 * at a time, each with what its analysis found. Online only, as the cameras list; it reads itself
 * again every few seconds, so new images arrive without asking.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAMERA_IMAGES_PER_PAGE } from '../../../common/messages/cameras';
import { type Camera, type CameraImage, captureCameraNow } from '../../api/cameras';
import { type SignedInUser, useAction } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { useStoredImage } from '../rooms/hooks';
import { SignedIn } from '../session/SignedIn';
import { FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { useCamera, useCameraImages, useEvery } from './hooks';
import { analysisLines, intervalName, kindName, placeText, stateText, timeText } from './model';
import { camerasTexts } from './texts';
import { TimeLapse } from './TimeLapse';
import './cameras.css';

const REFRESH_MS = 10_000;

export function CameraDetailScreen({ cameraId }: { cameraId: string }) {
  const { t } = useTranslation(camerasTexts);
  return <SignedIn title={t('camera')}>{(user) => <CameraDetail user={user} cameraId={Number(cameraId)} />}</SignedIn>;
}

function CameraDetail({ user, cameraId }: { user: SignedInUser; cameraId: number }) {
  const { t } = useTranslation(camerasTexts);
  const online = useSyncStatus((status) => status.online);
  const read = useCamera(cameraId);
  const [page, setPage] = useState(1);
  const images = useCameraImages(cameraId, page, CAMERA_IMAGES_PER_PAGE);
  // The newest page follows the camera; older pages stay as they are while read.
  useEvery(REFRESH_MS, online && page === 1, images.reload);
  useEvery(REFRESH_MS, online, read.reload);
  const camera = read.data?.camera ?? null;
  const total = images.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CAMERA_IMAGES_PER_PAGE));
  const valid = Number.isInteger(cameraId) && cameraId > 0;

  return (
    <Screen
      title={camera?.name ?? t('camera')}
      offline={t('offline')}
      actions={
        <Link to="/dashboard/automatedcameras" className="button">
          {t('detail.allCameras')}
        </Link>
      }
      loading={online && valid && read.loading && read.data === null}
      error={valid ? read.error : t('detail.noSuchCamera')}
    >
      {online && camera && (
        <div className="camera-detail">
          <CameraSummary camera={camera} user={user} onCaptured={images.reload} />
          <TimeLapse camera={camera} />
          <section className="camera-timeline" aria-labelledby="timeline-title">
            <div className="camera-timeline-head">
              <h2 id="timeline-title">{t('detail.images')}</h2>
              <p className="muted">{t('detail.imageCount', { count: total })}</p>
            </div>
            {images.error && (
              <p className="banner error" role="alert">
                {images.error}
              </p>
            )}
            {images.data && images.data.images.length === 0 && <p className="empty">{camera.kind === 'device' ? t('detail.noImagesDevice') : t('detail.noImagesIp')}</p>}
            <ul className="timeline-list">
              {images.data?.images.map((image) => (
                <TimelineImage key={image.image_id} image={image} camera={camera} />
              ))}
            </ul>
            {pages > 1 && (
              <nav className="form-actions timeline-pages" aria-label={t('detail.pages')}>
                <button type="button" className="button" disabled={page <= 1} onClick={() => setPage((at) => at - 1)}>
                  {t('detail.newer')}
                </button>
                <span className="timeline-page">{t('detail.page', { page, pages })}</span>
                <button type="button" className="button" disabled={page >= pages} onClick={() => setPage((at) => at + 1)}>
                  {t('detail.older')}
                </button>
              </nav>
            )}
          </section>
        </div>
      )}
    </Screen>
  );
}

function CameraSummary({ camera, user, onCaptured }: { camera: Camera; user: SignedInUser; onCaptured: () => void }) {
  const { t } = useTranslation(camerasTexts);
  const [asked, setAsked] = useState(false);
  const capturing = useAction(
    async (context) => {
      await captureCameraNow(context, { cameraId: camera.camera_id });
      setAsked(true);
      setTimeout(onCaptured, 3_000);
    },
    undefined,
    { inlineErrors: true },
  );
  return (
    <section className="camera-summary card" aria-label={t('detail.about', { name: camera.name })}>
      <p className="camera-place">{placeText(camera)}</p>
      <p>
        <span className="chip camera-kind">{kindName(camera.kind)}</span> {t('card.meta', { interval: intervalName(camera.interval_seconds), time: timeText(camera.last_capture_at) })}
        {camera.next_capture_at ? t('card.next', { time: timeText(camera.next_capture_at) }) : ''}
      </p>
      <p className={`camera-state ${camera.enabled ? camera.state : 'paused'}`}>{stateText(camera)}</p>
      {user.isAdmin && camera.kind === 'ip' && (
        <div className="form-actions">
          <button type="button" className="button" disabled={capturing.busy} onClick={() => void capturing.run()}>
            {capturing.busy ? t('card.asking') : t('card.captureNow')}
          </button>
        </div>
      )}
      {asked && <p role="status">{t('card.captureAsked')}</p>}
      <FormError error={capturing.error} />
    </section>
  );
}

/** One image of the timeline: its thumbnail (the full image on demand), its time and what its analysis found. */
function TimelineImage({ image, camera }: { image: CameraImage; camera: Camera }) {
  const { t } = useTranslation(camerasTexts);
  const [full, setFull] = useState(false);
  const stored = useStoredImage(full ? image.image_path : (image.thumbnail_path ?? image.image_path));
  const when = timeText(image.captured_at);
  return (
    <li className={full ? 'timeline-image full' : 'timeline-image'}>
      <button type="button" className="timeline-thumb" aria-label={full ? t('detail.showSmall', { time: when }) : t('detail.showFull', { time: when })} aria-pressed={full} onClick={() => setFull((open) => !open)}>
        {stored.url ? <img src={stored.url} alt={t('detail.imageAt', { name: camera.name, time: when })} /> : <span>{stored.error ?? t('detail.loading')}</span>}
      </button>
      <div className="timeline-text">
        <p className="timeline-time">
          {when}
          <span className="muted">
            {' · '}
            {image.source === 'device' ? t('detail.fromPhone') : t('detail.fetched')}
          </span>
        </p>
        <ul className="timeline-findings">
          {analysisLines(image.analysis).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </div>
    </li>
  );
}
