/**
 * Domain functions of notifications and automations for the Admins' automations screen (spec part 2
 * §3, §5, §7, §8, §9; issue 16): the rules by kind, saving one (new, or again by its id), deleting one,
 * the fields a keyword automation can watch, the delivery log and "send a test".
 *
 * All are online calls: rules are company configuration an Admin edits at a desk, their webhook
 * addresses are secrets kept off the tablets' local store, and a save needs the server's answer (it
 * checks that a webhook address may be called). Input is checked first with the server's own schemas
 * (common/schemas/automations.ts), so the spec's messages ('Notifications need userId and method.',
 * 'email needs email_recipient.', …) come before any call; a failure without the server's message
 * gives the spec's default for the call (§8: 'Failed to create notification.', 'Failed to create
 * template notification', 'Failed to delete notification', and the task automation ones for keyword
 * automations).
 */
import type { z } from 'zod';
import { newClientId } from '../../common/client-ids';
import { type Frequency, type NotificationMethod, type NotificationTrigger, notificationMessages as m } from '../../common/messages/automations';
import {
  type AutomationFieldRecord,
  type automationFieldsAnswer,
  automationFieldsQuery,
  type DeliveryRecord,
  type deliveriesAnswer,
  deleteNotificationBody,
  deliveriesQuery,
  notificationBody,
  type NotificationRecord,
  type notificationsAnswer,
  notificationsQuery,
  type saveNotificationAnswer,
  type sendTestAnswer,
  sendTestBody,
  taskNotificationBody,
  templateNotificationBody,
} from '../../common/schemas/automations';
import { type ApiContext, check, formData, online } from './context';
import type { RecordId } from './records';

export type Notification = NotificationRecord;
export type Delivery = DeliveryRecord;
export type AutomationField = AutomationFieldRecord;

/** Where a rule's message goes: the method and its recipient (spec §5: the method decides which). */
export type Recipient = { method: 'email'; emailRecipients: readonly string[] } | { method: 'Slack'; slackWebhookUrl: string } | { method: 'Microsoft Teams'; teamsWebhookUrl: string };

/** What fires a rule, with what its trigger needs (common/schemas/automations.ts `RuleTrigger`). */
export type RuleTriggerDraft =
  | { trigger: 'problem_recorded'; problemType: string; roomId?: RecordId | null }
  | { trigger: 'form_submitted'; formCategory: string }
  | { trigger: 'keyword'; templateId: RecordId; formFieldId: RecordId; keyword: string }
  | { trigger: 'task_assigned' | 'task_done' }
  | { trigger: 'template_due'; templateId: RecordId; roomId?: RecordId | null; frequency?: Frequency; weekday?: number; dayOfMonth?: number; notificationTime?: string }
  | { trigger: 'weekly_report'; reportDurationWeeks?: number; weekday?: number; notificationTime?: string };

/** A rule as the screen edits it: `id` to save an existing one again (whole), `userId` the signed-in Admin. */
export type NotificationDraft = { userId: number; id?: RecordId } & Recipient & RuleTriggerDraft;

type SaveAnswer = z.infer<typeof saveNotificationAnswer>;

/** Fields without the undefined ones (a form sends no value for them). */
const defined = (fields: Record<string, string | number | undefined | null>): Record<string, string | number> =>
  Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== null));

function recipientFields(draft: Recipient): Record<string, string> {
  if (draft.method === 'email') return { method: draft.method, email_recipient: draft.emailRecipients.join(';') };
  if (draft.method === 'Slack') return { method: draft.method, slack_webhook_url: draft.slackWebhookUrl };
  return { method: draft.method, teams_webhook_url: draft.teamsWebhookUrl };
}

/** The message a failed save gets when the server sends none (spec §8). */
function saveFailed(draft: NotificationDraft): string {
  if (draft.trigger === 'keyword') return draft.id === undefined ? m.createTaskAutomationFailed : m.updateTaskAutomationFailed;
  if (draft.trigger === 'template_due') return m.createTemplateFailed;
  return draft.id === undefined ? m.createFailed : m.updateFailed;
}

/** The call a draft is saved with, and its fields (ids as given: client ids are resolved by the server). */
function callOf(draft: NotificationDraft): { path: string; json: boolean; fields: Record<string, string | number> } {
  const common = { user_id: draft.userId, id: draft.id, ...recipientFields(draft), ...(draft.id === undefined ? { client_id: newClientId() } : {}) };
  switch (draft.trigger) {
    case 'task_assigned':
    case 'task_done':
      return { path: '/create_task_notification', json: true, fields: defined({ ...common, triggered_by: draft.trigger === 'task_done' ? 'done' : 'assigned' }) };
    case 'template_due':
      return {
        path: '/create_template_notification',
        json: false,
        fields: defined({
          ...common,
          template_id: draft.templateId,
          room_id: draft.roomId,
          frequency: draft.frequency,
          weekday: draft.weekday,
          day_of_month: draft.dayOfMonth,
          notification_time: draft.notificationTime,
        }),
      };
    case 'problem_recorded':
      return { path: '/Create_new_notification', json: false, fields: defined({ ...common, trigger: draft.trigger, problem_type: draft.problemType, room_id: draft.roomId }) };
    case 'form_submitted':
      return { path: '/Create_new_notification', json: false, fields: defined({ ...common, trigger: draft.trigger, form_category: draft.formCategory }) };
    case 'keyword':
      return {
        path: '/Create_new_notification',
        json: false,
        fields: defined({ ...common, trigger: draft.trigger, is_automation: 1, template_id: draft.templateId, form_field_id: draft.formFieldId, keyword: draft.keyword }),
      };
    case 'weekly_report':
      return {
        path: '/Create_new_notification',
        json: false,
        fields: defined({ ...common, trigger: draft.trigger, weekly_report: 1, report_duration_weeks: draft.reportDurationWeeks, weekday: draft.weekday, notification_time: draft.notificationTime }),
      };
  }
}

