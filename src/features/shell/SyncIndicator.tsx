/**
 * What the tablet is doing with the growers' changes: online or offline, how many wait, per user of
 * this tablet (a shared kiosk holds several users' changes, each sent only under its author's own
 * session), whose changes wait for them to sign in again, and each change the server refused with
 * its message, to retry or discard (ARCHITECTURE.md: nothing is dropped silently); and, where the
 * browser cannot send with the app closed (issue 19), that closing it leaves the changes waiting.
 */
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { backgroundSendingSupported } from '../../app/background-sync';
import { formatDate } from '../../i18n/format';
import { translateMessage } from '../../i18n/messages';
import { appSavedOffline, onAppSavedOfflineChange } from '../../register-service-worker';
import { syncWorker, useSyncStatus } from '../../sync/sync-store';
import type { FailedEntry, UserQueue } from '../../../sync/types';
import { useUserNames } from '../kiosk/useUserNames';
import { shellTexts } from './texts';

export function SyncIndicator() {
  const { t } = useTranslation(shellTexts);
  const status = useSyncStatus();
  const nameOf = useUserNames();
  const [open, setOpen] = useState(false);
  // Changes whose author's session is not on the tablet are not syncing: they wait for that user.
  const waitingForSignIn = status.users.filter((user) => !user.signedIn).reduce((sum, user) => sum + user.pending, 0);
  const state = !status.online ? 'offline' : status.failed.length > 0 ? 'failed' : status.pending > 0 ? 'pending' : 'synced';
  const label =
    state === 'offline'
      ? t('sync.offline', { pending: status.pending })
      : state === 'failed'
        ? t('sync.failed', { failed: status.failed.length, pending: status.pending })
        : state === 'pending'
          ? waitingForSignIn >= status.pending
            ? t('sync.waitingForSignIn', { pending: status.pending })
            : t('sync.syncing', { pending: status.pending })
          : t('sync.allSaved');
  const users = status.users.filter((user) => user.pending > 0 || user.failed > 0);
  // Ready to work offline: the app is saved on the tablet (the service worker controls the page) and the
  // company's data has been pulled. Until then, losing the signal would leave the grower without the app.
  const appSaved = useSyncExternalStore(onAppSavedOfflineChange, appSavedOffline);
  const offlineReady = appSaved && status.initialPull === null && status.lastSyncedAt !== null;
  return (
    <div className="sync">
      <button type="button" className={`sync-chip ${state}`} aria-expanded={open} onClick={() => setOpen((value) => !value)} data-pending={status.pending} data-offline-ready={offlineReady}>
        {label}
      </button>
      {status.online && (
        <span className={`offline-ready${offlineReady ? ' ready' : ''}`} role="status">
          {offlineReady ? t('sync.readyOffline') : t('sync.savingForOffline')}
        </span>
      )}
      {open && (
        <div className="sync-panel" role="dialog" aria-label={t('sync.panel')}>
          <p>{status.online ? t('sync.connected') : t('sync.noConnection')}</p>
          <p>{offlineReady ? t('sync.offlineReadyLong') : t('sync.notOfflineReadyLong')}</p>
          {users.length > 0 && (
            <ul className="sync-users" aria-label={t('sync.perUser')}>
              {users.map((user) => (
                <UserLine key={user.userId ?? 'none'} user={user} name={nameOf(user.userId)} />
              ))}
            </ul>
          )}
          {status.lastError && <p className="muted">{t('sync.lastProblem', { problem: translateMessage(status.lastError) })}</p>}
          {status.lastSyncedAt && <p className="muted">{t('sync.lastSynced', { time: formatDate(status.lastSyncedAt, { timeStyle: 'medium' }) })}</p>}
          {status.failed.length > 0 && (
            <ul className="failed-list" aria-label={t('sync.refused')}>
              {status.failed.map((failed) => (
                <FailedLine key={failed.id} failed={failed} name={nameOf(failed.userId)} />
              ))}
            </ul>
          )}
          {status.pending > 0 && !backgroundSendingSupported() && <p className="sync-closed">{t('sync.onlyWhileOpen')}</p>}
          <button type="button" className="button" onClick={() => void syncWorker()?.syncNow()}>
            {t('sync.syncNow')}
          </button>
        </div>
      )}
    </div>
  );
}

/** "Ana Silva: 3 changes pending, 1 failed · waiting for Ana Silva to sign in". */
function UserLine({ user, name }: { user: UserQueue; name: string }) {
  const { t } = useTranslation(shellTexts);
  const waiting = user.pending - user.failed;
  const parts = [waiting > 0 ? t('sync.userPending', { count: waiting }) : '', user.failed > 0 ? t('sync.userFailed', { count: user.failed }) : ''].filter(Boolean).join(', ');
  return (
    <li className={`sync-user${user.signedIn ? '' : ' waiting'}`} data-user={user.userId ?? ''} data-pending={user.pending} data-failed={user.failed}>
      <strong>{name}</strong>
      <span>{parts}</span>
      {/* Never sent as someone else: without their session here, they wait for their author. */}
      {!user.signedIn && <span className="sync-user-note">{t('sync.waitingFor', { name })}</span>}
    </li>
  );
}

function FailedLine({ failed, name }: { failed: FailedEntry; name: string }) {
  const { t } = useTranslation(shellTexts);
  return (
    <li>
      <strong>{translateMessage(failed.label)}</strong>
      <span className="muted">{t('sync.by', { name })}</span>
      <span className="error-text">{translateMessage(failed.error)}</span>
      <span className="actions">
        <button type="button" className="button" onClick={() => void syncWorker()?.retry(failed.id)}>
          {t('sync.retry')}
        </button>
        <button type="button" className="button danger" onClick={() => void syncWorker()?.discard(failed.id)}>
          {t('sync.discard')}
        </button>
      </span>
    </li>
  );
}
