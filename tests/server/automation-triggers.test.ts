/**
 * Notification rules firing (issue 16) over HTTP on a real database, delivered by the real job queue
 * to real local receivers: an SMTP server (smtp-server) for e-mail and a plain HTTP server for Slack
 * (the operator setting ALLOW_PRIVATE_WEBHOOKS is on here, as a receiver on the operator's own network
 * needs it). Each trigger writes one delivery per change (rows of notification_deliveries by rule and
 * trigger key), also when the change is replayed with its Idempotency-Key, alone or in a push, and is
 * stamped with the time the change was made; the clock's rules (template_due, weekly_report) are run
 * for a chosen time through the function the clock's job calls each minute.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { notificationMessages as m } from '../../common/messages/automations';
import { addDaysTo, mondayOf } from '../../common/schemas/report-dates';
import type { PushAnswer } from '../../common/schemas/sync';
import type { DB } from '../../server/db/schema';
import { runDueAutomations } from '../../server/domains/automations/schedules';
import { createFormTemplate, createGrid, createRoom, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { mimeParts, startSmtp, waitFor } from '../support/mail';

/** A webhook receiver on loopback: keeps each JSON body by path, answers 200. */
async function startReceiver() {
  const received: Array<{ path: string; body: unknown }> = [];
  const httpServer: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  httpServer.listen(0, '127.0.0.1');
  await once(httpServer, 'listening');
  return {
    base: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
    at: (path: string) => received.filter((entry) => entry.path === path).map((entry) => entry.body),
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

/** The decoded header of a message (its subject may be encoded-word). */
function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1] ?? '';
  return subject
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_match, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    )
    .trim();
}

/** The plain text of a mail, decoded; a mail without one fails the test. */
function plainTextOf(raw: string): string {
  const part = mimeParts(raw).find((candidate) => candidate.headers.get('content-type')?.startsWith('text/plain'));
  if (!part) throw new Error(`No text/plain part in:\n${raw}`);
  return part.content;
}

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Kysely<DB>;
let farm: Tenant;
let grower: SignedInUser;
let flower: { roomId: number; boxIds: number[] };
let veg: { roomId: number; boxIds: number[] };
let scouting: { templateId: number; fieldIds: number[] };
let traps: { templateId: number; fieldIds: number[] };

type Fields = Record<string, string | number>;

const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });

async function ok(response: Promise<{ status: number; body: unknown }>) {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBe(200);
  return body as Record<string, unknown>;
}

/** A rule made through Create_new_notification by the farm's Admin; answers its id. */
async function rule(form: Fields): Promise<number> {
  return (await ok(call('POST', '/Create_new_notification', farm.admin.token, { query: { user_id: farm.admin.id }, form }))).notification_id as number;
}

/** The deliveries of a rule, oldest first. */
const deliveriesOf = (notificationId: number) => db.selectFrom('notification_deliveries').selectAll().where('notification_id', '=', notificationId).orderBy('id').execute();

const sent = (notificationId: number, count = 1) =>
  waitFor(`${count} deliveries of rule ${notificationId} sent`, async () => {
    const rows = await deliveriesOf(notificationId);
    return rows.length === count && rows.every((row) => row.status === 'sent') ? rows : null;
  });

const mailTo = (address: string, count = 1) =>
  waitFor(`${count} mail(s) to ${address}`, () => {
    const found = smtp.messages.filter((message) => message.recipients.includes(address));
    return found.length >= count ? found : null;
  });

/** A problem recorded on a box by the grower, as of `actedAt`. */
async function recordProblem(box: number, problemType: string, actedAt = new Date()): Promise<number> {
  const body = await ok(
    call('POST', '/create_gridbox_problem', grower.token, { json: { GridBoxID: box, problem_type: problemType, severity: 3, user_id: grower.id }, headers: { 'X-Acted-At': actedAt.toISOString() } }),
  );
  return (body.problem as { problem_id: number }).problem_id;
}

