/**
 * What the tablet is doing with the grower's changes: online or offline, how many wait, and each
 * change the server refused with its message, to retry or discard (ARCHITECTURE.md: nothing is
 * dropped silently).
 */
import { useState } from 'react';
import { syncWorker, useSyncStatus } from '../../sync/sync-store';

export function SyncIndicator() {
  const status = useSyncStatus();
  const [open, setOpen] = useState(false);
  const state = !status.online ? 'offline' : status.failed.length > 0 ? 'failed' : status.pending > 0 ? 'pending' : 'synced';
  const label =
    state === 'offline'
      ? `Offline · ${status.pending} pending`
      : state === 'failed'
        ? `${status.failed.length} failed · ${status.pending} pending`
        : state === 'pending'
          ? `Syncing · ${status.pending} pending`
          : 'All changes saved';
  return (
    <div className="sync">
      <button type="button" className={`sync-chip ${state}`} aria-expanded={open} onClick={() => setOpen((value) => !value)} data-pending={status.pending}>
        {label}
      </button>
      {open && (
        <div className="sync-panel" role="dialog" aria-label="Changes waiting to reach the server">
          <p>{status.online ? 'Connected to the server.' : 'No connection: changes are kept on this tablet and sent when the connection returns.'}</p>
          {status.otherUsers > 0 && <p>{status.otherUsers} change(s) by another user of this tablet wait for them to sign in again.</p>}
          {status.lastError && <p className="muted">Last problem: {status.lastError}</p>}
          {status.lastSyncedAt && <p className="muted">Last synced {new Date(status.lastSyncedAt).toLocaleTimeString()}.</p>}
          {status.failed.length > 0 && (
            <ul className="failed-list">
              {status.failed.map((failed) => (
                <li key={failed.id}>
                  <strong>{failed.label}</strong>
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