const SCHEMAS = { '/create_task_notification': taskNotificationBody, '/create_template_notification': templateNotificationBody, '/Create_new_notification': notificationBody } as const;

/**
 * Saves a rule (Admins, online): new (with a client id of its own), or, with `id`, that rule again as
 * the screen shows it. Answers the rule as saved. Refused webhook addresses come back with the reason.
 */
export async function saveNotification(context: Pick<ApiContext, 'client'>, draft: NotificationDraft): Promise<SaveAnswer> {
  const { path, json, fields } = callOf(draft);
  // check() stands numbers in for client ids (records not on the server yet); the rule's own new
  // client_id is not one of those, so it is checked by the server alone.
  check(SCHEMAS[path as keyof typeof SCHEMAS], { ...fields, client_id: undefined });
  // Create_new_notification and create_template_notification take user_id in the query, their fields as a form (spec §7).
  const { user_id, ...rest } = fields;
  const request = json ? { method: 'POST' as const, path, body: fields } : { method: 'POST' as const, path, query: { user_id }, body: formData(rest) };
  return online<SaveAnswer>(context, request, saveFailed(draft));
}

/** GET /get_notifications (Admins, online): the company's rules, by trigger then oldest first. */
export async function getNotifications(context: Pick<ApiContext, 'client'>, input: { userId: number }): Promise<Notification[]> {
  const query = check(notificationsQuery, { user_id: input.userId });
  return (await online<z.infer<typeof notificationsAnswer>>(context, { path: '/get_notifications', query }, m.fetchFailed)).notifications;
}

/** The rules by kind, as the screen lists them. */
export function rulesByTrigger(rules: readonly Notification[]): Map<NotificationTrigger, Notification[]> {
  const byTrigger = new Map<NotificationTrigger, Notification[]>();
  for (const rule of rules) byTrigger.set(rule.trigger, [...(byTrigger.get(rule.trigger) ?? []), rule]);
  return byTrigger;
}

/** DELETE /delete_notification (Admins, online). */
export async function deleteNotification(context: Pick<ApiContext, 'client'>, input: { notificationId: RecordId; userId: number; trigger?: NotificationTrigger }) {
  const body = { notification_id: input.notificationId, user_id: input.userId };
  check(deleteNotificationBody, body);
  await online(context, { method: 'DELETE', path: '/delete_notification', body }, input.trigger === 'keyword' ? m.deleteTaskAutomationFailed : m.deleteFailed);
}

/** GET /get_automation_fields (Admins, online): the fields a keyword automation can watch, of one form or of every form of the company. */
export async function getAutomationFields(context: Pick<ApiContext, 'client'>, input: { templateId: RecordId } | { companyId: number }): Promise<AutomationField[]> {
  const query = 'templateId' in input ? { template_id: input.templateId } : { company_id: input.companyId };
  check(automationFieldsQuery, query);
  return (await online<z.infer<typeof automationFieldsAnswer>>(context, { path: '/get_automation_fields', query }, m.getTaskAutomationFailed)).data;
}

/** GET /get_notification_deliveries (Admins, online): the delivery log, newest first; one rule's with `notificationId`. */
export async function getDeliveries(context: Pick<ApiContext, 'client'>, input: { notificationId?: RecordId; limit?: number } = {}): Promise<Delivery[]> {
  const query = defined({ notification_id: input.notificationId, limit: input.limit });
  check(deliveriesQuery, query);
  return (await online<z.infer<typeof deliveriesAnswer>>(context, { path: '/get_notification_deliveries', query }, m.fetchDeliveriesFailed)).deliveries;
}

/** POST /send_test_notification (Admins, online): the rule's message now; answers the delivery's id (its row in the log). */
export async function sendTestNotification(context: Pick<ApiContext, 'client'>, input: { notificationId: RecordId }): Promise<number> {
  const body = { notification_id: input.notificationId };
  check(sendTestBody, body);
  return (await online<z.infer<typeof sendTestAnswer>>(context, { method: 'POST', path: '/send_test_notification', body }, m.sendTestFailed)).delivery_id;
}

export type { Frequency, NotificationMethod, NotificationTrigger };
