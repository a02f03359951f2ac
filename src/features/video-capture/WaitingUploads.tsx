/**
 * Videos recorded on this tablet that the server does not have whole yet: each says whether it waits
 * for the network, how far its upload has come (the server's count), or why it was refused, with
 * Retry and Discard.
 */
import type { UploadProgress, VideoDocument } from '../../api/videos';
import { useSyncStatus, syncWorker } from '../../sync/sync-store';
import { when } from '../rooms/model';
import { clock } from './recorder';

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export function WaitingUploads(props: { videos: VideoDocument[]; progress: ReadonlyMap<string, UploadProgress | null>; placeOf: (video: VideoDocument) => string }) {
  const online = useSyncStatus((status) => status.online);
  const failed = useSyncStatus((status) => status.failed);
  if (props.videos.length === 0) return null;
  return (
    <section className="card video-waiting" aria-labelledby="video-waiting-title">
      <h2 id="video-waiting-title">Waiting to upload</h2>
      <p className="muted">Videos stay on this tablet until the server has them; an upload that stops goes on where it stopped.</p>
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
                    Not accepted: {refused.error}
                  </p>
                  <div className="video-actions">
                    <button type="button" className="button" onClick={() => void syncWorker()?.retry(refused.id)}>
                      Retry
                    </button>
                    <button type="button" className="button danger" onClick={() => void syncWorker()?.discard(refused.id)}>
                      Discard
                    </button>
                  </div>
                </>
              ) : !online ? (
                <p className="video-upload-state" data-state="offline">
                  Waiting for network: it uploads when the tablet has signal.
                </p>
              ) : progress ? (
                <div className="video-upload-state" data-state="uploading">
                  <span>{progress.finished || progress.receivedBytes >= progress.sizeBytes ? 'Uploaded, saving…' : `Uploading ${percent} %`}</span>
                  <progress max={100} value={percent} aria-label={`Upload of the video of ${props.placeOf(video)}`} />
                </div>
              ) : (
                <p className="video-upload-state" data-state="queued">
                  Waiting to upload…
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
