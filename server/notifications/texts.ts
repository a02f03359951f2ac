/**
 * The words of what the server sends people: notification messages (by e-mail, Slack or Teams), the
 * weekly report, invitations and password resets. Written in the company's language (issue 18): this
 * English table is the key of its translations, ./locales/{es,nl}.json, as the spec's messages are of
 * theirs (common/i18n/message-patterns.ts `translatedTable`; words.ts picks the language), and the
 * locales test fails when a translation lacks one of them.
 *
 * Kept apart from the spec's messages: these are never looked up in a text the tablet is shown (a
 * pattern such as "{{0}}: {{1}}" would take any message there).
 *
 * WARNING: as in common/messages/audit-titles.ts, a function takes only values shown as they are (a
 * name, a number, a time, another entry's words); English around them is an entry of its own, so each
 * sentence is whole in every language. Times are "2026-03-02 08:00 UTC" in every language.
 */
import type { Value } from '../../common/messages/audit-title-parts';
import type { TaskStatus } from '../../common/task-statuses';

export const notificationTexts = {
  // Who and where, inside the sentences below.
  someone: 'someone',
  theSystem: 'the system',
  nobody: 'nobody',
  aBox: 'a box',
  box: (box: string, grid: string) => `box ${box} of grid ${grid}`,
  /** Where a form was filled or a task comes from: `where` below. */
  where: {
    boxInRoom: (box: string, room: string) => `for ${box} in room ${room}`,
    box: (box: string) => `for ${box}`,
    room: (room: string) => `in room ${room}`,
  },
  // Links: the button of a Slack or Teams message, the last line of an e-mail.
  open: {
    room: (room: string) => `Open ${room}`,
    rooms: 'Open the rooms',
    observations: 'Open the observations',
    tasks: 'Open the tasks',
    reports: 'Open the reports',
    automations: 'Open the automations',
  },

  problem: {
    subject: (problemType: string) => `${problemType} recorded`,
    subjectInRoom: (problemType: string, room: string) => `${problemType} recorded in room ${room}`,
    text: (problemType: string, severity: Value, box: string, who: string, at: string) => `${problemType} (severity ${severity}) was recorded on ${box} by ${who}, ${at}.`,
    textInRoom: (problemType: string, severity: Value, box: string, room: string, who: string, at: string) =>
      `${problemType} (severity ${severity}) was recorded on ${box} in room ${room} by ${who}, ${at}.`,
    notes: (notes: string) => `Notes: ${notes}`,
  },

  form: {
    subject: (form: string) => `${form} submitted`,
    subjectInRoom: (form: string, room: string) => `${form} submitted in room ${room}`,
    text: (who: string, form: string, category: string, at: string) => `${who} submitted ${form} (${category}), ${at}.`,
    /** `where`: an entry of `where`. */
    textWhere: (who: string, form: string, category: string, where: string, at: string) => `${who} submitted ${form} (${category}) ${where}, ${at}.`,
    answer: (field: string, answer: string) => `${field}: ${answer}`,
    fieldNumbered: (fieldId: Value) => `Field ${fieldId}`,
    moreAnswers: (count: Value) => `… and ${count} more answers.`,
  },

  keyword: {
    subject: (keyword: string, field: string, form: string) => `“${keyword}” in ${field} of ${form}`,
    subjectInRoom: (keyword: string, field: string, form: string, room: string) => `“${keyword}” in ${field} of ${form} in room ${room}`,
    anAnswer: 'an answer',
    aField: 'A field',
    text: (field: string, answer: string, form: string, who: string, at: string) => `${field} answered “${answer}” on ${form}, submitted by ${who}, ${at}.`,
    textWhere: (field: string, answer: string, form: string, where: string, who: string, at: string) => `${field} answered “${answer}” on ${form} ${where}, submitted by ${who}, ${at}.`,
  },

  task: {
    from: (form: string) => `From ${form}.`,
    fromWhere: (form: string, where: string) => `From ${form} ${where}.`,
    due: (at: string) => `Due ${at}.`,
    assignedSubject: (assignee: string, title: string) => `Task assigned to ${assignee}: ${title}`,
    assignedText: (who: string, title: string, assignee: string, at: string) => `${who} assigned the task “${title}” to ${assignee}, ${at}.`,
    doneSubject: (title: string) => `Task done: ${title}`,
    doneText: (who: string, title: string, assignee: string, at: string) => `${who} marked the task “${title}” done (assigned to ${assignee}), ${at}.`,
    status: { open: 'open', in_progress: 'in progress', done: 'done' } satisfies Record<TaskStatus, string>,
  },

  /** A template_due reminder; `schedule` is the rule's schedule in words (common/messages/audit-title-parts.ts). */
  due: {
    subject: (form: string) => `${form} is due`,
    subjectInRoom: (form: string, room: string) => `${form} in ${room} is due`,
    notSubmitted: (form: string, since: string) => `No ${form} was submitted since ${since}.`,
    notSubmittedInRoom: (form: string, room: string, since: string) => `No ${form} was submitted in room ${room} since ${since}.`,
    when: (schedule: string, due: string) => `It is due ${schedule}; this reminder is for ${due}.`,
  },

  weekly: {
    subject: (company: string, start: string, end: string) => `Weekly report for ${company}: ${start} to ${end}`,
    /** `weeks`: oneWeek or weeks. */
    intro: (company: string, start: string, end: string, weeks: string) => `Weekly report for ${company}: ${start} to ${end} (${weeks}).`,
    oneWeek: '1 week',
    weeks: (count: Value) => `${count} weeks`,
    mondayToSunday: (weeks: string) => `${weeks}, Monday to Sunday (UTC).`,
    problemsRecorded: (total: Value) => `Problems recorded: ${total}.`,
    trendsByProblem: 'Trends by problem',
    noProblems: 'No problems were recorded.',
    /** `movement`: one of the three below. */
    problemLine: (problem: string, total: Value, lastWeek: Value, movement: string) => `${problem}: ${total} in all; last week ${lastWeek} (${movement})`,
    asTheWeekBefore: 'as the week before',
    upFrom: (count: Value) => `up from ${count}`,
    downFrom: (count: Value) => `down from ${count}`,
    topProblemsByRoom: 'Top problems by room',
    roomLine: (room: string, total: Value, mostSeen: string) => `${room}: ${total} (${mostSeen})`,
    none: 'None.',
    openTasks: 'Open tasks',
    tasksOpen: (open: Value, inProgress: Value) => `${open} open, ${inProgress} in progress.`,
    taskLine: (title: string, status: string, assignee: string) => `“${title}” (${status}), assigned to ${assignee}`,
    taskLineDue: (title: string, status: string, assignee: string, due: string) => `“${title}” (${status}), assigned to ${assignee}, due ${due}`,
    // The columns of the report's tables.
    problemColumn: 'Problem',
    inAllColumn: 'In all',
    lastWeekColumn: 'Last week',
    weekBeforeColumn: 'The week before',
    roomColumn: 'Room',
    problemsColumn: 'Problems',
    mostSeenColumn: 'Most seen',
    attached: 'The weekly counts by room and problem are attached as CSV.',
  },

  /** "Send a test": `subject`, the real message's or the rule in words. */
  test: {
    subject: (subject: string) => `[Test] ${subject}`,
    text: (rule: string) => `This is a test of the notification “${rule}”. When it fires, its message comes here.`,
  },

  invitation: {
    subject: 'You are invited to Grow Room',
    asRegular: 'You have been invited to join your team on Grow Room as a grower.',
    asAdmin: 'You have been invited to join your team on Grow Room as an Admin.',
    createAccount: (days: Value) => `Create your account here (valid for ${days} days):`,
  },

  passwordReset: {
    subject: 'Reset your password',
    hello: (firstName: string) => `Hello ${firstName},`,
    setNew: 'Set a new password here (the link works once, for one hour):',
    notYou: 'If you did not ask for this, ignore this mail.',
  },

  consultant: {
    subject: (company: string) => `${company} invites you as a consultant on Grow Room`,
    access: (company: string, until: string) =>
      `${company} gives you read-only access to its grow rooms, observations, problems, reports and tasks on Grow Room, until ${until}. You may comment on observations; you change nothing else.`,
    accept: (days: Value) => `Accept it with your consultant account here (the link works for ${days} days):`,
    createAccount: (days: Value) => `Create your consultant account here (the link works for ${days} days):`,
  },
};

export type NotificationTexts = typeof notificationTexts;
