/**
 * Reports (issue 15; spec part 2 §7). Trends are computed by the server from every tablet's
 * observations, so they are read online (`trend`). Saved reports travel to the tablet in the `reports`
 * collection, which the screens read (offline too); saving and deleting one are queued writes with
 * their optimistic document, so a report can be saved with no signal. A link's report is read from the
 * server without a session.
 */
import type { z } from 'zod';
import { newClientId } from '../../common/client-ids';
import { changeLabels } from '../../common/messages/changes';
import { type ChartType, savedReportMessages as m, reportMessages as rm } from '../../common/messages/reports';
import {
  dashboardMoves,
  deleteReportBody,
  type ReportShareRecord,
  type reportSharesAnswer,
  type revokeReportShareAnswer,
  saveReportBody,
  setDashboardReportsBody,
  sharedReportQuery,
  type sharedReportAnswer,
  type shareReportAnswer,
} from '../../common/schemas/saved-reports';
import { type ApiContext, check, json, now, online, record } from './context';
import type { RecordId } from './records';

export type SharedReport = z.infer<typeof sharedReportAnswer>['report'];
export type ReportShare = ReportShareRecord;

/** The period a report asks for: the last weeks, or a date range. */
export type ReportPeriodChoice = { weeks: number } | { start: string; end: string };

const periodQuery = (period: ReportPeriodChoice) =>
  'weeks' in period ? { date_option: 'weeks_ago', weeks_ago: period.weeks } : { date_option: 'date_range', start_date: period.start, end_date: period.end };

/**
 * One trend call (GET, online): `path` is the call, `query` its other parameters (rooms as a JSON
 * array of ids or client ids). The server's message (such as 'Invalid date_option provided.'), or
 * 'Failed to fetch the report.' when it gives none.
 */
export async function trend<T>(context: Pick<ApiContext, 'client'>, input: { path: string; companyId: number; period: ReportPeriodChoice; query?: Record<string, unknown> }): Promise<T> {
  return online<T>(context, { path: input.path, query: { company_id: input.companyId, ...periodQuery(input.period), ...input.query } }, rm.fetchFailed);
}

/** The filters a saved report keeps: its period as save_report takes it, and the screen's labels and choices. */
export function savedFilters(period: ReportPeriodChoice, others: Record<string, unknown>): Record<string, unknown> {
  return {
    ...others,
    ...('weeks' in period ? { date_type: 'weeks_ago', weeks_ago: period.weeks } : { date_type: 'date_range', date_range: { start_date: period.start, end_date: period.end } }),
  };
}

/**
 * POST /save_report, queued: a new report (or, with `reportId`, that report saved again), with its data
 * as the chart showed it. It is in the `reports` collection at once (offline too). Returns its id.
 * §5's messages ('report_name is required…', 'report_data must be an array.', …).
 */
export async function saveReport(
  context: ApiContext,
  input: { companyId: number; reportId?: RecordId; name: string; chartType: ChartType; reportType: string; data: unknown[]; filters: Record<string, unknown>; roomIds: RecordId[] },
): Promise<string> {
  const reportId = input.reportId === undefined ? newClientId() : String(input.reportId);
  const fields = {
    company_id: input.companyId,
    report_name: input.name,
    chart_type: input.chartType,
    report_type: input.reportType,
    report_data: input.data,
    filters: input.filters,
    room_ids: input.roomIds,
    ...(input.reportId === undefined ? {} : { report_id: input.reportId }),
  };
  const checked = check(saveReportBody, fields);
  const session = await context.client.session.get();
  const at = now();
  const before = input.reportId === undefined ? null : await context.store.get('reports', reportId);
  await record(context, {
    method: 'POST',
    path: '/save_report',
    body: json(input.reportId === undefined ? { ...fields, client_id: reportId } : fields),
    creates: input.reportId === undefined ? [reportId] : [],
    effects: [
      {
        op: 'upsert',
        collection: 'reports',
        id: reportId,
        data: {
          report_id: reportId,
          report_name: checked.report_name,
          chart_type: checked.chart_type,
          report_type: checked.report_type ?? null,
          report_data: input.data,
          filters: checked.filters ?? null,
          room_ids: input.roomIds.map(String),
          company_id: input.companyId,
          user_id: (before?.user_id as number | null | undefined) ?? session?.user_id ?? null,
          created_at: (before?.created_at as string | undefined) ?? at,
          updated_at: at,
          computed_at: at,
          dashboard_slot: (before?.dashboard_slot as number | null | undefined) ?? null,
        },
      },
    ],
    label: changeLabels.saveReport(checked.report_name),
  });
  return reportId;
}

