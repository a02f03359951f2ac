/**
 * Notification rules (issue 16; spec part 2 §3, §5, §7, §9) over HTTP on a real database: the three
 * create calls with every message, saving a rule again by id or client id, the company's list, the
 * fields a keyword automation can watch, deletion, the delivery log and "send a test" (delivered to the
 * test server's SMTP catcher), who may do what, another company's rules refused, and webhooks to
 * addresses the server may not call refused when a rule is saved (the operator setting is off here; the
 * trigger tests run with it on).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { KEYWORD_FIELD_TYPES, notificationMessages as m } from '../../common/messages/automations';
import { httpMessages } from '../../common/messages/http';
import type { AutomationFieldRecord, DeliveryRecord, NotificationRecord } from '../../common/schemas/automations';
import { createFormTemplate, createRoom, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type ApiResponse, type RequestOptions, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let superAdmin: SignedInUser;
let roomId: number;
let otherRoomId: number;
let scouting: { templateId: number; fieldIds: number[] };
let otherForm: { templateId: number; fieldIds: number[] };

type Fields = Record<string, string | number>;
type Saved = { status: string; message: string; notification: NotificationRecord; notification_id: number; client_id: string; created: boolean };

const error = (message: string) => ({ status: 'error', message });
const forbidden = error(httpMessages.otherCompany);
const roleForbidden = error(httpMessages.roleForbidden);

const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
/** Create_new_notification: query user_id, multipart form (spec §7). */
const createNew = (token: string, userId: number | undefined, form: Fields) => call('POST', '/Create_new_notification', token, { query: { user_id: userId }, form });
const createTask = (token: string, json: Record<string, unknown>) => call('POST', '/create_task_notification', token, { json });
/** create_template_notification: query user_id, form (spec §7). */
const createTemplate = (token: string, userId: number | undefined, form: Fields) => call('POST', '/create_template_notification', token, { query: { user_id: userId }, form });

function saved(response: ApiResponse): Saved {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as unknown as Saved;
}

const auditTitles = async (companyId: number, like: string) =>
  (await server.database.db.selectFrom('audit_events').select('event_title').where('company_id', '=', companyId).where('event_title', 'like', like).execute()).map((row) => row.event_title);

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  const platform = await createTenant(server);
  superAdmin = await createUser(server, platform.companyId, 'SuperAdmin');
  roomId = await createRoom(server, farm.companyId, 'Flower 1');
  otherRoomId = await createRoom(server, other.companyId);
  scouting = await createFormTemplate(server, farm.admin, farm.companyId, {
    name: `Weekly scouting ${randomUUID().slice(0, 6)}`,
    category: 'Scouting',
    fields: [
      { name: 'Pests seen', type: 'Text' },
      { name: 'Photo', type: 'Image' },
      { name: 'Pressure', type: 'Radio', options: ['Low', 'High'] },
    ],
  });
  otherForm = await createFormTemplate(server, other.admin, other.companyId, { name: 'Theirs', category: 'Scouting', fields: [{ name: 'Pests seen', type: 'Text' }] });
});
afterAll(() => server.close());

