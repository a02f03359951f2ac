/**
 * The words the server puts inside an audit title as one of its values (issue 18): what a notification
 * rule does ("Thrips recorded in Flower 1", "Weekly scouting due Mondays at 08:00 UTC") and each answer a
 * correction changed ("Count from "3" to "4""). They are stored in English inside the title, like every
 * title (audit-titles.ts), and the tablet shows them in the reader's language inside the translated title
 * (src/i18n/message-parts.ts), only at the places VALUES_HOLDING_PARTS names: a value the company wrote
 * (a room's name, a correction's reason) shows as written, whatever it reads like.
 *
 * WARNING: as in audit-titles.ts, a function takes only values shown as they are; English around them
 * is an entry of its own. The rule's words are also the subject of a test notification and the schedule
 * is in a due reminder's text (automations/routes.ts, schedules.ts): changing their English changes those
 * messages, and leaves the titles stored before untranslated.
 */
import type { WEEKDAYS } from './automations';
import type { FormCategory } from './forms';

/** A value a title or part shows as it is. */
export type Value = string | number;

/** How the server joins a list of parts inside one value. */
export const PART_SEPARATOR = '; ';

/** The titles that hold parts (audit-titles.ts takes them from here). */
export const titlesHoldingParts = {
  // `description`: the rule in words, auditTitleParts.rule (automations/routes.ts describeRule).
  createdNotification: (description: string, recipients: string) => `Created notification: ${description}, by ${recipients}`,
  updatedNotification: (description: string, recipients: string) => `Updated notification: ${description}, by ${recipients}`,
  deletedNotification: (description: string, recipients: string) => `Deleted notification: ${description}, by ${recipients}`,
  sentTestNotification: (description: string, recipients: string) => `Sent a test of notification: ${description}, to ${recipients}`,
  /** `changes`: each answer changed, auditTitleParts.answer, joined by PART_SEPARATOR (forms/corrections.ts). */
  correctedResponse: (form: string, responseId: Value, changes: string, reason: string) => `Corrected ${form} response ${responseId}: ${changes}. Reason: ${reason}`,
};

export const auditTitleParts = {
  // A notification rule, as server/domains/automations/routes.ts describeRule says it.
  rule: {
    problemRecorded: (problemType: string) => `${problemType} recorded`,
    problemRecordedInRoom: (problemType: string, room: string) => `${problemType} recorded in ${room}`,
    anyProblemRecorded: 'A problem recorded',
    anyProblemRecordedInRoom: (room: string) => `A problem recorded in ${room}`,
    formSubmitted: {
      Scouting: 'Scouting form submitted',
      'Sticky Trap': 'Sticky Trap form submitted',
      Treatment: 'Treatment form submitted',
      Task: 'Task form submitted',
      General: 'General form submitted',
    } satisfies Record<FormCategory, string>,
    anyFormSubmitted: 'A form submitted',
    /** A category stored before the app's five. */
    otherFormSubmitted: (category: string) => `${category} form submitted`,
    keyword: (keyword: string, field: string, form: string) => `“${keyword}” in ${field} of ${form}`,
    taskAssigned: 'Task assigned',
    taskDone: 'Task done',
    // `schedule`: auditTitleParts.schedule.
    formDue: (form: string, schedule: string) => `${form} due ${schedule}`,
    formInRoomDue: (form: string, room: string, schedule: string) => `${form} in ${room} due ${schedule}`,
    weeklyReport: (weeks: Value, schedule: string) => `Weekly report of the last ${weeks} week(s), ${schedule}`,
  },

  // A rule's schedule (server/domains/automations/schedules.ts scheduleText); `time` is "08:00".
  schedule: {
    daily: (time: string) => `daily at ${time} UTC`,
    weekly: {
      Monday: (time: string) => `Mondays at ${time} UTC`,
      Tuesday: (time: string) => `Tuesdays at ${time} UTC`,
      Wednesday: (time: string) => `Wednesdays at ${time} UTC`,
      Thursday: (time: string) => `Thursdays at ${time} UTC`,
      Friday: (time: string) => `Fridays at ${time} UTC`,
      Saturday: (time: string) => `Saturdays at ${time} UTC`,
      Sunday: (time: string) => `Sundays at ${time} UTC`,
    } satisfies Record<(typeof WEEKDAYS)[number], (time: string) => string>,
    monthly: (day: Value, time: string) => `monthly on day ${day} at ${time} UTC`,
  },

  // An answer a correction changed (server/domains/forms/corrections.ts), its values as the grower wrote them.
  answer: {
    changed: (field: string, from: string, to: string) => `${field} from "${from}" to "${to}"`,
    filled: (field: string, to: string) => `${field} from blank to "${to}"`,
    cleared: (field: string, from: string) => `${field} from "${from}" to blank`,
  },
};

/**
 * The values that are parts: a title or part (`holder`), the place of the value among its arguments
 * (`placeholder`, {{n}} in its English), the parts it may be, and whether it is a list of them joined by
 * PART_SEPARATOR.
 */
export const VALUES_HOLDING_PARTS: ReadonlyArray<{ holder: (...values: never[]) => string; placeholder: number; parts: (typeof auditTitleParts)[keyof typeof auditTitleParts]; list?: true }> = [
  ...[titlesHoldingParts.createdNotification, titlesHoldingParts.updatedNotification, titlesHoldingParts.deletedNotification, titlesHoldingParts.sentTestNotification].map((holder) => ({
    holder,
    placeholder: 0,
    parts: auditTitleParts.rule,
  })),
  { holder: auditTitleParts.rule.formDue, placeholder: 1, parts: auditTitleParts.schedule },
  { holder: auditTitleParts.rule.formInRoomDue, placeholder: 2, parts: auditTitleParts.schedule },
  { holder: auditTitleParts.rule.weeklyReport, placeholder: 1, parts: auditTitleParts.schedule },
  { holder: titlesHoldingParts.correctedResponse, placeholder: 2, parts: auditTitleParts.answer, list: true },
];
