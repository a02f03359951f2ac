/**
 * Reports (spec part 1 §2 `reports`, `reports/{reportID}`): the company's saved reports from the
 * tablet's copy (offline too), each opened with its chart and table as they were saved.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { deleteReport, shareReport } from '../../api/reports';
import { useAction, useLocalDocument, useLocalQuery, useSignedInUser } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { ConfirmPanel, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { type LocalReport, periodText, savedAt, savedModel } from './model';
import { ReportBuilder } from './ReportBuilder';
import { ReportChart } from './ReportChart';

export function SavedReportsScreen() {
  const { documents, loading } = useLocalQuery<LocalReport>('reports', {}, 'all', [{ report_name: 'asc' }]);
  return (
    <Screen title="Reports" loading={loading}>
      <ReportBuilder />
      <h2>Saved reports</h2>
      {documents.length === 0 && <p className="muted">No saved reports yet.</p>}
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
          <ManageReport report={report} />
        </>
      ) : null}
    </Screen>
  );
}

/** Delete (its author or an Admin; the server refuses others) and, for Admins online, a read-only link. */
function ManageReport({ report }: { report: LocalReport }) {
  const user = useSignedInUser();
  const online = useSyncStatus((status) => status.online);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const removing = useAction(deleteReport, 'Report deleted.');
  const sharing = useAction(async (context, reportId: string) => {
    const shared = await shareReport(context, { reportId });
    setLink(new URL(shared.path, window.location.origin).toString());
  });
  const mayDelete = user !== null && (user.isAdmin || user.userId === report.user_id);
  return (
    <section className="report-manage no-print" aria-label="Manage this report">
      {mayDelete && !confirming && (
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete report
        </button>
      )}
      {user?.isAdmin && (
        <button type="button" className="button" disabled={!online || sharing.busy} onClick={() => void sharing.run(report.id)}>
          {online ? 'Share a read-only link' : 'Sharing needs the connection'}
        </button>
      )}
      {link && (
        <p className="report-link" role="status">
          Link for someone without an account (shown once; an Admin can revoke it): <a href={link}>{link}</a>
        </p>
      )}
      <FormError error={sharing.error} />
      {confirming && (
        <ConfirmPanel
          question={`Delete the report ${report.report_name}?`}
          confirmLabel="Delete report"
          busy={removing.busy}
          onKeep={() => setConfirming(false)}
          onConfirm={() => void removing.run({ reportId: report.id, name: report.report_name }).then(async (done) => {
            if (done) await navigate({ to: '/dashboard/reports' });
          })}
        />
      )}
    </section>
  );
}
