/**
 * Requests and answers of notifications and automations (spec part 2 §3 "Automation or notification",
 * "Task notification", "Template notification", §5, §7, §9; issue 16).
 *
 * A rule is one row whatever call made it: its method and the one recipient the method needs (spec §5:
 * email needs email_recipient, Slack slack_webhook_url, 'Microsoft Teams' teams_webhook_url; the other
 * two are cleared), and its trigger with the fields that trigger uses (the others cleared). The three
 * create calls are three ways to describe a rule, each checked here into one shape (`NotificationRule`),
 * so the server and the tablet's checks give the same messages. With `id` (a rule's id or client id)
 * a call saves that rule again, whole, as the screen shows it.
 *
 * What §5 does not show ("further rules are not shown"), decided here:
 * - Create_new_notification's trigger is `trigger` when given; else weekly_report=1 makes a weekly
 *   report and is_automation=1 a keyword automation; else problem_type means problem_recorded,
 *   form_category form_submitted, keyword a keyword automation.
 * - Several addresses in email_recipient are joined by ';' (spec §9; a ',' is taken too), each an
 *   e-mail address, kept as typed and joined by ';'.
 * - A webhook address must be a web address here; whether the server may call it (https, a public
 *   address) is the server's check when the rule is saved and again at each delivery
 *   (server/http/outbound.ts).
 * - Times are of the day in UTC (common/messages/automations.ts DEFAULT_NOTIFICATION_TIME says why).
 */
import { z } from 'zod';
import {
  DEFAULT_DAY_OF_MONTH,
  DEFAULT_FREQUENCY,
  DEFAULT_NOTIFICATION_TIME,
  DEFAULT_REPORT_DURATION_WEEKS,
  DEFAULT_TASK_TRIGGER,
  DEFAULT_WEEKDAY,
  DELIVERY_LOG_DEFAULT,
  DELIVERY_LOG_MAX,
  EMAIL_RECIPIENTS_MAX,
  FREQUENCIES,
  type Frequency,
  KEYWORD_MAX_CHARS,
  NOTIFICATION_METHODS,
  NOTIFICATION_TRIGGERS,
  type NotificationMethod,
  type NotificationTrigger,
  notificationMessages as m,
  PROBLEM_TYPE_MAX_CHARS,
  REPORT_DURATION_WEEKS_MAX,
  TASK_TRIGGERS,
  type TaskTrigger,
  WEBHOOK_URL_MAX_CHARS,
  WEEKDAYS,
} from '../messages/automations';
import { FORM_CATEGORIES, type FormCategory } from '../messages/forms';
import { answer, timestamp } from './answers';
import { optionalClientId, optionalId, requiredId } from './fields';

/** Absent, null, blank text and the text `null` (as forms send an empty value) count as absent. */
const blankToUndefined = (value: unknown) => (value === null || value === 'null' || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** A request's fields; a request without a body is checked as an empty one, so the field messages apply. */
const orEmpty = (value: unknown) => value ?? {};

/** 'slack', 'EMAIL', 'teams' and 'microsoft teams' name the spec's methods. */
function methodSpelling(value: unknown): unknown {
  if (typeof value !== 'string') return blankToUndefined(value);
  const text = value.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
  if (text === 'teams' || text === 'ms teams') return 'Microsoft Teams';
  return NOTIFICATION_METHODS.find((method) => method.toLowerCase() === text) ?? blankToUndefined(value);
}

/** 'Problem recorded', 'problem-recorded' and 'PROBLEM_RECORDED' are the same trigger (and 'In progress' style spellings of the others). */
const snakeSpelling = (value: unknown) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase().replace(/[\s-]+/g, '_')) : blankToUndefined(value));

const method = (missing: string) => z.preprocess(methodSpelling, z.enum(NOTIFICATION_METHODS, { error: (issue) => (issue.input === undefined ? missing : m.methodInvalid) }));

const optionalString = (max: number, message: string) => z.preprocess(blankToUndefined, z.string({ error: message }).trim().max(max, { error: message }).optional());

