/**
 * `/reporting?token=…` (issue 15): a saved report shared read-only through a link an Admin made, for
 * an owner or a consultant without an account. No sign-in; the token opens that report and nothing else.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openSharedReport, type SharedReport } from '../../api/reports';
import { client } from '../../app/services';
import { messageOf } from '../../i18n/messages';
import { dataOf, periodText, savedModel } from './model';
import { ReportChart } from './ReportChart';
import { reportsTexts } from './texts';

export function SharedReportPage({ token }: { token: string | undefined }) {
  const { t } = useTranslation(reportsTexts);
  const [report, setReport] = useState<SharedReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    openSharedReport({ client }, token).then(setReport, (caught: unknown) => setError(messageOf(caught)));
  }, [token]);
  const problem = token ? error : t('shared.noToken');
  return (
    <main className="page">
      <h1>{report?.report_name ?? t('report')}</h1>
      {problem ? (
        <p className="banner error" role="alert">
          {problem}
        </p>
      ) : !report ? (
        <p role="status">{t('shared.loading')}</p>
      ) : (
        <>
          <p className="muted">{t('shared.readOnly', { summary: dataOf(periodText(report.filters), report.computed_at) })}</p>
          <ReportChart model={savedModel(report)} kind={report.chart_type} title={report.report_name} />
        </>
      )}
    </main>
  );
}
