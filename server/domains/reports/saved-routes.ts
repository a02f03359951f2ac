/**
 * Saved reports, the dashboard's reports and read-only links to a saved report (issue 15; spec part 2
 * §3, §5, §7, §9).
 *
 * - Any member saves a report of the company; its author (`created_by`) or an Admin changes or deletes
 *   it (the spec shows no permissions: a grower's report is theirs to keep, the company's Admins tidy up).
 * - The dashboard is the company's (spec §5 "Dashboard settings need company id"): one set of up to
 *   four reports that overview and quick view show every member. So only an Admin sets it, as the
 *   company's other shared settings; everyone reads it.
 * - A link (`/reporting?token=…`) shows one saved report to someone without an account: an Admin makes
 *   it and can revoke it. The token is 256 random bits, answered once; only its SHA-256 is kept. The
 *   public read answers that report's name, chart and report type, filters, data and time, nothing
 *   else, and nothing once the link is revoked or the report deleted.
 *
 * Saves, deletions, dashboard changes, links and revocations are audited. Reports are named by id or
 * client id, and links by id, under names only these routes give them (`report_id`, report_id1..4,
 * `share_id`: each route's `config.owns`): client ids are resolved and ownership checked as every
 * record's are (client-ids.ts, guards.ts) before a handler runs.
 *
 * Not synced yet: the table is ready for it (client ids, change tracking), but the `reports` collection
 * of ARCHITECTURE.md has no source in replication/collections.ts, nor the tablets a local collection.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { savedReportMessages as m } from '../../../common/messages/reports';
import {
  companyReportsQuery,
  dashboardReportsAnswer,
  dashboardMoves,
  dashboardSlotsOf,
  deleteReportAnswer,
  deleteReportBody,
  reportOnlyBody,
  reportOnlyQuery,
  reportSharesAnswer,
  revokeReportShareAnswer,
  revokeReportShareBody,
  saveReportAnswer,
  saveReportBody,
  savedReportsAnswer,
  savedReportsQuery,
  setDashboardReportsBody,
  sharedReportAnswer,
  sharedReportQuery,
  shareReportAnswer,
} from '../../../common/schemas/saved-reports';
import { actedAtOf, writer } from '../../db/writes';
import { forbidden, notFound } from '../../http/errors';
import { actingCompany, caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { hashToken, newOpaqueToken } from '../auth/tokens';
import { DASHBOARD_COLUMNS, reportShareJson, type SavedReport, savedReportJson, savedReportQueries as q, sharedReportJson } from './saved-queries';

const saveSchema = { body: saveReportBody, response: { 200: saveReportAnswer } };
const listSchema = { querystring: savedReportsQuery, response: { 200: savedReportsAnswer } };
const deleteSchema = { body: deleteReportBody, response: { 200: deleteReportAnswer } };
const setDashboardSchema = { body: setDashboardReportsBody, response: { 200: dashboardReportsAnswer } };
const getDashboardSchema = { querystring: companyReportsQuery, response: { 200: dashboardReportsAnswer } };
const shareSchema = { body: reportOnlyBody, response: { 200: shareReportAnswer } };
const revokeSchema = { body: revokeReportShareBody, response: { 200: revokeReportShareAnswer } };
const sharesSchema = { querystring: reportOnlyQuery, response: { 200: reportSharesAnswer } };
const sharedSchema = { querystring: sharedReportQuery, response: { 200: sharedReportAnswer } };

const reportNotFound = (id: number) => notFound(httpMessages.recordNotFound(`saved_report ${id}`));

/**
 * The live reports named, in the order named. The tenancy guard has already answered another
 * company's with 403 and a missing one with 404 (client ids resolved before it); what it cannot know
 * is the company a call acts on: with `companyId`, each must be that company's, since a SuperAdmin,
 * whom the guard lets name any company's, gets 404 for one of another company (as guards.ts
 * `assertLinkedWithin`). A report deleted since the guard looked is not found either.
 */
async function liveReports(request: FastifyRequest, ids: readonly number[], companyId?: number): Promise<SavedReport[]> {
  const rows = companyId === undefined ? await q.live(request.db, ids) : await q.liveOfCompany(request.db, companyId, [...ids]);
  const live = new Map(rows.map((report) => [report.id, report]));
  return ids.map((id) => {
    const report = live.get(id);
    if (!report) throw reportNotFound(id);
    return report;
  });
}

async function liveReport(request: FastifyRequest, id: number, companyId?: number): Promise<SavedReport> {
  const [report] = await liveReports(request, [id], companyId);
  if (!report) throw reportNotFound(id);
  return report;
}

/** The author changes and deletes their report; an Admin (or SuperAdmin) any of the company's. */
function assertMayChange(request: FastifyRequest, report: SavedReport) {
  const claims = caller(request);
  if (claims.user_role === 'Regular' && report.created_by !== claims.user_id) throw forbidden(m.notAuthor);
}

