/**
 * The automations screen's pure logic: the kinds of rule in the order the screen lists them, what a
 * rule says in words (its trigger, its schedule, where its message goes), and the create/edit form's
 * values to and from a rule. The checks of a rule's fields are the schemas' (common/schemas/automations.ts,
 * run by src/api/automations.ts before any call), so the form shows their messages and repeats none.
 * The words are the reader's (automationsTexts): these are called at render.
 */
import {
  DEFAULT_DAY_OF_MONTH,
  DEFAULT_FREQUENCY,
  DEFAULT_NOTIFICATION_TIME,
  DEFAULT_REPORT_DURATION_WEEKS,
  DEFAULT_WEEKDAY,
  FREQUENCIES,
  type Frequency,
  NOTIFICATION_METHODS,
  NOTIFICATION_TRIGGERS,
  type NotificationMethod,
  type NotificationTrigger,
  type WEEKDAYS,
  weekdayOf,
} from '../../../common/messages/automations';
import { DEFAULT_FORM_CATEGORY, FIELD_TYPES, type FieldType, isFormCategory } from '../../../common/messages/forms';
import { type Delivery, type Notification, type NotificationDraft, type Recipient, type RuleTriggerDraft, rulesByTrigger } from '../../api/automations';
import type { RecordId } from '../../api/records';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { when } from '../rooms/model';
import { automationsTexts } from './texts';

const t = () => i18next.getFixedT(null, automationsTexts);

/** The kinds of rule, in the screen's order. */
export const KINDS: readonly NotificationTrigger[] = NOTIFICATION_TRIGGERS;
export const METHODS: readonly NotificationMethod[] = NOTIFICATION_METHODS;

const METHOD_KEYS = { email: 'email', Slack: 'slack', 'Microsoft Teams': 'teams' } as const satisfies Record<NotificationMethod, string>;

/** Each choice's words in the reader's language, for the form's selects and the rule cards' headings. */
export const kindLabels = (): Record<NotificationTrigger, string> => Object.fromEntries(KINDS.map((kind) => [kind, t()(`kinds.${kind}`)])) as Record<NotificationTrigger, string>;
export const methodLabels = (): Record<NotificationMethod, string> => Object.fromEntries(METHODS.map((method) => [method, t()(`methods.${METHOD_KEYS[method]}`)])) as Record<NotificationMethod, string>;
export const frequencyLabels = (): Record<Frequency, string> => Object.fromEntries(FREQUENCIES.map((frequency) => [frequency, t()(`frequencies.${frequency}`)])) as Record<Frequency, string>;

/** A form category (the app's: "Scouting", "Sticky Trap"…) in the reader's words; any other text as it is. */
export function categoryName(category: string | null | undefined): string {
  return isFormCategory(category) ? t()(`formCategories.${category}`) : (category ?? '');
}

/** A form field's type (the app's: "Text", "Dropdown"…) in the reader's words; any other text as it is. */
export function fieldTypeName(type: string): string {
  return FIELD_TYPES.includes(type as FieldType) ? t()(`fieldTypes.${type as FieldType}`) : type;
}

/** The names a rule's ids stand for, from the tablet's copy (a name not there shows its number). */
export interface Names {
  template: (id: number) => string | null;
  field: (templateId: number, fieldId: number) => string | null;
  room: (id: number) => string | null;
  user: (id: number) => string | null;
}

/**
 * Where a rule's message goes: its e-mail addresses, or a webhook by its origin only: the rest of a
 * Slack or Teams address is the secret that lets anyone post to the channel, so it is never shown
 * (the form keeps it, to save the rule again unchanged).
 */
export function recipientText(rule: Pick<Notification, 'method' | 'email_recipient' | 'slack_webhook_url' | 'teams_webhook_url'>): string {
  if (rule.method === 'email') return (rule.email_recipient ?? '').split(';').filter(Boolean).join(', ');
  return webhookOrigin(rule.method === 'Slack' ? rule.slack_webhook_url : rule.teams_webhook_url);
}

export function webhookOrigin(url: string | null): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return t()('notWebAddress');
  }
}

/** A day of the week (1 Monday to 7 Sunday) as a choice of the form shows it ("Monday", "Lunes"). */
export const weekdayLabel = (day: (typeof WEEKDAYS)[number]): string => t()(`weekdays.${day}`);

