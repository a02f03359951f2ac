/**
 * The page's side of the sync worker: starts it when the app opens, gives it the session and the
 * browser's `online` events, and keeps its status in a zustand store the screens read (online,
 * pending changes, failures, last sync).
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { SessionStore } from '../api/client';
import type { SyncStatus } from '../../sync/types';
import type { SyncWorkerApi, SyncWorkerConfig } from '../../workers/sync.worker';

export const useSyncStatus = create<SyncStatus>(() => ({ online: typeof navigator === 'undefined' ? true : navigator.onLine, pending: 0, otherUsers: 0, failed: [], lastSyncedAt: null, lastError: null }));

let worker: Comlink.Remote<SyncWorkerApi> | null = null;

/** Starts the sync worker once per page (StrictMode renders twice; a second call returns the same worker). */
export function startSyncWorker(config: SyncWorkerConfig, session: SessionStore, onSignedOut: () => void): Comlink.Remote<SyncWorkerApi> {
  if (worker) return worker;
  const remote = Comlink.wrap<SyncWorkerApi>(new Worker(new URL('../../workers/sync.worker.ts', import.meta.url), { type: 'module' }));
  worker = remote;
  void remote.start(
    config,
    Comlink.proxy(session),
    Comlink.proxy((status: SyncStatus) => useSyncStatus.setState(status)),
    Comlink.proxy(onSignedOut),
  );
  window.addEventListener('online', () => void remote.syncNow());
  window.addEventListener('offline', () => useSyncStatus.setState({ online: false }));
  return remote;
}

/** The running worker, for domain functions to say an entry is waiting (ApiContext.notify). */
export const syncWorker = () => worker;
