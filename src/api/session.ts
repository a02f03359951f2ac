/**
 * The session of spec part 1 §3, §4, §5 and §7: where the page keeps it, and the calls that open it
 * (login, sign-up), end it (logout) and recover a password. All of them need the server's answer now,
 * so none is queued in the outbox; the token refresh itself lives in the client (client.ts).
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
import type { z } from 'zod';
import type { doneAnswer } from '../../common/schemas/answers';
import { type createNewUserAnswer, loginBody, passwordResetRequestBody, resetPasswordBody, resetPasswordQuery, signUpBody } from '../../common/schemas/session';
import type { Session, SessionStore } from './client';
import { type ApiContext, ApiError, check, online, formData } from './context';

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


type Online = Pick<ApiContext, 'client'>;

/**
 * POST /login (spec part 1 §4, §7): multipart email and password, online. The answer must carry both
 * tokens (else 'Invalid API response format.'); the session is stored (and isLoggedIn set) at once.
 * A wrong password fails with the server's 'Invalid email or password.'.
 */
export async function login(context: Online, input: { email: string; password: string }): Promise<Session> {
  const values = check(loginBody, { email: input.email, password: input.password });
  // A 401 here is a wrong password, not an expired token: no refresh.
  const answer = await online<Partial<Session> | null>(context, { method: 'POST', path: '/login', body: formData(values), skipRefresh: true }, cm.loginFailed);
  const { access_token, refresh_token, user_id, user_role, company_id } = answer ?? {};
  if (typeof access_token !== 'string' || !access_token || typeof refresh_token !== 'string' || !refresh_token || typeof user_id !== 'number' || typeof company_id !== 'number' || !isRole(user_role)) {
    throw new ApiError(cm.invalidResponse);
  }
  const session: Session = { access_token, refresh_token, user_id, user_role, company_id };
  await context.client.session.set(session);
  return session;
}

/**
 * POST /logout with the refresh token as the bearer credential (it ends that sign-in's refresh tokens
 * on the server), then clears all five items and the isLoggedIn flag (spec part 1 §4). The device's
 * session ends even when the server cannot be reached: that failure is only warned about.
 *
 * WARNING: the outbox is not touched. Entries still waiting are sent after the next sign-in, with that
 * user's token; the screen that offers logout should show the pending count first.
 */
export async function logout(context: Online): Promise<void> {
  try {
    const current = await context.client.session.get();
    if (current) await endSession(context, current);
  } finally {
    await context.client.session.clear();
  }
}

/**
 * POST /logout for `ended`, a session this tablet no longer holds (a kiosk user replaced by another's
 * password sign-in): its refresh tokens end on the server. An unreachable server is only warned about.
 */
export async function endSession(context: Online, ended: Session): Promise<void> {
  try {
    if (ended.refresh_token) {
      await online(context, { method: 'POST', path: '/logout', headers: { Authorization: `Bearer ${ended.refresh_token}` }, skipRefresh: true }, cm.logoutFailed);
    }
  } catch (error) {
    console.warn(cm.logoutFailed, error);
  }
}

/**
 * POST /Create_new_user (spec part 1 §3, §7): sign-up by invitation, multipart first_name, last_name,
 * email, password, invite_token. Returns the answer body (`user_id`, `company_id`, `user_role`,
 * `message`); the new user then signs in.
 */
export async function createNewUser(context: Online, input: { firstName: string; lastName: string; email: string; password: string; inviteToken: string }) {
  const values = check(signUpBody, { first_name: input.firstName, last_name: input.lastName, email: input.email, password: input.password, invite_token: input.inviteToken });
  return online<z.infer<typeof createNewUserAnswer>>(
    context,
    { method: 'POST', path: '/Create_new_user', body: formData(values) },
    cm.signUpFailed,
  );
}

/** POST /request_password_reset (spec part 1 §7): multipart email. The answer is the same whether or not the address has an account. */
export async function requestPasswordReset(context: Online, input: { email: string }) {
  const values = check(passwordResetRequestBody, { email: input.email });
  return online<z.infer<typeof doneAnswer>>(context, { method: 'POST', path: '/request_password_reset', body: formData(values) }, cm.resetRequestFailed);
}

/** POST /reset_password (spec part 1 §7): the token from the /NewPassword link as query `token`, multipart new_password. */
export async function resetPassword(context: Online, input: { token: string; newPassword: string }) {
  const { token } = check(resetPasswordQuery, { token: input.token });
  const { new_password } = check(resetPasswordBody, { new_password: input.newPassword });
  return online<z.infer<typeof doneAnswer>>(
    context,
    { method: 'POST', path: '/reset_password', query: { token }, body: formData({ new_password }) },
    cm.resetFailed,
  );
}
