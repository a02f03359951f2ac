/**
 * Reading a report's trend from the server: the builder's "Show report", and a saved report refreshed
 * (its screen, the dashboard) with the choices it was saved with. Trends are computed from every
 * tablet's observations, so a read needs the connection; a saved report's stored data is what shows
 * without one.
 */
import { addDaysTo, lastWeeks, mondayOf, todayUtc } from '../../../common/schemas/report-dates';
import { type ReportPeriodChoice, trend } from '../../api/reports';
import type { ChartModel } from '../../../common/charts/chart-model';
import type { LocalReport } from './model';
import { fieldModel, gutterModel, problemTrendsModel, REPORT_TYPES, type ReportType, roomTrendsModel, severityModel } from '../../../common/charts/trend-models';

/** What a report asks for: its type, its period, its rooms (none: every room) and its type's own choices. */
export interface ReportQuery {
  type: ReportType;
  period: ReportPeriodChoice;
  roomIds: string[];
  choices: ReportChoices;
}

/** The type's own choices, kept in a saved report's filters under these names. */
export interface ReportChoices {
  plant_problems?: string[];
  FieldID?: string | null;
}

export async function readReport(context: Parameters<typeof trend>[0], companyId: number, query: ReportQuery): Promise<ChartModel> {
  const { type, period } = query;
  const path = REPORT_TYPES[type].call;
  const rooms = { room_ids: JSON.stringify(query.roomIds) };
  switch (type) {
    case 'problem_trends':
      return problemTrendsModel(await trend(context, { path, companyId, period, query: rooms }));
    case 'trends_report_graph':
      return roomTrendsModel(await trend(context, { path, companyId, period, query: rooms }));
    case 'trends_with_severity':
      return severityModel(await trend(context, { path, companyId, period, query: rooms }));
    case 'gutter_trends':
      return gutterModel(await trend(context, { path, companyId, period, query: { ...rooms, batch_id: 'NULL', plant_problems: JSON.stringify(query.choices.plant_problems ?? []) } }));
    case 'field_responses_report':
      return fieldModel(await trend(context, { path, companyId, period, query: { FieldID: query.choices.FieldID ?? '' } }));
  }
}

const isReportType = (value: unknown): value is ReportType => typeof value === 'string' && Object.hasOwn(REPORT_TYPES, value);
const textList = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * What a saved report asks for, to read it again: null for a report the builder does not make (saved
 * through the API with a type of its own), which shows its stored data only.
 */
export function queryOfSaved(report: Pick<LocalReport, 'report_type' | 'filters' | 'room_ids'>): ReportQuery | null {
  const { filters } = report;
  if (!isReportType(report.report_type) || !filters) return null;
  const period: ReportPeriodChoice | null =
    filters.date_type === 'weeks_ago' && filters.weeks_ago ? { weeks: filters.weeks_ago } : filters.date_range ? { start: filters.date_range.start_date, end: filters.date_range.end_date } : null;
  if (!period) return null;
  const fieldId = filters.FieldID;
  return {
    type: report.report_type,
    period,
    roomIds: textList(report.room_ids),
    choices: { plant_problems: textList(filters.plant_problems), FieldID: typeof fieldId === 'string' || typeof fieldId === 'number' ? String(fieldId) : null },
  };
}

/**
 * A period moved back by whole weeks (the dashboard's week selector: 7 days per offset, spec part 2
 * §2): "the last N weeks" becomes the N weeks that end `weeksBack` weeks before this one; a date range
 * moves by as many days.
 */
export function periodWeeksBack(period: ReportPeriodChoice, weeksBack: number, today = todayUtc()): ReportPeriodChoice {
  if (weeksBack === 0) return period;
  const days = -7 * weeksBack;
  if ('weeks' in period) {
    const last = lastWeeks(period.weeks, addDaysTo(mondayOf(today), days));
    return { start: last.start, end: last.end };
  }
  return { start: addDaysTo(period.start, days), end: addDaysTo(period.end, days) };
}
