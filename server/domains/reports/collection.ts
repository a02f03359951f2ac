/**
 * The `reports` collection (ARCHITECTURE.md "The local store"): the company's saved reports, each with
 * the data its chart was drawn from, so a tablet lists and shows them offline (with the time they were
 * saved). Named as tablets name records: the report by its client id, its rooms by theirs. The
 * dashboard's four slots travel in the company document.
 */
import { savedReportRecord } from '../../../common/schemas/saved-reports';
import type { SyncCollection } from '../replication/sync-collection';
import { type SavedReport, savedReportJson } from './saved-queries';

export const reportsCollection: SyncCollection = {
  name: 'reports',
  tables: ['saved_reports'],
  sources: [
    {
      table: 'saved_reports',
      companyColumn: 'company_id',
      named: { kind: 'saved_report', references: { report_id: 'saved_report', room_ids: 'room' } },
      document: savedReportRecord,
      async toDocuments(_db, rows) {
        return (rows as unknown as SavedReport[]).map((report) => ({ ...savedReportJson(report), id: String(report.id), _deleted: report.deleted_at !== null }));
      },
    },
  ],
};
