/**
 * A tablet for sync tests: the real API client, outbox (Dexie on fake-indexeddb), local store (RxDB
 * on its memory storage), kiosk sessions and sync engine, talking to the real server through a network
 * proxy. The engine runs in-process and is the context's recorder, as the sync worker is in the page.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { type ApiClient, clientsOf, type Session, type SessionStore, transportOf } from '../../src/api/client';
import type { ApiContext } from '../../src/api/context';
import { type KioskStore, kioskStore, kioskVault, leaveKiosk, parkSignedIn, setPin, signedInWithPassword, switchByPin } from '../../src/api/kiosk';
import { type GrowDatabase, openGrowDatabase } from '../../src/db/database';
import { rxLocalReader, rxLocalStore } from '../../src/db/local-store';
import { type CollectionName, COLLECTION_NAMES, withLinkKeys } from '../../src/db/schemas';
import { SyncEngine } from '../../sync/engine';
import { Outbox } from '../../sync/outbox';
import type { SignedInUser } from './factories';

export interface Tablet {
  client: ApiClient;
  /** The signed-in user's session (the page's session store). */
  session: SessionStore & { current: Session | null };
  kiosk: KioskStore;
  database: GrowDatabase;
  outbox: Outbox;
  engine: SyncEngine;
  context: ApiContext;
  /** Sessions that ended (their refresh refused), by user. */
  signedOut: number;
  /** Sets the signed-in user's kiosk PIN (the PIN is `pinOf(user)`). */
  setPin(): Promise<void>;
  /** Another user signs in with their password on this tablet; the one at the screen is parked (PIN set first). */
  signInAlso(user: SignedInUser): Promise<void>;
  /** The screen switches to a parked user by their PIN. */
  switchTo(user: SignedInUser): Promise<void>;
  /** The signed-in user signs out fully (their session ends on the server; their changes stay queued). */
  signOut(): Promise<void>;
  close(): Promise<void>;
}

/** The kiosk PIN test users use: derived from the user's id, so tests need not keep it. */
export const pinOf = (user: { id: number }) => String(1000 + (user.id % 9000));

export const sessionFromUser = (user: SignedInUser): Session => ({ access_token: user.token, refresh_token: user.refreshToken, user_id: user.id, user_role: user.role, company_id: user.companyId });

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
    /** The outbox's database (default: a new one), e.g. one a test wrote as an earlier version would. */
    outboxName?: string;
  } = {},
): Promise<Tablet> {
  const session = memorySession(sessionFromUser(user));
  const kiosk = kioskStore(new Map());
  const vault = kioskVault(session, kiosk);
  const tablet = { signedOut: 0 } as Tablet;
  const clientFor = clientsOf({ baseURL: apiUrl, vault, onSignedOut: () => (tablet.signedOut += 1) });
  const client = clientFor(null);
  const database = await openGrowDatabase({ storage: getRxStorageMemory(), name: `tablet${randomUUID().replaceAll('-', '')}`, multiInstance: false, collections: options.collections });
  const store = rxLocalStore(database);
  const outbox = new Outbox(options.outboxName ?? `outbox-${randomUUID()}`);
  const engine = new SyncEngine({
    outbox,
    store,
    transport: transportOf(clientFor),
    replicationIdentifier: `test-${user.companyId}`,
    withReplayLock: options.withReplayLock,
    pullRetryMs: 500,
    currentUserId: async () => session.current?.user_id ?? null,
    pullTargets: (options.collections ?? COLLECTION_NAMES).map((name) => ({ name, collection: database.collections[name], toLocal: (document) => withLinkKeys(name, document) })),
  });
  const context: ApiContext = { client, recorder: engine, store: rxLocalReader(database), database };
  Object.assign(tablet, {
    client,
    session,
    kiosk,
    database,
    outbox,
    engine,
    context,
    async setPin() {
      const current = session.current;
      if (current) await setPin(kiosk, session, { pin: pinOf({ id: current.user_id }), name: `User ${current.user_id}` });
    },
    async signInAlso(other: SignedInUser) {
      if (session.current) {
        await tablet.setPin();
        await parkSignedIn(kiosk, session);
      }
      await session.set(sessionFromUser(other));
      signedInWithPassword(kiosk, other.id);
      await tablet.setPin();
      await engine.sessionsChanged();
    },
    async switchTo(other: SignedInUser) {
      await switchByPin(kiosk, session, { userId: other.id, pin: pinOf(other) });
      await engine.sessionsChanged();
    },
    async signOut() {
      const current = session.current;
      if (!current) return;
      await client.http.post('/logout', null, { headers: { Authorization: `Bearer ${current.refresh_token}` }, skipRefresh: true, validateStatus: () => true });
      leaveKiosk(kiosk, current.user_id);
      await session.clear();
      await engine.sessionsChanged();
    },
    async close() {
      await engine.stop();
      await database.close();
      await outbox.delete();
    },
  });
  if (options.start !== false) await engine.start();
  return tablet;
}