describe('Create_new_notification', () => {
  it('saves a rule of each kind the fields describe, the method’s recipient only', async () => {
    const clientId = newClientId();
    const problem = saved(
      await createNew(farm.admin.token, farm.admin.id, {
        method: 'email',
        trigger: 'problem_recorded',
        problem_type: 'Thrips',
        room_id: roomId,
        email_recipient: ' grower@example.test; Boss@Example.test ,grower@example.test ',
        // Another method's recipient is not kept: the method decides (spec §5).
        slack_webhook_url: 'https://hooks.example.invalid/services/T/B/x',
        keyword: 'not used by this trigger',
        client_id: clientId,
      }),
    );
    expect(problem).toMatchObject({
      status: 'success',
      message: m.notificationCreated,
      created: true,
      client_id: clientId,
      notification: {
        company_id: farm.companyId,
        user_id: farm.admin.id,
        method: 'email',
        trigger: 'problem_recorded',
        problem_type: 'Thrips',
        room_id: roomId,
        email_recipient: 'grower@example.test;Boss@Example.test',
        slack_webhook_url: null,
        teams_webhook_url: null,
        keyword: null,
        is_automation: 0,
        weekly_report: 0,
      },
    });
    expect(await auditTitles(farm.companyId, 'Created notification: Thrips recorded in Flower 1, by grower@example.test, Boss@Example.test')).toHaveLength(1);

    // The flags of spec §3 name their triggers: weekly_report=1 a weekly report (Mondays 08:00 UTC, 4 weeks by default) …
    const weekly = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'Slack', weekly_report: 1, slack_webhook_url: 'https://hooks.example.invalid/services/weekly' }));
    expect(weekly.notification).toMatchObject({ trigger: 'weekly_report', weekly_report: 1, frequency: 'weekly', weekday: 1, notification_time: '08:00', report_duration_weeks: 4, slack_webhook_url: 'https://hooks.example.invalid/services/weekly', email_recipient: null });
    // … is_automation=1 a keyword automation on a field of a form.
    const keyword = saved(
      await createNew(farm.admin.token, farm.admin.id, { method: 'microsoft teams', is_automation: 1, template_id: scouting.templateId, form_field_id: scouting.fieldIds[0]!, keyword: 'thrips', teams_webhook_url: 'https://hooks.example.invalid/webhookb2/x' }),
    );
    expect(keyword.notification).toMatchObject({ method: 'Microsoft Teams', trigger: 'keyword', is_automation: 1, template_id: scouting.templateId, form_field_id: scouting.fieldIds[0], keyword: 'thrips' });
    // Without a trigger, the fields tell: a form category is a form submitted.
    const category = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', form_category: 'sticky trap', email_recipient: 'traps@example.test' }));
    expect(category.notification).toMatchObject({ trigger: 'form_submitted', form_category: 'Sticky Trap' });
    const weeklyTwo = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', trigger: 'Weekly report', report_duration_weeks: 2, weekday: 'friday', notification_time: '7:30', email_recipient: 'w@example.test' }));
    expect(weeklyTwo.notification).toMatchObject({ trigger: 'weekly_report', report_duration_weeks: 2, weekday: 5, notification_time: '07:30' });
  });

  it('saves a rule again, whole, by its id or its client id', async () => {
    const first = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', problem_type: 'Aphids', email_recipient: 'a@example.test' }));
    const again = saved(await createNew(farm.admin.token, farm.admin.id, { id: first.notification_id, method: 'Slack', problem_type: 'Aphids', room_id: roomId, slack_webhook_url: 'https://hooks.example.invalid/services/aphids' }));
    expect(again).toMatchObject({ message: m.notificationUpdated, created: false, notification_id: first.notification_id, client_id: first.client_id });
    expect(again.notification).toMatchObject({ method: 'Slack', email_recipient: null, slack_webhook_url: 'https://hooks.example.invalid/services/aphids', room_id: roomId });
    const byClientId = saved(await createNew(farm.admin.token, farm.admin.id, { id: first.client_id, method: 'email', form_category: 'Treatment', email_recipient: 'b@example.test' }));
    expect(byClientId.notification).toMatchObject({ id: first.notification_id, trigger: 'form_submitted', form_category: 'Treatment', problem_type: null, room_id: null, slack_webhook_url: null });
    expect(await auditTitles(farm.companyId, 'Updated notification: %')).toHaveLength(2);
    // A rule of another company is not saved again (403), one that does not exist is missing (404).
    const theirs = saved(await createTask(other.admin.token, { user_id: other.admin.id, method: 'email', email_recipient: 'x@example.test' }));
    expect((await createNew(farm.admin.token, farm.admin.id, { id: theirs.notification_id, method: 'email', problem_type: 'Aphids', email_recipient: 'a@example.test' })).body).toEqual(forbidden);
    const missing = await createNew(farm.admin.token, farm.admin.id, { id: 2_000_000_000, method: 'email', problem_type: 'Aphids', email_recipient: 'a@example.test' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(error(httpMessages.recordNotFound('notification 2000000000')));
  });

  it.each([
    ['no user_id', undefined, { method: 'email', problem_type: 'Thrips', email_recipient: 'a@example.test' }, m.userIdAndMethodRequired],
    ['no method', 'admin', { problem_type: 'Thrips', email_recipient: 'a@example.test' }, m.userIdAndMethodRequired],
    ['an unknown method', 'admin', { method: 'carrier pigeon', problem_type: 'Thrips' }, m.methodInvalid],
    ['email without email_recipient', 'admin', { method: 'email', problem_type: 'Thrips', slack_webhook_url: 'https://hooks.example.invalid/x' }, m.emailRecipientRequired],
    ['Slack without slack_webhook_url', 'admin', { method: 'Slack', problem_type: 'Thrips', email_recipient: 'a@example.test' }, m.slackWebhookRequired],
    ['Teams without teams_webhook_url', 'admin', { method: 'Microsoft Teams', problem_type: 'Thrips' }, m.teamsWebhookRequired],
    ['an address that is not one', 'admin', { method: 'email', problem_type: 'Thrips', email_recipient: 'a@example.test;not-an-address' }, m.emailRecipientInvalid('not-an-address')],
    ['a webhook that is not a web address', 'admin', { method: 'Slack', problem_type: 'Thrips', slack_webhook_url: 'hooks.slack.com/services/x' }, m.webhookInvalid('slack_webhook_url')],
    ['no trigger at all', 'admin', { method: 'email', email_recipient: 'a@example.test' }, m.triggerRequired],
    ['an unknown trigger', 'admin', { method: 'email', trigger: 'moon_phase', email_recipient: 'a@example.test' }, m.triggerInvalid],
    ['a problem rule without its type', 'admin', { method: 'email', trigger: 'problem_recorded', email_recipient: 'a@example.test' }, m.problemTypeRequired],
    ['a form rule without its category', 'admin', { method: 'email', trigger: 'form_submitted', email_recipient: 'a@example.test' }, m.formCategoryRequired],
    ['an unknown category', 'admin', { method: 'email', form_category: 'Harvest', email_recipient: 'a@example.test' }, m.formCategoryInvalid(['Scouting', 'Sticky Trap', 'Treatment', 'Task', 'General'])],
    ['a keyword rule without its form', 'admin', { method: 'email', is_automation: 1, keyword: 'x', email_recipient: 'a@example.test' }, m.keywordTemplateRequired],
    ['a keyword rule without its keyword', 'admin', { method: 'email', is_automation: '1', template_id: 'FORM', form_field_id: 'FIELD', email_recipient: 'a@example.test' }, m.keywordRequired],
    ['a weekly report of too many weeks', 'admin', { method: 'email', weekly_report: 1, report_duration_weeks: 53, email_recipient: 'a@example.test' }, m.reportDurationInvalid],
    ['a weekly flag that is not one', 'admin', { method: 'email', weekly_report: 2, email_recipient: 'a@example.test' }, m.flagInvalid('weekly_report')],
    ['a time that is not one', 'admin', { method: 'email', weekly_report: 1, notification_time: '25:00', email_recipient: 'a@example.test' }, m.notificationTimeInvalid],
  ] as const)('refuses %s', async (_case, who, form, message) => {
    const fields = Object.fromEntries(Object.entries(form).map(([key, value]) => [key, value === 'FORM' ? scouting.templateId : value === 'FIELD' ? scouting.fieldIds[0]! : value]));
    const response = await createNew(farm.admin.token, who === undefined ? undefined : farm.admin.id, fields);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('watches a field of the form named, whose answers hold text', async () => {
    const base = { method: 'email', is_automation: 1, keyword: 'thrips', email_recipient: 'a@example.test', template_id: scouting.templateId };
    const otherField = await createFormTemplate(server, farm.admin, farm.companyId, { name: `Second ${randomUUID().slice(0, 6)}`, category: 'General', fields: [{ name: 'Notes', type: 'Textarea' }] });
    expect((await createNew(farm.admin.token, farm.admin.id, { ...base, form_field_id: otherField.fieldIds[0]! })).body).toEqual(error(m.fieldNotInTemplate));
    expect((await createNew(farm.admin.token, farm.admin.id, { ...base, form_field_id: scouting.fieldIds[1]! })).body).toEqual(error(m.fieldNotWatchable('Image')));
    expect(saved(await createNew(farm.admin.token, farm.admin.id, { ...base, form_field_id: scouting.fieldIds[2]! })).notification.form_field_id).toBe(scouting.fieldIds[2]);
    // Another company's form or field: 403.
    expect((await createNew(farm.admin.token, farm.admin.id, { ...base, template_id: otherForm.templateId, form_field_id: otherForm.fieldIds[0]! })).body).toEqual(forbidden);
  });

  it('refuses a webhook the server may not call: not https, loopback, private, link-local (the cloud’s metadata)', async () => {
    const slack = (url: string) => createNew(farm.admin.token, farm.admin.id, { method: 'Slack', problem_type: 'Thrips', slack_webhook_url: url });
    const teams = (url: string) => createNew(farm.admin.token, farm.admin.id, { method: 'Microsoft Teams', problem_type: 'Thrips', teams_webhook_url: url });
    expect((await slack('http://hooks.example.invalid/services/x')).body).toEqual(error(m.webhookRefused('slack_webhook_url', 'The address must start with https://.')));
    const refused = [
      [await slack('https://127.0.0.1:8080/hook'), 'slack_webhook_url', '127.0.0.1 is a loopback address'],
      [await slack('https://10.1.2.3/hook'), 'slack_webhook_url', '10.1.2.3 is a private address'],
      [await teams('https://169.254.169.254/latest/meta-data'), 'teams_webhook_url', '169.254.169.254 is a link-local address'],
      [await teams('https://[::ffff:192.168.1.10]/hook'), 'teams_webhook_url', 'a private address inside an IPv6 address'],
    ] as const;
    for (const [response, field, reason] of refused) {
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect((response.body as { message: string }).message).toContain(`${field} cannot be used: Refused:`);
      expect((response.body as { message: string }).message).toContain(reason);
    }
    // Nothing was saved.
    expect((await call('GET', '/get_notifications', farm.admin.token, { query: { user_id: farm.admin.id } })).body).not.toMatchObject({ notifications: expect.arrayContaining([expect.objectContaining({ slack_webhook_url: 'https://10.1.2.3/hook' })]) });
  });

  it('is for Admins, of their own company', async () => {
    const fields = { method: 'email', problem_type: 'Thrips', email_recipient: 'a@example.test' };
    const regular = await createNew(farm.regular.token, farm.regular.id, fields);
    expect(regular.status).toBe(403);
    expect(regular.body).toEqual(roleForbidden);
    expect((await createNew(farm.admin.token, other.admin.id, fields)).body).toEqual(forbidden);
    expect((await createNew(farm.admin.token, farm.admin.id, { ...fields, room_id: otherRoomId })).body).toEqual(forbidden);
    // A SuperAdmin makes one for the company of the user named.
    const operated = saved(await createNew(superAdmin.token, other.admin.id, fields));
    expect(operated.notification).toMatchObject({ company_id: other.companyId, user_id: superAdmin.id });
    // … naming only that company's records.
    expect((await createNew(superAdmin.token, other.admin.id, { ...fields, room_id: roomId })).status).toBe(404);
  });
});

describe('create_task_notification', () => {
  it('notifies of tasks assigned by default, or done', async () => {
    const assigned = saved(await createTask(farm.admin.token, { user_id: farm.admin.id, method: 'email', email_recipient: 'team@example.test' }));
    expect(assigned).toMatchObject({ message: m.notificationCreated, notification: { trigger: 'task_assigned', triggered_by: 'assigned', email_recipient: 'team@example.test' } });
    const done = saved(await createTask(farm.admin.token, { user_id: farm.admin.id, method: 'Slack', triggered_by: 'done', slack_webhook_url: 'https://hooks.example.invalid/services/done' }));
    expect(done.notification).toMatchObject({ trigger: 'task_done', triggered_by: 'done', method: 'Slack' });
  });

  it.each([
    [{ method: 'email', email_recipient: 'a@example.test' }, m.userIdAndMethodRequired],
    [{ user_id: 'ME', email_recipient: 'a@example.test' }, m.userIdAndMethodRequired],
    [{ user_id: 'ME', method: 'email', triggered_by: 'opened' }, m.triggeredByInvalid],
    [{ user_id: 'ME', method: 'email' }, m.emailRecipientRequired],
    [{ user_id: 'ME', method: 'Microsoft Teams', email_recipient: 'a@example.test' }, m.teamsWebhookRequired],
  ] as const)('refuses %j', async (json, message) => {
    const response = await createTask(farm.admin.token, Object.fromEntries(Object.entries(json).map(([key, value]) => [key, value === 'ME' ? farm.admin.id : value])));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });
});

describe('create_template_notification', () => {
  it('is due daily at 08:00 UTC unless told otherwise, of a form, in a room or anywhere', async () => {
    const daily = saved(await createTemplate(farm.admin.token, farm.admin.id, { template_id: scouting.templateId, method: 'email', email_recipient: 'scouts@example.test' }));
    expect(daily).toMatchObject({ message: m.notificationCreated, notification: { trigger: 'template_due', template_id: scouting.templateId, frequency: 'daily', weekday: null, day_of_month: null, notification_time: '08:00', room_id: null } });
    const weekly = saved(await createTemplate(farm.admin.token, farm.admin.id, { template_id: scouting.templateId, room_id: roomId, method: 'email', frequency: 'Weekly', weekday: 'Mon', notification_time: '06:15', email_recipient: 'scouts@example.test' }));
    expect(weekly.notification).toMatchObject({ frequency: 'weekly', weekday: 1, day_of_month: null, notification_time: '06:15', room_id: roomId });
    const monthly = saved(await createTemplate(farm.admin.token, farm.admin.id, { template_id: scouting.templateId, method: 'email', frequency: 'monthly', day_of_month: 31, weekday: 3, email_recipient: 'scouts@example.test' }));
    expect(monthly.notification).toMatchObject({ frequency: 'monthly', day_of_month: 31, weekday: null });
    expect(await auditTitles(farm.companyId, `Created notification: ${'%'} in Flower 1 due Mondays at 06:15 UTC, by scouts@example.test`)).toHaveLength(1);
  });

  it.each([
    ['no user_id', { template_id: 'FORM', method: 'email', email_recipient: 'a@example.test' }, false, m.templateNotificationFieldsRequired],
    ['no template_id', { method: 'email', email_recipient: 'a@example.test' }, true, m.templateNotificationFieldsRequired],
    ['no method', { template_id: 'FORM', email_recipient: 'a@example.test' }, true, m.templateNotificationFieldsRequired],
    ['an unknown frequency', { template_id: 'FORM', method: 'email', frequency: 'hourly', email_recipient: 'a@example.test' }, true, m.frequencyInvalid],
    ['a time that is not one', { template_id: 'FORM', method: 'email', notification_time: '8 o’clock', email_recipient: 'a@example.test' }, true, m.notificationTimeInvalid],
    ['a weekday that is not one', { template_id: 'FORM', method: 'email', frequency: 'weekly', weekday: 8, email_recipient: 'a@example.test' }, true, m.weekdayInvalid],
    ['a day of the month that is not one', { template_id: 'FORM', method: 'email', frequency: 'monthly', day_of_month: 0, email_recipient: 'a@example.test' }, true, m.dayOfMonthInvalid],
    ['Slack without its webhook', { template_id: 'FORM', method: 'Slack' }, true, m.slackWebhookRequired],
  ] as const)('refuses %s', async (_case, form, withUser, message) => {
    const fields = Object.fromEntries(Object.entries(form).map(([key, value]) => [key, value === 'FORM' ? scouting.templateId : value]));
    const response = await createTemplate(farm.admin.token, withUser ? farm.admin.id : undefined, fields);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('refuses another company’s form', async () => {
    expect((await createTemplate(farm.admin.token, farm.admin.id, { template_id: otherForm.templateId, method: 'email', email_recipient: 'a@example.test' })).body).toEqual(forbidden);
  });
});

describe('get_notifications', () => {
  it('answers the company’s rules, to its Admins', async () => {
    const theirs = saved(await createTask(other.admin.token, { user_id: other.admin.id, method: 'email', email_recipient: 'x@example.test' }));
    const response = await call('GET', '/get_notifications', farm.admin.token, { query: { user_id: farm.regular.id } });
    expect(response.status).toBe(200);
    const { notifications } = response.body as { notifications: NotificationRecord[] };
    expect(notifications.length).toBeGreaterThan(5);
    expect(notifications.every((rule) => rule.company_id === farm.companyId)).toBe(true);
    expect(notifications.map((rule) => rule.id)).not.toContain(theirs.notification_id);
    expect((await call('GET', '/get_notifications', farm.admin.token, { query: { user_id: other.admin.id } })).body).toEqual(forbidden);
    expect((await call('GET', '/get_notifications', farm.regular.token, { query: { user_id: farm.regular.id } })).body).toEqual(roleForbidden);
    expect((await call('GET', '/get_notifications', farm.admin.token)).body).toEqual(error(m.userIdAndMethodRequired));
  });
});

describe('get_automation_fields', () => {
  it('answers the fields a keyword automation can watch: of a form, or of every form of the company', async () => {
    const ofForm = await call('GET', '/get_automation_fields', farm.admin.token, { query: { template_id: scouting.templateId } });
    expect(ofForm.status).toBe(200);
    const data = (ofForm.body as { data: AutomationFieldRecord[] }).data;
    expect(data.map((field) => [field.form_field_id, field.field_name, field.field_type])).toEqual([
      [scouting.fieldIds[0], 'Pests seen', 'Text'],
      [scouting.fieldIds[2], 'Pressure', 'Radio'],
    ]);
    expect(data.every((field) => field.template_id === scouting.templateId && field.form_category === 'Scouting')).toBe(true);
    const ofCompany = (await call('GET', '/get_automation_fields', farm.admin.token, { query: { company_id: farm.companyId } })).body as { data: AutomationFieldRecord[] };
    expect(ofCompany.data.map((field) => field.form_field_id)).toEqual(expect.arrayContaining([scouting.fieldIds[0], scouting.fieldIds[2]]));
    expect(ofCompany.data.every((field) => KEYWORD_FIELD_TYPES.includes(field.field_type as never))).toBe(true);
    expect(ofCompany.data.map((field) => field.template_id)).not.toContain(otherForm.templateId);
    expect((await call('GET', '/get_automation_fields', farm.admin.token)).body).toEqual(error(m.fieldsScopeRequired));
    expect((await call('GET', '/get_automation_fields', farm.admin.token, { query: { template_id: otherForm.templateId } })).body).toEqual(forbidden);
    expect((await call('GET', '/get_automation_fields', farm.admin.token, { query: { company_id: other.companyId } })).body).toEqual(forbidden);
  });
});

describe('delete_notification', () => {
  it('deletes a rule of the company, once', async () => {
    const rule = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', problem_type: 'Leaf miner', email_recipient: 'a@example.test' }));
    const response = await call('DELETE', '/delete_notification', farm.admin.token, { json: { notification_id: rule.notification_id, user_id: farm.admin.id } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.notificationDeleted, notification_id: rule.notification_id });
    const list = (await call('GET', '/get_notifications', farm.admin.token, { query: { user_id: farm.admin.id } })).body as { notifications: NotificationRecord[] };
    expect(list.notifications.map((each) => each.id)).not.toContain(rule.notification_id);
    expect(await auditTitles(farm.companyId, 'Deleted notification: Leaf miner recorded, by a@example.test')).toHaveLength(1);
    const again = await call('DELETE', '/delete_notification', farm.admin.token, { query: { notification_id: rule.notification_id, user_id: farm.admin.id } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error(httpMessages.recordNotFound(`notification ${rule.notification_id}`)));
  });

  it('refuses a call without its fields, another company’s rule, and Regular users', async () => {
    expect((await call('DELETE', '/delete_notification', farm.admin.token, { json: { user_id: farm.admin.id } })).body).toEqual(error(m.notificationIdRequired));
    const rule = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', problem_type: 'Mites', email_recipient: 'a@example.test' }));
    expect((await call('DELETE', '/delete_notification', farm.admin.token, { json: { notification_id: rule.notification_id } })).body).toEqual(error(m.userIdAndMethodRequired));
    expect((await call('DELETE', '/delete_notification', other.admin.token, { json: { notification_id: rule.notification_id, user_id: other.admin.id } })).body).toEqual(forbidden);
    expect((await call('DELETE', '/delete_notification', farm.regular.token, { json: { notification_id: rule.notification_id, user_id: farm.regular.id } })).body).toEqual(roleForbidden);
    // By its client id, as a tablet names a rule it made.
    expect((await call('DELETE', '/delete_notification', farm.admin.token, { json: { notification_id: rule.client_id, user_id: farm.admin.id } })).status).toBe(200);
  });
});

describe('send_test_notification and the delivery log', () => {
  it('sends the rule’s test to its recipient, and the log shows it', async () => {
    const rule = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'email', problem_type: 'Botrytis', room_id: roomId, email_recipient: 'test-me@example.test' }));
    const test = await call('POST', '/send_test_notification', farm.admin.token, { json: { notification_id: rule.notification_id } });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body).toMatchObject({ status: 'success', message: m.testQueued });
    const deliveryId = (test.body as { delivery_id: number }).delivery_id;
    const mail = await server.mailTo('test-me@example.test', 20_000);
    expect(mail.subject).toBe('[Test] Botrytis recorded in Flower 1');
    // The catcher keeps the text as sent (quoted-printable: the quotes are encoded).
    expect(mail.text).toContain('Botrytis recorded in Flower 1=E2=80=9D. When it fires, its message comes here.');
    expect(mail.text).toContain('Open the automations: http://grow.test/dashboard/automations');
    expect(await auditTitles(farm.companyId, 'Sent a test of notification: Botrytis recorded in Flower 1, to test-me@example.test')).toHaveLength(1);

    const log = await call('GET', '/get_notification_deliveries', farm.admin.token, { query: { notification_id: rule.notification_id } });
    expect(log.status).toBe(200);
    const [entry] = (log.body as { deliveries: DeliveryRecord[] }).deliveries;
    expect(entry).toMatchObject({ id: deliveryId, notification_id: rule.notification_id, method: 'email', recipient: 'test-me@example.test', subject: '[Test] Botrytis recorded in Flower 1' });
    expect(entry!.trigger_key).toMatch(/^test:/);
    const whole = (await call('GET', '/get_notification_deliveries', farm.admin.token, { query: { limit: 500 } })).body as { deliveries: DeliveryRecord[] };
    expect(whole.deliveries.map((each) => each.id)).toContain(deliveryId);
    // Another company's log does not show it.
    const theirs = (await call('GET', '/get_notification_deliveries', other.admin.token)).body as { deliveries: DeliveryRecord[] };
    expect(theirs.deliveries.map((each) => each.id)).not.toContain(deliveryId);
  });

  it('shows a webhook by its origin only, and refuses what it must', async () => {
    const rule = saved(await createNew(farm.admin.token, farm.admin.id, { method: 'Slack', problem_type: 'Thrips', slack_webhook_url: 'https://hooks.example.invalid/services/T000/B000/secret' }));
    const test = await call('POST', '/send_test_notification', farm.admin.token, { json: { notification_id: rule.notification_id } });
    expect(test.status).toBe(200);
    const log = (await call('GET', '/get_notification_deliveries', farm.admin.token, { query: { notification_id: rule.notification_id } })).body as { deliveries: DeliveryRecord[] };
    expect(log.deliveries[0]!.recipient).toBe('https://hooks.example.invalid/…');
    expect((await call('POST', '/send_test_notification', farm.admin.token, { json: {} })).body).toEqual(error(m.notificationIdRequired));
    expect((await call('POST', '/send_test_notification', other.admin.token, { json: { notification_id: rule.notification_id } })).body).toEqual(forbidden);
    expect((await call('POST', '/send_test_notification', farm.regular.token, { json: { notification_id: rule.notification_id } })).body).toEqual(roleForbidden);
    expect((await call('GET', '/get_notification_deliveries', other.admin.token, { query: { notification_id: rule.notification_id } })).body).toEqual(forbidden);
    expect((await call('GET', '/get_notification_deliveries', farm.regular.token)).body).toEqual(roleForbidden);
    expect((await call('GET', '/get_notification_deliveries', farm.admin.token, { query: { limit: 0 } })).body).toEqual(error(m.limitInvalid));
  });
});
