/**
 * Where the page keeps the session of spec part 1 §3, §4, §9 (the calls that open and end it are in
 * session.ts). Kept apart from them so the first page carries no validation code (issue 13).
 *
 * Where it is kept (spec part 1 §3, §9): the access token in local storage; userRole, userID,
 * refreshToken and companyID in cookies with the Secure and SameSite=Strict flags (path=/, max-age
 * the refresh token's remaining lifetime, renewed whenever it rotates); the isLoggedIn flag and the
 * refresh token's noted expiry in local storage. The API takes bearer tokens only and never reads a
 * cookie; the sync worker reads the session through the page (comlink).
 *
 * Where the spec is silent:
 * - A browser that refuses the cookies (a page served over plain http from a LAN address, where
 *   Secure cookies are dropped; Chromium accepts them on http://localhost and 127.0.0.1) keeps those
 *   items in local storage instead, so signing in still works there; each write checks the cookie took.
 * - A tablet signed in before the cookies (all items in local storage) moves them into cookies the
 *   first time it reads them, instead of being signed out.
 */
import { sessionClientMessages as cm } from '../../common/messages/session';
import { type Role, isRole } from '../../common/roles';
import type { Session, SessionStore } from './client';

/** The local storage keys: the spec's five items, its isLoggedIn flag, and when the refresh token expires. */
export const SESSION_KEYS = {
  accessToken: 'accessToken',
  userRole: 'userRole',
  userId: 'userID',
  refreshToken: 'refreshToken',
  companyId: 'companyID',
  isLoggedIn: 'isLoggedIn',
  refreshTokenExpiresAt: 'refreshTokenExpiresAt',
} as const;

/**
 * How long a refresh token lasts from its last use (README "Sessions": 30 days, renewed on every
 * refresh). The server's REFRESH_TOKEN_DAYS (server/domains/auth/tokens.ts) says the same; the browser
 * may not import it, so it is repeated here.
 */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 86_400_000;

/** What the session store needs of `localStorage`; a `Map` does too (tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The items spec part 1 §3 keeps in cookies; the others stay in local storage. */
export const COOKIE_KEYS: readonly string[] = [SESSION_KEYS.userRole, SESSION_KEYS.userId, SESSION_KEYS.refreshToken, SESSION_KEYS.companyId];

/** Cookies by name: `document.cookie` in the page (documentCookies); tests pass their own. */
export interface CookieJar {
  get(name: string): string | null;
  /** Sets a cookie for `maxAgeSeconds`; a browser may refuse it (see the file's header). */
  set(name: string, value: string, maxAgeSeconds: number): void;
  remove(name: string): void;
}

/**
 * The page's cookies: path=/, Secure, SameSite=Strict, values URI-encoded. `document` is a parameter
 * so tests can pass a stand-in.
 */
