/**
 * The `reports` collection (ARCHITECTURE.md "The local store"): the company's saved reports, each with
 * the data its chart was drawn from, so a tablet lists and shows them offline (with the time they were
 * computed). Named as tablets name records: the report by its client id, its rooms by theirs. The
 * dashboard travels here too, as each report's `dashboard_slot` (setting the dashboard touches the
 * reports whose slot changed), not in the company document: the tablets name reports by client id,
 * and the company document names no records.
 */
import { savedReportRecord } from '../../../common/schemas/saved-reports';
import type { SyncCollection } from '../replication/sync-collection';
import { type SavedReport, savedReportJson, savedReportQueries } from './saved-queries';

export const reportsCollection: SyncCollection = {
  name: 'reports',
  tables: ['saved_reports'],
  sources: [
    {
      table: 'saved_reports',
      companyColumn: 'company_id',
      named: { kind: 'saved_report', references: { report_id: 'saved_report', room_ids: 'room' } },
      document: savedReportRecord,
      async toDocuments(db, rows) {
        const reports = rows as unknown as SavedReport[];
        const slots = await savedReportQueries.dashboardSlots(db, reports.map((report) => report.company_id));
        return reports.map((report) => ({ ...savedReportJson(report, slots.get(report.id) ?? null), id: String(report.id), _deleted: report.deleted_at !== null }));
      },
    },
  ],
};
