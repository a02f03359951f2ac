/**
 * Videos recorded on this tablet that the server does not have whole yet: each says whether it waits
 * for the network, how far its upload has come (the server's count), or why it was refused, with
 * Retry and Discard.
 */
import { useTranslation } from 'react-i18next';
import type { UploadProgress, VideoDocument } from '../../api/videos';
import { formatNumber } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { useSyncStatus, syncWorker } from '../../sync/sync-store';
import { when } from '../rooms/model';
import { clock } from './recorder';
import { videoCaptureTexts } from './texts';

const megabytes = (bytes: number) => i18next.t('waiting.megabytes', { ns: videoCaptureTexts, size: formatNumber(bytes / (1024 * 1024), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });

export function WaitingUploads(props: { videos: VideoDocument[]; progress: ReadonlyMap<string, UploadProgress | null>; placeOf: (video: VideoDocument) => string }) {
  const { t } = useTranslation(videoCaptureTexts);
  const online = useSyncStatus((status) => status.online);
  const failed = useSyncStatus((status) => status.failed);
  if (props.videos.length === 0) return null;
  return (
    <section className="card video-waiting" aria-labelledby="video-waiting-title">
      <h2 id="video-waiting-title">{t('waiting.heading')}</h2>
      <p className="muted">{t('waiting.help')}</p>
      <ul className="video-list">
        {props.videos.map((video) => {
          const refused = failed.find((entry) => entry.creates.includes(video.id)) ?? null;
          const progress = props.progress.get(video.id);
          const percent = progress ? Math.floor((100 * progress.receivedBytes) / Math.max(1, progress.sizeBytes)) : 0;
          return (
            <li key={video.id} className={`video-item waiting${refused ? ' refused' : ''}`} data-video={video.id}>
              <div className="video-head">
                <h3>{props.placeOf(video)}</h3>
                <span className="muted">
                  {when(video.recorded_at)} · {clock(video.duration_ms)} · {megabytes(video.size_bytes)}
                </span>
              </div>
              {refused ? (
                <>
                  <p className="error-text" role="alert">
                    {t('waiting.notAccepted', { reason: translateMessage(refused.error) })}
                  </p>
                  <div className="video-actions">
                    <button type="button" className="button" onClick={() => void syncWorker()?.retry(refused.id)}>
                      {t('waiting.retry')}
                    </button>
                    <button type="button" className="button danger" onClick={() => void syncWorker()?.discard(refused.id)}>
                      {t('waiting.discard')}
                    </button>
                  </div>
                </>
              ) : !online ? (
                <p className="video-upload-state" data-state="offline">
                  {t('waiting.offline')}
                </p>
              ) : progress ? (
                <div className="video-upload-state" data-state="uploading">
                  <span>{progress.finished || progress.receivedBytes >= progress.sizeBytes ? t('waiting.saving') : t('waiting.uploading', { percent })}</span>
                  <progress max={100} value={percent} aria-label={t('waiting.progress', { place: props.placeOf(video) })} />
                </div>
              ) : (
                <p className="video-upload-state" data-state="queued">
                  {t('waiting.queued')}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