/** "every Monday at 08:00 UTC" (times are UTC: common/messages/automations.ts DEFAULT_NOTIFICATION_TIME says why). */
export function scheduleText(rule: Pick<Notification, 'frequency' | 'weekday' | 'day_of_month' | 'notification_time'>): string {
  const time = rule.notification_time ?? DEFAULT_NOTIFICATION_TIME;
  switch (rule.frequency) {
    case 'weekly':
      return t()('schedule.weekly', { day: t()(`weekdaysInText.${weekdayOf(rule.weekday)}`), time });
    case 'monthly':
      return t()('schedule.monthly', { day: rule.day_of_month ?? DEFAULT_DAY_OF_MONTH, time });
    default:
      return t()('schedule.daily', { time });
  }
}

/** What fires a rule, in words ("Thrips recorded in Flower 1"). */
export function ruleText(rule: Notification, names: Names): string {
  const words = t();
  const room = rule.room_id === null ? null : (names.room(rule.room_id) ?? words('rule.roomNumber', { id: rule.room_id }));
  const form = rule.template_id === null ? words('rule.aForm') : (names.template(rule.template_id) ?? words('rule.formNumber', { id: rule.template_id }));
  switch (rule.trigger) {
    case 'problem_recorded': {
      const problem = rule.problem_type ?? words('rule.aProblem');
      return room === null ? words('rule.problemRecorded', { problem }) : words('rule.problemRecordedIn', { problem, room });
    }
    case 'form_submitted':
      return words('rule.formSubmitted', { category: categoryName(rule.form_category) });
    case 'keyword': {
      const field = rule.template_id !== null && rule.form_field_id !== null ? names.field(rule.template_id, rule.form_field_id) : null;
      return words('rule.keyword', { keyword: rule.keyword ?? '', field: field ?? words('rule.aField'), form });
    }
    case 'task_assigned':
      return words('rule.taskAssigned');
    case 'task_done':
      return words('rule.taskDone');
    case 'template_due':
      return room === null ? words('rule.templateDue', { form, schedule: scheduleText(rule) }) : words('rule.templateDueIn', { form, room, schedule: scheduleText(rule) });
    case 'weekly_report':
      return words('rule.weeklyReport', { count: rule.report_duration_weeks ?? DEFAULT_REPORT_DURATION_WEEKS, schedule: scheduleText({ ...rule, frequency: 'weekly' }) });
  }
}

/** The rules of each kind that has any, in the screen's order. */
export function rulesByKind(rules: readonly Notification[]): Array<{ kind: NotificationTrigger; rules: Notification[] }> {
  const byTrigger = rulesByTrigger(rules);
  return KINDS.flatMap((kind) => {
    const ofKind = byTrigger.get(kind);
    return ofKind ? [{ kind, rules: ofKind }] : [];
  });
}

/** The create/edit form's values, all as the controls hold them (text). */
export interface RuleFormValues {
  kind: NotificationTrigger;
  method: NotificationMethod;
  emailRecipient: string;
  slackWebhookUrl: string;
  teamsWebhookUrl: string;
  problemType: string;
  /** A room's server id, or '' for any room. */
  roomId: string;
  formCategory: string;
  templateId: string;
  formFieldId: string;
  keyword: string;
  frequency: Frequency;
  weekday: string;
  dayOfMonth: string;
  notificationTime: string;
  reportDurationWeeks: string;
}

export const NEW_RULE: RuleFormValues = {
  kind: 'problem_recorded',
  method: 'email',
  emailRecipient: '',
  slackWebhookUrl: '',
  teamsWebhookUrl: '',
  problemType: '',
  roomId: '',
  formCategory: DEFAULT_FORM_CATEGORY,
  templateId: '',
  formFieldId: '',
  keyword: '',
  frequency: DEFAULT_FREQUENCY,
  weekday: String(DEFAULT_WEEKDAY),
  dayOfMonth: String(DEFAULT_DAY_OF_MONTH),
  notificationTime: DEFAULT_NOTIFICATION_TIME,
  reportDurationWeeks: String(DEFAULT_REPORT_DURATION_WEEKS),
};

const text = (value: string | number | null) => (value === null ? '' : String(value));

