/**
 * A report's period (spec part 2 §5): `date_option` is `weeks_ago` (with `weeks_ago`, a number),
 * `date_range` (with `start_date` and `end_date`), or, in the reports that allow it,
 * `batch_related_date` (with the batch's start and end dates); anything else is
 * 'Invalid date_option provided.'. Both sides resolve it to the same dates, so a tablet and the server
 * agree on which week a problem falls in.
 *
 * Decisions (the spec is silent): dates are calendar days in UTC (the company has no time zone);
 * weeks run Monday to Sunday (spec part 1: the dashboard's week range starts on Monday); `weeks_ago: N`
 * is the current week and the N − 1 whole weeks before it, so a chart of 8 weeks has 8 points; a period
 * is inclusive of both ends.
 */
import { z } from 'zod';
import { DATE_OPTIONS, type DateOption, REPORT_WEEKS_MAX, reportMessages as m } from '../messages/reports';
import { isCalendarDate } from './fields';

const DAY_MS = 86_400_000;

/** A period of whole days, both ends included, as yyyy-mm-dd. */
export interface ReportPeriod {
  start: string;
  end: string;
}

const dayOf = (moment: Date) => moment.toISOString().slice(0, 10);
/** A date `days` days later (earlier when negative). */
export const addDaysTo = (date: string, days: number) => dayOf(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));

/** The Monday of the week a date falls in. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDaysTo(date, -((weekday + 6) % 7));
}

/** The Mondays of the weeks a period touches, in order: a weekly chart's points. */
export function weeksOf(period: ReportPeriod): string[] {
  const weeks: string[] = [];
  for (let monday = mondayOf(period.start); monday <= period.end; monday = addDaysTo(monday, 7)) weeks.push(monday);
  return weeks;
}

/** `weeks_ago: N` as of `today`: from the Monday N − 1 weeks before this week's to this week's Sunday. */
export function lastWeeks(weeks: number, today: string): ReportPeriod {
  const monday = mondayOf(today);
  return { start: addDaysTo(monday, -7 * (weeks - 1)), end: addDaysTo(monday, 6) };
}

const blankToUndefined = (value: unknown) => (value === null || value === 'null' || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** The fields a report's period is asked with (query strings or JSON). */
export const reportDateFields = {
  date_option: z.preprocess(blankToUndefined, z.string().trim().optional()),
  weeks_ago: z.preprocess(blankToUndefined, z.unknown().optional()),
  start_date: z.preprocess(blankToUndefined, z.unknown().optional()),
  end_date: z.preprocess(blankToUndefined, z.unknown().optional()),
};

type DateFields = { date_option?: string | undefined; weeks_ago?: unknown; start_date?: unknown; end_date?: unknown };

/**
 * Years a report can mean. Beyond them the week arithmetic, which compares dates as text, stops
 * holding (year 0 steps back to `-000001-…`, 9999 on to `+010000-…`, and a loop over the weeks never
 * ends): such a date is refused as not a date.
 */
const YEARS = { first: '1900-01-01', last: '2999-12-31' };

const dateText = (value: unknown) => {
  const text = typeof value === 'string' ? value.trim() : null;
  return text !== null && isCalendarDate(text) && text >= YEARS.first && text <= YEARS.last ? text : null;
};

const weeksBetween = (start: string, end: string) => Math.floor((Date.parse(`${mondayOf(end)}T00:00:00Z`) - Date.parse(`${mondayOf(start)}T00:00:00Z`)) / (7 * DAY_MS)) + 1;

/**
 * The period the fields ask for, or the message that refuses them. `allowBatchRelated`: the reports
 * that take `batch_related_date` (specific trends, field responses); `fallback`: the option assumed when
 * none is given (spec part 1 §4: the screens' default is `date_range`), or none (then it is required).
 */
export function periodOf(fields: DateFields, options: { today: string; allowBatchRelated?: boolean; fallback?: DateOption }): { period: ReportPeriod } | { error: string } {
  const option = fields.date_option ?? options.fallback;
  if (!option || !(DATE_OPTIONS as readonly string[]).includes(option) || (option === 'batch_related_date' && !options.allowBatchRelated)) return { error: m.invalidDateOption };
  if (option === 'weeks_ago') {
    const weeks = Number(fields.weeks_ago);
    if (fields.weeks_ago === undefined || typeof fields.weeks_ago === 'boolean' || !Number.isInteger(weeks) || weeks < 1 || weeks > REPORT_WEEKS_MAX) return { error: m.weeksAgoInvalid };
    return { period: lastWeeks(weeks, options.today) };
  }
  const start = dateText(fields.start_date);
  if (!start) return { error: m.startDateInvalid };
  const end = dateText(fields.end_date);
  if (!end) return { error: m.endDateInvalid };
  if (end < start) return { error: m.endBeforeStart };
  if (weeksBetween(start, end) > REPORT_WEEKS_MAX) return { error: m.periodTooLong };
  return { period: { start, end } };
}

/** Today as a calendar date in UTC. */
export const todayUtc = (now: Date = new Date()) => dayOf(now);