async function saveReport(request: RequestOf<typeof saveSchema>) {
  const { company_id, report_id, report_name, chart_type, report_data, filters, report_type, room_ids, client_id } = request.body;
  const companyId = actingCompany(request, company_id);
  const actor = actorOfRequest(request, companyId);
  const values = {
    report_name,
    chart_type,
    report_type: report_type ?? null,
    report_data,
    filters: filters === undefined ? null : JSON.stringify(filters),
    room_ids,
    computed_at: actedAtOf(actor),
  };
  if (report_id !== undefined) {
    const report = await liveReport(request, report_id, companyId);
    assertMayChange(request, report);
    const updated = await writer(request.db, actor).updateReturning('saved_reports', report.id, values);
    if (!updated) throw reportNotFound(report_id);
    const title = updated.report_name === report.report_name ? auditTitles.updatedReport(updated.report_name) : auditTitles.renamedReport(report.report_name, updated.report_name);
    await recordAudit(request.db, actor, { title, details: { report_id: report.id } });
    const slot = (await q.dashboardSlots(request.db, [companyId])).get(report.id) ?? null;
    return success({ report: savedReportJson(updated, slot), report_id: updated.id, client_id: updated.client_id }, m.reportUpdated);
  }
  const created = await writer(request.db, actor).insert('saved_reports', { client_id, company_id: companyId, ...values });
  await recordAudit(request.db, actor, { title: auditTitles.savedReport(report_name), details: { report_id: created.id } });
  const report = savedReportJson(await q.byId(request.db, created.id), null);
  return success({ report, report_id: created.id, client_id: created.client_id }, m.reportSaved);
}

/** The company's reports with their data, by name; with `report_id`, that one (404 once deleted). */
async function getSavedReports(request: RequestOf<typeof listSchema>) {
  const { company_id, report_id } = request.query;
  const reports = report_id === undefined ? await q.byCompany(request.db, company_id) : [await liveReport(request, report_id, company_id)];
  const slots = await q.dashboardSlots(request.db, [company_id]);
  return success({ reports: reports.map((report) => savedReportJson(report, slots.get(report.id) ?? null)) });
}

/**
 * Writes the dashboard (`nextOf` the current one: a report id or null per slot, in order): the slots that change, and each report
 * whose slot changed is touched, so that it reaches the tablets with its new `dashboard_slot` (the
 * reports collection carries the dashboard: server/domains/reports/collection.ts). Drops this
 * instance's copy of the company row.
 */
async function writeDashboard(request: FastifyRequest, companyId: number, nextOf: (current: ReadonlyArray<number | null>) => ReadonlyArray<number | null>) {
  const current = await q.dashboardOf(request.db, companyId);
  const next = nextOf(current);
  const changed = DASHBOARD_COLUMNS.flatMap((column, index) => (current[index] === (next[index] ?? null) ? [] : [column]));
  if (changed.length === 0) return;
  const write = writer(request.db, actorOfRequest(request, companyId));
  await write.update('companies', companyId, Object.fromEntries(changed.map((column) => [column, next[DASHBOARD_COLUMNS.indexOf(column)] ?? null])));
  await write.touch(
    'saved_reports',
    dashboardMoves(current, next).map((move) => move.id),
  );
  request.afterCommit(async () => request.server.deps.companies.drop(companyId));
}

/**
 * Deleting a report takes it off the dashboard and ends its links, in the same transaction: a
 * dashboard never points at a deleted report, and a link never outlives its report.
 */
async function deleteReport(request: RequestOf<typeof deleteSchema>) {
  const report = await liveReport(request, request.body.report_id);
  assertMayChange(request, report);
  const actor = actorOfRequest(request, report.company_id);
  await writer(request.db, actor).softDelete('saved_reports', report.id);
  await writeDashboard(request, report.company_id, (slots) => slots.map((id) => (id === report.id ? null : id)));
  const revoked = await q.revokeShares(request.db, { reportId: report.id }, actor.userId, actedAtOf(actor));
  await recordAudit(request.db, actor, { title: auditTitles.deletedReport(report.report_name), details: { report_id: report.id, revoked_share_ids: revoked.map((share) => share.id) } });
  return success({ report_id: report.id }, m.reportDeleted);
}

/** The dashboard's answer: each slot's report id (null when empty or its report is gone) and those reports, in slot order. */
async function dashboardAnswer(request: FastifyRequest, companyId: number, message?: string) {
  const slots = await q.dashboardOf(request.db, companyId);
  const live = new Map((await q.liveOfCompany(request.db, companyId, slots.filter((id): id is number => id !== null))).map((report) => [report.id, report]));
  const shown = slots.map((id) => (id === null ? undefined : live.get(id)));
  const reports = shown.flatMap((report, index) => (report ? [savedReportJson(report, index + 1)] : []));
  const [report_id1, report_id2, report_id3, report_id4] = shown.map((report) => report?.id ?? null);
  return success({ report_id1: report_id1 ?? null, report_id2: report_id2 ?? null, report_id3: report_id3 ?? null, report_id4: report_id4 ?? null, reports }, message);
}

