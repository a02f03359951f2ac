/**
 * A report's period on the server: the fields of common/schemas/report-dates.ts resolved with
 * `periodOf` (the same rule as the tablet's), as the moments a query bounds its rows by, and the
 * weekly points every chart is drawn from (every week of the period, zeros included).
 */
import { reportMessages as m } from '../../../common/messages/reports';
import { DEFAULT_REPORT_WEEKS } from '../../../common/schemas/reports';
import { lastWeeks, periodOf, type ReportPeriod, todayUtc, weeksOf } from '../../../common/schemas/report-dates';
import { badRequest } from '../../http/errors';

/** The period fields of a report's query (common/schemas/report-dates.ts `reportDateFields`). */
export type DateFields = Parameters<typeof periodOf>[0];

/** A period resolved: its days, its weeks (Mondays) and the moments that bound it (`from` included, `until` not). */
export interface ResolvedPeriod extends ReportPeriod {
  weeks: string[];
  from: Date;
  until: Date;
}

const DAY_MS = 86_400_000;
const startOfDay = (date: string) => new Date(`${date}T00:00:00Z`);

export function resolved(period: ReportPeriod): ResolvedPeriod {
  return { ...period, weeks: weeksOf(period), from: startOfDay(period.start), until: new Date(startOfDay(period.end).getTime() + DAY_MS) };
}

/**
 * The period the fields ask for, or a 400 with periodOf's message. `fallback`: the option assumed
 * without a date_option (the spec's default is date_range, so then start_date and end_date are needed).
 */
export function askedPeriod(fields: DateFields, options: { allowBatchRelated?: boolean; fallback?: 'date_range' | 'weeks_ago' } = {}): ResolvedPeriod {
  const result = periodOf(fields, { today: todayUtc(), allowBatchRelated: options.allowBatchRelated, fallback: options.fallback ?? 'date_range' });
  if ('error' in result) throw badRequest(result.error);
  return resolved(result.period);
}

/** Whether any period field was sent. */
export const asksPeriod = (fields: DateFields) => fields.date_option !== undefined || fields.weeks_ago !== undefined || fields.start_date !== undefined || fields.end_date !== undefined;

/**
 * For the calls whose spec names no dates: the period asked when any date field is sent (weeks_ago
 * alone means the last weeks, dates alone a date range), else `otherwise` (by default the last
 * DEFAULT_REPORT_WEEKS weeks).
 */
export function periodOrDefault(fields: DateFields, otherwise: () => ReportPeriod = () => lastWeeks(DEFAULT_REPORT_WEEKS, todayUtc())): ResolvedPeriod {
  if (!asksPeriod(fields)) return resolved(otherwise());
  return askedPeriod(fields, { fallback: fields.date_option === undefined && fields.weeks_ago !== undefined ? 'weeks_ago' : 'date_range' });
}

/**
 * batch_related_date (spec §5, allowed in specific trends and the field responses report): the dates
 * sent, else the batch's own: from its start to its end (or harvest, or today while it grows).
 */
export function batchRelatedFields<T extends DateFields>(fields: T, batch: { start_date: string | null; end_date: string | null; harvested_at: Date | null } | null): T {
  if (fields.date_option !== 'batch_related_date') return fields;
  if (fields.start_date === undefined && !batch?.start_date) throw badRequest(m.batchDatesMissing);
  const end = batch?.end_date ?? (batch?.harvested_at ? todayUtc(batch.harvested_at) : todayUtc());
  return { ...fields, start_date: fields.start_date ?? batch?.start_date, end_date: fields.end_date ?? end };
}

