/**
 * Outside consultants (issue 18 "Consultants"; server/domains/consultants/routes.ts), over HTTP on a real
 * database with mail caught by a real SMTP stand-in: an Admin invites by email, accepting makes a
 * Consultant account of no company, who signs in and reads the inviting company's rooms, observations,
 * problems, reports and tasks, comments, and changes nothing else; another company's ids and a company
 * that did not invite them answer 403; a revoked or expired grant refuses the very next request (the same
 * token); one account switches between two companies; only Admins invite, list and revoke.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultantMessages as m } from '../../common/messages/consultants';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages } from '../../common/messages/session';
import { commentMessages } from '../../common/messages/tasks';
import type { ConsultantAccessRecord, ConsultantCompanyRecord } from '../../common/schemas/consultants';
import type { PushAnswer } from '../../common/schemas/sync';
import type { UserRecord } from '../../common/schemas/users';
import { createGrid, createRoom, createTenant, signIn, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
/** A company that never invites the consultants of these tests. */
let stranger: Tenant;
/** The farm's data a consultant reads. */
let data: { roomId: number; boxId: number; fieldId: number; responseId: number; taskId: number; problemId: number; reportId: number; commentId: number };
/** The other company's, named by a consultant of the farm. */
let theirs: { roomId: number; responseId: number };

const error = (message: string) => ({ status: 'error', message });
const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const newEmail = () => `advisor-${randomUUID().slice(0, 8)}@example.test`;

interface Consultant {
  email: string;
  password: string;
  userId: number;
  token: string;
  refreshToken: string;
}

