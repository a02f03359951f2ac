/**
 * Notifications and automations (spec part 2 §3, §5, §7, §8, §9; issue 16): the rules saying what
 * notifies whom (common/schemas/automations.ts describes them), the delivery log and "send a test".
 * The rules fire in triggers.ts (changes) and schedules.ts (the clock); deliveries are
 * server/notifications'.
 *
 * - Admins (and SuperAdmins) make, change, delete and read rules, the log and tests. Regular users do
 *   neither read nor change them (decision): rules hold the recipients' addresses and the webhook
 *   addresses, which are secrets (whoever holds a Slack or Teams webhook URL can post to the channel),
 *   and the automations screen is the Admins' (src/routes/dashboard/automations.tsx).
 * - `user_id` (spec §7, every call) names a member of the company the call is for: the caller's own
 *   company (the tenancy guard answers 403 for another's), or, for a SuperAdmin, that user's company.
 *   Who saved a rule is the caller (`created_by`, answered as the rule's user_id).
 * - A webhook address the server may not call (not https, or an address that is not public internet:
 *   server/http/outbound.ts) is refused when the rule is saved, with the reason, unless the operator
 *   allows private webhooks (ALLOW_PRIVATE_WEBHOOKS); each delivery checks it again. The check runs
 *   before the request's transaction (a DNS lookup must not hold the database); a host that does not
 *   resolve now is let through (DNS may answer later; its deliveries say why they fail).
 * - Rules are named by id or client id (`id`, `notification_id`), and created with the tablet's client
 *   id when it gives one. Every save, deletion and test is audited. The rules are read online (the
 *   Admin screen): the table is ready for the `automations` collection (client ids, change tracking),
 *   which does not sync yet.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { auditTitleParts } from '../../../common/messages/audit-title-parts';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { KEYWORD_FIELD_TYPES, notificationMessages as m } from '../../../common/messages/automations';
import { type FieldType, isFormCategory } from '../../../common/messages/forms';
import {
  automationFieldsAnswer,
  automationFieldsQuery,
  deleteNotificationAnswer,
  deleteNotificationBody,
  deliveriesAnswer,
  deliveriesQuery,
  notificationBody,
  type NotificationRule,
  notificationsAnswer,
  notificationsQuery,
  saveNotificationAnswer,
  sendTestAnswer,
  sendTestBody,
  taskNotificationBody,
  templateNotificationBody,
} from '../../../common/schemas/automations';
import type { DB } from '../../db/schema';
import { writer } from '../../db/writes';
import { badRequest, notFound } from '../../http/errors';
import { actingCompany, assertLinkedWithin, caller } from '../../http/guards';
import { OutboundRefusedError, resolveOutboundTarget } from '../../http/outbound';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { deliveriesOf, type MessageContent, sendTest } from '../../notifications/delivery';
import { companyWords } from '../../notifications/words';
import { actorOfRequest, recordAudit } from '../audit/record';
import { deliveryJson, messageFor, notificationJson, type Rule, ruleColumnsOf, ruleQueries as q } from './queries';
import { dueMessage, latestDueAt, reportMessage, scheduleOf, scheduleText } from './schedules';
import { appLink } from './triggers';

const createSchema = { body: notificationBody, response: { 200: saveNotificationAnswer } };
const taskSchema = { body: taskNotificationBody, response: { 200: saveNotificationAnswer } };
const templateSchema = { body: templateNotificationBody, response: { 200: saveNotificationAnswer } };
const listSchema = { querystring: notificationsQuery, response: { 200: notificationsAnswer } };
const fieldsSchema = { querystring: automationFieldsQuery, response: { 200: automationFieldsAnswer } };
const deleteSchema = { body: deleteNotificationBody, response: { 200: deleteNotificationAnswer } };
const deliveriesSchema = { querystring: deliveriesQuery, response: { 200: deliveriesAnswer } };
const testSchema = { body: sendTestBody, response: { 200: sendTestAnswer } };

/** How long a rule's save waits for the webhook host's DNS answer. */
const WEBHOOK_LOOKUP_MS = 3_000;