/** 0 or 1 (a number, a digit or a boolean); absent counts as 0. */
const optionalFlag = (field: string) =>
  z.preprocess(
    (value) => (value === true || value === 'true' ? 1 : value === false || value === 'false' ? 0 : blankToUndefined(value)),
    z.coerce
      .number({ error: m.flagInvalid(field) })
      .refine((flag) => flag === 0 || flag === 1, { error: m.flagInvalid(field) })
      .optional(),
  );

const wholeNumber = (message: string, min: number, max: number) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }).optional());

/** A weekday as ISO 1 (Monday) to 7 (Sunday), or its name in any case ('mon' too). */
const weekday = z.preprocess((value) => {
  const blank = blankToUndefined(value);
  if (typeof blank !== 'string' || /^\s*\d+\s*$/.test(blank)) return blank;
  const name = blank.trim().toLowerCase();
  const index = name.length >= 3 ? WEEKDAYS.findIndex((day) => day.toLowerCase().startsWith(name)) : -1;
  return index === -1 ? blank : index + 1;
}, z.coerce.number({ error: m.weekdayInvalid }).int({ error: m.weekdayInvalid }).min(1, { error: m.weekdayInvalid }).max(7, { error: m.weekdayInvalid }).optional());

/** "HH:MM" of a 24-hour day ("8:00" is "08:00"; seconds, when sent, are dropped). */
const notificationTime = z.preprocess(
  blankToUndefined,
  z
    .string({ error: m.notificationTimeInvalid })
    .trim()
    .regex(/^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: m.notificationTimeInvalid })
    .transform((time) => time.split(':').slice(0, 2).map((part) => part.padStart(2, '0')).join(':'))
    .optional(),
);

const frequency = z.preprocess(snakeSpelling, z.enum(FREQUENCIES, { error: m.frequencyInvalid }).optional());

const formCategory = z.preprocess(
  (value) => {
    const blank = blankToUndefined(value);
    return typeof blank === 'string' ? (FORM_CATEGORIES.find((category) => category.toLowerCase() === blank.trim().toLowerCase()) ?? blank) : blank;
  },
  z.enum(FORM_CATEGORIES, { error: m.formCategoryInvalid(FORM_CATEGORIES) }).optional(),
);

/** The raw recipient fields; which one is needed, and checked, depends on the method (`recipientsOf`). */
const recipientFields = {
  email_recipient: z.preprocess(blankToUndefined, z.string({ error: m.emailRecipientRequired }).optional()),
  slack_webhook_url: z.preprocess(blankToUndefined, z.string({ error: m.webhookInvalid('slack_webhook_url') }).optional()),
  teams_webhook_url: z.preprocess(blankToUndefined, z.string({ error: m.webhookInvalid('teams_webhook_url') }).optional()),
};

type RecipientFields = { email_recipient?: string | undefined; slack_webhook_url?: string | undefined; teams_webhook_url?: string | undefined };

/** A rule's recipient: only the method's own field is kept (spec §5 "The method decides the recipient"). */
export interface Recipients {
  email_recipient: string | null;
  slack_webhook_url: string | null;
  teams_webhook_url: string | null;
}

/** E-mail addresses as a rule keeps them: trimmed, each once (whatever its case), in the order given. */
export function emailAddressesOf(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[;,]/)
    .map((address) => address.trim())
    .filter((address) => address !== '' && !seen.has(address.toLowerCase()) && seen.add(address.toLowerCase()));
}

const emailAddress = z.email();

function webhookOf(url: string | undefined, field: 'slack_webhook_url' | 'teams_webhook_url', missing: string, context: z.RefinementCtx): string | null {
  if (url === undefined) {
    context.addIssue({ code: 'custom', message: missing });
    return null;
  }
  const text = url.trim();
  let parsed: URL | null;
  try {
    parsed = new URL(text);
  } catch {
    parsed = null;
  }
  if (!parsed || !['https:', 'http:'].includes(parsed.protocol) || text.length > WEBHOOK_URL_MAX_CHARS) {
    context.addIssue({ code: 'custom', message: m.webhookInvalid(field) });
    return null;
  }
  return text;
}

