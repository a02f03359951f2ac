import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages as m } from '../../common/messages/session';
import { ACCESS_TOKEN_SECONDS, hashToken } from '../../server/domains/auth/tokens';
import { loadJwtSecret } from '../../server/secrets';
import { createTenant, createUser, signIn, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
});
afterAll(() => server.close());

interface Session {
  access_token: string;
  refresh_token: string;
  user_id: number;
  user_role: string;
  company_id: number;
}
interface Rotated {
  access_token: string;
  refresh_token: string;
}

const login = (form: Record<string, string>) => server.request<Session>('POST', '/login', { form });
const refresh = (refreshToken?: string) => server.request<Rotated>('POST', '/refresh_token', refreshToken === undefined ? {} : { token: refreshToken });
const loadUsers = (token?: string) => server.request('GET', '/load_users', { ...(token === undefined ? {} : { token }), query: { company_id: farm.companyId } });

/** The claims of a JWT, read from its middle part (base64url JSON), without checking the signature. */
function claimsOf(token: string): Record<string, unknown> {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  return JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Moves a stored refresh token's column back in time, as if it had happened `seconds` ago. */
async function backdate(refreshToken: string, column: 'replaced_at' | 'expires_at', seconds: number) {
  const result = await server.database.db
    .updateTable('refresh_tokens')
    .set({ [column]: new Date(Date.now() - seconds * 1000) })
    .where('token_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  expect(Number(result.numUpdatedRows)).toBe(1);
}

/** A fresh Regular user with a session of its own, so token families of one test do not touch another's. */
const freshUser = (): Promise<SignedInUser> => createUser(server, farm.companyId, 'Regular');

describe('POST /api/login', () => {
  it('answers both tokens and who the user is', async () => {
    const response = await login({ email: farm.admin.email, password: farm.admin.password });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', user_id: farm.admin.id, user_role: 'Admin', company_id: farm.companyId });
    expect(response.body.access_token).toEqual(expect.any(String));
    expect(response.body.refresh_token).toEqual(expect.any(String));
    expect(response.body.refresh_token).not.toBe(response.body.access_token);
  });

  it('accepts the email in any case', async () => {
    const response = await login({ email: farm.regular.email.toUpperCase(), password: farm.regular.password });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user_id: farm.regular.id, user_role: 'Regular' });
  });

  it('signs an access token whose claims say who is calling, valid for 15 minutes', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await login({ email: farm.regular.email, password: farm.regular.password });
    const after = Math.ceil(Date.now() / 1000);
    const claims = claimsOf(response.body.access_token);
    expect(claims).toMatchObject({ user_id: farm.regular.id, user_role: 'Regular', company_id: farm.companyId });
    expect(ACCESS_TOKEN_SECONDS).toBe(15 * 60);
    expect(claims.exp).toBeGreaterThanOrEqual(before + 15 * 60);
    expect(claims.exp).toBeLessThanOrEqual(after + 15 * 60);
  });

  it.each([
    ['a missing email', { password: 'whatever-password' }, m.emailRequired],
    ['a blank email', { email: '   ', password: 'whatever-password' }, m.emailRequired],
    ['an invalid email', { email: 'not-an-email', password: 'whatever-password' }, m.emailInvalid],
    ['a missing password', { email: 'someone@example.test' }, m.passwordRequired],
    ['an empty password', { email: 'someone@example.test', password: '' }, m.passwordRequired],
  ])('answers 400 for %s', async (_case, form, message) => {
    const response = await login(form);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it('answers the same 401 for a wrong password and for an unknown email', async () => {
    const wrongPassword = await login({ email: farm.admin.email, password: `${farm.admin.password}-wrong` });
    const unknownEmail = await login({ email: 'nobody-here@example.test', password: farm.admin.password });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ status: 'error', message: m.invalidCredentials });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('refuses a deleted user', async () => {
    const user = await freshUser();
    await server.database.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', user.id).execute();
    const response = await login({ email: user.email, password: user.password });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: m.invalidCredentials });
  });
});

