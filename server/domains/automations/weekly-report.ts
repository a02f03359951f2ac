/**
 * The weekly report (issue 16: `weekly_report`, `report_duration_weeks`): the last whole weeks before
 * the week it is sent in (Monday to Sunday, UTC: spec §9, common/schemas/report-dates.ts), drawn from
 * the same trend function the reports screen reads (reports/trends.ts `trendsReportGraph`) and the same
 * task list the tasks screen reads (tasks/queries.ts): the problems recorded and how each type moved
 * from one week to the last, the top problems by room, and the open tasks.
 *
 * By e-mail it is an HTML message with the weekly counts attached as CSV (week, room, problem, count:
 * every week of every problem seen in a room, zeros included, so a spreadsheet charts it as is); by
 * Slack or Teams, which carry no attachment, the text with a link to the app's reports page.
 */
import type { Kysely } from 'kysely';
import { TASK_STATUSES } from '../../../common/messages/tasks';
import { addDaysTo, mondayOf } from '../../../common/schemas/report-dates';
import type { TaskRecord } from '../../../common/schemas/tasks';
import type { DB } from '../../db/schema';
import type { MessageContent } from '../../notifications/delivery';
import { companyWords, type Words } from '../../notifications/words';
import { taskQueries } from '../tasks/queries';
import { personName } from '../users/queries';
import { trendsReportGraph } from '../reports/trends';
import { appLink, utcText } from './triggers';

/** Rooms and problem types a message lists; the CSV has them all. */
const TOP_ROOMS = 10;
const TOP_PROBLEMS = 10;
const PROBLEMS_PER_ROOM = 3;
const TASKS_LISTED = 10;

/** The weeks a report sent at `sentAt` covers: the `weeks` whole weeks before the week of `sentAt`. */
export function reportPeriodOf(sentAt: Date, weeks: number): { start: string; end: string } {
  const monday = mondayOf(sentAt.toISOString().slice(0, 10));
  return { start: addDaysTo(monday, -7 * weeks), end: addDaysTo(monday, -1) };
}

/** A CSV cell: quoted when it must be; a text that a spreadsheet would run as a formula is kept as text. */
function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** "up from 2", "down from 7", "as the week before" */
function movement(last: number, before: number, words: Words): string {
  const said = words.notice.weekly;
  if (last === before) return said.asTheWeekBefore;
  return last > before ? said.upFrom(before) : said.downFrom(before);
}

const assigneeOf = (task: TaskRecord, words: Words) => (task.assignee && personName(task.assignee)) ?? words.notice.nobody;

/**
 * The report of a company's last `weeks` whole weeks, as sent at `sentAt`, in the company's language.
 * `withAttachment`: the CSV (e-mail only), whose column names and file name stay the same in every
 * language, for the spreadsheets and scripts that read them.
 */