/** The method's recipient, checked (spec §5), the others cleared. */
function recipientsOf(methodName: NotificationMethod, fields: RecipientFields, context: z.RefinementCtx): Recipients {
  const none: Recipients = { email_recipient: null, slack_webhook_url: null, teams_webhook_url: null };
  if (methodName === 'Slack') return { ...none, slack_webhook_url: webhookOf(fields.slack_webhook_url, 'slack_webhook_url', m.slackWebhookRequired, context) };
  if (methodName === 'Microsoft Teams') return { ...none, teams_webhook_url: webhookOf(fields.teams_webhook_url, 'teams_webhook_url', m.teamsWebhookRequired, context) };
  const addresses = emailAddressesOf(fields.email_recipient ?? '');
  if (addresses.length === 0) context.addIssue({ code: 'custom', message: m.emailRecipientRequired });
  else if (addresses.length > EMAIL_RECIPIENTS_MAX) context.addIssue({ code: 'custom', message: m.emailRecipientsTooMany });
  else {
    const wrong = addresses.find((address) => !emailAddress.safeParse(address).success);
    if (wrong !== undefined) context.addIssue({ code: 'custom', message: m.emailRecipientInvalid(wrong) });
  }
  return { ...none, email_recipient: addresses.join(';') };
}

/** What a rule fires on, with only the fields its trigger uses (the others null). */
export interface RuleTrigger {
  trigger: NotificationTrigger;
  problem_type: string | null;
  room_id: number | null;
  form_category: FormCategory | null;
  template_id: number | null;
  form_field_id: number | null;
  keyword: string | null;
  frequency: Frequency | null;
  weekday: number | null;
  day_of_month: number | null;
  notification_time: string | null;
  report_duration_weeks: number | null;
}

/** A rule as a create call describes it, checked: what the server saves (and, with `id`, saves again). */
export type NotificationRule = { user_id: number; id: number | undefined; client_id: string | undefined; method: NotificationMethod } & Recipients & RuleTrigger;

const NO_TRIGGER_FIELDS: Omit<RuleTrigger, 'trigger'> = {
  problem_type: null,
  room_id: null,
  form_category: null,
  template_id: null,
  form_field_id: null,
  keyword: null,
  frequency: null,
  weekday: null,
  day_of_month: null,
  notification_time: null,
  report_duration_weeks: null,
};

interface ScheduleFields {
  frequency?: Frequency | undefined;
  weekday?: number | undefined;
  day_of_month?: number | undefined;
  notification_time?: string | undefined;
}

/** A clock rule's schedule with its defaults: daily at 08:00 UTC; weekly on Mondays; monthly on the 1st. */
function scheduleOf(fields: ScheduleFields, fallback: Frequency) {
  const chosen = fields.frequency ?? fallback;
  return {
    frequency: chosen,
    weekday: chosen === 'weekly' ? (fields.weekday ?? DEFAULT_WEEKDAY) : null,
    day_of_month: chosen === 'monthly' ? (fields.day_of_month ?? DEFAULT_DAY_OF_MONTH) : null,
    notification_time: fields.notification_time ?? DEFAULT_NOTIFICATION_TIME,
  };
}

// ——— Requests ———

const userId = (missing: string) => z.preprocess(blankToUndefined, requiredId(missing));
/** A rule saved again: its id (or client id, resolved before validation). */
const ruleId = optionalId(m.idInvalid('id'));

/**
 * Create_new_notification (spec §7: query user_id; multipart form with the automation fields, spec §3).
 * Any rule can be described here; the trigger is chosen as the module header says. `user_id` names a
 * member of the company the rule is for (the caller's; a SuperAdmin's, any company's).
 */
