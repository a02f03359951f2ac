/** Saved reports, the dashboard's slots and the links to a report (spec part 2 §3; migration 0010). */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ChartType } from '../../../common/messages/reports';
import { isoTime } from '../../../common/schemas/answers';
import type { ReportShareRecord, SavedReportFilters, SavedReportRecord } from '../../../common/schemas/saved-reports';
import type { DB, ReportSharesTable, SavedReportsTable } from '../../db/schema';

export type SavedReport = Selectable<SavedReportsTable>;
type ReportShare = Selectable<ReportSharesTable>;

/** The dashboard's slot columns, report_id1 to report_id4 in order. */
export const DASHBOARD_COLUMNS = ['dashboard_report_id1', 'dashboard_report_id2', 'dashboard_report_id3', 'dashboard_report_id4'] as const;

/** A jsonb column as the driver gives it (parsed; as text on a driver that does not parse). */
const parsedJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** The columns hold only what the request schemas let through (and the table's CHECK). */
const chartTypeOf = (value: string) => value as ChartType;
const filtersOf = (value: unknown) => (parsedJson(value) ?? null) as SavedReportFilters | null;
const dataOf = (value: unknown): unknown[] => {
  const data = parsedJson(value);
  return Array.isArray(data) ? data : [];
};

/** A report as answers and the reports collection show it; `slot`: its place on the dashboard (`dashboardSlots`), or null. */
export const savedReportJson = (report: SavedReport, slot: number | null): SavedReportRecord => ({
  report_id: report.id,
  report_name: report.report_name,
  chart_type: chartTypeOf(report.chart_type),
  report_data: dataOf(report.report_data),
  filters: filtersOf(report.filters),
  report_type: report.report_type,
  room_ids: report.room_ids,
  company_id: report.company_id,
  user_id: report.created_by,
  created_at: isoTime(report.created_at),
  updated_at: isoTime(report.updated_at),
  computed_at: isoTime(report.computed_at),
  dashboard_slot: slot,
});

/** What a shared link shows of its report: nothing that names the company's records or people. */
export const sharedReportJson = (report: SavedReport) => ({
  report_name: report.report_name,
  chart_type: chartTypeOf(report.chart_type),
  report_type: report.report_type,
  filters: filtersOf(report.filters),
  report_data: dataOf(report.report_data),
  computed_at: isoTime(report.computed_at),
});

export const reportShareJson = (share: ReportShare): ReportShareRecord => ({
  share_id: share.id,
  report_id: share.report_id,
  created_by: share.created_by,
  created_at: isoTime(share.created_at),
  revoked_at: isoTime(share.revoked_at),
  revoked_by: share.revoked_by,
});

export const savedReportQueries = {
  /** The company's live reports, by name (any case). */
  byCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('saved_reports').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy(sql`lower(report_name)`).orderBy('id').execute(),

  /** Of these reports, the live ones, of any company (the tenancy guard has checked whose they are). */
  live: (db: Kysely<DB>, ids: readonly number[]) =>
    ids.length === 0 ? Promise.resolve([]) : db.selectFrom('saved_reports').selectAll().where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute(),

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('saved_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The company's dashboard: the report id in each slot (null: empty), in slot order. */
  async dashboardOf(db: Kysely<DB>, companyId: number): Promise<Array<number | null>> {
    const row = await db.selectFrom('companies').select(DASHBOARD_COLUMNS).where('id', '=', companyId).executeTakeFirstOrThrow();
    return DASHBOARD_COLUMNS.map((column) => row[column]);
  },

  /** The dashboard slot (1 to 4) of each report on these companies' dashboards, by report id. */
  async dashboardSlots(db: Kysely<DB>, companyIds: readonly number[]): Promise<Map<number, number>> {
    if (companyIds.length === 0) return new Map();
    const rows = await db.selectFrom('companies').select(DASHBOARD_COLUMNS).where('id', 'in', [...new Set(companyIds)]).execute();
    return new Map(rows.flatMap((row) => DASHBOARD_COLUMNS.flatMap((column, index) => (row[column] === null ? [] : [[row[column], index + 1] as const]))));
  },

  /** Of these reports, the company's live ones. */
  liveOfCompany: (db: Kysely<DB>, companyId: number, ids: number[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : db.selectFrom('saved_reports').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).where('deleted_at', 'is', null).execute(),

  createShare: (db: Kysely<DB>, values: { companyId: number; reportId: number; tokenHash: string; createdBy: number }) =>
    db
      .insertInto('report_shares')
      .values({ company_id: values.companyId, report_id: values.reportId, token_hash: values.tokenHash, created_by: values.createdBy })
      .returningAll()
      .executeTakeFirstOrThrow(),

  sharesOf: (db: Kysely<DB>, reportId: number) => db.selectFrom('report_shares').selectAll().where('report_id', '=', reportId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),

  shareById: (db: Kysely<DB>, id: number) => db.selectFrom('report_shares').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** Revokes the links given (or every live link of the report); answers the links revoked. */
  revokeShares: (db: Kysely<DB>, where: { shareId?: number; reportId?: number }, by: number | null, at: Date) => {
    let query = db.updateTable('report_shares').set({ revoked_at: at, revoked_by: by }).where('revoked_at', 'is', null);
    if (where.shareId !== undefined) query = query.where('id', '=', where.shareId);
    if (where.reportId !== undefined) query = query.where('report_id', '=', where.reportId);
    return query.returningAll().execute();
  },

  /** The live report a live link's token hash opens, if any: a revoked link and a deleted report open nothing. */
  sharedByTokenHash: (db: Kysely<DB>, tokenHash: string) =>
    db
      .selectFrom('report_shares')
      .innerJoin('saved_reports', 'saved_reports.id', 'report_shares.report_id')
      .selectAll('saved_reports')
      .where('report_shares.token_hash', '=', tokenHash)
      .where('report_shares.revoked_at', 'is', null)
      .where('saved_reports.deleted_at', 'is', null)
      .executeTakeFirst(),
};