const ruleNotFound = (id: number) => notFound(httpMessages.recordNotFound(`notification ${id}`));

/** The company of the member `user_id` names: the caller's (the guard refused another's) or, for a SuperAdmin, that user's. */
async function companyOfMember(request: FastifyRequest, userId: number): Promise<number> {
  const claims = caller(request);
  if (claims.user_role !== 'SuperAdmin') return claims.company_id;
  // A consultant belongs to no company: no company's member.
  const company = await q.companyOfUser(request.db, userId);
  if (company === null) throw notFound(httpMessages.recordNotFound(`user ${userId}`));
  return company;
}

/** A live rule the guard let through; of `companyId` when given (a SuperAdmin may name any company's). */
async function liveRule(request: FastifyRequest, id: number, companyId?: number): Promise<Rule> {
  const rule = await q.liveById(request.db, id);
  if (!rule || (companyId !== undefined && rule.company_id !== companyId)) throw ruleNotFound(id);
  return rule;
}

/** Where a message goes, as the audit trail and tests name it: addresses, or a webhook's origin (its path is its secret). */
export function recipientText(rule: Pick<Rule, 'method' | 'email_recipient' | 'slack_webhook_url' | 'teams_webhook_url'>): string {
  if (rule.method === 'email') return (rule.email_recipient ?? '').split(';').join(', ');
  const url = rule.method === 'Slack' ? rule.slack_webhook_url : rule.teams_webhook_url;
  try {
    return `${rule.method} (${new URL(url ?? '').host})`;
  } catch {
    return rule.method;
  }
}

/** What a rule does, in words ("Thrips recorded in Flower 1"), for the audit trail and test messages. */
export async function describeRule(
  db: Kysely<DB>,
  rule: Pick<Rule, 'trigger' | 'problem_type' | 'room_id' | 'form_category' | 'template_id' | 'form_field_id' | 'keyword' | 'frequency' | 'weekday' | 'day_of_month' | 'notification_time' | 'report_duration_weeks'>,
  parts: typeof auditTitleParts = auditTitleParts,
): Promise<string> {
  const roomName = rule.room_id === null ? null : ((await db.selectFrom('rooms').select('name').where('id', '=', rule.room_id).executeTakeFirst())?.name ?? null);
  const formName = rule.template_id === null ? null : ((await db.selectFrom('form_templates').select('template_name').where('id', '=', rule.template_id).executeTakeFirst())?.template_name ?? null);
  // Not reached: a rule naming a form or field must name it (the schema), and deleted rows are kept.
  const form = formName ?? `#${rule.template_id}`;
  const schedule = scheduleOf(rule);
  const when = schedule ? scheduleText(schedule, parts) : '';
  const words = parts.rule;
  switch (rule.trigger) {
    case 'problem_recorded':
      if (rule.problem_type === null) return roomName === null ? words.anyProblemRecorded : words.anyProblemRecordedInRoom(roomName);
      return roomName === null ? words.problemRecorded(rule.problem_type) : words.problemRecordedInRoom(rule.problem_type, roomName);
    case 'form_submitted':
      if (rule.form_category === null) return words.anyFormSubmitted;
      return isFormCategory(rule.form_category) ? words.formSubmitted[rule.form_category] : words.otherFormSubmitted(rule.form_category);
    case 'keyword': {
      const field = rule.form_field_id === null ? undefined : await db.selectFrom('form_fields').select('field_name').where('id', '=', rule.form_field_id).executeTakeFirst();
      return words.keyword(rule.keyword ?? '', field?.field_name ?? `#${rule.form_field_id}`, form);
    }
    case 'task_assigned':
      return words.taskAssigned;
    case 'task_done':
      return words.taskDone;
    case 'template_due':
      // A clock rule always has a schedule (the schema gives the defaults).
      return roomName === null ? words.formDue(form, when) : words.formInRoomDue(form, roomName, when);
    case 'weekly_report':
      return words.weeklyReport(rule.report_duration_weeks ?? 1, when);
  }
}