export const notificationBody = z.preprocess(
  orEmpty,
  z
    .object({
      user_id: userId(m.userIdAndMethodRequired),
      id: ruleId,
      method: method(m.userIdAndMethodRequired),
      trigger: z.preprocess(snakeSpelling, z.enum(NOTIFICATION_TRIGGERS, { error: m.triggerInvalid }).optional()),
      problem_type: optionalString(PROBLEM_TYPE_MAX_CHARS, m.problemTypeRequired),
      room_id: optionalId(m.idInvalid('room_id')),
      ...recipientFields,
      weekly_report: optionalFlag('weekly_report'),
      report_duration_weeks: wholeNumber(m.reportDurationInvalid, 1, REPORT_DURATION_WEEKS_MAX),
      form_category: formCategory,
      template_id: optionalId(m.idInvalid('template_id')),
      form_field_id: optionalId(m.idInvalid('form_field_id')),
      is_automation: optionalFlag('is_automation'),
      keyword: optionalString(KEYWORD_MAX_CHARS, m.keywordRequired),
      triggered_by: z.preprocess(snakeSpelling, z.enum(TASK_TRIGGERS, { error: m.triggeredByInvalid }).optional()),
      frequency,
      weekday,
      day_of_month: wholeNumber(m.dayOfMonthInvalid, 1, 31),
      notification_time: notificationTime,
      client_id: optionalClientId(),
    })
    .transform((body, context): NotificationRule => {
      const recipients = recipientsOf(body.method, body, context);
      const trigger: NotificationTrigger | undefined =
        body.trigger ??
        (body.weekly_report === 1
          ? 'weekly_report'
          : body.is_automation === 1
            ? 'keyword'
            : body.triggered_by !== undefined
              ? (`task_${body.triggered_by}` as const)
              : body.problem_type !== undefined
                ? 'problem_recorded'
                : body.form_category !== undefined
                  ? 'form_submitted'
                  : body.keyword !== undefined
                    ? 'keyword'
                    : undefined);
      const base = { user_id: body.user_id, id: body.id, client_id: body.client_id, method: body.method, ...recipients };
      if (trigger === undefined) {
        context.addIssue({ code: 'custom', message: m.triggerRequired });
        return z.NEVER;
      }
      const rule = ruleTriggerOf(trigger, body, context);
      return rule ? { ...base, ...rule } : z.NEVER;
    }),
);

type TriggerFields = ScheduleFields & {
  problem_type?: string | undefined;
  room_id?: number | undefined;
  form_category?: FormCategory | undefined;
  template_id?: number | undefined;
  form_field_id?: number | undefined;
  keyword?: string | undefined;
  report_duration_weeks?: number | undefined;
};

/** The trigger's own fields, checked; null (with the issue added) when one it needs is missing. */
function ruleTriggerOf(trigger: NotificationTrigger, fields: TriggerFields, context: z.RefinementCtx): RuleTrigger | null {
  const missing = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return null;
  };
  const rule = { ...NO_TRIGGER_FIELDS, trigger };
  switch (trigger) {
    case 'problem_recorded':
      if (fields.problem_type === undefined) return missing(m.problemTypeRequired);
      return { ...rule, problem_type: fields.problem_type, room_id: fields.room_id ?? null };
    case 'form_submitted':
      if (fields.form_category === undefined) return missing(m.formCategoryRequired);
      return { ...rule, form_category: fields.form_category };
    case 'keyword':
      if (fields.template_id === undefined) return missing(m.keywordTemplateRequired);
      if (fields.form_field_id === undefined) return missing(m.keywordFieldRequired);
      if (fields.keyword === undefined) return missing(m.keywordRequired);
      return { ...rule, template_id: fields.template_id, form_field_id: fields.form_field_id, keyword: fields.keyword };
    case 'task_assigned':
    case 'task_done':
      return rule;
    case 'template_due':
      if (fields.template_id === undefined) return missing(m.templateRequired);
      return { ...rule, template_id: fields.template_id, room_id: fields.room_id ?? null, ...scheduleOf(fields, DEFAULT_FREQUENCY) };
    case 'weekly_report':
      // Weekly by its name: only the day and the time are chosen.
      return { ...rule, ...scheduleOf({ ...fields, frequency: 'weekly' }, 'weekly'), report_duration_weeks: fields.report_duration_weeks ?? DEFAULT_REPORT_DURATION_WEEKS };
  }
}