/** A response of a form for a box, by the grower. */
async function submit(form: { fieldIds: number[] }, box: number, answer: string, headers?: Record<string, string>): Promise<number> {
  const body = await ok(call('POST', '/submit_form', grower.token, { json: { GridBoxID: box, submittedBy: grower.id, fieldResponses: [{ fieldID: form.fieldIds[0], inputData: answer }] }, ...(headers ? { headers } : {}) }));
  return body.response_id as number;
}

/** Pushes one entry, as a tablet replays its outbox; answers the entry's status. */
async function push(user: SignedInUser, entry: { id: string; method: string; path: string; actedAt: string; body: unknown }): Promise<number> {
  const pushed = await server.request<PushAnswer>('POST', '/sync/push', { token: user.token, json: { entries: [entry] } });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
  return pushed.body.results[0]!.status;
}

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver();
  server = await startServer({ smtpUrl: smtp.url, allowPrivateWebhooks: true });
  db = server.database.db;
  farm = await createTenant(server);
  grower = await createUser(server, farm.companyId, 'Regular');
  const flowerRoom = await createRoom(server, farm.companyId, 'Flower 1');
  const vegRoom = await createRoom(server, farm.companyId, 'Veg 2');
  flower = { roomId: flowerRoom, boxIds: (await createGrid(server, farm.companyId, flowerRoom, 2, 2, 'Bench A')).boxIds };
  veg = { roomId: vegRoom, boxIds: (await createGrid(server, farm.companyId, vegRoom, 2, 1, 'Bench V')).boxIds };
  scouting = await createFormTemplate(server, farm.admin, farm.companyId, {
    name: 'Weekly scouting',
    category: 'Scouting',
    fields: [
      { name: 'Pests seen', type: 'Text' },
      { name: 'Problems', type: 'Problem' },
    ],
  });
  traps = await createFormTemplate(server, farm.admin, farm.companyId, { name: 'Trap count', category: 'Sticky Trap', fields: [{ name: 'Count', type: 'Number' }] });
});

afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await receiver?.close();
});