export function documentCookies(document: Pick<Document, 'cookie'> | undefined = (globalThis as { document?: Document }).document): CookieJar {
  if (!document) throw new Error(cm.noStorage);
  const attributes = 'path=/; secure; samesite=strict';
  return {
    get(name) {
      for (const pair of document.cookie.split(';')) {
        const at = pair.indexOf('=');
        if (at > 0 && pair.slice(0, at).trim() === name) {
          try {
            return decodeURIComponent(pair.slice(at + 1).trim());
          } catch {
            return null;
          }
        }
      }
      return null;
    },
    set(name, value, maxAgeSeconds) {
      document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${Math.max(1, Math.round(maxAgeSeconds))}; ${attributes}`;
    },
    remove(name) {
      document.cookie = `${name}=; max-age=0; ${attributes}`;
    },
  };
}

function storageArea(storage: KeyValueStorage | Map<string, string> | undefined): KeyValueStorage {
  if (storage instanceof Map) {
    return {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    };
  }
  // `localStorage` is missing outside the browser (Node), and throws in some private modes.
  const area = storage ?? (globalThis as { localStorage?: Storage }).localStorage;
  if (!area) throw new Error(cm.noStorage);
  return area;
}

export interface PageSessionStore extends SessionStore {
  /** The spec's local isLoggedIn flag: set by a sign-in, removed by logout (spec part 1 §2, §4). */
  isLoggedIn(): boolean;
  /** When the refresh token expires (ms since the epoch), or null when not known. */
  refreshTokenExpiresAt(): number | null;
  /** The signed-in user's role, read at once (routes decide where to go before anything loads). */
  role(): Role | null;
}

/**
 * The page's session store. Without `storage` (the page) it keeps the access token, the flag and the
 * expiry in `localStorage` and the four cookie items in `document.cookie` (see the file's header).
 * With `storage` (a `Map` or a Storage-like object: tests, tools) it keeps everything there, unless
 * `options.cookies` is given too. `set` marks the user logged in and, whenever the refresh token
 * changes (a sign-in, or a refresh rotating it), notes its expiry and renews the cookies' lifetime;
 * `clear` removes all five items, the flag and the expiry (spec part 1 §4, logout).
 */
export function localSessionStore(storage?: KeyValueStorage | Map<string, string>, options: { now?: () => number; cookies?: CookieJar } = {}): PageSessionStore {
  const area = storageArea(storage);
  const cookies = options.cookies ?? (storage === undefined ? documentCookies() : null);
  const now = options.now ?? Date.now;
  const K = SESSION_KEYS;

  const expiresAt = () => {
    const at = Number(area.getItem(K.refreshTokenExpiresAt) ?? Number.NaN);
    return Number.isFinite(at) && at > 0 ? at : null;
  };
  const cookieLifetimeSeconds = () => ((expiresAt() ?? now() + REFRESH_TOKEN_LIFETIME_MS) - now()) / 1000;

  /** Writes an item where it belongs: a cookie item in its cookie, or in `area` when the browser refuses the cookie. */
  function write(key: string, value: string) {
    if (cookies && COOKIE_KEYS.includes(key)) {
      cookies.set(key, value, cookieLifetimeSeconds());
      if (cookies.get(key) === value) return void area.removeItem(key);
    }
    area.setItem(key, value);
  }
  /** Reads an item; a cookie item found only in `area` (stored before the cookies, or refused) is moved to its cookie when possible. */
  function read(key: string): string | null {
    if (!cookies || !COOKIE_KEYS.includes(key)) return area.getItem(key);
    const value = cookies.get(key);
    if (value !== null) return value;
    const kept = area.getItem(key);
    if (kept !== null) write(key, kept);
    return kept;
  }

  return {
    async get() {
      const access_token = read(K.accessToken);
      const refresh_token = read(K.refreshToken);
      const user_role = read(K.userRole);
      const user_id = Number(read(K.userId));
      const company_id = Number(read(K.companyId));
      if (!access_token || !refresh_token || !isRole(user_role) || !(user_id > 0) || !(company_id > 0)) return null;
      return { access_token, refresh_token, user_id, user_role, company_id };
    },
    async set(session: Session) {
      // The expiry first: the cookies' max-age follows it.
      if (read(K.refreshToken) !== session.refresh_token || expiresAt() === null) {
        area.setItem(K.refreshTokenExpiresAt, String(now() + REFRESH_TOKEN_LIFETIME_MS));
      }
      write(K.accessToken, session.access_token);
      write(K.userRole, session.user_role);
      write(K.userId, String(session.user_id));
      write(K.refreshToken, session.refresh_token);
      write(K.companyId, String(session.company_id));
      write(K.isLoggedIn, 'true');
    },
    async clear() {
      for (const key of Object.values(K)) {
        area.removeItem(key);
        if (cookies && COOKIE_KEYS.includes(key)) cookies.remove(key);
      }
    },
    isLoggedIn: () => area.getItem(K.isLoggedIn) === 'true',
    role() {
      const role = read(K.userRole);
      return isRole(role) ? role : null;
    },
    refreshTokenExpiresAt: expiresAt,
  };
}

/**
 * Spec part 1 §5 "Session": the only check is whether the refresh token's expiry has passed. The
 * refresh token is opaque, so the browser knows its expiry in two ways: the store notes it (its last
 * issue plus REFRESH_TOKEN_LIFETIME_MS), which this checks without a request; and the server is the
 * authority: a 401 from /refresh_token ends the session in the client (client.ts), whatever the
 * local clock says. Unknown expiry counts as not expired (the server decides at the next refresh).
 * When this is true, the app calls `logout` and goes to /signIn (spec part 1 §4).
 */
export function refreshTokenExpired(store: Pick<PageSessionStore, 'refreshTokenExpiresAt'>, at: number = Date.now()): boolean {
  const expiresAt = store.refreshTokenExpiresAt();
  return expiresAt !== null && expiresAt <= at;
}
