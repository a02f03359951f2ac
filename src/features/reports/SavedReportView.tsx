/**
 * A saved report drawn as it now reads (useReportData): its chart and table, and a line that says how
 * old the data is and whether it can be refreshed, on its own screen and on the dashboard.
 */
import type { ReportPeriod } from '../../../common/schemas/report-dates';
import { useSyncStatus } from '../../sync/sync-store';
import { computedAt, type LocalReport, periodText } from './model';
import { periodWeeksBack, queryOfSaved } from './read-report';
import { ReportChart } from './ReportChart';
import { useRememberedWeather } from './report-weather';
import { type ReportData, useReportData } from './useReportData';

function freshness(data: ReportData, online: boolean): string {
  if (data.reading) return 'Refreshing…';
  if (data.source === 'read') return 'Up to date.';
  if (!online) return 'Offline: this is the data this tablet last had; it refreshes when the network returns.';
  if (data.error) return `Could not refresh: ${data.error}`;
  if (!data.readable) return 'This report shows the data it was saved with.';
  return '';
}

/** The period shown: the saved one, or, looked back on the dashboard, the dates it moved to. */
function periodShown(report: LocalReport, weeksBack: number): string {
  const query = weeksBack > 0 ? queryOfSaved(report) : null;
  const moved = query ? periodWeeksBack(query.period, weeksBack) : null;
  return moved && 'start' in moved ? `${moved.start} to ${moved.end}` : periodText(report.filters);
}

/**
 * The dates of the data shown, where the report has its own (a date range; the last weeks and a
 * batch's dates are the weeks shown): moved back on the dashboard only when the data shown was read
 * for the moved period (kept data is of the report's own).
 */
function datesShown(report: LocalReport, weeksBack: number, data: ReportData): ReportPeriod | null {
  const range = report.filters?.date_type === 'date_range' ? report.filters.date_range : null;
  if (!range) return null;
  const period = { start: range.start_date, end: range.end_date };
  if (weeksBack === 0 || data.source !== 'read') return period;
  const moved = periodWeeksBack(period, weeksBack);
  return 'start' in moved ? moved : period;
}

export function SavedReportView({ report, weeksBack = 0, autoRefresh = false }: { report: LocalReport; weeksBack?: number; autoRefresh?: boolean }) {
  const online = useSyncStatus((status) => status.online);
  const data = useReportData(report, { weeksBack, autoRefresh });
  const [weatherOn, setWeatherOn] = useRememberedWeather(report.id);
  return (
    <>
      <p className="report-freshness" role="status">
        <span className="muted">
          {periodShown(report, weeksBack)} · data of {computedAt(data.computedAt)}
        </span>{' '}
        {freshness(data, online)}
        {data.readable && !data.reading && (
          <button type="button" className="button no-print" onClick={data.refresh}>
            Refresh
          </button>
        )}
      </p>
      <ReportChart model={data.model} kind={report.chart_type} title={report.report_name} weather={{ period: datesShown(report, weeksBack, data), on: weatherOn, setOn: setWeatherOn }} />
    </>
  );
}