describe('a problem recorded', () => {
  let inFlower: number;
  let anywhere: number;
  beforeAll(async () => {
    inFlower = await rule({ method: 'email', problem_type: 'Thrips', room_id: flower.roomId, email_recipient: 'thrips@example.test' });
    anywhere = await rule({ method: 'Slack', problem_type: 'thrips', slack_webhook_url: `${receiver.base}/slack/thrips` });
  });

  it('notifies each rule it matches once, as of when it was seen, by e-mail and Slack', async () => {
    const seenAt = new Date(Date.now() - 2 * 3_600_000);
    const problem = await recordProblem(flower.boxIds[0]!, 'Thrips', seenAt);
    await recordProblem(flower.boxIds[1]!, 'Powdery mildew');
    const elsewhere = await recordProblem(veg.boxIds[0]!, 'THRIPS');

    const [byMail] = await sent(inFlower);
    expect(byMail).toMatchObject({ trigger_key: `problem:${problem}`, method: 'email', recipient: 'thrips@example.test', subject: 'Thrips recorded in room Flower 1' });
    expect(byMail!.acted_at.toISOString()).toBe(seenAt.toISOString());
    const bySlack = await sent(anywhere, 2);
    expect(bySlack.map((row) => row.trigger_key)).toEqual([`problem:${problem}`, `problem:${elsewhere}`]);

    const [mail] = await mailTo('thrips@example.test');
    expect(subjectOf(mail!.raw)).toBe('Thrips recorded in room Flower 1');
    const text = plainTextOf(mail!.raw);
    expect(text).toContain('Thrips (severity 3) was recorded on box 1,1 of grid Bench A in room Flower 1 by');
    const messages = receiver.at('/slack/thrips') as Array<{ text: string; blocks: Array<{ type: string; text?: { text: string } }> }>;
    // Sent side by side: in either order.
    expect(messages).toHaveLength(2);
    expect(messages.map((message) => message.blocks[0])).toContainEqual({ type: 'header', text: { type: 'plain_text', text: 'Thrips recorded in room Flower 1', emoji: true } });
    expect(messages.some((message) => message.text.includes('THRIPS recorded in room Veg 2'))).toBe(true);
  });

  it('notifies once for a problem whose push is replayed (its answer lost)', async () => {
    const entry = {
      id: randomUUID(),
      method: 'POST',
      path: '/create_gridbox_problem',
      actedAt: new Date(Date.now() - 3_600_000).toISOString(),
      body: { kind: 'json', data: { GridBoxID: flower.boxIds[2], problem_type: 'Thrips', severity: 2, user_id: grower.id, client_id: newClientId() } },
    };
    expect(await push(grower, entry)).toBe(200);
    expect(await push(grower, entry)).toBe(200);
    const problems = await db.selectFrom('plant_problems').select('id').where('grid_box_id', '=', flower.boxIds[2]!).execute();
    expect(problems).toHaveLength(1);
    const rows = (await deliveriesOf(inFlower)).filter((row) => row.trigger_key === `problem:${problems[0]!.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.acted_at.toISOString()).toBe(entry.actedAt);
  });

  it('notifies per box for a form naming the problem on several boxes', async () => {
    const before = (await deliveriesOf(inFlower)).length;
    const body = await ok(
      call('POST', '/submit_form_boxes', grower.token, { json: { GridBoxIDs: [String(flower.boxIds[0]), String(flower.boxIds[3])], submittedBy: grower.id, fieldResponses: [{ fieldID: scouting.fieldIds[1], inputData: 'Thrips (2)' }] } }),
    );
    expect(body.response_ids).toHaveLength(2);
    expect((await deliveriesOf(inFlower)).length).toBe(before + 2);
  });
});

describe('a form submitted, a keyword answered', () => {
  let scoutingSubmitted: number;
  let keyword: number;
  beforeAll(async () => {
    scoutingSubmitted = await rule({ method: 'email', form_category: 'Scouting', email_recipient: 'forms@example.test' });
    keyword = await rule({ method: 'email', is_automation: 1, template_id: scouting.templateId, form_field_id: scouting.fieldIds[0]!, keyword: 'thrips', email_recipient: 'keyword@example.test' });
  });

  it('notifies the form’s category and the keyword in its watched field, in any case', async () => {
    const formsBefore = (await deliveriesOf(scoutingSubmitted)).length;
    const matching = await submit(scouting, veg.boxIds[1]!, 'Some THRIPS under the leaves');
    const plain = await submit(scouting, veg.boxIds[1]!, 'aphids only');
    await submit(traps, veg.boxIds[1]!, '12');
    const forms = (await deliveriesOf(scoutingSubmitted)).slice(formsBefore);
    expect(forms.map((row) => row.trigger_key)).toEqual([`response:${matching}`, `response:${plain}`]);
    const [found] = await sent(keyword);
    expect(found).toMatchObject({ trigger_key: `response:${matching}`, subject: '“thrips” in Pests seen of Weekly scouting in room Veg 2' });
    const [mail] = await mailTo('keyword@example.test');
    const text = plainTextOf(mail!.raw);
    expect(text).toContain('Pests seen answered “Some THRIPS under the leaves” on Weekly scouting for box 2,1 of grid Bench V in room Veg 2');
    expect(text).toContain('Open the observations: http://grow.test/dashboard/observations');
  });

  it('notifies once for a submission replayed with its Idempotency-Key, alone or in a push, as of when it was made', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await submit(scouting, veg.boxIds[0]!, 'thrips', headers);
    expect(await submit(scouting, veg.boxIds[0]!, 'thrips', headers)).toBe(first);
    expect((await deliveriesOf(keyword)).filter((row) => row.trigger_key === `response:${first}`)).toHaveLength(1);

    const clientId = newClientId();
    const entry = {
      id: randomUUID(),
      method: 'POST',
      path: '/submit_form',
      actedAt: new Date(Date.now() - 3_600_000).toISOString(),
      body: { kind: 'json', data: { GridBoxID: veg.boxIds[0], submittedBy: grower.id, fieldResponses: [{ fieldID: scouting.fieldIds[0], inputData: 'Thrips!' }], client_id: clientId } },
    };
    expect(await push(grower, entry)).toBe(200);
    expect(await push(grower, entry)).toBe(200);
    const response = await db.selectFrom('form_responses').select('id').where('client_id', '=', clientId).executeTakeFirstOrThrow();
    for (const ruleId of [keyword, scoutingSubmitted]) {
      const rows = (await deliveriesOf(ruleId)).filter((row) => row.trigger_key === `response:${response.id}`);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.acted_at.toISOString()).toBe(entry.actedAt);
    }
  });
});

describe('a task assigned, a task done', () => {
  let assigned: number;
  let done: number;
  beforeAll(async () => {
    assigned = (await ok(call('POST', '/create_task_notification', farm.admin.token, { json: { user_id: farm.admin.id, method: 'email', email_recipient: 'assigned@example.test' } }))).notification_id as number;
    done = (await ok(call('POST', '/create_task_notification', farm.admin.token, { json: { user_id: farm.admin.id, method: 'email', triggered_by: 'done', email_recipient: 'done@example.test' } })))
      .notification_id as number;
  });

  const updateTask = (fields: Record<string, unknown>, headers?: Record<string, string>) => ok(call('POST', '/update_task_fields', farm.admin.token, { json: fields, ...(headers ? { headers } : {}) }));

  it('notifies when a task gets an assignee it did not have, and when it becomes done', async () => {
    const responseId = await submit(traps, flower.boxIds[0]!, '3');
    const made = await updateTask({ response_id: responseId, title: 'Change the traps', assignee_user_id: grower.id });
    const taskId = made.task_id as number;
    await updateTask({ response_id: responseId, description: 'Yellow ones' });
    await updateTask({ response_id: responseId, assignee_user_id: grower.id, status: 'in progress' });
    await updateTask({ response_id: responseId, assignee_user_id: farm.admin.id });
    const rows = await sent(assigned, 2);
    expect(rows.map((row) => row.trigger_key)).toEqual([`task:${taskId}:assigned:${grower.id}`, `task:${taskId}:assigned:${farm.admin.id}`]);
    expect(rows[0]!.subject).toMatch(/^Task assigned to .+: Change the traps$/);

    const closedAt = new Date(Date.now() - 600_000);
    await updateTask({ response_id: responseId, status: 'done' }, { 'X-Acted-At': closedAt.toISOString() });
    await updateTask({ response_id: responseId, status: 'done' });
    const [closed] = await sent(done);
    expect(closed).toMatchObject({ trigger_key: `task:${taskId}:done:${closedAt.getTime()}`, subject: 'Task done: Change the traps' });
    expect(closed!.acted_at.toISOString()).toBe(closedAt.toISOString());
    const [mail] = await mailTo('done@example.test');
    expect(subjectOf(mail!.raw)).toBe('Task done: Change the traps');
    // Reopened and done again: a new closing, a new message.
    await updateTask({ response_id: responseId, status: 'open' });
    await updateTask({ response_id: responseId, status: 'done' });
    expect(await deliveriesOf(done)).toHaveLength(2);
  });

  it('notifies once for a change pushed twice', async () => {
    const responseId = await submit(traps, flower.boxIds[1]!, '4');
    const before = (await deliveriesOf(assigned)).length;
    const entry = { id: randomUUID(), method: 'POST', path: '/update_task_fields', actedAt: new Date().toISOString(), body: { kind: 'json', data: { response_id: responseId, assignee_user_id: grower.id } } };
    expect(await push(farm.admin, entry)).toBe(200);
    expect(await push(farm.admin, entry)).toBe(200);
    expect((await deliveriesOf(assigned)).length).toBe(before + 1);
  });

  it('notifies of the task an automation makes, assigned', async () => {
    const taskForm = await createFormTemplate(server, farm.admin, farm.companyId, { name: 'Spray task', category: 'Task', fields: [{ name: 'Done how', type: 'Text' }] });
    const watched = await createFormTemplate(server, farm.admin, farm.companyId, { name: 'Quick look', category: 'General', fields: [{ name: 'Seen', type: 'Text' }] });
    await ok(call('POST', '/submit_task_automation', farm.admin.token, { form: { template_id: watched.templateId, form_field_id: watched.fieldIds[0]!, keyword: 'mites', task_template_id: taskForm.templateId, assignee_user_id: grower.id } }));
    const responseId = await submit(watched, veg.boxIds[0]!, 'spider mites everywhere');
    const task = await db.selectFrom('tasks').select('id').where('response_id', '=', responseId).executeTakeFirstOrThrow();
    expect((await deliveriesOf(assigned)).map((row) => row.trigger_key)).toContain(`task:${task.id}:assigned:${grower.id}`);
  });
});

describe('a form not filled by its due time', () => {
  it('reminds at the due time when no response came since the previous one, not when one did; once per due time', async () => {
    // Daily, two hours from now (UTC): its first due time is after the rule was saved.
    const due = new Date(Math.floor((Date.now() + 2 * 3_600_000) / 60_000) * 60_000);
    const time = due.toISOString().slice(11, 16);
    const template = (fields: Fields) => ok(call('POST', '/create_template_notification', farm.admin.token, { query: { user_id: farm.admin.id }, form: { method: 'email', notification_time: time, ...fields } }));
    const irrigation = await createFormTemplate(server, farm.admin, farm.companyId, { name: 'Irrigation check', category: 'General', fields: [{ name: 'Drippers clear', type: 'Text' }] });
    const quiet = (await template({ template_id: irrigation.templateId, room_id: veg.roomId, email_recipient: 'due@example.test' })).notification_id as number;
    const filled = (await template({ template_id: scouting.templateId, room_id: flower.roomId, email_recipient: 'filled@example.test' })).notification_id as number;
    await submit(scouting, flower.boxIds[2]!, 'all clear');

    // Before its first due time, nothing.
    await runDueAutomations(db, new Date(due.getTime() - 60_000));
    expect(await deliveriesOf(quiet)).toEqual([]);
    const after = new Date(due.getTime() + 60_000);
    await runDueAutomations(db, after);
    await runDueAutomations(db, new Date(due.getTime() + 120_000));
    const [reminder] = await sent(quiet);
    expect(reminder).toMatchObject({ trigger_key: `due:${quiet}:${due.toISOString()}`, subject: 'Irrigation check in Veg 2 is due', recipient: 'due@example.test' });
    expect(reminder!.acted_at.toISOString()).toBe(due.toISOString());
    expect(await deliveriesOf(filled)).toEqual([]);
    const [mail] = await mailTo('due@example.test');
    expect(subjectOf(mail!.raw)).toBe('Irrigation check in Veg 2 is due');
    const text = plainTextOf(mail!.raw);
    expect(text).toContain(`It is due daily at ${time} UTC`);

    // A day later, the same: a second reminder for the quiet one.
    await runDueAutomations(db, new Date(after.getTime() + 86_400_000));
    expect(await deliveriesOf(quiet)).toHaveLength(2);
  });
});

describe('the weekly report', () => {
  it('arrives by e-mail with its summary and the weekly counts as CSV, once per week', async () => {
    const id = await rule({ method: 'email', weekly_report: 1, report_duration_weeks: 2, email_recipient: 'weekly@example.test' });
    const thisMonday = mondayOf(new Date().toISOString().slice(0, 10));
    // Next Monday 08:00 UTC: the report covers this week and the one before.
    const due = new Date(`${addDaysTo(thisMonday, 7)}T08:00:00Z`);
    expect(await runDueAutomations(db, new Date(due.getTime() + 60_000))).toBeGreaterThanOrEqual(1);
    await runDueAutomations(db, new Date(due.getTime() + 120_000));
    const [row] = await sent(id);
    const period = `${addDaysTo(thisMonday, -7)} to ${addDaysTo(thisMonday, 6)}`;
    expect(row).toMatchObject({ trigger_key: `weekly:${id}:${due.toISOString()}`, subject: expect.stringContaining(`: ${period}`) as unknown });

    const [mail] = await mailTo('weekly@example.test');
    expect(subjectOf(mail!.raw)).toBe(row!.subject);
    const parts = mimeParts(mail!.raw);
    const csv = parts.find((part) => part.headers.get('content-type')?.startsWith('text/csv'));
    expect(csv?.headers.get('content-disposition')).toContain(`weekly-report-${period.replace(' to ', '-to-')}.csv`);
    const lines = csv!.content.trim().split(/\r?\n/);
    expect(lines[0]).toBe('week_start,room,problem_type,count');
    // Every week of each problem seen in a room, zeros included; a type the company spelt two ways is one, shown by one spelling.
    const thripsInFlower = lines.filter((line) => /^\d{4}-\d{2}-\d{2},Flower 1,thrips,\d+$/i.test(line));
    expect(thripsInFlower).toHaveLength(2);
    expect(thripsInFlower.reduce((sum, line) => sum + Number(line.split(',')[3]), 0)).toBeGreaterThanOrEqual(4);
    const html = parts.find((part) => part.headers.get('content-type')?.startsWith('text/html'))!.content;
    expect(html).toContain('Top problems by room');
    expect(html).toContain('Flower 1');
    expect(html).toContain('http://grow.test/dashboard/reports');
    const text = parts.find((part) => part.headers.get('content-type')?.startsWith('text/plain'))!.content;
    expect(text).toMatch(/Open tasks: \d+ open, \d+ in progress\./);
    expect(text).toMatch(/thrips: \d+ in all; last week \d+/i);
  });

  it('goes to Slack as text with a link to the reports, without an attachment (its test too)', async () => {
    const id = await rule({ method: 'Slack', weekly_report: 1, slack_webhook_url: `${receiver.base}/slack/weekly` });
    const test = await ok(call('POST', '/send_test_notification', farm.admin.token, { json: { notification_id: id } }));
    expect(test.message).toBe(m.testQueued);
    const [row] = await sent(id);
    expect(row!.attachment).toBeNull();
    expect(row!.subject).toMatch(/^\[Test\] Weekly report for /);
    const [message] = (await waitFor('the weekly report at the receiver', () => (receiver.at('/slack/weekly').length > 0 ? receiver.at('/slack/weekly') : null))) as Array<{
      blocks: Array<{ type: string; elements?: Array<{ url: string }> }>;
    }>;
    expect(message!.blocks.find((block) => block.type === 'actions')?.elements?.[0]?.url).toBe('http://grow.test/dashboard/reports');
  });
});

describe('in the company’s language', () => {
  /** A company speaking `language` (as set_company_language stores it), with a room of one box and a grower. */
  async function companySpeaking(language: string, name: string, roomName: string) {
    const company = await createTenant(server, name);
    await ok(call('POST', '/set_company_language', company.admin.token, { query: { company_id: company.companyId, language } }));
    const member = await createUser(server, company.companyId, 'Regular');
    const roomId = await createRoom(server, company.companyId, roomName);
    const { boxIds } = await createGrid(server, company.companyId, roomId, 1, 1, 'Mesa A');
    const ruleOf = async (form: Fields) => (await ok(call('POST', '/Create_new_notification', company.admin.token, { query: { user_id: company.admin.id }, form }))).notification_id as number;
    return { company, member, roomId, boxId: boxIds[0]!, ruleOf };
  }

  it('a Spanish company’s notification, its test, and its invitation come in Spanish; the names it typed stay as typed', async () => {
    const finca = await companySpeaking('es-ES', 'Finca Sol', 'Flor 1');
    const id = await finca.ruleOf({ method: 'email', problem_type: 'Trips', room_id: finca.roomId, email_recipient: 'trips@finca.test' });
    await ok(call('POST', '/create_gridbox_problem', finca.member.token, { json: { GridBoxID: finca.boxId, problem_type: 'Trips', severity: 2, user_id: finca.member.id } }));
    const [mail] = await mailTo('trips@finca.test');
    expect(subjectOf(mail!.raw)).toBe('Trips registrado en la sala Flor 1');
    const text = plainTextOf(mail!.raw);
    expect(text).toContain(' registró Trips (gravedad 2) en la caja 1,1 de la cuadrícula Mesa A de la sala Flor 1, ');
    expect(text).toMatch(/Abrir Flor 1: http:\/\/grow\.test\/dashboard\/rooms\//);

    // The test names the rule as the audit trail does, in the same words as the tablet's Spanish.
    await ok(call('POST', '/send_test_notification', finca.company.admin.token, { json: { notification_id: id } }));
    const [, test] = await mailTo('trips@finca.test', 2);
    expect(subjectOf(test!.raw)).toBe('[Prueba] Trips registrado en Flor 1');
    expect(plainTextOf(test!.raw)).toContain('Esta es una prueba de la notificación «Trips registrado en Flor 1».');

    await ok(call('POST', '/create_invitation', finca.company.admin.token, { json: { email: 'nueva@finca.test', role: 'Admin' } }));
    const [invitation] = await mailTo('nueva@finca.test');
    expect(subjectOf(invitation!.raw)).toBe('Le han invitado a Grow Room');
    expect(plainTextOf(invitation!.raw)).toContain('Le han invitado a unirse a su equipo en Grow Room como administrador.');
  });

  it('a Dutch company’s weekly report, due reminder and password reset come in Dutch; a language the app does not speak gets English', async () => {
    const kwekerij = await companySpeaking('nl', 'Kwekerij Zon', 'Bloei 2');
    const weekly = await kwekerij.ruleOf({ method: 'Slack', weekly_report: 1, slack_webhook_url: `${receiver.base}/slack/weekly-nl` });
    await ok(call('POST', '/send_test_notification', kwekerij.company.admin.token, { json: { notification_id: weekly } }));
    const [report] = (await waitFor('the Dutch weekly report at the receiver', () => (receiver.at('/slack/weekly-nl').length > 0 ? receiver.at('/slack/weekly-nl') : null))) as Array<{
      blocks: Array<{ type: string; text?: { text: string }; elements?: Array<{ text: { text: string } }> }>;
    }>;
    expect(report!.blocks[0]!.text!.text).toMatch(/^\[Test\] Weekrapport van Kwekerij Zon: \d{4}-\d{2}-\d{2} tot en met \d{4}-\d{2}-\d{2}$/);
    const sections = report!.blocks.filter((block) => block.type === 'section').map((block) => block.text!.text).join('\n');
    expect(sections).toContain('Vastgelegde problemen: 0.');
    expect(sections).toContain('Er zijn geen problemen vastgelegd.');
    expect(report!.blocks.find((block) => block.type === 'actions')?.elements?.[0]?.text.text).toBe('De rapporten openen');

    // A weekly scouting due Mondays at 08:00 in the room, never filled: its reminder, as the clock sends it.
    const form = await createFormTemplate(server, kwekerij.company.admin, kwekerij.company.companyId, { name: 'Wekelijkse inspectie', category: 'Scouting', fields: [{ name: 'Plagen', type: 'Text' }] });
    await ok(
      call('POST', '/create_template_notification', kwekerij.company.admin.token, {
        query: { user_id: kwekerij.company.admin.id },
        form: { method: 'email', template_id: form.templateId, room_id: kwekerij.roomId, frequency: 'weekly', weekday: 'Monday', notification_time: '08:00', email_recipient: 'teelt@kwekerij.test' },
      }),
    );
    const nextMonday = new Date(`${addDaysTo(mondayOf(new Date().toISOString().slice(0, 10)), 7)}T08:00:00Z`);
    await runDueAutomations(db, new Date(nextMonday.getTime() + 60_000));
    const [reminder] = await mailTo('teelt@kwekerij.test');
    expect(subjectOf(reminder!.raw)).toBe('Wekelijkse inspectie in Bloei 2 moet worden ingevuld');
    expect(plainTextOf(reminder!.raw)).toContain('Het moet elke maandag om 08:00 UTC worden ingevuld; deze herinnering is voor ');

    await ok(call('POST', '/request_password_reset', '', { form: { email: kwekerij.member.email } }));
    const [reset] = await mailTo(kwekerij.member.email);
    expect(subjectOf(reset!.raw)).toBe('Stel uw wachtwoord opnieuw in');

    const fazenda = await companySpeaking('pt-BR', 'Fazenda Sol', 'Flor 3');
    await ok(call('POST', '/request_password_reset', '', { form: { email: fazenda.member.email } }));
    const [english] = await mailTo(fazenda.member.email);
    expect(subjectOf(english!.raw)).toBe('Reset your password');
  });
});
