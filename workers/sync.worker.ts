/**
 * The sync worker: runs the sync engine (sync/engine.ts) off the page's thread, exposed with comlink.
 * It is the outbox's one owner: the page records changes through it (`record`). The page hands it the
 * tablet's sessions (a vault over its storage, over comlink: each queued change goes out under its
 * author's session) and a status callback; the worker opens its own instance of the local database
 * (RxDB keeps the page's instance in step). Only the tab holding the Web Lock replays the outbox, so
 * two tabs never send the same entry.
 */
import * as Comlink from 'comlink';
import { clientsOf, type SessionVault, transportOf } from '../src/api/client';
import { localDatabase } from '../src/db/database';
import { rxLocalStore } from '../src/db/local-store';
import { COLLECTION_NAMES, withLinkKeys } from '../src/db/schemas';
import { REPLAY_LOCK } from '../sync/background-replay';
import { SyncEngine } from '../sync/engine';
import type { EntryDraft } from '../sync/outbox';
import { Outbox } from '../sync/outbox';
import type { ClientId, SyncStatus } from '../sync/types';

export interface SyncWorkerConfig {
  baseURL: string;
  /** Names this device's pull checkpoints: one set per server and company. */
  replicationIdentifier: string;
  /** Whether this tablet has pulled this company's data before (else the status reports the first pull's progress). */
  pulledBefore: boolean;
}

let started: Promise<SyncEngine> | null = null;

/** The engine once `start` has opened it: calls made while it starts wait for it. */
async function engine(): Promise<SyncEngine> {
  if (!started) throw new Error('The sync worker has not been started.');
  return started;
}

const api = {
  /** Starts (or resumes, after a reload or a crash) the engine; status changes go to `onStatus`. */
  async start(config: SyncWorkerConfig, vault: SessionVault, onStatus: (status: SyncStatus) => void, onSignedOut: (userId: number | null) => void): Promise<void> {
    started ??= (async () => {
      const clientFor = clientsOf({ baseURL: config.baseURL, vault, onSignedOut });
      const database = await localDatabase();
      const created = new SyncEngine({
        outbox: new Outbox(),
        store: rxLocalStore(database),
        transport: transportOf(clientFor),
        replicationIdentifier: config.replicationIdentifier,
        pulledBefore: config.pulledBefore,
        pullTargets: COLLECTION_NAMES.map((name) => ({ name, collection: database.collections[name], toLocal: (document) => withLinkKeys(name, document) })),
        withReplayLock: (task) => navigator.locks.request(REPLAY_LOCK, task),
        isOnline: () => navigator.onLine,
        currentUserId: async () => (await vault.get(null))?.user_id ?? null,
      });
      created.subscribe((status) => onStatus(status));
      await created.start();
      return created;
    })();
    await started;
  },
  async record(drafts: EntryDraft[]) {
    return (await engine()).record(drafts);
  },
  async awaitsCreate(clientIds: ClientId[]) {
    return (await engine()).awaitsCreate(clientIds);
  },
  async hasPendingEffects(collection: string, id: string) {
    return (await engine()).hasPendingEffects(collection, id);
  },
  async sessionsChanged(): Promise<void> {
    await (await engine()).sessionsChanged();
  },
  async syncNow(): Promise<void> {
    await (await engine()).syncNow();
  },
  async retry(id: string): Promise<void> {
    await (await engine()).retry(id);
  },
  async discard(id: string): Promise<number> {
    return (await engine()).discard(id);
  },
  async stop(): Promise<void> {
    const running = started;
    started = null;
    await (await running)?.stop();
  },
};

export type SyncWorkerApi = typeof api;

Comlink.expose(api);
