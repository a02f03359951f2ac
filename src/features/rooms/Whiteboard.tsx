/**
 * A room's whiteboard: the current image, an upload (queued with the file; a preview of the picked
 * image shows until the server's copy arrives with the room), and the history of earlier images,
 * which only the server keeps (get_whiteboard_history): it needs a connection and a room that has
 * reached the server.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scanMessages } from '../../../common/messages/scans';
import type { WhiteboardHistory } from '../../api/scans';
import { reachedServer } from '../../api/records';
import { deferred } from '../../app/deferred';
import { useAction, useApiContext } from '../../app/hooks';
import { withFittedPhoto } from '../../app/photos';
import { messageOf } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { usePreview, useStoredImage } from './hooks';
import { type CompanyDoc, type RoomDoc, userName, when } from './model';
import { roomsTexts } from './texts';

/** Loaded on first use (app/deferred.ts), so the room paints without the domain functions' schemas. */
const scansApi = () => import('../../api/scans');
const getWhiteboardHistory = deferred(scansApi, 'getWhiteboardHistory');
const uploadWhiteboardImage = deferred(scansApi, 'uploadWhiteboardImage');

/** Photos are made fit before they are queued (app/photos.ts). */
const uploadFittedWhiteboardImage = withFittedPhoto(uploadWhiteboardImage);

/** History thumbnails shown at first; growers ask for more. */
const HISTORY_PAGE = 6;

export function Whiteboard({ room, roomId, company }: { room: RoomDoc; roomId: string; company: CompanyDoc | null }) {
  const { t } = useTranslation(roomsTexts);
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
        <h2 id="whiteboard-title">{t('whiteboard.heading')}</h2>
        <label className="button file-button">
          {t('whiteboard.upload')}
          <input type="file" accept="image/*" aria-label={t('whiteboard.fileLabel')} onChange={(event) => void choose(event.target.files?.[0]).then(() => (event.target.value = ''))} />
        </label>
      </div>
      {upload.error && (
        <p className="error-text" role="alert">
          {upload.error}
        </p>
      )}
      {preview ? (
        <figure className="whiteboard-current">
          <img src={preview} alt={t('whiteboard.previewAlt')} />
          <figcaption className="muted">{t('whiteboard.waiting')}</figcaption>
        </figure>
      ) : current ? (
        <figure className="whiteboard-current">
          {image.url ? <img src={image.url} alt={t('whiteboard.currentAlt')} /> : <p className="muted">{image.loading ? t('whiteboard.loadingImage') : t('whiteboard.imageUnavailable', { error: image.error ?? '' })}</p>}
        </figure>
      ) : (
        <p className="muted">{t('whiteboard.none')}</p>
      )}
      <WhiteboardHistoryList roomId={roomId} local={!reachedServer(room)} current={current} company={company} />
    </section>
  );
}

function WhiteboardHistoryList({ roomId, local, current, company }: { roomId: string; local: boolean; current: string | null; company: CompanyDoc | null }) {
  const { t } = useTranslation(roomsTexts);
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
      (error: unknown) => alive && setState((previous) => ({ history: previous.history, error: messageOf(error), loading: false })),
    );
    return () => {
      alive = false;
    };
    // Asked again when the current image changes (a new upload arrived) and when the connection returns.
  }, [context, roomId, local, current, online]);

  if (local) return <p className="muted">{t('whiteboard.historyLater')}</p>;
  const history = state.history ?? [];
  return (
    <div className="whiteboard-history">
      <h3>{t('whiteboard.history')}</h3>
      {state.loading && !state.history && <p className="muted">{t('whiteboard.loadingHistory')}</p>}
      {state.error && <p className="muted">{online ? state.error : t('whiteboard.historyOffline')}</p>}
      {state.history && history.length === 0 && <p className="muted">{t('whiteboard.noHistory')}</p>}
      {history.length > 0 && (
        <ul className="history-list" aria-label={t('whiteboard.historyLabel')}>
          {history.slice(0, shown).map((entry) => (
            <HistoryEntry key={entry.id} path={entry.ImagePath} at={entry.UploadedAt} by={userName(company, entry.UploadedBy)} />
          ))}
        </ul>
      )}
      {history.length > shown && (
        <button type="button" className="button" onClick={() => setShown((count) => count + HISTORY_PAGE)}>
          {t('whiteboard.showMore')}
        </button>
      )}
    </div>
  );
}

function HistoryEntry({ path, at, by }: { path: string; at: string; by: string | null }) {
  const { t } = useTranslation(roomsTexts);
  const image = useStoredImage(path);
  const caption = [when(at), by ? t('whiteboard.by', { by }) : ''].filter(Boolean).join(' ');
  return (
    <li>
      <figure>
        {image.url ? <img src={image.url} alt={t('whiteboard.entryAlt', { caption })} loading="lazy" /> : <div className="history-placeholder">{image.loading ? t('whiteboard.loading') : t('whiteboard.notAvailable')}</div>}
        <figcaption>{caption}</figcaption>
      </figure>
    </li>
  );
}
