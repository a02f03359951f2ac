/**
 * Messages and fixed lists of notifications and automations (spec part 2 §3 "Automation or
 * notification", "Task notification", "Template notification", §5 "Tasks, comments, notifications",
 * §7, §8, §9; issue 16). Where §5 states a rule, the message is its sentence; where it states none
 * ("further rules are not shown"), the message says ours in the calls' field names.
 */
import type { FieldType } from './forms';

/** Spec §9: notification methods. The method decides the recipient (spec §5). */
export const NOTIFICATION_METHODS = ['email', 'Slack', 'Microsoft Teams'] as const;
export type NotificationMethod = (typeof NOTIFICATION_METHODS)[number];

/**
 * What fires a rule (issue 16): a problem of a type recorded (in a room, or anywhere), a form of a
 * category submitted, a keyword in a field's answer, a task assigned or done, a template not filled by
 * its due time, and the weekly report. The spec names the field `trigger` but not its values: these are ours.
 */
export const NOTIFICATION_TRIGGERS = ['problem_recorded', 'form_submitted', 'keyword', 'task_assigned', 'task_done', 'template_due', 'weekly_report'] as const;
export type NotificationTrigger = (typeof NOTIFICATION_TRIGGERS)[number];

/** Rules that fire on a clock rather than on a change (server/domains/automations/schedules.ts). */
export const SCHEDULED_TRIGGERS: readonly NotificationTrigger[] = ['template_due', 'weekly_report'];

/** create_task_notification's `triggered_by` (spec §3 "Task notification"); absent: 'assigned'. */
export const TASK_TRIGGERS = ['assigned', 'done'] as const;
export type TaskTrigger = (typeof TASK_TRIGGERS)[number];
export const DEFAULT_TASK_TRIGGER: TaskTrigger = 'assigned';

/** A template notification's frequency (spec §3 "Template notification"). */
export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const DEFAULT_FREQUENCY: Frequency = 'daily';

/**
 * Days of the week as ISO numbers, Monday 1 to Sunday 7 (spec §9: a week runs Monday to Sunday); the
 * names are taken too, in any case.
 */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const DEFAULT_WEEKDAY = 1;
/** A weekly rule's day (1 Monday to 7 Sunday; none: the default) by its name. */
export const weekdayOf = (weekday: number | null): (typeof WEEKDAYS)[number] => WEEKDAYS[(weekday ?? DEFAULT_WEEKDAY) - 1] ?? WEEKDAYS[0];
/** A monthly rule's day; a day a month lacks (the 31st) is its last day. */
export const DEFAULT_DAY_OF_MONTH = 1;

/**
 * notification_time is a time of day in UTC, "HH:MM": the company has no time zone (reports count
 * weeks in UTC too: common/schemas/report-dates.ts), so a rule's time is the same for every tablet and
 * server. The screen says "UTC" beside it.
 */
export const DEFAULT_NOTIFICATION_TIME = '08:00';

/** The weekly report's weeks (report_duration_weeks): the last whole weeks before the week it is sent in. */
export const DEFAULT_REPORT_DURATION_WEEKS = 4;
export const REPORT_DURATION_WEEKS_MAX = 52;

/** Fields whose answers are text a keyword can be found in (a photo, a date, a place or a number holds none). */
export const KEYWORD_FIELD_TYPES: readonly FieldType[] = ['Text', 'Textarea', 'Dropdown', 'Radio', 'Checkbox', 'Problem'];

export const EMAIL_RECIPIENTS_MAX = 50;
export const KEYWORD_MAX_CHARS = 200;
export const PROBLEM_TYPE_MAX_CHARS = 200;
export const WEBHOOK_URL_MAX_CHARS = 2000;
/** The delivery log's page: the newest entries, at most this many. */
export const DELIVERY_LOG_DEFAULT = 100;
export const DELIVERY_LOG_MAX = 500;