/** A saved rule as the form edits it: every field as saved, the others at their defaults. */
export function valuesOf(rule: Notification): RuleFormValues {
  return {
    kind: rule.trigger,
    method: rule.method,
    emailRecipient: (rule.email_recipient ?? '').split(';').join('; '),
    // A saved webhook address is kept, not shown (see recipientText): blank means "the saved one" (draftOf).
    slackWebhookUrl: '',
    teamsWebhookUrl: '',
    problemType: rule.problem_type ?? '',
    roomId: text(rule.room_id),
    formCategory: rule.form_category ?? NEW_RULE.formCategory,
    templateId: text(rule.template_id),
    formFieldId: text(rule.form_field_id),
    keyword: rule.keyword ?? '',
    frequency: rule.frequency ?? NEW_RULE.frequency,
    weekday: text(rule.weekday) || NEW_RULE.weekday,
    dayOfMonth: text(rule.day_of_month) || NEW_RULE.dayOfMonth,
    notificationTime: rule.notification_time ?? NEW_RULE.notificationTime,
    reportDurationWeeks: text(rule.report_duration_weeks) || NEW_RULE.reportDurationWeeks,
  };
}

/**
 * A chosen id, or absent when nothing is chosen.
 * WARNING: absent is typed as an id on purpose: the draft goes to the schemas unchanged, which answer
 * a missing choice with the spec's message ('A keyword automation needs template_id…', 'Template
 * notifications need userId, templateId and method.'), so the form need not repeat those rules.
 */
const chosenId = (value: string): RecordId => (value.trim() === '' ? (undefined as unknown as RecordId) : Number(value));
/** A typed number, or absent (the schema's default applies) when blank; anything else that is no number is NaN, which the schema refuses with its message. */
const typedNumber = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));

/** The form's recipient; a webhook address left blank on a saved rule of that method is the saved one. */
function recipientOf(values: RuleFormValues, saved: Notification | undefined): Recipient {
  const kept = (typed: string, savedUrl: string | null | undefined) => (typed.trim() === '' && saved?.method === values.method ? (savedUrl ?? '') : typed);
  if (values.method === 'Slack') return { method: 'Slack', slackWebhookUrl: kept(values.slackWebhookUrl, saved?.slack_webhook_url) };
  if (values.method === 'Microsoft Teams') return { method: 'Microsoft Teams', teamsWebhookUrl: kept(values.teamsWebhookUrl, saved?.teams_webhook_url) };
  return { method: 'email', emailRecipients: values.emailRecipient.split(/[;,]/) };
}

function triggerOf(values: RuleFormValues): RuleTriggerDraft {
  const roomId = values.roomId === '' ? null : Number(values.roomId);
  switch (values.kind) {
    case 'problem_recorded':
      return { trigger: 'problem_recorded', problemType: values.problemType, roomId };
    case 'form_submitted':
      return { trigger: 'form_submitted', formCategory: values.formCategory };
    case 'keyword':
      return { trigger: 'keyword', templateId: chosenId(values.templateId), formFieldId: chosenId(values.formFieldId), keyword: values.keyword };
    case 'task_assigned':
    case 'task_done':
      return { trigger: values.kind };
    case 'template_due':
      return {
        trigger: 'template_due',
        templateId: chosenId(values.templateId),
        roomId,
        frequency: values.frequency,
        ...(values.frequency === 'weekly' ? { weekday: typedNumber(values.weekday) } : {}),
        ...(values.frequency === 'monthly' ? { dayOfMonth: typedNumber(values.dayOfMonth) } : {}),
        notificationTime: values.notificationTime,
      };
    case 'weekly_report':
      return { trigger: 'weekly_report', reportDurationWeeks: typedNumber(values.reportDurationWeeks), weekday: typedNumber(values.weekday), notificationTime: values.notificationTime };
  }
}

/** The rule the form describes, saved by the signed-in Admin; with `saved`, that rule saved again. */
export function draftOf(values: RuleFormValues, userId: number, saved?: Notification): NotificationDraft {
  return { userId, ...(saved === undefined ? {} : { id: saved.id }), ...recipientOf(values, saved), ...triggerOf(values) };
}

/** A delivery's state as its chip says it ("Sent", "Failed"…). */
export const deliveryStatusLabel = (status: Delivery['status']): string => t()(`deliveryStatus.${status}`);

/** A delivery's state in words: when it was sent, why it failed (the mail or chat service's words), and when it is tried next. */
export function deliveryText(delivery: Delivery): string {
  const words = t();
  const reason = translateMessage(delivery.last_error ?? words('delivery.noReason'));
  switch (delivery.status) {
    case 'sent':
      return words('delivery.sent', { time: when(delivery.sent_at) });
    case 'failed':
      return words('delivery.failed', { reason });
    case 'retrying':
      return words('delivery.retrying', { count: delivery.attempts, reason, time: when(delivery.next_try_at) });
    case 'queued':
      return delivery.next_try_at ? words('delivery.waitingNextTry', { time: when(delivery.next_try_at) }) : words('delivery.waiting');
  }
}