/**
 * create_task_notification (spec §7: JSON user_id, method, optional triggered_by, the recipients): a
 * message when a task of the company is assigned (to anyone: the message names whom), or, with
 * `triggered_by: 'done'`, when one is done.
 */
export const taskNotificationBody = z.preprocess(
  orEmpty,
  z
    .object({
      user_id: userId(m.userIdAndMethodRequired),
      id: ruleId,
      method: method(m.userIdAndMethodRequired),
      triggered_by: z.preprocess(snakeSpelling, z.enum(TASK_TRIGGERS, { error: m.triggeredByInvalid }).optional()),
      ...recipientFields,
      client_id: optionalClientId(),
    })
    .transform((body, context): NotificationRule => {
      const by: TaskTrigger = body.triggered_by ?? DEFAULT_TASK_TRIGGER;
      return { user_id: body.user_id, id: body.id, client_id: body.client_id, method: body.method, ...recipientsOf(body.method, body, context), ...NO_TRIGGER_FIELDS, trigger: `task_${by}` };
    }),
);

/**
 * create_template_notification (spec §7: query user_id; form template_id, method, frequency,
 * notification_time, recipients): "this form is due": a message at each due time when no response of
 * the form (in `room_id`, when given) was submitted since the previous due time. Frequency daily by
 * default, weekly on `weekday` (Monday by default), monthly on `day_of_month` (the 1st by default);
 * notification_time "HH:MM" in UTC, 08:00 by default (spec §5 needs only userId, templateId and method).
 */
export const templateNotificationBody = z.preprocess(
  orEmpty,
  z
    .object({
      user_id: userId(m.templateNotificationFieldsRequired),
      id: ruleId,
      template_id: z.preprocess(blankToUndefined, requiredId(m.templateNotificationFieldsRequired)),
      method: method(m.templateNotificationFieldsRequired),
      frequency,
      weekday,
      day_of_month: wholeNumber(m.dayOfMonthInvalid, 1, 31),
      notification_time: notificationTime,
      room_id: optionalId(m.idInvalid('room_id')),
      ...recipientFields,
      client_id: optionalClientId(),
    })
    .transform((body, context): NotificationRule => ({
      user_id: body.user_id,
      id: body.id,
      client_id: body.client_id,
      method: body.method,
      ...recipientsOf(body.method, body, context),
      ...NO_TRIGGER_FIELDS,
      trigger: 'template_due',
      template_id: body.template_id,
      room_id: body.room_id ?? null,
      ...scheduleOf(body, DEFAULT_FREQUENCY),
    })),
);

/** get_notifications (spec §7: user_id): the rules of that user's company. */
export const notificationsQuery = z.object({ user_id: userId(m.userIdAndMethodRequired) });

/** get_automation_fields (spec §7: template_id or company_id): the fields a keyword automation can watch. */
export const automationFieldsQuery = z
  .object({ template_id: optionalId(m.idInvalid('template_id')), company_id: optionalId(m.idInvalid('company_id')) })
  .refine((query) => query.template_id !== undefined || query.company_id !== undefined, { error: m.fieldsScopeRequired });

/** delete_notification (spec §7: notification_id, user_id). */
export const deleteNotificationBody = z.preprocess(
  orEmpty,
  z.object({ notification_id: z.preprocess(blankToUndefined, requiredId(m.notificationIdRequired)), user_id: userId(m.userIdAndMethodRequired) }),
);