export async function weeklyReport(db: Kysely<DB>, input: { companyId: number; weeks: number; sentAt: Date; withAttachment: boolean }): Promise<MessageContent> {
  const period = reportPeriodOf(input.sentAt, input.weeks);
  const company = await db.selectFrom('companies').select('name').where('id', '=', input.companyId).executeTakeFirstOrThrow();
  const words = await companyWords(db, input.companyId);
  const said = words.notice.weekly;
  const trends = await trendsReportGraph(db, input.companyId, { date_option: 'date_range', start_date: period.start, end_date: period.end });
  const [lastWeek, weekBefore] = [trends.weeks.at(-1), trends.weeks.at(-2)];
  const countIn = (points: ReadonlyArray<{ week: string; count: number }>, week: string | undefined) => points.find((point) => point.week === week)?.count ?? 0;
  const total = trends.problems.reduce((sum, problem) => sum + problem.total, 0);
  const problems = trends.problems.slice(0, TOP_PROBLEMS).map((problem) => ({
    name: problem.problem_type,
    total: problem.total,
    last: countIn(problem.points, lastWeek),
    before: countIn(problem.points, weekBefore),
  }));
  const rooms = trends.rooms
    .filter((room) => room.total > 0)
    .sort((a, b) => b.total - a.total || a.Name.localeCompare(b.Name))
    .slice(0, TOP_ROOMS)
    .map((room) => ({ name: room.Name, total: room.total, top: room.problems.slice(0, PROBLEMS_PER_ROOM).map((problem) => `${problem.problem_type} ${problem.total}`) }));
  const open = await taskQueries.page(db, { companyId: input.companyId, status: 'open' }, 1, TASKS_LISTED);
  const inProgress = await taskQueries.page(db, { companyId: input.companyId, status: 'in_progress' }, 1, TASKS_LISTED);
  const tasks = [...open.tasks, ...inProgress.tasks].sort((a, b) => TASK_STATUSES.indexOf(a.status) - TASK_STATUSES.indexOf(b.status)).slice(0, TASKS_LISTED);
  const weeksText = input.weeks === 1 ? said.oneWeek : said.weeks(input.weeks);

  const subject = said.subject(company.name, period.start, period.end);
  const problemLine = (problem: (typeof problems)[number]) => said.problemLine(problem.name, problem.total, problem.last, movement(problem.last, problem.before, words));
  const taskLine = (task: TaskRecord) => {
    const status = words.notice.task.status[task.status];
    return task.due_at ? said.taskLineDue(task.title, status, assigneeOf(task, words), utcText(new Date(task.due_at))) : said.taskLine(task.title, status, assigneeOf(task, words));
  };
  const roomLine = (room: (typeof rooms)[number]) => said.roomLine(room.name, room.total, room.top.join(', '));
  const tasksOpen = said.tasksOpen(open.total, inProgress.total);
  const text = [
    said.intro(company.name, period.start, period.end, weeksText),
    '',
    said.problemsRecorded(total),
    ...(problems.length > 0 ? [`${said.trendsByProblem}:`, ...problems.map((problem) => `- ${problemLine(problem)}`)] : [said.noProblems]),
    '',
    `${said.topProblemsByRoom}:`,
    ...(rooms.length > 0 ? rooms.map((room) => `- ${roomLine(room)}`) : [said.none]),
    '',
    `${said.openTasks}: ${tasksOpen}`,
    ...tasks.map((task) => `- ${taskLine(task)}`),
  ].join('\n');

  const link = appLink('/dashboard/reports', words.notice.open.reports);
  const cell = (value: string | number) => `<td style="padding:2px 8px">${escapeHtml(String(value))}</td>`;
  const header = (...columns: string[]) => `<tr>${columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr>`;
  const html = [
    `<h2>${escapeHtml(subject)}</h2>`,
    `<p>${escapeHtml(said.mondayToSunday(weeksText))} ${escapeHtml(said.problemsRecorded(total))}</p>`,
    `<h3>${escapeHtml(said.trendsByProblem)}</h3>`,
    problems.length > 0
      ? `<table>${header(said.problemColumn, said.inAllColumn, said.lastWeekColumn, said.weekBeforeColumn)}${problems.map((problem) => `<tr>${cell(problem.name)}${cell(problem.total)}${cell(problem.last)}${cell(problem.before)}</tr>`).join('')}</table>`
      : `<p>${escapeHtml(said.noProblems)}</p>`,
    `<h3>${escapeHtml(said.topProblemsByRoom)}</h3>`,
    rooms.length > 0
      ? `<table>${header(said.roomColumn, said.problemsColumn, said.mostSeenColumn)}${rooms.map((room) => `<tr>${cell(room.name)}${cell(room.total)}${cell(room.top.join(', '))}</tr>`).join('')}</table>`
      : `<p>${escapeHtml(said.none)}</p>`,
    `<h3>${escapeHtml(said.openTasks)}</h3>`,
    `<p>${escapeHtml(tasksOpen)}</p>`,
    tasks.length > 0 ? `<ul>${tasks.map((task) => `<li>${escapeHtml(taskLine(task))}</li>`).join('')}</ul>` : '',
    input.withAttachment ? `<p>${escapeHtml(said.attached)}</p>` : '',
    link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '',
  ].join('\n');

  const csv = [
    'week_start,room,problem_type,count',
    ...trends.rooms.flatMap((room) => room.problems.flatMap((problem) => problem.points.map((point) => [point.week, room.Name, problem.problem_type, point.count].map(csvCell).join(',')))),
  ].join('\r\n');
  return {
    subject,
    text,
    html,
    attachment: input.withAttachment ? { filename: `weekly-report-${period.start}-to-${period.end}.csv`, content: `${csv}\r\n`, contentType: 'text/csv' } : undefined,
    link,
  };
}
