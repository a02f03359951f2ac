import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionClientMessages as cm, sessionMessages as m } from '../../../common/messages/session';
import { createApiClient, type Session } from '../../../src/api/client';
import type { ApiContext } from '../../../src/api/context';
import { createNewUser, login, logout, requestPasswordReset, resetPassword } from '../../../src/api/session';
import { COOKIE_KEYS, documentCookies, localSessionStore, REFRESH_TOKEN_LIFETIME_MS, refreshTokenExpired, SESSION_KEYS } from '../../../src/api/session-store';
import { createInvitation, loadUsers } from '../../../src/api/users';
import { startTablet, type Tablet } from '../../support/client';
import { createUser } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ restoreMocks: true });
/** One tablet for the whole file, never started, straight to the server (not through the proxy). */
let tablet: Tablet;

beforeAll(async () => {
  tablet = await startTablet(`${fleet.server.url}/api`, fleet.farm.admin, { start: false });
});
afterAll(async () => {
  await tablet.close();
});

/** The tablet's context with a client over a page session store kept in `storage` (through `via`, the server or the proxy). */
function pageContext(storage = new Map<string, string>(), via = fleet.server.url) {
  const session = localSessionStore(storage);
  const client = createApiClient({ baseURL: `${via}/api`, session });
  const context: ApiContext = { ...tablet.context, client };
  return { storage, session, client, context };
}

const FIVE_ITEMS = [SESSION_KEYS.accessToken, SESSION_KEYS.userRole, SESSION_KEYS.userId, SESSION_KEYS.refreshToken, SESSION_KEYS.companyId];
const sample: Session = { access_token: 'access', refresh_token: 'refresh-1', user_id: 7, user_role: 'Admin', company_id: 3 };

