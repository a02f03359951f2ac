/**
 * The sync worker: runs the sync engine (sync/engine.ts) off the page's thread, exposed with comlink.
 * The page hands it the session store (its localStorage, over comlink) and a status callback; the
 * worker opens its own instance of the local database (RxDB keeps the page's instance in step).
 * Only the tab holding the Web Lock replays the outbox, so two tabs never send the same entry.
 */
import * as Comlink from 'comlink';
import { createApiClient, type SessionStore, transportOf } from '../src/api/client';
import { localDatabase } from '../src/db/database';
import { rxLocalStore } from '../src/db/local-store';
import { COLLECTION_NAMES, withLinkKeys } from '../src/db/schemas';
import { SyncEngine } from '../sync/engine';
import { Outbox } from '../sync/outbox';
import type { SyncStatus } from '../sync/types';

export interface SyncWorkerConfig {
  baseURL: string;
  /** Names this device's pull checkpoints: one set per server and company. */
  replicationIdentifier: string;
}

let engine: SyncEngine | null = null;

const api = {
  /** Starts (or resumes, after a reload or a crash) the engine; status changes go to `onStatus`. */
  async start(config: SyncWorkerConfig, session: SessionStore, onStatus: (status: SyncStatus) => void, onSignedOut: () => void): Promise<void> {
    if (engine) return;
    const client = createApiClient({ baseURL: config.baseURL, session, onSignedOut });
    const database = await localDatabase();
    engine = new SyncEngine({
      outbox: new Outbox(),
      store: rxLocalStore(database),
      transport: transportOf(client),
      replicationIdentifier: config.replicationIdentifier,
      pullTargets: COLLECTION_NAMES.map((name) => ({ name, collection: database.collections[name], toLocal: (document) => withLinkKeys(name, document) })),
      withReplayLock: (task) => navigator.locks.request('growroom-outbox-replay', task),
      isOnline: () => navigator.onLine,
      currentUserId: async () => (await session.get())?.user_id ?? null,
    });
    engine.subscribe((status) => onStatus(status));
    await engine.start();
  },
  async changed(): Promise<void> {
    await engine?.changed();
  },
  async syncNow(): Promise<void> {
    await engine?.syncNow();
  },
  async retry(id: string): Promise<void> {
    await engine?.retry(id);
  },
  async discard(id: string): Promise<number> {
    return (await engine?.discard(id)) ?? 0;
  },
  async stop(): Promise<void> {
    await engine?.stop();
    engine = null;
  },
};

export type SyncWorkerApi = typeof api;

Comlink.expose(api);
