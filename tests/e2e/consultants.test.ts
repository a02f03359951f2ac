/**
 * Outside consultants end to end (issue 18 "Consultants"), in a real Chromium against the real server
 * with mail caught by an SMTP stand-in: an Admin invites a consultant from the consultants screen; the
 * consultant opens the mailed link, makes an account, signs in, reads the company's pest map (read-only:
 * no actions offered) and comments on a task; the Admin revokes the access; the consultant's next action
 * is refused by the server and the app says so. Screenshots and axe on each screen. Nothing is mocked.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultantMessages } from '../../common/messages/consultants';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createFormTemplate, createGrid, createRoom, createTenant } from '../support/factories';
import { ConsultantsPage } from './consultants-page';
import { PestPressurePage } from './pest-pressure-page';

let e2e: E2E;
const db = () => e2e.server.database.db;

describe.skipIf(skipBrowser)('outside consultants in Chromium', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('an Admin invites a consultant, who reads the pest map and comments, and is refused once revoked', async () => {
    const farm = await createTenant(e2e.server);
    const company = await db().selectFrom('companies').select('name').where('id', '=', farm.companyId).executeTakeFirstOrThrow();
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room C');
    const [box] = (await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bay C')).boxIds as [number];
    const post = async <T,>(path: string, json: Record<string, unknown>, token = farm.admin.token) => {
      const response = await e2e.server.request<T>('POST', path, { token, json });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    await post('/create_gridbox_problem', { GridBoxID: box, problem_type: 'Western flower thrips', severity: 3, user_id: farm.admin.id });
    const form = await createFormTemplate(e2e.server, farm.admin, farm.companyId, { name: 'Thrips check', category: 'Scouting', fields: [{ name: 'Pests seen', type: 'Text' }] });
    const { response_id } = await post<{ response_id: number }>(
      '/submit_form',
      { GridBoxID: box, submittedBy: farm.regular.id, fieldResponses: [{ fieldID: form.fieldIds[0], inputData: 'Thrips on the flowers' }] },
      farm.regular.token,
    );
    await post('/update_task_fields', { response_id, title: 'Check the thrips in Bay C' }, farm.regular.token);

    // The Admin invites the consultant for 30 days.
    const email = `ipm-${randomUUID().slice(0, 8)}@example.test`;
    const adminTab = await e2e.newPage();
    const admin = new ConsultantsPage(adminTab.page);
    await admin.signIn(farm.admin);
    await admin.openConsultants();
    await admin.page.getByText('No consultants yet. Invite one above.').waitFor();
    await admin.invite(email, '30 days');
    await admin.row(email, 'Invited').waitFor();
    expect(await admin.row(email, 'Invited').innerText()).toMatch(/access until/);
    await admin.shot('consultants-invited');

    // The consultant opens the mailed link and makes an account.
    const mail = await e2e.server.mailTo(email, 30_000);
    const link = /(\/consultantInvite\?invite_token=[A-Za-z0-9_%-]+)/.exec(mail.text)?.[1];
    expect(link, mail.text).toBeDefined();
    const consultantTab = await e2e.newPage();
    const consultant = new ConsultantsPage(consultantTab.page);
    const password = `pw-${randomUUID()}`;
    await consultant.acceptInvitation(link!, { firstName: 'Ines', lastName: 'Advisor', password });
    const account = await db().selectFrom('users').select(['id', 'role', 'company_id']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ role: 'Consultant', company_id: null });

    // Signed in: read-only, in the inviting company, with no screen that only changes data.
    await consultant.signIn({ email, password });
    await consultant.bar().getByText(`consultant access to ${company.name} until`).waitFor({ timeout: 30_000 });
    const navigation = consultant.page.getByRole('navigation', { name: 'Main' });
    expect(await navigation.getByRole('link', { name: 'Scan', exact: true }).count()).toBe(0);
    expect(await navigation.getByRole('link', { name: 'Consultants' }).count()).toBe(0);

    // The pest map: the thrips are circled; nothing is offered to act on them.
    const map = new PestPressurePage(consultant.page);
    await map.openFromRoom('Flower room C');
    await expect.poll(() => map.circles('Bay C', 1, 1), { timeout: 30_000 }).toHaveLength(1);
    expect(await consultant.page.getByRole('button', { name: 'Resolve all in this room' }).count()).toBe(0);
    await consultant.shot('consultant-pest-map');
    await map.openBox('Bay C', 1, 1);
    await map.panel().getByRole('listitem', { name: 'Western flower thrips' }).waitFor();
    expect(await map.panel().getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await consultant.shot('consultant-pest-map-box');
    await map.panel().getByRole('button', { name: 'Close' }).click();

    // A comment on the task: it reaches the server as the consultant's.
    await consultant.openTask('Check the thrips in Bay C');
    expect(await consultant.page.getByRole('group', { name: 'Status' }).count()).toBe(0);
    await consultant.comment('Release Orius in Bay C this week');
    await consultant.synced();
    const comments = await db().selectFrom('response_comments').select(['comment_text', 'user_id']).where('response_id', '=', response_id).execute();
    expect(comments).toEqual([{ comment_text: 'Release Orius in Bay C this week', user_id: account.id }]);
    await consultant.shot('consultant-task-comment');

    // The Admin sees the consultant active by name, and revokes the access.
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
    await admin.rendered('Rooms');
    await admin.openConsultants();
    await admin.row('Ines Advisor', 'Active').waitFor();
    await admin.row('Ines Advisor', 'Active').getByRole('button', { name: 'Revoke…' }).click();
    await admin.shot('consultants-revoke-question');
    await admin.page.getByRole('group', { name: 'Revoke the access of Ines Advisor?' }).getByRole('button', { name: 'Revoke access' }).click();
    await admin.row('Ines Advisor', 'Revoked').waitFor();
    await admin.shot('consultants-revoked');

    // The consultant's next action is refused, and the app says so: the change failed with the server's
    // words, and the bar says the access has ended.
    await consultant.comment('One more note after the revocation');
    await expect
      .poll(async () => (await consultant.outboxEntries()).map((entry) => [entry.state, entry.error]), { timeout: 30_000 })
      .toEqual([['failed', consultantMessages.accessEnded]]);
    await consultant.bar().getByRole('alert').getByText(`Your consultant access to ${company.name} has ended`).waitFor({ timeout: 30_000 });
    await expect.poll(() => consultant.syncLabel(), { timeout: 30_000 }).toMatch(/^1 failed/);
    await consultant.shot('consultant-refused');
    // Refused is not offline: the server answered.
    expect(await consultant.syncLabel()).toMatch(/^1 failed/);
    await consultant.bar().getByRole('alert').waitFor();
    expect(await db().selectFrom('response_comments').select('comment_text').where('response_id', '=', response_id).execute()).toEqual([{ comment_text: 'Release Orius in Bay C this week' }]);
    expect(consultantTab.errors, consultantTab.console.join('\n')).toEqual([]);
    expect(adminTab.errors, adminTab.console.join('\n')).toEqual([]);
  });

  it('a consultant of two companies switches between them: the tablet then holds the other company’s data only', async () => {
    const [first, second] = [await createTenant(e2e.server), await createTenant(e2e.server)];
    const names = await db().selectFrom('companies').select(['id', 'name']).where('id', 'in', [first.companyId, second.companyId]).execute();
    const nameOf = (tenant: typeof first) => names.find((company) => company.id === tenant.companyId)!.name;
    await createRoom(e2e.server, first.companyId, 'Room of the first');
    await createRoom(e2e.server, second.companyId, 'Room of the second');
    // Invited by both through the API; the second acceptance is the last used, so sign-in starts there.
    const email = `agronomist-${randomUUID().slice(0, 8)}@example.test`;
    const password = `pw-${randomUUID()}`;
    for (const [index, tenant] of [first, second].entries()) {
      const invited = await e2e.server.request('POST', '/consultants/invite', { token: tenant.admin.token, json: { email, days: 90 } });
      expect(invited.status, JSON.stringify(invited.body)).toBe(200);
      await expect.poll(() => e2e.server.mail.filter((message) => message.to === email).length, { timeout: 30_000 }).toBe(index + 1);
      const token = /invite_token=([A-Za-z0-9_-]+)/.exec(e2e.server.mail.filter((message) => message.to === email).at(-1)!.text)![1]!;
      const accepted = await e2e.server.request('POST', '/consultants/accept', { json: index === 0 ? { invite_token: token, first_name: 'Ada', last_name: 'Agronomist', password } : { invite_token: token } });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    }

    const { page, errors, console: messages } = await e2e.newPage();
    const consultant = new ConsultantsPage(page);
    await consultant.signIn({ email, password });
    await consultant.bar().getByText(`consultant access to ${nameOf(second)} until`).waitFor({ timeout: 30_000 });
    const roomNames = async () => (await consultant.localDocuments('rooms')).map((room) => room.Name).sort();
    await expect.poll(roomNames, { timeout: 30_000 }).toEqual(['Room of the second']);

    // The switch: the page loads again on the first company's data, the second's gone from the tablet.
    await consultant.bar().getByLabel('Company', { exact: true }).selectOption({ label: nameOf(first) });
    await consultant.shot('consultant-switch');
    await consultant.bar().getByRole('button', { name: 'Switch company' }).click();
    await consultant.bar().getByText(`consultant access to ${nameOf(first)} until`).waitFor({ timeout: 30_000 });
    await expect.poll(() => consultant.companyDataPulled(), { timeout: 60_000 }).toBe(true);
    await expect.poll(roomNames, { timeout: 30_000 }).toEqual(['Room of the first']);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
    await consultant.rendered('Rooms');
    await page.getByRole('listitem', { name: 'Room of the first' }).waitFor();
    expect(await page.getByRole('listitem', { name: 'Room of the second' }).count()).toBe(0);
    await consultant.shot('consultant-switched-rooms');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