describe('localSessionStore', () => {
  it('keeps the five items and the isLoggedIn flag, and clear removes them all', async () => {
    const storage = new Map<string, string>();
    const store = localSessionStore(storage);
    expect(await store.get()).toBeNull();
    expect(store.isLoggedIn()).toBe(false);

    await store.set(sample);
    expect(Object.fromEntries(FIVE_ITEMS.map((key) => [key, storage.get(key)]))).toEqual({ accessToken: 'access', userRole: 'Admin', userID: '7', refreshToken: 'refresh-1', companyID: '3' });
    expect(storage.get(SESSION_KEYS.isLoggedIn)).toBe('true');
    expect(store.isLoggedIn()).toBe(true);
    expect(await store.get()).toEqual(sample);

    await store.clear();
    expect([...storage.keys()]).toEqual([]);
    expect(store.isLoggedIn()).toBe(false);
    expect(await store.get()).toBeNull();
  });

  it('works over a Storage-like object; by default it uses localStorage and document.cookie', async () => {
    const items = new Map<string, string>();
    const storageLike = { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key) };
    await localSessionStore(storageLike).set(sample);
    expect(items.get(SESSION_KEYS.accessToken)).toBe('access');

    expect(() => localSessionStore()).toThrow(cm.noStorage);
    const page = cookieDocument();
    vi.stubGlobal('localStorage', storageLike);
    vi.stubGlobal('document', page);
    try {
      // A session kept before the cookies (all of it in local storage) is still this tablet's, and moves into the cookies.
      expect(await localSessionStore().get()).toEqual(sample);
      expect(page.jar.get(SESSION_KEYS.refreshToken)).toBe('refresh-1');
      expect([...items.keys()].sort()).toEqual([SESSION_KEYS.accessToken, SESSION_KEYS.isLoggedIn, SESSION_KEYS.refreshTokenExpiresAt].sort());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('notes when the refresh token expires; a rotated token gets a new expiry, the same one keeps it', async () => {
    let clock = 1_000_000;
    const store = localSessionStore(new Map(), { now: () => clock });
    expect(refreshTokenExpired(store, clock)).toBe(false);
    await store.set(sample);
    const expiresAt = 1_000_000 + REFRESH_TOKEN_LIFETIME_MS;
    expect(store.refreshTokenExpiresAt()).toBe(expiresAt);
    expect(refreshTokenExpired(store, expiresAt - 1)).toBe(false);
    expect(refreshTokenExpired(store, expiresAt)).toBe(true);

    clock += 5_000;
    await store.set({ ...sample, access_token: 'access-2' });
    expect(store.refreshTokenExpiresAt()).toBe(expiresAt);
    await store.set({ ...sample, refresh_token: 'refresh-2' });
    expect(store.refreshTokenExpiresAt()).toBe(expiresAt + 5_000);

    await store.clear();
    expect(store.refreshTokenExpiresAt()).toBeNull();
  });
});

/**
 * A stand-in for the page's `document.cookie`: it keeps what a browser would (name=value, gone at
 * max-age=0) and every string written, to check the attributes. `refuseSecure` is a page served over
 * plain http from a LAN address, where the browser drops Secure cookies.
 */
function cookieDocument(options: { refuseSecure?: boolean } = {}) {
  const jar = new Map<string, string>();
  const written: string[] = [];
  return {
    jar,
    written,
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(text: string) {
      written.push(text);
      if (options.refuseSecure && /;\s*secure/i.test(text)) return;
      const [pair = '', ...attributes] = text.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (attributes.some((attribute) => attribute.toLowerCase() === 'max-age=0')) jar.delete(name);
      else jar.set(name, pair.slice(at + 1));
    },
  };
}

describe('localSessionStore in the page (spec part 1 §3: cookies for four items)', () => {
  const split = (page = cookieDocument(), now = () => 1_000_000) => {
    const storage = new Map<string, string>();
    return { storage, page, store: localSessionStore(storage, { now, cookies: documentCookies(page) }) };
  };

  it('keeps the access token, the flag and the expiry in local storage, and userRole, userID, refreshToken, companyID in Secure SameSite=Strict cookies', async () => {
    const { storage, page, store } = split();
    await store.set({ ...sample, refresh_token: 'a token; with=odd chars' });
    expect(Object.fromEntries(storage)).toEqual({ accessToken: 'access', isLoggedIn: 'true', refreshTokenExpiresAt: String(1_000_000 + REFRESH_TOKEN_LIFETIME_MS) });
    expect(COOKIE_KEYS).toEqual(['userRole', 'userID', 'refreshToken', 'companyID']);
    expect(Object.fromEntries(COOKIE_KEYS.map((key) => [key, documentCookies(page).get(key)]))).toEqual({ userRole: 'Admin', userID: '7', refreshToken: 'a token; with=odd chars', companyID: '3' });
    const maxAge = REFRESH_TOKEN_LIFETIME_MS / 1000;
    for (const key of COOKIE_KEYS) {
      expect(page.written).toContainEqual(expect.stringMatching(new RegExp(`^${key}=[^;]*; max-age=${maxAge}; path=/; secure; samesite=strict$`)));
    }
    expect(await store.get()).toEqual({ ...sample, refresh_token: 'a token; with=odd chars' });
    expect(store.role()).toBe('Admin');
    expect(store.isLoggedIn()).toBe(true);

    await store.clear();
    expect(storage.size).toBe(0);
    expect(page.jar.size).toBe(0);
    expect(store.isLoggedIn()).toBe(false);
    expect(await store.get()).toBeNull();
  });

  it('gives the cookies the refresh token’s remaining lifetime, renewed when it rotates', async () => {
    let clock = 1_000_000;
    const { page, store } = split(cookieDocument(), () => clock);
    await store.set(sample);
    clock += 10_000;
    page.written.length = 0;
    await store.set({ ...sample, access_token: 'access-2' });
    expect(page.written.find((text) => text.startsWith('refreshToken='))).toContain(`max-age=${REFRESH_TOKEN_LIFETIME_MS / 1000 - 10}`);
    page.written.length = 0;
    await store.set({ ...sample, refresh_token: 'refresh-2' });
    expect(page.written.find((text) => text.startsWith('refreshToken='))).toContain(`max-age=${REFRESH_TOKEN_LIFETIME_MS / 1000}`);
  });

  it('keeps the items in local storage when the browser refuses Secure cookies (plain http on a LAN address)', async () => {
    const { storage, page, store } = split(cookieDocument({ refuseSecure: true }));
    await store.set(sample);
    expect(page.jar.size).toBe(0);
    expect(await store.get()).toEqual(sample);
    expect(storage.get(SESSION_KEYS.refreshToken)).toBe('refresh-1');
    await store.clear();
    expect(storage.size).toBe(0);
  });
});

describe('login', () => {
  it('stores the session from the server and sets isLoggedIn; the tokens work', async () => {
    const { storage, session, context } = pageContext();
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const signedIn = await login(context, { email: user.email.toUpperCase(), password: user.password });
    expect(signedIn).toMatchObject({ user_id: user.id, user_role: 'Regular', company_id: fleet.farm.companyId });
    expect(storage.get(SESSION_KEYS.accessToken)).toBe(signedIn.access_token);
    expect(storage.get(SESSION_KEYS.refreshToken)).toBe(signedIn.refresh_token);
    expect(storage.get(SESSION_KEYS.userId)).toBe(String(user.id));
    expect(session.isLoggedIn()).toBe(true);
    expect(refreshTokenExpired(session)).toBe(false);
    const users = await loadUsers(context, { companyId: fleet.farm.companyId, userId: user.id });
    expect(users.map((item) => item.email)).toEqual([user.email]);
  });

  it("fails with the server's 'Invalid email or password.' and stores nothing", async () => {
    const { storage, context } = pageContext();
    await expect(login(context, { email: fleet.farm.regular.email, password: 'not-the-password' })).rejects.toThrow(m.invalidCredentials);
    expect(storage.size).toBe(0);
  });

  it('checks the form with the server’s rules before any request', async () => {
    const { context } = pageContext();
    await expect(login(context, { email: ' ', password: 'x' })).rejects.toThrow(m.emailRequired);
    await expect(login(context, { email: 'not-an-address', password: 'x' })).rejects.toThrow(m.emailInvalid);
    await expect(login(context, { email: fleet.farm.regular.email, password: '' })).rejects.toThrow(m.passwordRequired);
  });

  it("fails with 'Failed to sign in.' when the server cannot be reached", async () => {
    const { storage, context } = pageContext(new Map(), fleet.proxy.url);
    fleet.proxy.setOnline(false);
    await expect(login(context, { email: fleet.farm.regular.email, password: fleet.farm.regular.password })).rejects.toThrow(cm.loginFailed);
    expect(storage.size).toBe(0);
  });
});

describe('logout', () => {
  it('ends the refresh token on the server and clears all five items and the flag', async () => {
    const { storage, session, context } = pageContext();
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const signedIn = await login(context, { email: user.email, password: user.password });
    await logout(context);
    expect(storage.size).toBe(0);
    expect(session.isLoggedIn()).toBe(false);
    const refreshed = await fleet.server.request('POST', '/refresh_token', { token: signedIn.refresh_token });
    expect(refreshed.status).toBe(401);
  });

  it('clears everything even when the server cannot be reached, and only warns', async () => {
    const { storage, context } = pageContext(new Map(), fleet.proxy.url);
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    await login(context, { email: user.email, password: user.password });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fleet.proxy.setOnline(false);
    await logout(context);
    expect(storage.size).toBe(0);
    expect(warn).toHaveBeenCalledWith(cm.logoutFailed, expect.anything());
  });

  it('a refresh token the server no longer accepts ends the session on the next refresh (expired for the client)', async () => {
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const { session, context } = pageContext();
    await session.set({ access_token: 'no-longer-valid', refresh_token: user.refreshToken, user_id: user.id, user_role: 'Regular', company_id: fleet.farm.companyId });
    await fleet.server.request('POST', '/logout', { token: user.refreshToken });
    await expect(loadUsers({ ...context, store: tablet.context.store }, { companyId: fleet.farm.companyId })).rejects.toThrow();
    expect(session.isLoggedIn()).toBe(false);
    expect(await session.get()).toBeNull();
  });
});

describe('createNewUser', () => {
  it('signs up with an invitation; the new user can then sign in', async () => {
    const email = `new-${Date.now()}@example.test`;
    const { invite_token } = await createInvitation(tablet.context, { email, role: 'Regular' });
    const { context } = pageContext();
    const answer = await createNewUser(context, { firstName: 'Nia', lastName: 'Grower', email, password: 'long-enough', inviteToken: invite_token });
    expect(answer).toMatchObject({ status: 'success', message: m.userCreated, company_id: fleet.farm.companyId, user_role: 'Regular' });
    const rows = await fleet.server.database.db.selectFrom('users').select(['id', 'first_name']).where('email', '=', email).execute();
    expect(rows).toEqual([{ id: answer.user_id, first_name: 'Nia' }]);
    expect((await login(context, { email, password: 'long-enough' })).user_id).toBe(answer.user_id);
  });

  it("fails with the spec's field messages before any request, and with the server's for a bad invitation", async () => {
    const { context } = pageContext();
    const input = { firstName: 'A', lastName: 'B', email: 'someone@example.test', password: 'long-enough', inviteToken: 'unknown-token' };
    await expect(createNewUser(context, { ...input, firstName: ' ' })).rejects.toThrow(m.firstNameRequired);
    await expect(createNewUser(context, { ...input, password: 'short' })).rejects.toThrow(m.passwordTooShort);
    await expect(createNewUser(context, { ...input, inviteToken: '' })).rejects.toThrow(m.inviteTokenRequired);
    await expect(createNewUser(context, input)).rejects.toThrow(m.inviteInvalid);
  });
});

describe('requestPasswordReset and resetPassword', () => {
  it('mails a link whose token sets a new password', async () => {
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const { context } = pageContext();
    expect(await requestPasswordReset(context, { email: user.email })).toEqual({ status: 'success', message: m.resetRequested });
    const token = decodeURIComponent(/NewPassword\?token=([A-Za-z0-9_%-]+)/.exec((await fleet.server.mailTo(user.email)).text)?.[1] ?? '');
    expect(await resetPassword(context, { token, newPassword: 'a-new-password' })).toEqual({ status: 'success', message: m.passwordUpdated });
    expect((await login(context, { email: user.email, password: 'a-new-password' })).user_id).toBe(user.id);
  });

  it('checks the email, token and new password, and keeps the server’s message for a bad token', async () => {
    const { context } = pageContext();
    await expect(requestPasswordReset(context, { email: '' })).rejects.toThrow(m.emailRequired);
    await expect(resetPassword(context, { token: '', newPassword: 'a-new-password' })).rejects.toThrow(m.resetTokenRequired);
    await expect(resetPassword(context, { token: 'whatever', newPassword: 'short' })).rejects.toThrow(m.passwordTooShort);
    await expect(resetPassword(context, { token: 'not-a-reset-token', newPassword: 'a-new-password' })).rejects.toThrow(m.resetTokenInvalid);
  });

  it("fails with 'Failed to request a password reset.' when the server cannot be reached", async () => {
    const { context } = pageContext(new Map(), fleet.proxy.url);
    fleet.proxy.setOnline(false);
    await expect(requestPasswordReset(context, { email: fleet.farm.regular.email })).rejects.toThrow(cm.resetRequestFailed);
  });
});
