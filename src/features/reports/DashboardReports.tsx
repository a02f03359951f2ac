/**
 * The dashboard's reports (issue 15; spec part 2 §2, §3): the four saved reports an Admin put on the
 * dashboard, under the counts of overview and quick view, from the tablet's copy (offline too) and
 * read again online (SavedReportView). The week selector moves every report's period back by 7 days
 * per step (the spec's week offset; weeks run Monday to Sunday); looking back needs the connection, as
 * only the data each report last showed is on the tablet. Loaded apart from the dashboards (with
 * echarts) once they have drawn their counts.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { addDaysTo, mondayOf, todayUtc } from '../../../common/schemas/report-dates';
import { useLocalQuery } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import { useSyncStatus } from '../../sync/sync-store';
import type { LocalReport } from './model';
import { SavedReportView } from './SavedReportView';
import { reportsTexts } from './texts';
import { useCompanyAutoRefresh } from './useReportData';

function weekText(weeksBack: number): string {
  const monday = addDaysTo(mondayOf(todayUtc()), -7 * weeksBack);
  const ns = reportsTexts;
  const label = weeksBack === 0 ? i18next.t('dashboard.thisWeek', { ns }) : weeksBack === 1 ? i18next.t('dashboard.lastWeek', { ns }) : i18next.t('dashboard.weeksAgo', { ns, count: weeksBack });
  return i18next.t('dashboard.weekShown', { ns, label, start: monday, end: addDaysTo(monday, 6) });
}

export default function DashboardReports() {
  const { t } = useTranslation(reportsTexts);
  const online = useSyncStatus((status) => status.online);
  const autoRefresh = useCompanyAutoRefresh();
  const { documents, loading } = useLocalQuery<LocalReport>('reports', { dashboard_slot: { $ne: null } }, 'on-dashboard');
  const [weeksBack, setWeeksBack] = useState(0);
  const shown = online ? weeksBack : 0;
  const reports = [...documents].sort((one, other) => (one.dashboard_slot ?? 0) - (other.dashboard_slot ?? 0));
  if (loading) return null;
  return (
    <section className="dashboard-reports" aria-labelledby="dashboard-reports">
      <div className="dashboard-reports-head">
        <h2 id="dashboard-reports">{t('title')}</h2>
        {reports.length > 0 && (
          <div className="week-selector no-print" role="group" aria-label={t('dashboard.week')}>
            <button type="button" className="button" disabled={!online} onClick={() => setWeeksBack((weeks) => weeks + 1)}>
              {t('dashboard.previousWeek')}
            </button>
            <span className="week-shown" aria-live="polite">
              {weekText(shown)}
            </span>
            <button type="button" className="button" disabled={!online || shown === 0} onClick={() => setWeeksBack((weeks) => Math.max(0, weeks - 1))}>
              {t('dashboard.nextWeek')}
            </button>
          </div>
        )}
      </div>
      {!online && reports.length > 0 && <p className="muted">{t('dashboard.offline')}</p>}
      {reports.length === 0 ? (
        <p className="muted">
          <Trans t={t} i18nKey="dashboard.empty" components={{ reportsLink: <Link to="/dashboard/reports" /> }} />
        </p>
      ) : (
        reports.map((report) => (
          <article key={report.id} className="card dashboard-report" aria-labelledby={`dashboard-report-${report.id}`}>
            <h3 id={`dashboard-report-${report.id}`}>
              <Link to="/dashboard/reports/$reportID" params={{ reportID: report.id }}>
                {report.report_name}
              </Link>
            </h3>
            <SavedReportView report={report} weeksBack={shown} autoRefresh={autoRefresh} />
          </article>
        ))
      )}
    </section>
  );
}
