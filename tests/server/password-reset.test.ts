import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionMessages as m } from '../../common/messages/session';
import { hashToken } from '../../server/domains/auth/tokens';
import { createTenant, createUser, signIn, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
});
afterAll(() => server.close());

const requestReset = (form: Record<string, string>) => server.request('POST', '/request_password_reset', { form });
const resetPassword = (query: Record<string, string>, form: Record<string, string>) => server.request('POST', '/reset_password', { query, form });
const login = (email: string, password: string) => server.request('POST', '/login', { form: { email, password } });

const LINK = /http:\/\/grow\.test\/NewPassword\?token=([A-Za-z0-9_%-]+)/;

/** Asks for a reset for a fresh user (one reset mail each) and returns the token from the link it receives. */
async function resetTokenFor(user: SignedInUser) {
  const response = await requestReset({ email: user.email });
  expect(response.status).toBe(200);
  const match = LINK.exec((await server.mailTo(user.email)).text);
  expect(match).not.toBeNull();
  return decodeURIComponent(match?.[1] ?? '');
}

const freshUser = () => createUser(server, farm.companyId, 'Regular');

describe('POST /api/request_password_reset', () => {
  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const user = await freshUser();
    const unknown = 'nobody-by-this-name@example.test';
    const forUnknown = await requestReset({ email: unknown });
    const forKnown = await requestReset({ email: user.email });
    expect(forUnknown.status).toBe(200);
    expect(forKnown.status).toBe(200);
    expect(forKnown.body).toEqual({ status: 'success', message: m.resetRequested });
    expect(forUnknown.body).toEqual(forKnown.body);

    const mail = await server.mailTo(user.email);
    expect(mail.text).toMatch(LINK);
    // The unknown address was asked for first; its mail would have arrived before this one.
    expect(server.mail.some((message) => message.to === unknown)).toBe(false);
  });

  it('finds the account whatever the case of the address', async () => {
    const user = await freshUser();
    expect((await requestReset({ email: user.email.toUpperCase() })).status).toBe(200);
    expect((await server.mailTo(user.email)).text).toMatch(LINK);
  });

  it('mails nothing for a deleted account, and still answers the same', async () => {
    const user = await freshUser();
    await server.database.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', user.id).execute();
    const response = await requestReset({ email: user.email });
    expect(response.body).toEqual({ status: 'success', message: m.resetRequested });
    const witness = await freshUser();
    await resetTokenFor(witness);
    expect(server.mail.some((message) => message.to === user.email)).toBe(false);
  });

  it.each([
    ['a missing email', {}, m.emailRequired],
    ['a blank email', { email: ' ' }, m.emailRequired],
    ['an invalid email', { email: 'not-an-email' }, m.emailInvalid],
  ])('answers 400 for %s', async (_case, form, message) => {
    const response = await requestReset(form);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });
});

describe('POST /api/reset_password', () => {
  it('sets the new password: the user signs in with it and no longer with the old one', async () => {
    const user = await freshUser();
    const token = await resetTokenFor(user);
    const response = await resetPassword({ token }, { new_password: 'a-brand-new-password' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.passwordUpdated });
    expect((await signIn(server, user.email, 'a-brand-new-password')).user_id).toBe(user.id);
    const old = await login(user.email, user.password);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ status: 'error', message: m.invalidCredentials });
  });

  it('works once', async () => {
    const user = await freshUser();
    const token = await resetTokenFor(user);
    expect((await resetPassword({ token }, { new_password: 'first-new-password' })).status).toBe(200);
    const again = await resetPassword({ token }, { new_password: 'second-new-password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ status: 'error', message: m.resetTokenInvalid });
    expect((await login(user.email, 'second-new-password')).status).toBe(401);
    expect((await login(user.email, 'first-new-password')).status).toBe(200);
  });

  it('answers 400 for an expired token and leaves the password as it was', async () => {
    const user = await freshUser();
    const token = await resetTokenFor(user);
    await server.database.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hashToken(token)).execute();
    const response = await resetPassword({ token }, { new_password: 'too-late-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.resetTokenInvalid });
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('answers 400 for an unknown token', async () => {
    const response = await resetPassword({ token: 'never-issued-reset-token' }, { new_password: 'whatever-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.resetTokenInvalid });
  });

  it('answers 400 for a short or missing password, and the link still works afterwards', async () => {
    const user = await freshUser();
    const token = await resetTokenFor(user);
    const short = await resetPassword({ token }, { new_password: 'seven77' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ status: 'error', message: m.passwordTooShort });
    const missing = await resetPassword({ token }, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: 'error', message: m.passwordRequired });
    expect((await login(user.email, user.password)).status).toBe(200);
    expect((await resetPassword({ token }, { new_password: 'eight888' })).status).toBe(200);
    expect((await login(user.email, 'eight888')).status).toBe(200);
  });

  it('answers 400 without a token', async () => {
    const response = await resetPassword({}, { new_password: 'a-good-password' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.resetTokenRequired });
  });

  it('ends every other reset link of the user too', async () => {
    const user = await freshUser();
    const first = await resetTokenFor(user);
    await requestReset({ email: user.email });
    await expect.poll(() => server.mail.filter((message) => message.to === user.email).length).toBe(2);
    const second = decodeURIComponent(LINK.exec((await server.mailTo(user.email)).text)?.[1] ?? '');
    expect(second).not.toBe(first);
    expect((await resetPassword({ token: second }, { new_password: 'second-link-password' })).status).toBe(200);
    expect((await resetPassword({ token: first }, { new_password: 'first-link-password' })).body).toEqual({ status: 'error', message: m.resetTokenInvalid });
  });

  it('ends every session the old password opened', async () => {
    const user = await freshUser();
    const secondDevice = await signIn(server, user.email, user.password);
    const token = await resetTokenFor(user);
    expect((await resetPassword({ token }, { new_password: 'after-the-reset' })).status).toBe(200);
    for (const refreshToken of [user.refreshToken, secondDevice.refresh_token]) {
      const refused = await server.request('POST', '/refresh_token', { token: refreshToken });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ status: 'error', message: m.refreshTokenInvalid });
    }
    // A sign-in with the new password starts a session that refreshes normally.
    const fresh = await signIn(server, user.email, 'after-the-reset');
    expect((await server.request('POST', '/refresh_token', { token: fresh.refresh_token })).status).toBe(200);
  });

  it('is recorded in the audit trail as the user’s own action', async () => {
    const user = await freshUser();
    const token = await resetTokenFor(user);
    expect((await resetPassword({ token }, { new_password: 'audited-password' })).status).toBe(200);
    const events = await server.request<{ events: Array<{ EventTitle: string; UserID: number }> }>('GET', '/get_audit_events', {
      token: farm.admin.token,
      query: { company_id: farm.companyId },
    });
    expect(events.body.events).toContainEqual(expect.objectContaining({ EventTitle: 'Reset password', UserID: user.id }));
  });
});