async function invite(admin: SignedInUser, email: string, period: Record<string, unknown> = { days: 30 }) {
  const response = await call('POST', '/consultants/invite', admin.token, { json: { email, ...period } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { access: ConsultantAccessRecord }).access;
}

/** The invitation link's token, from the mail the consultant received (the last one to that address). */
async function mailedToken(email: string, since: number): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = server.mail.filter((message) => message.to === email);
    if (mail.length > since) {
      const token = /consultantInvite\?invite_token=([A-Za-z0-9_-]+)/.exec(mail.at(-1)!.text)?.[1];
      if (!token) throw new Error(`No invitation link in: ${mail.at(-1)!.text}`);
      return token;
    }
    if (Date.now() > deadline) throw new Error(`No invitation mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mailCount = (email: string) => server.mail.filter((message) => message.to === email).length;

const accept = (form: Record<string, string>) => server.request('POST', '/consultants/accept', { form });

/** Invited by `tenant`'s Admin, accepted with a new account, signed in. */
async function newConsultant(tenant: Tenant = farm, email = newEmail()): Promise<Consultant> {
  const before = mailCount(email);
  await invite(tenant.admin, email);
  const token = await mailedToken(email, before);
  const password = `pw-${randomUUID()}`;
  const accepted = await accept({ invite_token: token, first_name: 'Ines', last_name: 'Advisor', password });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const session = await signIn(server, email, password);
  return { email, password, userId: session.user_id, token: session.access_token, refreshToken: session.refresh_token };
}

/** A grant of `tenant` to an existing consultant, accepted through the mailed link without a password. */
async function grantTo(consultant: Consultant, tenant: Tenant) {
  const before = mailCount(consultant.email);
  await invite(tenant.admin, consultant.email);
  const response = await accept({ invite_token: await mailedToken(consultant.email, before) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

const grants = async (tenant: Tenant) => ((await call('GET', '/consultants', tenant.admin.token, { query: { company_id: tenant.companyId } })).body as { consultants: ConsultantAccessRecord[] }).consultants;
const grantOf = async (tenant: Tenant, email: string) => (await grants(tenant)).find((access) => access.email === email && access.status !== 'revoked');

async function ok<T = Record<string, unknown>>(response: Promise<{ status: number; body: unknown }>): Promise<T> {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBe(200);
  return body as T;
}

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  stranger = await createTenant(server);
  const roomId = await createRoom(server, farm.companyId, 'Flower room A');
  const boxId = (await createGrid(server, farm.companyId, roomId, 2, 1)).boxIds[0]!;
  const form = await ok<{ field_ids: number[] }>(
    call('POST', '/save_form_template', farm.admin.token, { json: { templateName: 'Scouting', companyID: farm.companyId, fields: [{ fieldName: 'Pests seen', fieldType: 'Text', fieldOptions: [], isRequired: 0 }] } }),
  );
  const fieldId = form.field_ids[0]!;
  const { response_id: responseId } = await ok<{ response_id: number }>(
    call('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: [{ fieldID: fieldId, inputData: 'thrips' }] } }),
  );
  const { task_id: taskId } = await ok<{ task_id: number }>(call('POST', '/update_task_fields', farm.regular.token, { json: { response_id: responseId, title: 'Check the thrips' } }));
  const { problem } = await ok<{ problem: { problem_id: number } }>(
    call('POST', '/create_gridbox_problem', farm.regular.token, { json: { GridBoxID: boxId, problem_type: 'Western flower thrips', severity: 3, user_id: farm.regular.id } }),
  );
  const { report_id: reportId } = await ok<{ report_id: number }>(
    call('POST', '/save_report', farm.regular.token, { json: { company_id: farm.companyId, report_name: 'Thrips pressure', chart_type: 'line', report_data: [], room_ids: [roomId] } }),
  );
  const { CommentID: commentId } = await ok<{ CommentID: number }>(call('POST', '/add_comment', farm.regular.token, { json: { ResponseID: responseId, UserID: farm.regular.id, CommentText: 'Seen on the east side' } }));
  data = { roomId, boxId, fieldId, responseId, taskId, problemId: problem.problem_id, reportId, commentId };

  const theirRoom = await createRoom(server, other.companyId, 'Their room');
  const theirBox = (await createGrid(server, other.companyId, theirRoom, 1, 1)).boxIds[0]!;
  const theirForm = await ok<{ field_ids: number[] }>(
    call('POST', '/save_form_template', other.admin.token, { json: { templateName: 'Their scouting', companyID: other.companyId, fields: [{ fieldName: 'Notes', fieldType: 'Text', fieldOptions: [], isRequired: 0 }] } }),
  );
  const theirResponse = await ok<{ response_id: number }>(
    call('POST', '/submit_form', other.regular.token, { json: { GridBoxID: theirBox, submittedBy: other.regular.id, fieldResponses: [{ fieldID: theirForm.field_ids[0], inputData: 'mites' }] } }),
  );
  theirs = { roomId: theirRoom, responseId: theirResponse.response_id };
});
afterAll(() => server?.close());

describe('inviting and accepting', () => {
  it('mails the link; accepting makes a Consultant account of no company, who signs in into the inviting company', async () => {
    const email = newEmail();
    const access = await invite(farm.admin, email, { days: 14 });
    expect(access).toMatchObject({ email, status: 'invited', invited_by: farm.admin.id, accepted_at: null, revoked_at: null, first_name: null });
    const until = new Date(access.expires_at).getTime();
    expect(until).toBeGreaterThan(Date.now() + 13.9 * 86_400_000);
    expect(until).toBeLessThan(Date.now() + 14.1 * 86_400_000);
    // The token travels in the mail only, never in the Admin's answer.
    expect(JSON.stringify(access)).not.toContain('token');
    const mail = await server.mailTo(email);
    expect(mail.text).toContain('http://grow.test/consultantInvite?invite_token=');
    expect(mail.text).toContain('read-only');
    const token = await mailedToken(email, 0);

    const shown = await ok(server.request('GET', '/consultants/invitation', { query: { invite_token: token } }));
    expect(shown).toMatchObject({ email, has_account: false, expires_at: access.expires_at });
    expect(shown.company_name).toEqual(expect.any(String));
    // Without an account, a name and a password are needed.
    expect(await accept({ invite_token: token })).toMatchObject({ status: 400, body: error(m.nameAndPasswordRequired) });
    expect(await accept({ invite_token: 'not-a-token' })).toMatchObject({ status: 400, body: error(m.inviteInvalid) });
    expect(await accept({ invite_token: token, first_name: 'Ines', last_name: 'Advisor', password: 'short' })).toMatchObject({ status: 400, body: error(sessionMessages.passwordTooShort) });

    const accepted = await accept({ invite_token: token, first_name: 'Ines', last_name: 'Advisor', password: 'a-good-password' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'success', company_id: farm.companyId, email });
    const account = await server.database.db.selectFrom('users').select(['role', 'company_id']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(account).toEqual({ role: 'Consultant', company_id: null });
    // The link works once.
    expect(await accept({ invite_token: token, first_name: 'X', last_name: 'Y', password: 'another-password' })).toMatchObject({ status: 400, body: error(m.inviteUsed) });

    const session = await signIn(server, email, 'a-good-password');
    expect(session).toMatchObject({ user_role: 'Consultant', company_id: farm.companyId });
    expect(await grantOf(farm, email)).toMatchObject({ status: 'active', first_name: 'Ines', last_name: 'Advisor', accepted_at: expect.any(String) });
  });

  it('refuses an address of a company’s user (409), and an address whose access is active until it is revoked', async () => {
    for (const email of [farm.regular.email, other.admin.email]) {
      expect(await call('POST', '/consultants/invite', farm.admin.token, { json: { email, days: 7 } })).toMatchObject({ status: 409, body: error(m.emailIsMember) });
    }
    const consultant = await newConsultant();
    const again = await call('POST', '/consultants/invite', farm.admin.token, { json: { email: consultant.email, days: 7 } });
    expect(again.status).toBe(409);
    expect((again.body as { message: string }).message).toMatch(/^This consultant already has access until /);
  });

  it('replaces an invitation not accepted yet: the earlier link stops working', async () => {
    const email = newEmail();
    await invite(farm.admin, email);
    const first = await mailedToken(email, 0);
    await invite(farm.admin, email, { expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    const second = await mailedToken(email, 1);
    expect(second).not.toBe(first);
    expect(await accept({ invite_token: first, first_name: 'A', last_name: 'B', password: 'a-good-password' })).toMatchObject({ status: 400, body: error(m.inviteExpired) });
    expect((await accept({ invite_token: second, first_name: 'A', last_name: 'B', password: 'a-good-password' })).status).toBe(200);
    expect((await grants(farm)).filter((access) => access.email === email).map((access) => access.status).sort()).toEqual(['active', 'revoked']);
  });

  it('checks the period: days from 1 to 366, or an end within them', async () => {
    const send = (period: Record<string, unknown>) => call('POST', '/consultants/invite', farm.admin.token, { json: { email: newEmail(), ...period } });
    expect((await send({})).body).toEqual(error(m.periodRequired));
    expect((await send({ days: 0 })).body).toEqual(error(m.daysInvalid));
    expect((await send({ days: 400 })).body).toEqual(error(m.daysInvalid));
    expect((await send({ expires_at: new Date(Date.now() - 60_000).toISOString() })).body).toEqual(error(m.expiresAtInvalid));
    expect((await send({ expires_at: 'next week' })).body).toEqual(error(m.expiresAtInvalid));
    expect((await call('POST', '/consultants/invite', farm.admin.token, { form: { email: newEmail(), days: '90' } })).status).toBe(200);
  });

  it('is the Admins’ own: a grower or a consultant cannot invite, list or revoke; another company’s Admin gets 403', async () => {
    const consultant = await newConsultant();
    const access = await grantOf(farm, consultant.email);
    expect(await call('POST', '/consultants/invite', farm.regular.token, { json: { email: newEmail(), days: 7 } })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await call('GET', '/consultants', farm.regular.token, { query: { company_id: farm.companyId } })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await call('POST', '/consultants/revoke', farm.regular.token, { json: { access_id: access!.access_id } })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await call('POST', '/consultants/invite', consultant.token, { json: { email: newEmail(), days: 7 } })).toMatchObject({ status: 403, body: error(m.readOnly) });
    expect(await call('GET', '/consultants', consultant.token, { query: { company_id: farm.companyId } })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await call('POST', '/consultants/revoke', consultant.token, { json: { access_id: access!.access_id } })).toMatchObject({ status: 403, body: error(m.readOnly) });
    // Another company's Admin: the farm's company and grant are not theirs.
    expect(await call('GET', '/consultants', other.admin.token, { query: { company_id: farm.companyId } })).toMatchObject({ status: 403, body: error(httpMessages.otherCompany) });
    expect(await call('POST', '/consultants/revoke', other.admin.token, { json: { access_id: access!.access_id } })).toMatchObject({ status: 403, body: error(httpMessages.otherCompany) });
    expect(await call('POST', '/consultants/invite', other.admin.token, { json: { company_id: farm.companyId, email: newEmail(), days: 7 } })).toMatchObject({ status: 403, body: error(httpMessages.otherCompany) });
    expect((await grantOf(farm, consultant.email))?.status).toBe('active');
  });
});

describe('a consultant reads and comments, and changes nothing else', () => {
  let consultant: Consultant;
  beforeAll(async () => {
    consultant = await newConsultant();
  });

  it('reads the inviting company’s rooms, observations, problems, reports and tasks, online and through the sync pull', async () => {
    const get = (path: string, query: Record<string, string | number>) => ok(call('GET', path, consultant.token, { query }));
    expect(await get('/get_unresolved_problems_for_room', { room_id: data.roomId })).toMatchObject({ RoomID: data.roomId, total: 1 });
    expect(await get('/get_field_responses', { response_id: data.responseId })).toMatchObject({ status: 'success' });
    const tasks = await get('/get_task_form_responses', { CompanyID: farm.companyId });
    expect((tasks.responses as Array<{ task: { task_id: number } | null }>).map((response) => response.task?.task_id)).toContain(data.taskId);
    const reports = await get('/get_saved_reports', { company_id: farm.companyId });
    expect(JSON.stringify(reports)).toContain('Thrips pressure');
    expect(await get('/get_comments', { ResponseID: data.responseId })).toMatchObject({ comments: [expect.objectContaining({ CommentText: 'Seen on the east side' })] });
    // A read the spec sends as a POST.
    expect((await call('POST', '/get_batch_history_by_room', consultant.token, { json: { room_id: data.roomId } })).status).toBe(200);

    const pulled = async (collection: string) => [...(await pullUntil(server, consultant.token, collection, (documents) => documents.size > 0)).values()];
    expect((await pulled('rooms')).map((room) => room.Name)).toContain('Flower room A');
    expect((await pulled('form_responses')).map((response) => response.id)).toContain(String(data.responseId));
    expect((await pulled('plant_problems')).map((problem) => problem.id)).toContain(String(data.problemId));
    expect((await pulled('reports')).length).toBeGreaterThan(0);
  });

  it('sees the team’s names and roles, not their email addresses', async () => {
    const { users } = await ok<{ users: UserRecord[] }>(call('GET', '/load_users', consultant.token, { query: { company_id: farm.companyId } }));
    expect(users.map((user) => user.user_id).sort()).toEqual([farm.admin.id, farm.regular.id].sort());
    expect(users.every((user) => user.email === '' && user.first_name !== '')).toBe(true);
    const [company] = [...(await pullUntil(server, consultant.token, 'company', (documents) => documents.size > 0)).values()];
    expect((company!.users as UserRecord[]).map((user) => user.email)).toEqual(['', '']);
    // The team itself still sees them; and the consultant is nobody's team member.
    const team = await ok<{ users: UserRecord[] }>(call('GET', '/load_users', farm.admin.token, { query: { company_id: farm.companyId } }));
    expect(team.users.map((user) => user.email)).toContain(farm.regular.email);
    expect(team.users.map((user) => user.user_id)).not.toContain(consultant.userId);
  });

  it('comments (and edits and deletes their own comment), but not another’s', async () => {
    const added = await ok<{ CommentID: number }>(call('POST', '/add_comment', consultant.token, { json: { ResponseID: data.responseId, UserID: consultant.userId, CommentText: 'Release Orius here' } }));
    expect((await call('PUT', '/edit_comment', consultant.token, { json: { CommentID: added.CommentID, UserID: consultant.userId, CommentText: 'Release Orius on the east side' } })).status).toBe(200);
    expect(await call('DELETE', '/delete_comment', consultant.token, { json: { CommentID: data.commentId, UserID: consultant.userId } })).toMatchObject({ status: 403, body: error(commentMessages.notAuthorDelete) });
    expect(await call('PUT', '/edit_comment', consultant.token, { json: { CommentID: data.commentId, UserID: consultant.userId, CommentText: 'Rewritten' } })).toMatchObject({ status: 403 });
    // Only as themselves.
    expect(await call('POST', '/add_comment', consultant.token, { json: { ResponseID: data.responseId, UserID: farm.regular.id, CommentText: 'As someone else' } })).toMatchObject({ status: 403, body: error(httpMessages.notYourself) });
    expect((await call('DELETE', '/delete_comment', consultant.token, { json: { CommentID: added.CommentID, UserID: consultant.userId } })).status).toBe(200);
    // The farm sees who wrote it: the trail names the consultant.
    const trail = await server.database.db.selectFrom('audit_events').select('event_title').where('user_id', '=', consultant.userId).where('company_id', '=', farm.companyId).execute();
    expect(trail.map((event) => event.event_title)).toContain(`Commented on form response ${data.responseId}`);
  });

  it('is refused every write tried (403), alone or pushed, except comments', async () => {
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/create_room', { company_id: farm.companyId, name: 'Consultant room', description: 'x' }],
      ['POST', '/submit_form', { GridBoxID: data.boxId, submittedBy: consultant.userId, fieldResponses: [{ fieldID: data.fieldId, inputData: 'aphids' }] }],
      ['POST', '/create_gridbox_problem', { GridBoxID: data.boxId, problem_type: 'Aphids', severity: 1, user_id: consultant.userId }],
      ['POST', '/manage_problem', { problemID: data.problemId, action: 'resolve', userID: consultant.userId }],
      ['POST', '/update_unresolved_problems_for_room', { room_id: data.roomId, action: 'resolve', user_id: consultant.userId }],
      ['POST', '/save_report', { company_id: farm.companyId, report_name: 'Mine', chart_type: 'line', report_data: [], room_ids: [data.roomId] }],
      ['POST', '/update_task_fields', { response_id: data.responseId, title: 'Taken over' }],
      ['DELETE', '/delete_task', { task_id: data.taskId }],
      ['POST', '/add_audit_event', { EventTitle: 'Visited' }],
      ['POST', '/threshold', { user_id: consultant.userId, threshold: 3 }],
      ['PUT', '/update_location', { user_id: consultant.userId, location: 'Delft' }],
      ['POST', '/correct_form_response', { response_id: data.responseId, reason: 'Typo', values: [{ field_id: data.fieldId, value: 'mites' }] }],
      ['POST', '/save_command', { command: 'resolve thrips', parsed: [], language: 'en' }],
      ['POST', '/create_invitation', { email: newEmail(), role: 'Regular' }],
      ['POST', '/set_company_grid_order', { company_id: farm.companyId, grid_order: 'column' }],
      // The spec's GET that deletes: a GET is no read here.
      ['GET', '/delete_task_template', { response_id: data.responseId }],
    ];
    for (const [method, path, json] of writes) {
      const response = await call(method, path, consultant.token, method === 'GET' ? { query: json as Record<string, string | number> } : { json });
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(403);
      expect(response.body, `${method} ${path}`).toEqual(error(m.readOnly));
    }
    const entry = (path: string, data: object) => ({ id: randomUUID(), method: 'POST', path, body: { kind: 'json', data } });
    const pushed = await ok<PushAnswer>(
      call('POST', '/sync/push', consultant.token, {
        json: {
          entries: [
            entry('/submit_form', { GridBoxID: data.boxId, submittedBy: consultant.userId, fieldResponses: [{ fieldID: data.fieldId, inputData: 'pushed' }] }),
            entry('/add_comment', { ResponseID: data.responseId, UserID: consultant.userId, CommentText: 'Pushed from the tablet' }),
            entry('/manage_problem', { problemID: data.problemId, action: 'resolve', userID: consultant.userId }),
          ],
        },
      }),
    );
    expect(pushed.results.map((result) => result.status)).toEqual([403, 200, 403]);
    // Nothing of the refused writes reached the database.
    const problem = await server.database.db.selectFrom('plant_problems').select('status').where('id', '=', data.problemId).executeTakeFirstOrThrow();
    expect(problem.status).not.toBe('resolved');
    const rooms = await server.database.db.selectFrom('rooms').select('id').where('name', '=', 'Consultant room').execute();
    expect(rooms).toEqual([]);
  });

  it('answers 403 for another company’s ids, and for a company that did not invite them', async () => {
    const refused = [
      call('GET', '/get_field_responses', consultant.token, { query: { response_id: theirs.responseId } }),
      call('GET', '/get_unresolved_problems_for_room', consultant.token, { query: { room_id: theirs.roomId } }),
      call('GET', '/load_users', consultant.token, { query: { company_id: other.companyId } }),
      call('GET', '/sync/pull', consultant.token, { query: { collection: 'rooms', company_id: other.companyId } }),
      call('GET', '/get_comments', consultant.token, { query: { ResponseID: theirs.responseId } }),
      call('POST', '/add_comment', consultant.token, { json: { ResponseID: theirs.responseId, UserID: consultant.userId, CommentText: 'Not mine to read' } }),
    ];
    for (const response of await Promise.all(refused)) expect(response).toMatchObject({ status: 403, body: error(httpMessages.otherCompany) });
    // A company that never invited them: no switch there, and its ids are as foreign as any.
    expect(await call('POST', '/consultants/switch_company', '', { headers: { authorization: `Bearer ${consultant.refreshToken}` }, json: { company_id: stranger.companyId } })).toMatchObject({
      status: 403,
      body: error(m.noAccessThere),
    });
    // A member naming the consultant's user (an assignee) finds nobody of their company.
    expect((await call('GET', '/load_users', farm.admin.token, { query: { company_id: farm.companyId, user_id: consultant.userId } })).status).toBe(403);
  });
});

describe('revocation and expiry take effect at once', () => {
  it('revoked: the very next request with the same token answers 403, pushes too; their own account calls still answer', async () => {
    const consultant = await newConsultant();
    expect((await call('GET', '/get_unresolved_problems_for_room', consultant.token, { query: { room_id: data.roomId } })).status).toBe(200);
    const access = await grantOf(farm, consultant.email);
    const revoked = await ok<{ access: ConsultantAccessRecord }>(call('POST', '/consultants/revoke', farm.admin.token, { json: { access_id: access!.access_id } }));
    expect(revoked.access).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });

    for (const response of [
      await call('GET', '/get_unresolved_problems_for_room', consultant.token, { query: { room_id: data.roomId } }),
      await call('GET', '/sync/pull', consultant.token, { query: { collection: 'rooms' } }),
      await call('POST', '/add_comment', consultant.token, { json: { ResponseID: data.responseId, UserID: consultant.userId, CommentText: 'After revocation' } }),
      await call('POST', '/sync/push', consultant.token, { json: { entries: [] } }),
    ]) {
      expect(response).toMatchObject({ status: 403, body: error(m.accessEnded) });
    }
    // Its own calls: no company left to switch to; a refresh keeps the company, and still nothing is read there.
    expect(await ok<{ companies: ConsultantCompanyRecord[] }>(call('GET', '/consultants/my_companies', consultant.token))).toMatchObject({ companies: [] });
    const refreshed = await ok<{ access_token: string }>(server.request('POST', '/refresh_token', { headers: { authorization: `Bearer ${consultant.refreshToken}` } }));
    expect(await call('GET', '/get_comments', refreshed.access_token, { query: { ResponseID: data.responseId } })).toMatchObject({ status: 403, body: error(m.accessEnded) });
    // A sign-in without any active grant is refused, and so is revoking twice.
    expect(await server.request('POST', '/login', { form: { email: consultant.email, password: consultant.password } })).toMatchObject({ status: 403, body: error(m.noActiveAccess) });
    expect(await call('POST', '/consultants/revoke', farm.admin.token, { json: { access_id: access!.access_id } })).toMatchObject({ status: 409, body: error(m.alreadyRevoked) });
    expect((await grantOf(farm, consultant.email)) ?? null).toBeNull();
  });

  it('expired: the next request answers 403, and the list says expired', async () => {
    const consultant = await newConsultant();
    expect((await call('GET', '/get_comments', consultant.token, { query: { ResponseID: data.responseId } })).status).toBe(200);
    const access = await grantOf(farm, consultant.email);
    // Its end passes (the clock moved on).
    await server.database.db.updateTable('consultant_access').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', access!.access_id).execute();
    expect(await call('GET', '/get_comments', consultant.token, { query: { ResponseID: data.responseId } })).toMatchObject({ status: 403, body: error(m.accessEnded) });
    expect((await grants(farm)).find((grant) => grant.access_id === access!.access_id)?.status).toBe('expired');
    // An expired invitation's link no longer works either.
    const email = newEmail();
    await invite(farm.admin, email);
    const link = await mailedToken(email, 0);
    await server.database.db.updateTable('consultant_access').set({ expires_at: new Date(Date.now() - 1000) }).where('email', '=', email).execute();
    expect(await accept({ invite_token: link, first_name: 'A', last_name: 'B', password: 'a-good-password' })).toMatchObject({ status: 400, body: error(m.inviteExpired) });
  });
});

describe('one consultant, several companies', () => {
  it('lists the companies that invited them and switches between them; each session reads its own company only', async () => {
    const consultant = await newConsultant(farm);
    await grantTo(consultant, other);
    const shown = await server.request('GET', '/consultants/invitation', { query: { invite_token: 'x'.repeat(43) } });
    expect(shown.status).toBe(400);

    const { companies } = await ok<{ companies: ConsultantCompanyRecord[] }>(call('GET', '/consultants/my_companies', consultant.token));
    expect(companies.map((company) => [company.company_id, company.current]).sort()).toEqual(
      [
        [farm.companyId, true],
        [other.companyId, false],
      ].sort(),
    );

    const switched = await ok<{ access_token: string; refresh_token: string; company_id: number; user_role: string }>(
      server.request('POST', '/consultants/switch_company', { headers: { authorization: `Bearer ${consultant.refreshToken}` }, json: { company_id: other.companyId } }),
    );
    expect(switched).toMatchObject({ company_id: other.companyId, user_role: 'Consultant', user_id: consultant.userId });
    expect((await call('GET', '/get_field_responses', switched.access_token, { query: { response_id: theirs.responseId } })).status).toBe(200);
    expect(await call('GET', '/get_field_responses', switched.access_token, { query: { response_id: data.responseId } })).toMatchObject({ status: 403, body: error(httpMessages.otherCompany) });
    // The token switched from is spent; a refresh of the new one keeps the company switched to.
    expect((await server.request('POST', '/consultants/switch_company', { headers: { authorization: `Bearer ${consultant.refreshToken}` }, json: { company_id: farm.companyId } })).status).toBe(401);
    const refreshed = await ok<{ access_token: string }>(server.request('POST', '/refresh_token', { headers: { authorization: `Bearer ${switched.refresh_token}` } }));
    expect((await call('GET', '/get_field_responses', refreshed.access_token, { query: { response_id: theirs.responseId } })).status).toBe(200);
    // The next sign-in starts in the last used company.
    expect(await signIn(server, consultant.email, consultant.password)).toMatchObject({ company_id: other.companyId });

    // Revoked by one company, the other's access goes on.
    const access = await grantOf(other, consultant.email);
    await ok(call('POST', '/consultants/revoke', other.admin.token, { json: { access_id: access!.access_id } }));
    expect(await call('GET', '/get_field_responses', refreshed.access_token, { query: { response_id: theirs.responseId } })).toMatchObject({ status: 403, body: error(m.accessEnded) });
    const back = await signIn(server, consultant.email, consultant.password);
    expect(back.company_id).toBe(farm.companyId);
    expect((await call('GET', '/get_field_responses', back.access_token, { query: { response_id: data.responseId } })).status).toBe(200);
  });

  it('switching is for consultants only', async () => {
    const member = await server.request('POST', '/consultants/switch_company', { headers: { authorization: `Bearer ${farm.regular.refreshToken}` }, json: { company_id: other.companyId } });
    expect(member).toMatchObject({ status: 403, body: error(m.onlyConsultants) });
    expect((await call('GET', '/consultants/my_companies', farm.admin.token)).status).toBe(403);
    expect((await server.request('POST', '/consultants/switch_company', { json: { company_id: farm.companyId } })).status).toBe(401);
  });
});