/** Sets the whole dashboard: each slot one of the company's saved reports, or empty (the schema refuses one report in two slots). */
async function setDashboardReports(request: RequestOf<typeof setDashboardSchema>) {
  const { company_id } = request.body;
  const ids = dashboardSlotsOf(request.body);
  await liveReports(request, ids.filter((id) => id !== null), company_id);
  await writeDashboard(request, company_id, () => ids);
  await recordAudit(request.db, actorOfRequest(request, company_id), { title: auditTitles.setDashboardReports, details: { report_ids: ids } });
  return dashboardAnswer(request, company_id, m.dashboardSaved);
}

async function getDashboardReports(request: RequestOf<typeof getDashboardSchema>) {
  return dashboardAnswer(request, request.query.company_id);
}

/** A new link to a report; its token is answered here only. */
async function shareReport(request: RequestOf<typeof shareSchema>) {
  const report = await liveReport(request, request.body.report_id);
  const actor = actorOfRequest(request, report.company_id);
  const token = newOpaqueToken();
  const share = await q.createShare(request.db, { companyId: report.company_id, reportId: report.id, tokenHash: hashToken(token), createdBy: caller(request).user_id });
  await recordAudit(request.db, actor, { title: auditTitles.sharedReport(report.report_name), details: { report_id: report.id, share_id: share.id } });
  const path = `/reporting?token=${encodeURIComponent(token)}`;
  return success({ share: reportShareJson(share), token, path, url: `${request.server.deps.config.publicUrl}${path}` }, m.reportShared);
}

/** Revokes a link; revoking one already revoked changes nothing. */
async function revokeReportShare(request: RequestOf<typeof revokeSchema>) {
  const share = await q.shareById(request.db, request.body.share_id);
  if (share.revoked_at !== null) return success({ share: reportShareJson(share) }, m.shareAlreadyRevoked);
  const actor = actorOfRequest(request, share.company_id);
  const [revoked] = await q.revokeShares(request.db, { shareId: share.id }, actor.userId, actedAtOf(actor));
  const report = await q.byId(request.db, share.report_id);
  await recordAudit(request.db, actor, { title: auditTitles.revokedReportLink(report.report_name), details: { report_id: report.id, share_id: share.id } });
  return success({ share: reportShareJson(revoked ?? share) }, m.shareRevoked);
}

/** A report's links, newest first, revoked ones included (with when and by whom). */
async function getReportShares(request: RequestOf<typeof sharesSchema>) {
  const report = await liveReport(request, request.query.report_id);
  return success({ shares: (await q.sharesOf(request.db, report.id)).map(reportShareJson) });
}

/**
 * The public read: no session, the token alone. Any token that opens nothing (unknown, revoked, its
 * report deleted) gets the same 404, so an answer tells nothing about which tokens existed.
 */
async function getSharedReport(request: RequestOf<typeof sharedSchema>, reply: FastifyReply) {
  const report = await q.sharedByTokenHash(request.db, hashToken(request.query.token));
  if (!report) throw notFound(m.shareNotFound);
  // A revoked link must not live on in a cache between the reader and the server.
  void reply.header('Cache-Control', 'no-store');
  return success({ report: sharedReportJson(report) });
}

export async function savedReportRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  const admin = { access: 'admin' as const };
  // The link's page is public: limited per address as sign-in is, since a token is guessed as a password is.
  const publicLimit = { max: app.deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' };
  // `report_id` names a saved report here only (common/schemas/saved-reports.ts `reportId`).
  const ownsReport = { report_id: 'saved_report' as const };
  const ownsSlots = { report_id1: 'saved_report' as const, report_id2: 'saved_report' as const, report_id3: 'saved_report' as const, report_id4: 'saved_report' as const };
  app.post('/save_report', { schema: saveSchema, config: { owns: ownsReport }, ...fields }, saveReport);
  app.get('/get_saved_reports', { schema: listSchema, config: { owns: ownsReport } }, getSavedReports);
  app.delete('/delete_report', { schema: deleteSchema, config: { owns: ownsReport }, ...fields }, deleteReport);
  app.post('/set_dashboard_reports', { schema: setDashboardSchema, config: { ...admin, owns: ownsSlots }, ...fields }, setDashboardReports);
  app.get('/get_dashboard_reports', { schema: getDashboardSchema }, getDashboardReports);
  app.post('/share_report', { schema: shareSchema, config: { ...admin, owns: ownsReport }, ...fields }, shareReport);
  app.post('/revoke_report_share', { schema: revokeSchema, config: { ...admin, owns: { share_id: 'report_share' } }, ...fields }, revokeReportShare);
  app.get('/get_report_shares', { schema: sharesSchema, config: { ...admin, owns: ownsReport } }, getReportShares);
  app.get('/reporting/report', { schema: sharedSchema, config: { access: 'public', rateLimit: publicLimit } }, getSharedReport);
}
