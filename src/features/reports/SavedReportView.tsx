/**
 * A saved report drawn as it now reads (useReportData): its chart and table, and a line that says how
 * old the data is and whether it can be refreshed, on its own screen and on the dashboard.
 */
import { useTranslation } from 'react-i18next';
import type { ReportPeriod } from '../../../common/schemas/report-dates';
import { i18next } from '../../i18n/i18n';
import { useSyncStatus } from '../../sync/sync-store';
import { dataOf, type LocalReport, periodRange, periodText } from './model';
import { periodWeeksBack, queryOfSaved } from './read-report';
import { ReportChart } from './ReportChart';
import { useRememberedWeather } from './report-weather';
import { reportsTexts } from './texts';
import { type ReportData, useReportData } from './useReportData';

function freshness(data: ReportData, online: boolean): string {
  const ns = reportsTexts;
  if (data.reading) return i18next.t('view.refreshing', { ns });
  if (data.source === 'read') return i18next.t('view.upToDate', { ns });
  if (!online) return i18next.t('view.offline', { ns });
  if (data.error) return i18next.t('view.couldNotRefresh', { ns, error: data.error });
  if (!data.readable) return i18next.t('view.savedData', { ns });
  return '';
}

/** The period shown: the saved one, or, looked back on the dashboard, the dates it moved to. */
function periodShown(report: LocalReport, weeksBack: number): string {
  const query = weeksBack > 0 ? queryOfSaved(report) : null;
  const moved = query ? periodWeeksBack(query.period, weeksBack) : null;
  return moved && 'start' in moved ? periodRange(moved.start, moved.end) : periodText(report.filters);
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
  const { t } = useTranslation(reportsTexts);
  const online = useSyncStatus((status) => status.online);
  const data = useReportData(report, { weeksBack, autoRefresh });
  const [weatherOn, setWeatherOn] = useRememberedWeather(report.id);
  return (
    <>
      <p className="report-freshness" role="status">
        <span className="muted">{dataOf(periodShown(report, weeksBack), data.computedAt)}</span>{' '}
        {freshness(data, online)}
        {data.readable && !data.reading && (
          <button type="button" className="button no-print" onClick={data.refresh}>
            {t('view.refresh')}
          </button>
        )}
      </p>
      <ReportChart model={data.model} kind={report.chart_type} title={report.report_name} weather={{ period: datesShown(report, weeksBack, data), on: weatherOn, setOn: setWeatherOn }} />
    </>
  );
}
