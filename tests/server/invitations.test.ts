import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages as m } from '../../common/messages/session';
import { hashToken } from '../../server/domains/auth/tokens';
import { createTenant, signIn, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

interface Invited {
  invite_token: string;
  invitation_id: number;
}
interface PendingInvitation {
  invitation_id: number;
  email: string;
  role: string;
}

const newEmail = (prefix = 'invitee') => `${prefix}-${randomBytes(5).toString('hex')}@example.test`;

const createInvitation = (token: string, body: Record<string, string | number>, as: 'form' | 'json' = 'form') =>
  server.request<Invited>('POST', '/create_invitation', { token, ...(as === 'json' ? { json: body } : { form: body }) });

/** An invitation from the farm's Admin that must succeed. */
async function invite(email = newEmail(), role = 'Regular', admin = farm.admin) {
  const response = await createInvitation(admin.token, { email, role });
  expect(response.status).toBe(200);
  return { email, ...response.body };
}

const pending = (token: string, query: Record<string, number> = { company_id: farm.companyId }) =>
  server.request<{ invitations: PendingInvitation[] }>('GET', '/pending_invitations', { token, query });

const signUp = (form: Record<string, string>) => server.request<{ user_id: number; company_id: number; user_role: string }>('POST', '/Create_new_user', { form });

const signUpForm = (email: string, inviteToken: string) => ({ first_name: 'Rosa', last_name: 'Grower', email, password: 'a-good-password', invite_token: inviteToken });

describe('POST /api/create_invitation', () => {
  it('answers the token and the id, and mails the sign-up link to the invited address', async () => {
    const email = newEmail();
    const response = await createInvitation(farm.admin.token, { email, role: 'Regular' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.invitationCreated, invitation_id: expect.any(Number) });
    expect(response.body.invite_token).toEqual(expect.any(String));
    const mail = await server.mailTo(email);
    expect(mail.text).toContain(`http://grow.test/signUp?invite_token=${response.body.invite_token}`);
  });

  it('takes a JSON body too', async () => {
    const email = newEmail();
    const response = await createInvitation(farm.admin.token, { email, role: 'Admin' }, 'json');
    expect(response.status).toBe(200);
    expect((await server.mailTo(email)).text).toContain(`invite_token=${response.body.invite_token}`);
    expect((await pending(farm.admin.token)).body.invitations).toContainEqual(expect.objectContaining({ invitation_id: response.body.invitation_id, email, role: 'Admin' }));
  });

  it('stores the address in lower case, so sign-up in any case matches', async () => {
    const email = newEmail('MixedCase');
    const { invite_token, invitation_id } = await invite(email);
    expect((await pending(farm.admin.token)).body.invitations).toContainEqual(expect.objectContaining({ invitation_id, email: email.toLowerCase() }));
    const response = await signUp(signUpForm(email.toUpperCase(), invite_token));
    expect(response.status).toBe(200);
  });

  it('is refused to a Regular user, and mails nothing', async () => {
    const email = newEmail();
    const response = await createInvitation(farm.regular.token, { email, role: 'Regular' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
    // A later invitation's mail arrives; the refused one never did.
    const later = newEmail();
    await invite(later);
    await server.mailTo(later);
    expect(server.mail.some((mail) => mail.to === email)).toBe(false);
  });

  it('answers 403 for another company’s company_id', async () => {
    const response = await createInvitation(farm.admin.token, { email: newEmail(), role: 'Regular', company_id: other.companyId });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await pending(other.admin.token, { company_id: other.companyId })).body.invitations).toEqual([]);
  });

  it('answers 409 for an address that already has an account, in any company and any case', async () => {
    for (const email of [farm.regular.email, other.admin.email, other.regular.email.toUpperCase()]) {
      const response = await createInvitation(farm.admin.token, { email, role: 'Regular' });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ status: 'error', message: m.emailTaken });
    }
  });

  it.each([
    ['a missing email', { role: 'Regular' }, m.emailRequired],
    ['an invalid email', { email: 'not-an-email', role: 'Regular' }, m.emailInvalid],
    ['a missing role', { email: 'someone@example.test' }, m.roleInvalid],
    ['an unknown role', { email: 'someone@example.test', role: 'Gardener' }, m.roleInvalid],
    ['the SuperAdmin role', { email: 'someone@example.test', role: 'SuperAdmin' }, m.roleInvalid],
  ])('answers 400 for %s', async (_case, body, message) => {
    const response = await createInvitation(farm.admin.token, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it('replaces an earlier pending invitation to the same address', async () => {
    const email = newEmail();
    const first = await invite(email);
    const second = await invite(email, 'Admin');
    const listed = (await pending(farm.admin.token)).body.invitations.filter((invitation) => invitation.email === email);
    expect(listed).toEqual([expect.objectContaining({ invitation_id: second.invitation_id, role: 'Admin' })]);
    expect((await signUp(signUpForm(email, first.invite_token))).body).toEqual({ status: 'error', message: m.inviteInvalid });
    expect((await signUp(signUpForm(email, second.invite_token))).body).toMatchObject({ status: 'success', user_role: 'Admin' });
  });

  it('is recorded in the audit trail', async () => {
    const { email } = await invite(newEmail(), 'Admin');
    const events = await server.request<{ events: Array<{ EventTitle: string; UserID: number }> }>('GET', '/get_audit_events', {
      token: farm.admin.token,
      query: { company_id: farm.companyId },
    });
    expect(events.body.events).toContainEqual(expect.objectContaining({ EventTitle: `Invited ${email} as Admin`, UserID: farm.admin.id }));
  });
});

describe('GET /api/pending_invitations', () => {
  it('lists the company’s pending invitations to an Admin, and not another company’s', async () => {
    const mine = await invite();
    const theirs = await invite(newEmail(), 'Regular', other.admin);
    const response = await pending(farm.admin.token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success' });
    expect(response.body.invitations).toContainEqual(expect.objectContaining({ invitation_id: mine.invitation_id, email: mine.email, role: 'Regular' }));
    expect(response.body.invitations.map((invitation) => invitation.invitation_id)).not.toContain(theirs.invitation_id);
    // The token is shown once, at creation; the list never carries it.
    expect(JSON.stringify(response.body)).not.toContain(mine.invite_token);
  });

  it('answers 403 for another company’s id and to a Regular user', async () => {
    const otherCompany = await pending(farm.admin.token, { company_id: other.companyId });
    expect(otherCompany.status).toBe(403);
    expect(otherCompany.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    const regular = await pending(farm.regular.token);
    expect(regular.status).toBe(403);
    expect(regular.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
  });

  it('answers 400 without company_id', async () => {
    const response = await pending(farm.admin.token, {});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.companyIdRequired });
  });

  it('leaves out accepted and expired invitations', async () => {
    const accepted = await invite();
    expect((await signUp(signUpForm(accepted.email, accepted.invite_token))).status).toBe(200);
    const expired = await invite();
    await server.database.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.invitation_id).execute();
    const ids = (await pending(farm.admin.token)).body.invitations.map((invitation) => invitation.invitation_id);
    expect(ids).not.toContain(accepted.invitation_id);
    expect(ids).not.toContain(expired.invitation_id);
  });
});

describe('DELETE /api/delete_invitation', () => {
  const remove = (token: string, query: Record<string, number> = {}) => server.request('DELETE', '/delete_invitation', { token, query });

  it('removes the invitation from the pending list, and its token stops working', async () => {
    const invitation = await invite();
    const response = await remove(farm.admin.token, { invitation_id: invitation.invitation_id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.invitationDeleted });
    const ids = (await pending(farm.admin.token)).body.invitations.map((row) => row.invitation_id);
    expect(ids).not.toContain(invitation.invitation_id);
    expect((await signUp(signUpForm(invitation.email, invitation.invite_token))).body).toEqual({ status: 'error', message: m.inviteInvalid });
  });

  it('answers 403 for another company’s invitation and leaves it pending', async () => {
    const theirs = await invite(newEmail(), 'Regular', other.admin);
    const response = await remove(farm.admin.token, { invitation_id: theirs.invitation_id });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    const ids = (await pending(other.admin.token, { company_id: other.companyId })).body.invitations.map((row) => row.invitation_id);
    expect(ids).toContain(theirs.invitation_id);
  });

  it('is refused to a Regular user', async () => {
    const invitation = await invite();
    expect((await remove(farm.regular.token, { invitation_id: invitation.invitation_id })).status).toBe(403);
    expect((await pending(farm.admin.token)).body.invitations.map((row) => row.invitation_id)).toContain(invitation.invitation_id);
  });

  it('answers 400 without invitation_id, and 404 for one already deleted', async () => {
    const missing = await remove(farm.admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: 'error', message: m.invitationIdRequired });
    const invitation = await invite();
    expect((await remove(farm.admin.token, { invitation_id: invitation.invitation_id })).status).toBe(200);
    expect((await remove(farm.admin.token, { invitation_id: invitation.invitation_id })).status).toBe(404);
  });
});

describe('POST /api/Create_new_user', () => {
  it('creates the account in the invitation’s company with its role, and the user can sign in', async () => {
    const { email, invite_token } = await invite(newEmail(), 'Admin');
    const response = await signUp({ first_name: 'Ada', last_name: 'Planter', email, password: 'ada-password', invite_token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.userCreated, user_id: expect.any(Number), company_id: farm.companyId, user_role: 'Admin' });

    const session = await signIn(server, email, 'ada-password');
    expect(session).toMatchObject({ user_id: response.body.user_id, company_id: farm.companyId, user_role: 'Admin' });

    const users = await server.request<{ users: Array<Record<string, unknown>> }>('GET', '/load_users', { token: farm.regular.token, query: { company_id: farm.companyId } });
    const created = users.body.users.find((user) => user.user_id === response.body.user_id);
    expect(created).toMatchObject({ email, first_name: 'Ada', last_name: 'Planter', role: 'Admin', company_id: farm.companyId });
    expect(JSON.stringify(users.body)).not.toContain('password');

    const events = await server.request<{ events: Array<{ EventTitle: string; UserID: number }> }>('GET', '/get_audit_events', {
      token: farm.admin.token,
      query: { company_id: farm.companyId },
    });
    expect(events.body.events).toContainEqual(expect.objectContaining({ EventTitle: 'Ada Planter joined as Admin', UserID: response.body.user_id }));
  });

  it('lets a removed user’s address be invited and signed up again', async () => {
    const first = await invite();
    const created = await signUp(signUpForm(first.email, first.invite_token));
    await server.database.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', created.body.user_id).execute();
    const again = await invite(first.email);
    const response = await signUp(signUpForm(first.email, again.invite_token));
    expect(response.status).toBe(200);
    expect(response.body.user_id).not.toBe(created.body.user_id);
  });

  it('uses the invitation once', async () => {
    const { email, invite_token } = await invite();
    expect((await signUp(signUpForm(email, invite_token))).status).toBe(200);
    const again = await signUp({ ...signUpForm(email, invite_token), password: 'another-password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ status: 'error', message: m.inviteUsed });
    // The first password still holds: the second attempt changed nothing.
    await expect(signIn(server, email, 'another-password')).rejects.toThrow(/401/);
  });

  it('uses the invitation once even when two sign-ups arrive at the same moment', async () => {
    const { email, invite_token } = await invite();
    const answers = await Promise.all([signUp(signUpForm(email, invite_token)), signUp(signUpForm(email, invite_token))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toEqual({ status: 'error', message: m.inviteUsed });
  });

  it('gives one account per address when invitations of two companies are accepted at the same moment', async () => {
    const email = newEmail();
    const mine = await invite(email);
    const theirs = await invite(email, 'Regular', other.admin);
    const answers = await Promise.all([signUp(signUpForm(email, mine.invite_token)), signUp(signUpForm(email, theirs.invite_token))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body).toEqual({ status: 'error', message: m.emailTaken });
  });

  it('answers 400 for an expired invitation', async () => {
    const { email, invite_token } = await invite();
    await server.database.db.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hashToken(invite_token)).execute();
    const response = await signUp(signUpForm(email, invite_token));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.inviteExpired });
  });

  it('answers 400 for an address other than the invited one, and the invitation stays usable', async () => {
    const { email, invite_token } = await invite();
    const response = await signUp(signUpForm(newEmail('someone-else'), invite_token));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.inviteEmailMismatch });
    expect((await signUp(signUpForm(email, invite_token))).status).toBe(200);
  });

  it('answers 400 for an unknown token', async () => {
    const response = await signUp(signUpForm(newEmail(), 'no-such-invitation-token'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.inviteInvalid });
  });

  it.each([
    ['first_name', undefined, m.firstNameRequired],
    ['first_name', '  ', m.firstNameRequired],
    ['last_name', undefined, m.lastNameRequired],
    ['email', undefined, m.emailRequired],
    ['email', 'not-an-email', m.emailInvalid],
    ['password', undefined, m.passwordRequired],
    ['password', 'short12', m.passwordTooShort],
    ['invite_token', undefined, m.inviteTokenRequired],
  ])('answers 400 when %s is %s', async (field, value, message) => {
    const { email, invite_token } = await invite();
    const form: Record<string, string> = signUpForm(email, invite_token);
    if (value === undefined) delete form[field];
    else form[field] = value;
    const response = await signUp(form);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
    // Nothing was used up: the invitation still works.
    expect((await signUp(signUpForm(email, invite_token))).status).toBe(200);
  });

  it('accepts a password of exactly 8 characters', async () => {
    const { email, invite_token } = await invite();
    expect((await signUp({ ...signUpForm(email, invite_token), password: '12345678' })).status).toBe(200);
    expect((await signIn(server, email, '12345678')).company_id).toBe(farm.companyId);
  });
});