/**
 * Route preHandler of the saves, before the request's transaction: a webhook address the server may
 * not call is refused (see the module header).
 */
async function webhookCallable(request: FastifyRequest) {
  // The route's schema made the body a NotificationRule.
  const rule = request.body as NotificationRule;
  const [field, url] = rule.slack_webhook_url !== null ? ['slack_webhook_url', rule.slack_webhook_url] : rule.teams_webhook_url !== null ? ['teams_webhook_url', rule.teams_webhook_url] : [null, null];
  if (field === null || url === null) return;
  try {
    await resolveOutboundTarget(url, { allowPrivate: request.server.deps.config.allowPrivateWebhooks }, AbortSignal.timeout(WEBHOOK_LOOKUP_MS));
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw badRequest(m.webhookRefused(field, error.message));
    // Not resolved now (no DNS answer, or none in time): checked again at each delivery.
  }
}

/**
 * The records a rule names, beyond what the guard checked: for a SuperAdmin, all of the rule's company;
 * a keyword rule's field of its form, and a field whose answers hold text.
 */
async function assertRuleRecords(request: FastifyRequest, companyId: number, rule: NotificationRule) {
  await assertLinkedWithin(request, companyId, { room: rule.room_id, form_template: rule.template_id, form_field: rule.form_field_id });
  if (rule.trigger !== 'keyword' || rule.template_id === null || rule.form_field_id === null) return;
  const field = await q.templateField(request.db, rule.template_id, rule.form_field_id);
  if (!field) throw badRequest(m.fieldNotInTemplate);
  if (!KEYWORD_FIELD_TYPES.includes(field.field_type as FieldType)) throw badRequest(m.fieldNotWatchable(field.field_type));
}

/** Saves a rule described by any of the three create calls: a new one, or, with `id`, that one saved again whole. */
async function saveRule(request: FastifyRequest, rule: NotificationRule) {
  const companyId = await companyOfMember(request, rule.user_id);
  await assertRuleRecords(request, companyId, rule);
  const actor = actorOfRequest(request, companyId);
  const columns = ruleColumnsOf(rule);
  const description = await describeRule(request.db, columns);
  const to = recipientText(rule);
  if (rule.id !== undefined) {
    const existing = await liveRule(request, rule.id, companyId);
    const updated = await writer(request.db, actor).updateReturning('notifications', existing.id, columns);
    if (!updated) throw ruleNotFound(rule.id);
    await recordAudit(request.db, actor, { title: auditTitles.updatedNotification(description, to), roomId: rule.room_id, details: { notification_id: existing.id } });
    return success({ notification: notificationJson(updated), notification_id: updated.id, client_id: updated.client_id, created: false }, m.notificationUpdated);
  }
  const created = await writer(request.db, actor).insert('notifications', { client_id: rule.client_id, company_id: companyId, ...columns });
  await recordAudit(request.db, actor, { title: auditTitles.createdNotification(description, to), roomId: rule.room_id, details: { notification_id: created.id } });
  return success({ notification: notificationJson(await q.byId(request.db, created.id)), notification_id: created.id, client_id: created.client_id, created: true }, m.notificationCreated);
}

async function createNewNotification(request: RequestOf<typeof createSchema>) {
  return saveRule(request, request.body);
}

async function createTaskNotification(request: RequestOf<typeof taskSchema>) {
  return saveRule(request, request.body);
}

async function createTemplateNotification(request: RequestOf<typeof templateSchema>) {
  return saveRule(request, request.body);
}

/** The rules of the company of `user_id`, by trigger, oldest first. */
async function getNotifications(request: RequestOf<typeof listSchema>) {
  const companyId = await companyOfMember(request, request.query.user_id);
  return success({ notifications: (await q.ofCompany(request.db, companyId)).map(notificationJson) });
}

/** The fields a keyword automation can watch: of the form `template_id`, or of every form of `company_id`. */
async function getAutomationFields(request: RequestOf<typeof fieldsSchema>) {
  const { template_id, company_id } = request.query;
  const data = await q.watchableFields(request.db, template_id !== undefined ? { templateId: template_id } : { companyId: actingCompany(request, company_id) });
  return success({ data });
}

