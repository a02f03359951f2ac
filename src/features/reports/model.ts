/** A saved report as the tablet holds it (the `reports` collection), and its chart model. */
import type { ChartType } from '../../../common/messages/reports';
import type { SavedReportFilters } from '../../../common/schemas/saved-reports';
import type { LocalDocument } from '../../db/schemas';
import { type ChartModel, modelOfReportData } from '../../../common/charts/chart-model';
import { formatDate } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { reportsTexts } from './texts';

export type LocalReport = LocalDocument & {
  report_name: string;
  chart_type: ChartType;
  report_type: string | null;
  report_data: unknown[];
  filters: (SavedReportFilters & { category_label?: unknown; unit?: unknown }) | null;
  room_ids: unknown[];
  user_id: number | null;
  updated_at: string;
  computed_at: string;
  dashboard_slot: number | null;
};

/**
 * What a saved report's chart shows: its points, with the labels the screen saved in its filters (in
 * English, as trend-models.ts names them: the chart shows them in the reader's language, texts.ts).
 */
export function savedModel(report: Pick<LocalReport, 'report_data' | 'filters'>): ChartModel {
  const label = report.filters?.category_label;
  const unit = report.filters?.unit;
  return modelOfReportData(report.report_data, { categoryLabel: typeof label === 'string' ? label : 'Week', unit: typeof unit === 'string' ? unit : 'count' });
}

/** The period a saved report covers, in words. */
export function periodText(filters: LocalReport['filters']): string {
  const ns = reportsTexts;
  if (!filters) return i18next.t('period.any', { ns });
  if (filters.date_type === 'weeks_ago' && filters.weeks_ago) return i18next.t('period.lastWeeks', { ns, weeks: filters.weeks_ago });
  return filters.date_range ? periodRange(filters.date_range.start_date, filters.date_range.end_date) : i18next.t('period.any', { ns });
}

/** Two dates as a period: "2026-03-02 to 2026-04-26". */
export const periodRange = (start: string, end: string) => i18next.t('period.range', { ns: reportsTexts, start, end });

/** A date and time as the reader's clock shows it (what `toLocaleString()` showed). */
export const DATE_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };

/** When a report's data was computed, as the reader's clock shows it. */
export const computedAt = (computed: string) => formatDate(computed, DATE_TIME);

/** "<period> · data of <time>": what a saved report shows and from when. */
export const dataOf = (period: string, computed: string) => i18next.t('dataOf', { ns: reportsTexts, period, time: computedAt(computed) });
