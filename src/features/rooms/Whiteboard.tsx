/**
 * A room's whiteboard: the current image, an upload (queued with the file; a preview of the picked
 * image shows until the server's copy arrives with the room), and the history of earlier images,
 * which only the server keeps (get_whiteboard_history): it needs a connection and a room that has
 * reached the server.
 */
import { useEffect, useState } from 'react';
import { scanMessages } from '../../../common/messages/scans';
import type { WhiteboardHistory } from '../../api/scans';
import { reachedServer } from '../../api/records';
import { deferred } from '../../app/deferred';
import { useAction, useApiContext } from '../../app/hooks';
import { withFittedPhoto } from '../../app/photos';
import { useSyncStatus } from '../../sync/sync-store';
import { usePreview, useStoredImage } from './hooks';
import { type CompanyDoc, type RoomDoc, userName, when } from './model';

/** Loaded on first use (app/deferred.ts), so the room paints without the domain functions' schemas. */
const scansApi = () => import('../../api/scans');
const getWhiteboardHistory = deferred(scansApi, 'getWhiteboardHistory');
const uploadWhiteboardImage = deferred(scansApi, 'uploadWhiteboardImage');

/** Photos are made fit before they are queued (app/photos.ts). */
const uploadFittedWhiteboardImage = withFittedPhoto(uploadWhiteboardImage);

/** History thumbnails shown at first; growers ask for more. */
const HISTORY_PAGE = 6;

export function Whiteboard({ room, roomId, company }: { room: RoomDoc; roomId: string; company: CompanyDoc | null }) {
  const current = room.WhiteboardImage ?? null;
  const [picked, setPicked] = useState<{ file: File; over: string | null } | null>(null);
  const preview = usePreview(picked?.file ?? null);
  const upload = useAction(uploadFittedWhiteboardImage, scanMessages.whiteboardUploaded);
  // The server's copy has arrived (the room's image changed since the pick): show it instead of the preview.
  useEffect(() => {
    if (picked && current !== picked.over) setPicked(null);
  }, [current, picked]);
  const image = useStoredImage(preview ? null : current);

  async function choose(file: File | undefined) {
    if (!file) return;
    if (await upload.run({ roomId, image: file, fileName: file.name })) setPicked({ file, over: current });
  }

  return (
    <section className="card whiteboard" aria-labelledby="whiteboard-title">
      <div className="section-head">
        <h2 id="whiteboard-title">Whiteboard</h2>
        <label className="button file-button">
          Upload whiteboard image
          <input type="file" accept="image/*" aria-label="Whiteboard image file" onChange={(event) => void choose(event.target.files?.[0]).then(() => (event.target.value = ''))} />
        </label>
      </div>
      {upload.error && (
        <p className="error-text" role="alert">
          {upload.error}
        </p>
      )}
      {preview ? (
        <figure className="whiteboard-current">
          <img src={preview} alt="Whiteboard image waiting to upload" />
          <figcaption className="muted">Waiting to reach the server.</figcaption>
        </figure>
      ) : current ? (
        <figure className="whiteboard-current">
          {image.url ? <img src={image.url} alt="Current whiteboard" /> : <p className="muted">{image.loading ? 'Loading image…' : `Image not available: ${image.error ?? ''}`}</p>}
        </figure>
      ) : (
        <p className="muted">No whiteboard image yet.</p>
      )}
      <WhiteboardHistoryList roomId={roomId} local={!reachedServer(room)} current={current} company={company} />
    </section>
  );
}

function WhiteboardHistoryList({ roomId, local, current, company }: { roomId: string; local: boolean; current: string | null; company: CompanyDoc | null }) {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const [state, setState] = useState<{ history: WhiteboardHistory['history'] | null; error: string | null; loading: boolean }>({ history: null, error: null, loading: false });
  const [shown, setShown] = useState(HISTORY_PAGE);

  useEffect(() => {
    if (!context || local) return undefined;
    let alive = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    getWhiteboardHistory(context, { roomId }).then(
      (answer) => alive && setState({ history: answer.history ?? [], error: null, loading: false }),
      (error: unknown) => alive && setState((previous) => ({ history: previous.history, error: error instanceof Error ? error.message : String(error), loading: false })),
    );
    return () => {
      alive = false;
    };
    // Asked again when the current image changes (a new upload arrived) and when the connection returns.
  }, [context, roomId, local, current, online]);

  if (local) return <p className="muted">The history shows once this room has reached the server.</p>;
  const history = state.history ?? [];
  return (
    <div className="whiteboard-history">
      <h3>History</h3>
      {state.loading && !state.history && <p className="muted">Loading...</p>}
      {state.error && <p className="muted">{online ? state.error : 'The history needs a connection; it shows when the tablet is back online.'}</p>}
      {state.history && history.length === 0 && <p className="muted">No earlier images.</p>}
      {history.length > 0 && (
        <ul className="history-list" aria-label="Whiteboard history">
          {history.slice(0, shown).map((entry) => (
            <HistoryEntry key={entry.id} path={entry.ImagePath} at={entry.UploadedAt} by={userName(company, entry.UploadedBy)} />
          ))}
        </ul>
      )}
      {history.length > shown && (
        <button type="button" className="button" onClick={() => setShown((count) => count + HISTORY_PAGE)}>
          Show more
        </button>
      )}
    </div>
  );
}

function HistoryEntry({ path, at, by }: { path: string; at: string; by: string | null }) {
  const image = useStoredImage(path);
  const caption = [when(at), by ? `by ${by}` : ''].filter(Boolean).join(' ');
  return (
    <li>
      <figure>
        {image.url ? <img src={image.url} alt={`Whiteboard ${caption}`} loading="lazy" /> : <div className="history-placeholder">{image.loading ? 'Loading…' : 'Not available'}</div>}
        <figcaption>{caption}</figcaption>
      </figure>
    </li>
  );
}
