/**
 * Reports (spec part 1 §2 `reports`, `reports/{reportID}`): the company's saved reports from the
 * tablet's copy (offline too), each opened with its chart and table, read again when online
 * (SavedReportView); renamed, put on the dashboard, shared by link and deleted from its screen.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_SLOTS } from '../../../common/messages/reports';
import { deleteReport, type ReportShare, reportShares, revokeReportShare, saveReport, setDashboardReports, shareReport } from '../../api/reports';
import { useAction, useLocalDocument, useLocalQuery, useSignedInUser } from '../../app/hooks';
import { formatDate } from '../../i18n/format';
import { useSyncStatus } from '../../sync/sync-store';
import { ConfirmPanel, Field, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { DATE_TIME, dataOf, type LocalReport, periodText } from './model';
import { ReportBuilder } from './ReportBuilder';
import { SavedReportView } from './SavedReportView';
import { reportsTexts } from './texts';
import { useCompanyAutoRefresh } from './useReportData';

export function SavedReportsScreen() {
  const { t } = useTranslation(reportsTexts);
  const { documents, loading } = useLocalQuery<LocalReport>('reports', {}, 'all', [{ report_name: 'asc' }]);
  return (
    <Screen title={t('title')} loading={loading}>
      <ReportBuilder />
      <h2>{t('saved.heading')}</h2>
      {documents.length === 0 && <p className="muted">{t('saved.none')}</p>}
      <ul className="link-list" aria-label={t('saved.heading')}>
        {documents.map((report) => (
          <li key={report.id}>
            <Link to="/dashboard/reports/$reportID" params={{ reportID: report.id }}>
              <strong>{report.report_name}</strong>
              <span className="muted">
                {' · '}
                {report.dashboard_slot === null ? dataOf(periodText(report.filters), report.computed_at) : t('saved.onDashboard', { summary: dataOf(periodText(report.filters), report.computed_at), slot: report.dashboard_slot })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Screen>
  );
}

export function SavedReportScreen({ reportId }: { reportId: string }) {
  const { t } = useTranslation(reportsTexts);
  const { document: report, loading } = useLocalDocument<LocalReport>('reports', reportId);
  const autoRefresh = useCompanyAutoRefresh();
  return (
    <Screen title={report?.report_name ?? t('report')} loading={loading} empty={!loading && !report ? t('saved.notHere') : null}>
      {report ? (
        <>
          <SavedReportView report={report} autoRefresh={autoRefresh} />
          <ManageReport report={report} />
        </>
      ) : null}
    </Screen>
  );
}

/** Rename (its author or an Admin), the dashboard slot and links (Admins), delete (its author or an Admin); the server refuses others. */
function ManageReport({ report }: { report: LocalReport }) {
  const { t } = useTranslation(reportsTexts);
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const removing = useAction(deleteReport, t('manage.deleted'));
  const mayChange = user !== null && (user.isAdmin || user.userId === report.user_id);
  return (
    <section className="report-manage no-print" aria-label={t('manage.label')}>
      {mayChange && <RenameReport report={report} />}
      {user?.isAdmin && <DashboardSlot report={report} />}
      {user?.isAdmin && <ReportLinks report={report} />}
      {mayChange && !confirming && (
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          {t('manage.delete')}
        </button>
      )}
      {confirming && (
        <ConfirmPanel
          question={t('manage.deleteQuestion', { name: report.report_name })}
          message={t('manage.deleteMessage')}
          confirmLabel={t('manage.delete')}
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

/** A new name: the report saved again with everything else as it is (queued, offline too). */
function RenameReport({ report }: { report: LocalReport }) {
  const { t } = useTranslation(reportsTexts);
  const user = useSignedInUser();
  const [name, setName] = useState(report.report_name);
  const renaming = useAction(saveReport, t('manage.renamed'), { inlineErrors: true });
  function rename(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    void renaming.run({
      companyId: user.companyId,
      reportId: report.id,
      name,
      chartType: report.chart_type,
      reportType: report.report_type ?? '',
      data: report.report_data,
      filters: report.filters ?? {},
      roomIds: report.room_ids.map(String),
    });
  }
  return (
    <form className="form report-rename" onSubmit={rename}>
      <Field label={t('reportName')}>
        <input value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
      </Field>
      <FormError error={renaming.error} />
      <button type="submit" className="button" disabled={renaming.busy || name.trim() === report.report_name}>
        {t('manage.rename')}
      </button>
    </form>
  );
}

/** Its place on the dashboard (overview and quick view show the four), queued; a report already in the slot chosen leaves it. */
function DashboardSlot({ report }: { report: LocalReport }) {
  const { t } = useTranslation(reportsTexts);
  const user = useSignedInUser();
  const onDashboard = useLocalQuery<LocalReport>('reports', { dashboard_slot: { $ne: null } }, 'on-dashboard').documents;
  const setting = useAction(setDashboardReports, t('slot.saved'));
  const current: Array<string | null> = Array.from({ length: DASHBOARD_SLOTS }, (_, index) => onDashboard.find((each) => each.dashboard_slot === index + 1)?.id ?? null);
  function choose(value: string) {
    if (!user) return;
    const slots = current.map((id) => (id === report.id ? null : id));
    if (value !== '') slots[Number(value) - 1] = report.id;
    void setting.run({ companyId: user.companyId, slots, current });
  }
  const nameIn = (slot: number) => onDashboard.find((each) => each.dashboard_slot === slot && each.id !== report.id)?.report_name;
  return (
    <Field label={t('slot.label')}>
      <select value={report.dashboard_slot ?? ''} disabled={setting.busy} onChange={(event) => choose(event.target.value)}>
        <option value="">{t('slot.none')}</option>
        {Array.from({ length: DASHBOARD_SLOTS }, (_, index) => index + 1).map((slot) => (
          <option key={slot} value={slot}>
            {nameIn(slot) ? t('slot.placeInstead', { slot, name: nameIn(slot) }) : t('slot.place', { slot })}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Read-only links (Admins, online): a new one is shown once; each can be revoked, and stops opening the report at once. */
function ReportLinks({ report }: { report: LocalReport }) {
  const { t } = useTranslation(reportsTexts);
  const online = useSyncStatus((status) => status.online);
  const [link, setLink] = useState<string | null>(null);
  const [shares, setShares] = useState<ReportShare[] | null>(null);
  const listing = useAction(async (context, reportId: string) => setShares(await reportShares(context, { reportId })));
  const sharing = useAction(async (context, reportId: string) => {
    const shared = await shareReport(context, { reportId });
    setLink(new URL(shared.path, window.location.origin).toString());
    setShares(await reportShares(context, { reportId }));
  });
  const revoking = useAction(async (context, shareId: number) => {
    await revokeReportShare(context, { shareId });
    setShares(await reportShares(context, { reportId: report.id }));
  }, t('links.revoked'));
  const live = shares?.filter((share) => share.revoked_at === null) ?? [];
  return (
    <div className="report-links">
      <div className="report-actions">
        <button type="button" className="button" disabled={!online || sharing.busy} onClick={() => void sharing.run(report.id)}>
          {online ? t('links.share') : t('links.needConnection')}
        </button>
        {online && shares === null && (
          <button type="button" className="button" disabled={listing.busy} onClick={() => void listing.run(report.id)}>
            {t('links.show')}
          </button>
        )}
      </div>
      {link && (
        <p className="report-link" role="status">
          {t('links.fresh')} <a href={link}>{link}</a>
        </p>
      )}
      <FormError error={sharing.error ?? listing.error ?? revoking.error} />
      {shares && (
        <ul className="link-list" aria-label={t('links.list')}>
          {live.length === 0 && <li className="muted">{t('links.none')}</li>}
          {live.map((share) => (
            <li key={share.share_id} className="report-share">
              <span>{t('links.made', { time: formatDate(share.created_at, DATE_TIME) })}</span>
              <button type="button" className="button danger" disabled={!online || revoking.busy} onClick={() => void revoking.run(share.share_id)}>
                {t('links.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