/** DELETE /delete_report, queued: the report leaves the list at once. Its author or an Admin (the server answers 403 to others). */
export async function deleteReport(context: ApiContext, input: { reportId: RecordId; name: string }) {
  const { report_id } = check(deleteReportBody, { report_id: input.reportId });
  await record(context, {
    method: 'DELETE',
    path: '/delete_report',
    body: json({ report_id }),
    effects: [{ op: 'remove', collection: 'reports', id: String(input.reportId) }],
    label: changeLabels.deleteReport(input.name),
  });
}

/**
 * POST /set_dashboard_reports (Admins), queued: the whole dashboard, a report (or null) per slot in
 * order, as the server takes it. Each report whose slot changes shows its new slot at once (the reports
 * collection carries the dashboard), offline too. 'Only 4 reports fit on the dashboard.' and the
 * other messages of the schema.
 */
export async function setDashboardReports(context: ApiContext, input: { companyId: number; slots: ReadonlyArray<RecordId | null>; current: ReadonlyArray<RecordId | null> }) {
  const fields = { company_id: input.companyId, ...Object.fromEntries(input.slots.map((id, index) => [`report_id${index + 1}`, id])) };
  check(setDashboardReportsBody, fields);
  await record(context, {
    method: 'POST',
    path: '/set_dashboard_reports',
    body: json(fields),
    effects: dashboardMoves(input.current, input.slots).map(({ id, slot }) => ({ op: 'patch', collection: 'reports', id: String(id), data: { dashboard_slot: slot } })),
    label: changeLabels.setDashboardReports,
  });
}

/** POST /share_report (Admins, online): a link to the report; its token is shown once. */
export async function shareReport(context: Pick<ApiContext, 'client'>, input: { reportId: RecordId }): Promise<z.infer<typeof shareReportAnswer>> {
  return online(context, { method: 'POST', path: '/share_report', body: { report_id: input.reportId } }, m.saveReportFailed);
}

/** GET /get_report_shares (Admins, online): the report's links, newest first, revoked ones with when. */
export async function reportShares(context: Pick<ApiContext, 'client'>, input: { reportId: RecordId }): Promise<ReportShare[]> {
  const answer = await online<z.infer<typeof reportSharesAnswer>>(context, { path: '/get_report_shares', query: { report_id: input.reportId } }, m.fetchSharesFailed);
  return answer.shares;
}

/** POST /revoke_report_share (Admins, online): the link stops opening the report at once. */
export async function revokeReportShare(context: Pick<ApiContext, 'client'>, input: { shareId: number }): Promise<ReportShare> {
  const answer = await online<z.infer<typeof revokeReportShareAnswer>>(context, { method: 'POST', path: '/revoke_report_share', body: { share_id: input.shareId } }, m.revokeShareFailed);
  return answer.share;
}

/**
 * GET /reporting/report?token= (public): the one report a link shows, for someone without an account.
 * The server's message (an unknown or revoked link), or 'Failed to Fetch Saved Reports'.
 */
export async function openSharedReport(context: Pick<ApiContext, 'client'>, token: string): Promise<SharedReport> {
  const query = check(sharedReportQuery, { token });
  const answer = await online<z.infer<typeof sharedReportAnswer>>(context, { path: '/reporting/report', query, skipRefresh: true }, m.fetchSavedReportsFailed);
  return answer.report;
}
