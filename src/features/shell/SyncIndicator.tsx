/**
 * What the tablet is doing with the growers' changes: online or offline, how many wait, per user of
 * this tablet (a shared kiosk holds several users' changes, each sent only under its author's own
 * session), whose changes wait for them to sign in again, and each change the server refused with
 * its message, to retry or discard (ARCHITECTURE.md: nothing is dropped silently).
 */
import { useState, useSyncExternalStore } from 'react';
import { appSavedOffline, onAppSavedOfflineChange } from '../../register-service-worker';
import { syncWorker, useSyncStatus } from '../../sync/sync-store';
import type { FailedEntry, UserQueue } from '../../../sync/types';
import { useUserNames } from '../kiosk/useUserNames';

const changes = (count: number) => `${count} change${count === 1 ? '' : 's'}`;

export function SyncIndicator() {
  const status = useSyncStatus();
  const nameOf = useUserNames();
  const [open, setOpen] = useState(false);
  // Changes whose author's session is not on the tablet are not syncing: they wait for that user.
  const waitingForSignIn = status.users.filter((user) => !user.signedIn).reduce((sum, user) => sum + user.pending, 0);
  const state = !status.online ? 'offline' : status.failed.length > 0 ? 'failed' : status.pending > 0 ? 'pending' : 'synced';
  const label =
    state === 'offline'
      ? `Offline · ${status.pending} pending`
      : state === 'failed'
        ? `${status.failed.length} failed · ${status.pending} pending`
        : state === 'pending'
          ? waitingForSignIn >= status.pending
            ? `${status.pending} waiting for sign-in`
            : `Syncing · ${status.pending} pending`
          : 'All changes saved';
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
          {offlineReady ? 'Ready offline' : 'Saving for offline…'}
        </span>
      )}
      {open && (
        <div className="sync-panel" role="dialog" aria-label="Changes waiting to reach the server">
          <p>{status.online ? 'Connected to the server.' : 'No connection: changes are kept on this tablet and sent when the connection returns.'}</p>
          <p>{offlineReady ? 'Ready to work offline: the app and the company’s data are on this tablet.' : 'Not ready to work offline yet: the app and the company’s data are still being saved on this tablet.'}</p>
          {users.length > 0 && (
            <ul className="sync-users" aria-label="Changes per user on this tablet">
              {users.map((user) => (
                <UserLine key={user.userId ?? 'none'} user={user} name={nameOf(user.userId)} />
              ))}
            </ul>
          )}
          {status.lastError && <p className="muted">Last problem: {status.lastError}</p>}
          {status.lastSyncedAt && <p className="muted">Last synced {new Date(status.lastSyncedAt).toLocaleTimeString()}.</p>}
          {status.failed.length > 0 && (
            <ul className="failed-list" aria-label="Changes the server refused">
              {status.failed.map((failed) => (
                <FailedLine key={failed.id} failed={failed} name={nameOf(failed.userId)} />
              ))}
            </ul>
          )}
          <button type="button" className="button" onClick={() => void syncWorker()?.syncNow()}>
            Sync now
          </button>
        </div>
      )}
    </div>
  );
}

/** "Ana Silva: 3 changes pending, 1 failed · waiting for Ana Silva to sign in". */
function UserLine({ user, name }: { user: UserQueue; name: string }) {
  const waiting = user.pending - user.failed;
  const parts = [waiting > 0 ? `${changes(waiting)} pending` : '', user.failed > 0 ? `${user.failed} failed` : ''].filter(Boolean).join(', ');
  return (
    <li className={`sync-user${user.signedIn ? '' : ' waiting'}`} data-user={user.userId ?? ''} data-pending={user.pending} data-failed={user.failed}>
      <strong>{name}</strong>
      <span>{parts}</span>
      {/* Never sent as someone else: without their session here, they wait for their author. */}
      {!user.signedIn && <span className="sync-user-note">Waiting for {name} to sign in on this tablet.</span>}
    </li>
  );
}

function FailedLine({ failed, name }: { failed: FailedEntry; name: string }) {
  return (
    <li>
      <strong>{failed.label}</strong>
      <span className="muted">By {name}</span>
      <span className="error-text">{failed.error}</span>
      <span className="actions">
        <button type="button" className="button" onClick={() => void syncWorker()?.retry(failed.id)}>
          Retry
        </button>
        <button type="button" className="button danger" onClick={() => void syncWorker()?.discard(failed.id)}>
          Discard
        </button>
      </span>
    </li>
  );
}
