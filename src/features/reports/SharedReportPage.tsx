/**
 * `/reporting?token=…` (issue 15): a saved report shared read-only through a link an Admin made, for
 * an owner or a consultant without an account. No sign-in; the token opens that report and nothing else.
 */
import { useEffect, useState } from 'react';
import { openSharedReport, type SharedReport } from '../../api/reports';
import { client } from '../../app/services';
import { computedAt, periodText, savedModel } from './model';
import { ReportChart } from './ReportChart';

export function SharedReportPage({ token }: { token: string | undefined }) {
  const [report, setReport] = useState<SharedReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!token) {
      setError('This link has no report in it: ask for a new one.');
      return;
    }
    openSharedReport({ client }, token).then(setReport, (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)));
  }, [token]);
  return (
    <main className="page">
      <h1>{report?.report_name ?? 'Report'}</h1>
      {error ? (
        <p className="banner error" role="alert">
          {error}
        </p>
      ) : !report ? (
        <p role="status">Loading the report…</p>
      ) : (
        <>
          <p className="muted">
            {periodText(report.filters)} · data of {computedAt(report.computed_at)} · shared read-only
          </p>
          <ReportChart model={savedModel(report)} kind={report.chart_type} title={report.report_name} />
        </>
      )}
    </main>
  );
}
