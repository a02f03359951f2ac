/**
 * Rules that fire on a clock (issue 16): template_due ("scouting of Flower 1 due Mondays 08:00": a
 * message at each due time when no response of the form, in the room when the rule names one, was
 * submitted since the previous due time) and weekly_report (weekly-report.ts).
 *
 * A pg-boss cron schedule sends one job a minute to AUTOMATION_CLOCK_QUEUE (pg-boss's timekeeper: one
 * instance sends each tick, and the schedule is a row, so it survives restarts); the job looks for the
 * rules whose latest due time has come (`runDueAutomations`). Each due time fires once: its delivery's
 * trigger key is the rule and the due time (`due:<rule>:<ISO time>`, `weekly:<rule>:<ISO time>`), so
 * two instances, or a tick run twice, write one delivery. A server that was down at a due time sends
 * it at the next tick after it is back (once, for the latest due time only).
 *
 * Decisions (the spec shows none of this):
 * - Times are UTC (common/messages/automations.ts DEFAULT_NOTIFICATION_TIME). Weekdays are ISO, Monday
 *   1; a monthly rule's day that a month lacks (the 31st) is the month's last day.
 * - A due time before the rule was last saved does not fire: a rule starts from its next due time.
 * - template_due counts a response by when it was filled (submitted_at, the grower's time), from the
 *   previous due time until the check: an observation filled before the due time but synced after the
 *   check comes too late to hold the message back (a tablet offline at that time could not say either).
 * - A rule whose form (or room) was deleted since stays quiet.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { auditTitleParts } from '../../../common/messages/audit-title-parts';
import { DEFAULT_DAY_OF_MONTH, DEFAULT_REPORT_DURATION_WEEKS, type Frequency, SCHEDULED_TRIGGERS, weekdayOf } from '../../../common/messages/automations';
import type { ServerConfig } from '../../config';
import type { DB } from '../../db/schema';
import type { JobQueue } from '../../jobs/queue';
import type { MessageContent } from '../../notifications/delivery';
import { companyWords } from '../../notifications/words';
import { type Rule, ruleQueries } from './queries';
import { appLink, fire, setAppAddress, utcText } from './triggers';
import { weeklyReport } from './weekly-report';

/** The queue of the clock's ticks (a job: "look for due rules now"). */
export const AUTOMATION_CLOCK_QUEUE = 'automation-clock';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A clock rule's schedule (the columns of migration 0015). */
export interface Schedule {
  frequency: Frequency;
  /** ISO weekday, 1 Monday … 7 Sunday (weekly). */
  weekday: number | null;
  /** 1–31 (monthly). */
  day_of_month: number | null;
  /** "HH:MM", UTC. */
  notification_time: string;
}

const minutesOf = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};

/** The rule's due time in a month (0-based), its day kept within the month. */
function dueInMonth(year: number, month: number, day: number, minutes: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(day, lastDay)) + minutes * MINUTE_MS;
}

/** The latest due time of the schedule at or before `now`. */
export function latestDueAt(schedule: Schedule, now: Date): Date {
  const minutes = minutesOf(schedule.notification_time);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const at = now.getTime();
  switch (schedule.frequency) {
    case 'daily': {
      const due = today + minutes * MINUTE_MS;
      return new Date(due <= at ? due : due - DAY_MS);
    }
    case 'weekly': {
      const isoToday = ((now.getUTCDay() + 6) % 7) + 1;
      const due = today - (isoToday - (schedule.weekday ?? 1)) * DAY_MS + minutes * MINUTE_MS;
      return new Date(due <= at ? due : due - 7 * DAY_MS);
    }
    case 'monthly': {
      const day = schedule.day_of_month ?? 1;
      const due = dueInMonth(now.getUTCFullYear(), now.getUTCMonth(), day, minutes);
      return new Date(due <= at ? due : dueInMonth(now.getUTCFullYear(), now.getUTCMonth() - 1, day, minutes));
    }
  }
}

/** The due time before `due`. */
export const previousDueAt = (schedule: Schedule, due: Date): Date => latestDueAt(schedule, new Date(due.getTime() - 1));

/** A rule's schedule, when it has one (a clock rule always has: the schema gives the defaults). */
export function scheduleOf(rule: Pick<Rule, 'frequency' | 'weekday' | 'day_of_month' | 'notification_time'>): Schedule | null {
  if (rule.frequency === null || rule.notification_time === null) return null;
  return { frequency: rule.frequency, weekday: rule.weekday, day_of_month: rule.day_of_month, notification_time: rule.notification_time };
}

/** "Mondays at 08:00 UTC" */
export function scheduleText(schedule: Schedule, parts: typeof auditTitleParts = auditTitleParts): string {
  const words = parts.schedule;
  if (schedule.frequency === 'daily') return words.daily(schedule.notification_time);
  if (schedule.frequency === 'weekly') return words.weekly[weekdayOf(schedule.weekday)](schedule.notification_time);
  return words.monthly(schedule.day_of_month ?? DEFAULT_DAY_OF_MONTH, schedule.notification_time);
}