/** get_notification_deliveries (ours): the delivery log, newest first; one rule's with `notification_id`. */
export const deliveriesQuery = z.object({
  notification_id: optionalId(m.idInvalid('notification_id')),
  company_id: optionalId(m.idInvalid('company_id')),
  limit: z.preprocess(blankToUndefined, z.coerce.number({ error: m.limitInvalid }).int({ error: m.limitInvalid }).min(1, { error: m.limitInvalid }).max(DELIVERY_LOG_MAX, { error: m.limitInvalid }).default(DELIVERY_LOG_DEFAULT)),
});

/** send_test_notification (ours): the rule's message, now, to its recipient. */
export const sendTestBody = z.preprocess(orEmpty, z.object({ notification_id: z.preprocess(blankToUndefined, requiredId(m.notificationIdRequired)) }));

// ——— Answers ———

/** A rule as answers show it: the spec's fields (§3), its schedule, and who made it when. */
export const notificationRecord = z.object({
  id: z.number().int(),
  client_id: z.string(),
  company_id: z.number().int(),
  /** Who saved it (spec §3 "made by a user"). */
  user_id: z.number().int().nullable(),
  method: z.enum(NOTIFICATION_METHODS),
  trigger: z.enum(NOTIFICATION_TRIGGERS),
  email_recipient: z.string().nullable(),
  slack_webhook_url: z.string().nullable(),
  teams_webhook_url: z.string().nullable(),
  problem_type: z.string().nullable(),
  room_id: z.number().int().nullable(),
  form_category: z.string().nullable(),
  template_id: z.number().int().nullable(),
  form_field_id: z.number().int().nullable(),
  keyword: z.string().nullable(),
  /** 1 for a keyword automation (spec §3 is_automation). */
  is_automation: z.union([z.literal(0), z.literal(1)]),
  /** 1 for the weekly report (spec §3 weekly_report). */
  weekly_report: z.union([z.literal(0), z.literal(1)]),
  report_duration_weeks: z.number().int().nullable(),
  /** A task notification's (spec §3 "Task notification"). */
  triggered_by: z.enum(TASK_TRIGGERS).nullable(),
  frequency: z.enum(FREQUENCIES).nullable(),
  weekday: z.number().int().nullable(),
  day_of_month: z.number().int().nullable(),
  /** "HH:MM", UTC. */
  notification_time: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type NotificationRecord = z.infer<typeof notificationRecord>;

/** A field a keyword automation can watch, with its form. */
export const automationFieldRecord = z.object({
  template_id: z.number().int(),
  template_name: z.string(),
  form_category: z.string(),
  form_field_id: z.number().int(),
  field_name: z.string(),
  field_type: z.string(),
});

export type AutomationFieldRecord = z.infer<typeof automationFieldRecord>;

/** A delivery as the log shows it (server/notifications/delivery.ts `deliveriesOf`): a webhook by its origin only. */
export const deliveryRecord = z.object({
  id: z.number().int(),
  notification_id: z.number().int().nullable(),
  trigger_key: z.string(),
  method: z.enum(NOTIFICATION_METHODS),
  recipient: z.string(),
  subject: z.string(),
  attachment_name: z.string().nullable(),
  status: z.enum(['queued', 'sent', 'failed', 'retrying']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  next_try_at: timestamp.nullable(),
  sent_at: timestamp.nullable(),
  created_at: timestamp,
  /** When the change that triggered it was made. */
  acted_at: timestamp,
});

export type DeliveryRecord = z.infer<typeof deliveryRecord>;

export const notificationsAnswer = answer({ notifications: z.array(notificationRecord) });
/** A rule saved: as it now is; `created`: this call made it. */
export const saveNotificationAnswer = answer({ notification: notificationRecord, notification_id: z.number().int(), client_id: z.string(), created: z.boolean() });
export const deleteNotificationAnswer = answer({ notification_id: z.number().int() });
export const automationFieldsAnswer = answer({ data: z.array(automationFieldRecord) });
export const deliveriesAnswer = answer({ deliveries: z.array(deliveryRecord) });
export const sendTestAnswer = answer({ delivery_id: z.number().int() });
