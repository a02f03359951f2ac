/**
 * Reports (spec part 1 §2 `reports`, `reports/{reportID}`): the company's saved reports from the
 * tablet's copy (offline too), each opened with its chart and table as they were saved.
 */
import { Link } from '@tanstack/react-router';
import { useLocalDocument, useLocalQuery } from '../../app/hooks';
import { Screen } from '../shell/Screen';
import { type LocalReport, periodText, savedAt, savedModel } from './model';
import { ReportChart } from './ReportChart';

export function SavedReportsScreen() {
  const { documents, loading } = useLocalQuery<LocalReport>('reports', {}, 'all', [{ report_name: 'asc' }]);
  return (
    <Screen title="Reports" loading={loading} empty={documents.length === 0 ? 'No saved reports yet.' : null}>
      <ul className="link-list" aria-label="Saved reports">
        {documents.map((report) => (
          <li key={report.id}>
            <Link to="/dashboard/reports/$reportID" params={{ reportID: report.id }}>
              <strong>{report.report_name}</strong>
              <span className="muted">
                {' '}
                · {periodText(report.filters)} · saved {savedAt(report)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Screen>
  );
}

export function SavedReportScreen({ reportId }: { reportId: string }) {
  const { document: report, loading } = useLocalDocument<LocalReport>('reports', reportId);
  return (
    <Screen title={report?.report_name ?? 'Report'} loading={loading} empty={!loading && !report ? 'This report is not on this tablet: it was deleted, or has not arrived yet.' : null}>
      {report ? (
        <>
          <p className="muted">
            {periodText(report.filters)} · saved {savedAt(report)}
          </p>
          <ReportChart model={savedModel(report)} kind={report.chart_type} title={report.report_name} />
        </>
      ) : null}
    </Screen>
  );
}
