/**
 * A tablet for sync tests: the real API client, outbox (Dexie on fake-indexeddb), local store (RxDB
 * on its memory storage) and sync engine, talking to the real server through a network proxy.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { type ApiClient, createApiClient, type Session, type SessionStore, transportOf } from '../../src/api/client';
import type { ApiContext } from '../../src/api/context';
import { type GrowDatabase, openGrowDatabase } from '../../src/db/database';
import { rxLocalStore } from '../../src/db/local-store';
import { type CollectionName, COLLECTION_NAMES, withLinkKeys } from '../../src/db/schemas';
import { SyncEngine } from '../../sync/engine';
import { Outbox } from '../../sync/outbox';
import type { SignedInUser } from './factories';

export interface Tablet {
  client: ApiClient;
  session: SessionStore & { current: Session | null };
  database: GrowDatabase;
  outbox: Outbox;
  engine: SyncEngine;
  context: ApiContext;
  signedOut: number;
  close(): Promise<void>;
}

export function memorySession(initial: Session | null): SessionStore & { current: Session | null } {
  const store = {
    current: initial,
    async get() {
      return store.current;
    },
    async set(session: Session) {
      store.current = session;
    },
    async clear() {
      store.current = null;
    },
  };
  return store;
}

export async function startTablet(
  apiUrl: string,
  user: SignedInUser,
  options: {
    start?: boolean;
    withReplayLock?: (task: () => Promise<void>) => Promise<void>;
    /** Only these local collections (for tests with two tablets open at once: RxDB's per-process limit). */
    collections?: readonly CollectionName[];
  } = {},
): Promise<Tablet> {
  const session = memorySession({ access_token: user.token, refresh_token: user.refreshToken, user_id: user.id, user_role: user.role, company_id: user.companyId });
  const tablet = { signedOut: 0 } as Tablet;
  const client = createApiClient({ baseURL: apiUrl, session, onSignedOut: () => (tablet.signedOut += 1) });
  const database = await openGrowDatabase({ storage: getRxStorageMemory(), name: `tablet${randomUUID().replaceAll('-', '')}`, multiInstance: false, collections: options.collections });
  const store = rxLocalStore(database);
  const outbox = new Outbox(`outbox-${randomUUID()}`);
  const engine = new SyncEngine({
    outbox,
    store,
    transport: transportOf(client),
    replicationIdentifier: `test-${user.companyId}`,
    withReplayLock: options.withReplayLock,
    pullRetryMs: 500,
    currentUserId: async () => session.current?.user_id ?? null,
    pullTargets: (options.collections ?? COLLECTION_NAMES).map((name) => ({ name, collection: database.collections[name], toLocal: (document) => withLinkKeys(name, document) })),
  });
  const context: ApiContext = { client, outbox, store, database, notify: () => void engine.changed() };
  Object.assign(tablet, {
    client,
    session,
    database,
    outbox,
    engine,
    context,
    async close() {
      await engine.stop();
      await database.close();
      await outbox.delete();
    },
  });
  if (options.start !== false) await engine.start();
  return tablet;
}
