/**
 * Notification rules (migration 0015): reads and the JSON shape answers show them in, and the message
 * address a rule sends to. Writes go through the writer (db/writes.ts) in routes.ts.
 */
import type { Kysely, Selectable } from 'kysely';
import { KEYWORD_FIELD_TYPES, type NotificationTrigger } from '../../../common/messages/automations';
import { isoTime } from '../../../common/schemas/answers';
import type { AutomationFieldRecord, NotificationRecord, NotificationRule } from '../../../common/schemas/automations';
import type { DB, NotificationsTable } from '../../db/schema';
import type { DeliveryLogEntry, MessageContent, OutgoingMessage } from '../../notifications/delivery';

export type Rule = Selectable<NotificationsTable>;

/** The columns a rule's description sets (everything but its company, its id and the sync columns). */
export type RuleColumns = Omit<NotificationRule, 'user_id' | 'id' | 'client_id'>;

export const ruleColumnsOf = (rule: NotificationRule): RuleColumns => {
  const { user_id: _user, id: _id, client_id: _clientId, ...columns } = rule;
  return columns;
};

export const notificationJson = (rule: Rule): NotificationRecord => ({
  id: rule.id,
  client_id: rule.client_id,
  company_id: rule.company_id,
  user_id: rule.created_by,
  method: rule.method,
  trigger: rule.trigger,
  email_recipient: rule.email_recipient,
  slack_webhook_url: rule.slack_webhook_url,
  teams_webhook_url: rule.teams_webhook_url,
  problem_type: rule.problem_type,
  room_id: rule.room_id,
  form_category: rule.form_category,
  template_id: rule.template_id,
  form_field_id: rule.form_field_id,
  keyword: rule.keyword,
  is_automation: rule.trigger === 'keyword' ? 1 : 0,
  weekly_report: rule.trigger === 'weekly_report' ? 1 : 0,
  report_duration_weeks: rule.report_duration_weeks,
  triggered_by: rule.trigger === 'task_assigned' ? 'assigned' : rule.trigger === 'task_done' ? 'done' : null,
  frequency: rule.frequency,
  weekday: rule.weekday,
  day_of_month: rule.day_of_month,
  notification_time: rule.notification_time,
  created_at: isoTime(rule.created_at),
  updated_at: isoTime(rule.updated_at),
});

export const deliveryJson = (entry: DeliveryLogEntry) => ({
  id: entry.id,
  notification_id: entry.notificationId,
  trigger_key: entry.triggerKey,
  method: entry.method,
  recipient: entry.recipient,
  subject: entry.subject,
  attachment_name: entry.attachmentName,
  status: entry.status,
  attempts: entry.attempts,
  last_error: entry.lastError,
  next_try_at: isoTime(entry.nextTryAt),
  sent_at: isoTime(entry.sentAt),
  created_at: isoTime(entry.createdAt),
  acted_at: isoTime(entry.actedAt),
});

/** The message a rule sends: `content` to the rule's recipient. */
export function messageFor(rule: Pick<Rule, 'method' | 'email_recipient' | 'slack_webhook_url' | 'teams_webhook_url'>, content: MessageContent): OutgoingMessage {
  switch (rule.method) {
    case 'email':
      return { ...content, method: 'email', recipients: (rule.email_recipient ?? '').split(';') };
    case 'Slack':
      return { ...content, method: 'Slack', webhookUrl: rule.slack_webhook_url ?? '' };
    case 'Microsoft Teams':
      return { ...content, method: 'Microsoft Teams', webhookUrl: rule.teams_webhook_url ?? '' };
  }
}

export const ruleQueries = {
  liveById: (db: Kysely<DB>, id: number) => db.selectFrom('notifications').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The company's live rules, by trigger then oldest first (the screen groups them by kind). */
  ofCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('notifications').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('trigger').orderBy('id').execute(),

  /** Every company's live rules of these triggers, oldest first (the clock's: schedules.ts). */
  ofTriggers: (db: Kysely<DB>, triggers: readonly NotificationTrigger[]) =>
    db.selectFrom('notifications').selectAll().where('trigger', 'in', [...triggers]).where('deleted_at', 'is', null).orderBy('id').execute(),

  /** The company a user belongs to (live or not: the guard has already refused a missing one); null for a consultant, who has none. */
  companyOfUser: async (db: Kysely<DB>, userId: number) => (await db.selectFrom('users').select('company_id').where('id', '=', userId).executeTakeFirstOrThrow()).company_id,

  /** A live form template of the company with its live field, when the field is the template's (a keyword rule's pair). */
  templateField: (db: Kysely<DB>, templateId: number, fieldId: number) =>
    db
      .selectFrom('form_fields')
      .innerJoin('form_templates', 'form_templates.id', 'form_fields.template_id')
      .select(['form_templates.id as template_id', 'form_templates.company_id', 'form_fields.field_type', 'form_fields.id as field_id'])
      .where('form_fields.id', '=', fieldId)
      .where('form_fields.template_id', '=', templateId)
      .where('form_fields.deleted_at', 'is', null)
      .where('form_templates.deleted_at', 'is', null)
      .executeTakeFirst(),

  /**
   * The live fields a keyword automation can watch (KEYWORD_FIELD_TYPES) of one live template, or of
   * all a company's live templates, by form name then field order.
   */
  async watchableFields(db: Kysely<DB>, scope: { templateId: number } | { companyId: number }): Promise<AutomationFieldRecord[]> {
    let query = db
      .selectFrom('form_fields')
      .innerJoin('form_templates', 'form_templates.id', 'form_fields.template_id')
      .select([
        'form_templates.id as template_id',
        'form_templates.template_name',
        'form_templates.form_category',
        'form_fields.id as form_field_id',
        'form_fields.field_name',
        'form_fields.field_type',
      ])
      .where('form_fields.deleted_at', 'is', null)
      .where('form_templates.deleted_at', 'is', null)
      .where('form_fields.field_type', 'in', [...KEYWORD_FIELD_TYPES]);
    query = 'templateId' in scope ? query.where('form_templates.id', '=', scope.templateId) : query.where('form_templates.company_id', '=', scope.companyId);
    return query.orderBy('form_templates.template_name').orderBy('form_templates.id').orderBy('form_fields.position').orderBy('form_fields.id').execute();
  },
};