/** The names a template_due message uses: its form and room, when still live (null: the rule stays quiet). */
async function dueSubject(db: Kysely<DB>, rule: Rule) {
  if (rule.template_id === null) return null;
  const form = await db.selectFrom('form_templates').select('template_name').where('id', '=', rule.template_id).where('deleted_at', 'is', null).executeTakeFirst();
  const room = rule.room_id === null ? null : await db.selectFrom('rooms').select(['name', 'client_id']).where('id', '=', rule.room_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!form || (rule.room_id !== null && !room)) return null;
  return { formName: form.template_name, room: room ?? null };
}

/** Whether a live response of the rule's form (in its room) was filled from `from` on. */
async function filledSince(db: Kysely<DB>, rule: Rule, from: Date): Promise<boolean> {
  let query = db
    .selectFrom('form_responses')
    .select('id')
    .where('company_id', '=', rule.company_id)
    .where('template_id', '=', rule.template_id ?? 0)
    .where('deleted_at', 'is', null)
    .where('submitted_at', '>=', from);
  if (rule.room_id !== null) query = query.where('room_id', '=', rule.room_id);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** A template_due rule's message for its due time `due` (null: it stays quiet). */
export async function dueMessage(db: Kysely<DB>, rule: Rule, due: Date): Promise<MessageContent | null> {
  const schedule = scheduleOf(rule);
  const names = await dueSubject(db, rule);
  if (!schedule || !names) return null;
  const words = await companyWords(db, rule.company_id);
  const said = words.notice.due;
  const { formName, room } = names;
  const since = utcText(previousDueAt(schedule, due));
  return {
    subject: room ? said.subjectInRoom(formName, room.name) : said.subject(formName),
    text: [room ? said.notSubmittedInRoom(formName, room.name, since) : said.notSubmitted(formName, since), said.when(scheduleText(schedule, words.parts), utcText(due))].join('\n'),
    link: room ? appLink(`/dashboard/rooms/${room.client_id}`, words.notice.open.room(room.name)) : appLink('/dashboard/observations', words.notice.open.observations),
  };
}

/** A weekly_report rule's report as sent at `sentAt`. */
export const reportMessage = (db: Kysely<DB>, rule: Rule, sentAt: Date) =>
  weeklyReport(db, { companyId: rule.company_id, weeks: rule.report_duration_weeks ?? DEFAULT_REPORT_DURATION_WEEKS, sentAt, withAttachment: rule.method === 'email' });

/**
 * Fires the clock rules due at `now` (see the module header); answers how many deliveries it wrote.
 * The clock's job calls it each minute; it may be called with any `now` (tests), and again for the
 * same time without a second delivery.
 */
export async function runDueAutomations(db: Kysely<DB>, now: Date, log?: Pick<FastifyBaseLogger, 'warn'>): Promise<number> {
  let fired = 0;
  for (const rule of await ruleQueries.ofTriggers(db, SCHEDULED_TRIGGERS)) {
    const schedule = scheduleOf(rule);
    if (!schedule) continue;
    const due = latestDueAt(schedule, now);
    if (due <= rule.updated_at) continue;
    const triggerKey = `${rule.trigger === 'weekly_report' ? 'weekly' : 'due'}:${rule.id}:${due.toISOString()}`;
    const delivered = await db
      .selectFrom('notification_deliveries')
      .select('id')
      .where('company_id', '=', rule.company_id)
      .where('notification_id', '=', rule.id)
      .where('trigger_key', '=', triggerKey)
      .executeTakeFirst();
    if (delivered) continue;
    try {
      let content: MessageContent | null;
      if (rule.trigger === 'weekly_report') content = await reportMessage(db, rule, due);
      else content = (await filledSince(db, rule, previousDueAt(schedule, due))) ? null : await dueMessage(db, rule, due);
      if (!content) continue;
      // The delivery's own transaction (enqueueDelivery opens one on the root database).
      await fire(db, rule, triggerKey, due, content);
      fired += 1;
    } catch (error) {
      // One rule's failure (a report that cannot be made) does not hold the others back; the next tick tries it again.
      log?.warn({ err: error, notification: rule.id }, 'a scheduled notification could not be made');
    }
  }
  return fired;
}

/**
 * Starts the clock: creates its queue, schedules a tick a minute and works the ticks. Called once per
 * server instance at start, after the job queue and the deliveries started. Also gives the trigger
 * hooks the app's address for their links.
 */
export async function startAutomationSchedules(jobs: JobQueue, deps: { db: Kysely<DB>; config: Pick<ServerConfig, 'publicUrl'>; log: FastifyBaseLogger }): Promise<void> {
  setAppAddress(deps.config.publicUrl);
  // A tick that fails (the database lost for a moment) is not retried: the next one comes within a minute.
  await jobs.createQueue(AUTOMATION_CLOCK_QUEUE, { retryLimit: 0, expireInSeconds: 600 });
  await jobs.schedule(AUTOMATION_CLOCK_QUEUE, '* * * * *');
  await jobs.work(AUTOMATION_CLOCK_QUEUE, { batchSize: 1, loops: 1, pollingIntervalSeconds: 5 }, async () => {
    await runDueAutomations(deps.db, new Date(), deps.log);
  });
}
