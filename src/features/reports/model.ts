/** A saved report as the tablet holds it (the `reports` collection), and its chart model. */
import type { ChartType } from '../../../common/messages/reports';
import type { SavedReportFilters } from '../../../common/schemas/saved-reports';
import type { LocalDocument } from '../../db/schemas';
import { type ChartModel, modelOfReportData } from '../../../common/charts/chart-model';

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

/** What a saved report's chart shows: its points, with the labels the screen saved in its filters. */
export function savedModel(report: Pick<LocalReport, 'report_data' | 'filters'>): ChartModel {
  const label = report.filters?.category_label;
  const unit = report.filters?.unit;
  return modelOfReportData(report.report_data, { categoryLabel: typeof label === 'string' ? label : 'Week', unit: typeof unit === 'string' ? unit : 'count' });
}

/** The period a saved report covers, in words. */
export function periodText(filters: LocalReport['filters']): string {
  if (!filters) return 'Any dates';
  if (filters.date_type === 'weeks_ago' && filters.weeks_ago) return `The last ${filters.weeks_ago} weeks`;
  return filters.date_range ? `${filters.date_range.start_date} to ${filters.date_range.end_date}` : 'Any dates';
}

/** When a report's data was computed, as the reader's clock shows it. */
export const computedAt = (computed: string) => new Date(computed).toLocaleString();