async function deleteNotification(request: RequestOf<typeof deleteSchema>) {
  const { notification_id, user_id } = request.body;
  const rule = await liveRule(request, notification_id, await companyOfMember(request, user_id));
  const actor = actorOfRequest(request, rule.company_id);
  await writer(request.db, actor).softDelete('notifications', rule.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedNotification(await describeRule(request.db, rule), recipientText(rule)), roomId: rule.room_id, details: { notification_id: rule.id } });
  return success({ notification_id: rule.id }, m.notificationDeleted);
}

/** The delivery log, newest first (server/notifications/delivery.ts `deliveriesOf`): the company's, or one rule's. */
async function getNotificationDeliveries(request: RequestOf<typeof deliveriesSchema>) {
  const { notification_id, company_id, limit } = request.query;
  const companyId = actingCompany(request, company_id);
  const entries = await deliveriesOf(request.db, companyId, { ...(notification_id === undefined ? {} : { notificationId: notification_id }), limit });
  return success({ deliveries: entries.map(deliveryJson) });
}

/**
 * What "send a test" sends: a weekly report made now (the last whole weeks, with its CSV by e-mail), a
 * template reminder for the latest due time, or, for a rule fired by changes, a message saying what
 * will come here.
 */
async function testContent(request: FastifyRequest, rule: Rule): Promise<MessageContent> {
  const now = new Date();
  const schedule = scheduleOf(rule);
  const real = rule.trigger === 'weekly_report' ? await reportMessage(request.db, rule, now) : rule.trigger === 'template_due' && schedule ? await dueMessage(request.db, rule, latestDueAt(schedule, now)) : null;
  const words = await companyWords(request.db, rule.company_id);
  const said = words.notice.test;
  if (real) return { ...real, subject: said.subject(real.subject) };
  const description = await describeRule(request.db, rule, words.parts);
  return { subject: said.subject(description), text: said.text(description), link: appLink('/dashboard/automations', words.notice.open.automations) };
}

async function sendTestNotification(request: RequestOf<typeof testSchema>) {
  const rule = await liveRule(request, request.body.notification_id);
  const actor = actorOfRequest(request, rule.company_id);
  const deliveryId = await sendTest(request.db, rule.company_id, messageFor(rule, await testContent(request, rule)), rule.id);
  await recordAudit(request.db, actor, { title: auditTitles.sentTestNotification(await describeRule(request.db, rule), recipientText(rule)), roomId: rule.room_id, details: { notification_id: rule.id, delivery_id: deliveryId } });
  return success({ delivery_id: deliveryId }, m.testQueued);
}

export async function automationRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  const admin = { access: 'admin' as const };
  // Names only these routes give records (ownership.ts keeps the names every route shares).
  const ownsRule = { ...admin, owns: { id: 'notification' as const, template_id: 'form_template' as const, form_field_id: 'form_field' as const } };
  const saves = { ...fields, preHandler: webhookCallable };
  app.post('/Create_new_notification', { schema: createSchema, config: ownsRule, ...saves }, createNewNotification);
  app.post('/create_task_notification', { schema: taskSchema, config: ownsRule, ...saves }, createTaskNotification);
  app.post('/create_template_notification', { schema: templateSchema, config: ownsRule, ...saves }, createTemplateNotification);
  app.get('/get_notifications', { schema: listSchema, config: admin }, getNotifications);
  app.get('/get_automation_fields', { schema: fieldsSchema, config: { ...admin, owns: { template_id: 'form_template' } } }, getAutomationFields);
  app.delete('/delete_notification', { schema: deleteSchema, config: admin, ...fields }, deleteNotification);
  // Ours: the delivery log and the "send a test" button (issue 16).
  app.get('/get_notification_deliveries', { schema: deliveriesSchema, config: admin }, getNotificationDeliveries);
  app.post('/send_test_notification', { schema: testSchema, config: admin, ...fields }, sendTestNotification);
}