export const notificationMessages = {
  // Spec §5, its sentences.
  userIdAndMethodRequired: 'Notifications need userId and method.',
  templateNotificationFieldsRequired: 'Template notifications need userId, templateId and method.',
  emailRecipientRequired: 'email needs email_recipient.',
  slackWebhookRequired: 'Slack needs slack_webhook_url.',
  teamsWebhookRequired: "'Microsoft Teams' needs teams_webhook_url.",
  // Spec §9 lists, and our rules for what §5 does not show.
  methodInvalid: `method must be one of ${NOTIFICATION_METHODS.map((method) => (method.includes(' ') ? `'${method}'` : method)).join(', ')}.`,
  emailRecipientInvalid: (address: string) => `email_recipient must be e-mail addresses joined by ';': "${address}" is not one.`,
  emailRecipientsTooMany: `email_recipient holds at most ${EMAIL_RECIPIENTS_MAX} addresses.`,
  webhookInvalid: (field: string) => `${field} must be a web address (https://…).`,
  webhookRefused: (field: string, reason: string) => `${field} cannot be used: ${reason}`,
  triggerInvalid: `trigger must be one of ${NOTIFICATION_TRIGGERS.join(', ')}.`,
  triggerRequired: 'Say what the notification is for: trigger, or weekly_report=1, or is_automation=1 with template_id, form_field_id and keyword.',
  problemTypeRequired: `A problem_recorded notification needs problem_type (at most ${PROBLEM_TYPE_MAX_CHARS} characters).`,
  formCategoryRequired: 'A form_submitted notification needs form_category.',
  formCategoryInvalid: (categories: readonly string[]) => `form_category must be one of ${categories.join(', ')}.`,
  keywordTemplateRequired: 'A keyword automation needs template_id: the form whose answer is watched.',
  keywordFieldRequired: 'A keyword automation needs form_field_id: the field whose answer is watched.',
  keywordRequired: `A keyword automation needs keyword (at most ${KEYWORD_MAX_CHARS} characters).`,
  fieldNotInTemplate: 'form_field_id must be a field of the form template_id.',
  fieldNotWatchable: (fieldType: string) => `A ${fieldType} field holds no text a keyword can be found in: choose a field of type ${KEYWORD_FIELD_TYPES.join(', ')}.`,
  templateRequired: 'A template_due notification needs template_id.',
  triggeredByInvalid: `triggered_by must be one of ${TASK_TRIGGERS.join(', ')}.`,
  frequencyInvalid: `frequency must be one of ${FREQUENCIES.join(', ')}.`,
  notificationTimeInvalid: 'notification_time must be a time of day as HH:MM (24 hours, UTC).',
  weekdayInvalid: `weekday must be a day of the week: 1 (Monday) to 7 (Sunday), or its name.`,
  dayOfMonthInvalid: 'day_of_month must be a whole number from 1 to 31 (a month without that day uses its last).',
  reportDurationInvalid: `report_duration_weeks must be a whole number of weeks from 1 to ${REPORT_DURATION_WEEKS_MAX}.`,
  flagInvalid: (field: string) => `${field} must be 0 or 1.`,
  idInvalid: (field: string) => `${field} must be a positive whole number.`,
  notificationIdRequired: 'notification_id is required.',
  fieldsScopeRequired: 'Give template_id or company_id.',
  limitInvalid: `limit must be a whole number from 1 to ${DELIVERY_LOG_MAX}.`,
  // Answers.
  notificationCreated: 'Notification created.',
  notificationUpdated: 'Notification updated.',
  notificationDeleted: 'Notification deleted.',
  testQueued: 'Test notification queued.',
  // The client's defaults when a call fails without a message (spec §8, its words).
  deleteFailed: 'Failed to delete notification',
  createFailed: 'Failed to create notification.',
  createTemplateFailed: 'Failed to create template notification',
  getTaskAutomationFailed: 'Failed to get task automation.',
  createTaskAutomationFailed: 'Failed to create task automation.',
  updateTaskAutomationFailed: 'Failed to update task automation.',
  deleteTaskAutomationFailed: 'Failed to delete task automation.',
  // Ours (the spec names no default for these calls).
  fetchFailed: 'Failed to fetch notifications.',
  updateFailed: 'Failed to update notification.',
  fetchDeliveriesFailed: 'Failed to fetch the delivery log.',
  sendTestFailed: 'Failed to send a test notification.',
} as const;