describe('POST /api/refresh_token', () => {
  it('answers a new access token and a new refresh token, and the new access token works', async () => {
    const user = await freshUser();
    const response = await refresh(user.refreshToken);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success' });
    expect(response.body.refresh_token).toEqual(expect.any(String));
    expect(response.body.refresh_token).not.toBe(user.refreshToken);
    expect(claimsOf(response.body.access_token)).toMatchObject({ user_id: user.id, user_role: 'Regular', company_id: farm.companyId });

    const users = await loadUsers(response.body.access_token);
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ status: 'success' });
    expect((users.body as { users: Array<{ user_id: number }> }).users.map((row) => row.user_id)).toContain(user.id);

    // The rotated refresh token is itself good for the next refresh.
    const next = await refresh(response.body.refresh_token);
    expect(next.status).toBe(200);
  });

  it('takes the role and company from the database, not from the old token', async () => {
    const user = await freshUser();
    await server.database.db.updateTable('users').set({ role: 'Admin' }).where('id', '=', user.id).execute();
    const response = await refresh(user.refreshToken);
    expect(response.status).toBe(200);
    expect(claimsOf(response.body.access_token)).toMatchObject({ user_id: user.id, user_role: 'Admin' });
  });

  it('lets two refreshes of the same token at the same moment both succeed (two tabs)', async () => {
    const user = await freshUser();
    const [first, second] = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(second.body.refresh_token);
    // Both tabs go on with working sessions.
    expect((await loadUsers(first.body.access_token)).status).toBe(200);
    expect((await loadUsers(second.body.access_token)).status).toBe(200);
    expect((await refresh(first.body.refresh_token)).status).toBe(200);
    expect((await refresh(second.body.refresh_token)).status).toBe(200);
  });

  it('still accepts a just-replaced token within the grace window', async () => {
    const user = await freshUser();
    expect((await refresh(user.refreshToken)).status).toBe(200);
    const again = await refresh(user.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'success' });
  });

  it('treats a reuse after the grace window as theft and ends the whole family', async () => {
    const user = await freshUser();
    const rotated = await refresh(user.refreshToken);
    expect(rotated.status).toBe(200);
    const newest = await refresh(rotated.body.refresh_token);
    expect(newest.status).toBe(200);

    await backdate(user.refreshToken, 'replaced_at', 60);
    const reused = await refresh(user.refreshToken);
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ status: 'error', message: m.refreshTokenReused });

    // The revocation was kept (not rolled back with the 401): every token of the family is revoked.
    const family = await server.database.db.selectFrom('refresh_tokens').select(['revoked_at']).where('user_id', '=', user.id).execute();
    expect(family).toHaveLength(3);
    expect(family.every((row) => row.revoked_at !== null)).toBe(true);

    for (const token of [newest.body.refresh_token, rotated.body.refresh_token, user.refreshToken]) {
      const refused = await refresh(token);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });
    }
  });

  it('ends only the family of the reused token: the same user’s other sign-in stays', async () => {
    const user = await freshUser();
    const otherDevice = await signIn(server, user.email, user.password);
    expect((await refresh(user.refreshToken)).status).toBe(200);
    await backdate(user.refreshToken, 'replaced_at', 60);
    expect((await refresh(user.refreshToken)).body).toEqual({ status: 'error', message: m.refreshTokenReused });
    expect((await refresh(otherDevice.refresh_token)).status).toBe(200);
  });

  it('answers 401 for an expired refresh token', async () => {
    const user = await freshUser();
    await backdate(user.refreshToken, 'expires_at', 1);
    const response = await refresh(user.refreshToken);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: m.refreshTokenExpired });
  });

  it('answers 401 for a missing or unknown token, and for an access token in its place', async () => {
    const missing = await refresh();
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ status: 'error', message: m.refreshTokenMissing });

    const unknown = await refresh('this-token-was-never-issued');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });

    const accessToken = await refresh(farm.regular.token);
    expect(accessToken.status).toBe(401);
    expect(accessToken.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });
  });

  it('answers 401 once the user is deleted', async () => {
    const user = await freshUser();
    await server.database.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', user.id).execute();
    const response = await refresh(user.refreshToken);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });
  });
});

describe('POST /api/logout', () => {
  it('revokes the refresh token it is given, so a later refresh answers 401', async () => {
    const user = await freshUser();
    const response = await server.request('POST', '/logout', { token: user.refreshToken });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.loggedOut });
    const later = await refresh(user.refreshToken);
    expect(later.status).toBe(401);
    expect(later.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });
  });

  it('ends the tokens rotated from the same sign-in, and leaves other sign-ins alone', async () => {
    const user = await freshUser();
    const otherDevice = await signIn(server, user.email, user.password);
    const rotated = await refresh(user.refreshToken);
    expect((await server.request('POST', '/logout', { token: rotated.body.refresh_token })).status).toBe(200);
    expect((await refresh(rotated.body.refresh_token)).status).toBe(401);
    expect((await refresh(otherDevice.refresh_token)).status).toBe(200);
  });

  it('succeeds with no token or an unknown one', async () => {
    expect((await server.request('POST', '/logout')).body).toEqual({ status: 'success', message: m.loggedOut });
    expect((await server.request('POST', '/logout', { token: 'never-issued' })).body).toEqual({ status: 'success', message: m.loggedOut });
  });
});

describe('a protected route', () => {
  it('answers 401 with no token', async () => {
    const response = await loadUsers();
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
  });

  it('answers 401 with a garbage token, or a refresh token in place of an access token', async () => {
    for (const token of ['garbage', 'a.b.c', farm.regular.refreshToken]) {
      const response = await loadUsers(token);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidToken });
    }
  });

  it('answers 401 to a token signed with another key, or with its claims altered', async () => {
    const claims = { user_id: farm.admin.id, user_role: 'Admin', company_id: farm.companyId };
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('15m').sign(new TextEncoder().encode('not-the-server-secret'));
    const [header, , signature] = farm.regular.token.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...claimsOf(farm.regular.token), user_role: 'SuperAdmin' })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    for (const token of [forged, altered, unsigned]) {
      const response = await loadUsers(token);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidToken });
    }
  });

  it('answers 401 to an expired access token signed with the server’s own key', async () => {
    const secret = server.config.jwtSecret ?? (await loadJwtSecret(server.database.db));
    const sign = (expiresAt: number) =>
      new SignJWT({ user_id: farm.admin.id, user_role: 'Admin', company_id: farm.companyId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(expiresAt - ACCESS_TOKEN_SECONDS)
        .setExpirationTime(expiresAt)
        .sign(new TextEncoder().encode(secret));
    const now = Math.floor(Date.now() / 1000);
    // The same key makes a good token, so the refusal below is the expiry's.
    expect((await loadUsers(await sign(now + 60))).status).toBe(200);
    const expired = await loadUsers(await sign(now - 60));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ status: 'error', message: httpMessages.invalidToken });
  });
});
