/**
 * The page's side of the sync worker: starts it when the app opens, gives it the tablet's sessions and
 * the browser's `online` events, records changes through it (it owns the outbox), and keeps its status
 * in a zustand store the screens read (online, pending changes per user, failures, the first pull's
 * progress, last sync).
 *
 * The status is also kept in local storage, so that after a reload (offline too) the first paint shows
 * the pending count as it was instead of "0 pending" until the worker has counted; and whether this
 * tablet has completed a first pull of the company's data, so that a new tablet says it is loading
 * instead of showing an empty company, and an old one does not.
 */
import * as Comlink from 'comlink';
import { create } from 'zustand';
import type { SessionVault } from '../api/client';
import type { Recorder } from '../../sync/engine';
import type { SyncStatus } from '../../sync/types';
import type { SyncWorkerApi, SyncWorkerConfig } from '../../workers/sync.worker';

const STATUS_KEY = 'growroom.syncStatus';
const pulledKey = (replicationIdentifier: string) => `growroom.pulled.${replicationIdentifier}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function lastStatus(): Partial<SyncStatus> {
  try {
    const kept = JSON.parse(storage()?.getItem(STATUS_KEY) ?? '{}') as Partial<SyncStatus>;
    return { pending: kept.pending ?? 0, otherUsers: kept.otherUsers ?? 0, users: kept.users ?? [], failed: kept.failed ?? [], lastSyncedAt: kept.lastSyncedAt ?? null };
  } catch {
    return {};
  }
}

export const useSyncStatus = create<SyncStatus>(() => ({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  pending: 0,
  otherUsers: 0,
  users: [],
  failed: [],
  initialPull: null,
  lastSyncedAt: null,
  lastError: null,
  ...lastStatus(),
}));

let worker: Comlink.Remote<SyncWorkerApi> | null = null;
let workerStarted: Promise<Comlink.Remote<SyncWorkerApi>> | null = null;

function keep(status: SyncStatus, replicationIdentifier: string) {
  const area = storage();
  if (!area) return;
  const { pending, otherUsers, users, failed, lastSyncedAt } = status;
  area.setItem(STATUS_KEY, JSON.stringify({ pending, otherUsers, users, failed, lastSyncedAt }));
  if (status.initialPull === null) area.setItem(pulledKey(replicationIdentifier), '1');
}

/** Starts the sync worker once per page (StrictMode renders twice; a second call returns the same worker). */
export function startSyncWorker(config: Omit<SyncWorkerConfig, 'pulledBefore'>, vault: SessionVault, onSignedOut: (userId: number | null) => void): Promise<Comlink.Remote<SyncWorkerApi>> {
  if (workerStarted) return workerStarted;
  const remote = Comlink.wrap<SyncWorkerApi>(new Worker(new URL('../../workers/sync.worker.ts', import.meta.url), { type: 'module' }));
  worker = remote;
  const pulledBefore = storage()?.getItem(pulledKey(config.replicationIdentifier)) === '1';
  if (!pulledBefore) useSyncStatus.setState({ initialPull: { done: 0, total: 0, documents: 0 } });
  workerStarted = remote
    .start(
      { ...config, pulledBefore },
      Comlink.proxy(vault),
      Comlink.proxy((status: SyncStatus) => {
        useSyncStatus.setState(status);
        keep(status, config.replicationIdentifier);
      }),
      Comlink.proxy(onSignedOut),
    )
    .then(() => remote);
  window.addEventListener('online', () => void remote.syncNow());
  window.addEventListener('offline', () => useSyncStatus.setState({ online: false }));
  return workerStarted;
}

/** The running worker (retry, discard, sync now), or null before a session started it. */
export const syncWorker = () => worker;

async function started(): Promise<Comlink.Remote<SyncWorkerApi>> {
  if (!workerStarted) throw new Error('Sign in first: changes are recorded by the sync worker, which starts with a session.');
  return workerStarted;
}

/** The page's recorder (ApiContext.recorder): every change is recorded by the worker, the outbox's one owner. */
export const workerRecorder: Recorder = {
  record: async (drafts) => (await started()).record([...drafts]),
  awaitsCreate: async (clientIds) => (await started()).awaitsCreate(clientIds),
  hasPendingEffects: async (collection, id) => (await started()).hasPendingEffects(collection, id),
};
