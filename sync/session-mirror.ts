/**
 * A copy of the tablet's sessions where the service worker can read them (IndexedDB database
 * `growroom-sessions`): the page keeps its sessions in local storage and cookies (src/api/session-store.ts,
 * src/api/kiosk.ts), which a service worker cannot read, and writes this mirror whenever a session of
 * its vault is set or cleared. The page's storage stays the source of truth; the mirror is rewritten
 * whole from it each time, so it never holds a session the page has ended.
 *
 * It holds per user the access token, when it expires (the JWT's `exp`, read without verifying: the
 * server verifies), the role and the company: never the refresh token. The service worker must never
 * refresh (refresh tokens rotate: a refresh there would sign the page out), so it sends only while an
 * access token lasts (sync/background-replay.ts).
 *
 * Plain IndexedDB, no Dexie: the page writes it from its first screen (a sign-in), which carries no Dexie.
 */

import { decodeJwt } from 'jose';

export interface MirroredSession {
  userId: number;
  accessToken: string;
  /** When the access token expires (ms since the epoch); null when the token names no expiry. */
  expiresAt: number | null;
  role: string;
  companyId: number;
  /** The user at the screen (the others are a kiosk's parked users): entries of nobody in particular go with theirs. */
  signedIn: boolean;
}

/** What the page's stores hold of a session (src/api/client.ts `Session`). */
export interface SessionFields {
  access_token: string;
  user_id: number;
  user_role: string;
  company_id: number;
}

export const SESSION_MIRROR_DATABASE = 'growroom-sessions';
const STORE = 'sessions';

/** The `exp` of a JWT in ms, read without verifying it (jose's decodeJwt); null when it has none or is not a JWT. */
export function accessTokenExpiry(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

export function mirroredSession(session: SessionFields, signedIn: boolean): MirroredSession {
  return { userId: session.user_id, accessToken: session.access_token, expiresAt: accessTokenExpiry(session.access_token), role: session.user_role, companyId: session.company_id, signedIn };
}

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

const committed = (transaction: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });

export interface SessionMirror {
  /** Replaces the mirror by these sessions, in one transaction. */
  replaceAll(sessions: readonly MirroredSession[]): Promise<void>;
  all(): Promise<MirroredSession[]>;
}

export function sessionMirror(name = SESSION_MIRROR_DATABASE): SessionMirror {
  async function open(): Promise<IDBDatabase> {
    const request = globalThis.indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'userId' });
    return done(request);
  }
  // Opened for each use and closed after: a database held open by a page would block nothing here,
  // but a service worker is stopped at any moment and a short use is all either side makes of it.
  async function using<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>): Promise<T> {
    const database = await open();
    try {
      const transaction = database.transaction(STORE, mode);
      // Listened for before any request: the transaction may complete as soon as its last one answers.
      const commit = committed(transaction);
      commit.catch(() => undefined);
      const result = await work(transaction.objectStore(STORE));
      await commit;
      return result;
    } finally {
      database.close();
    }
  }
  return {
    replaceAll: (sessions) =>
      using('readwrite', async (store) => {
        store.clear();
        for (const session of sessions) store.put(session);
      }),
    all: () => using('readonly', (store) => done(store.getAll() as IDBRequest<MirroredSession[]>)),
  };
}

/** What the page hands the mirror: a session as its stores hold it, and whether it is the one at the screen. */
export interface PageSession {
  session: SessionFields;
  signedIn: boolean;
}

/** How the page writes the mirror (src/api/kiosk.ts `mirroringSessions`). */
export interface SessionMirrorWriter {
  /** Replaces the mirror by these sessions, each reduced to what the service worker may hold. */
  copy(sessions: readonly PageSession[]): Promise<void>;
}

export function sessionMirrorWriter(name = SESSION_MIRROR_DATABASE): SessionMirrorWriter {
  const mirror = sessionMirror(name);
  return { copy: (sessions) => mirror.replaceAll(sessions.map(({ session, signedIn }) => mirroredSession(session, signedIn))) };
}
