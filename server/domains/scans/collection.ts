/**
 * Scan sessions as tablets hold them: kind `scan` of the `operations` collection (ARCHITECTURE.md "The
 * local store": no collection of their own, the store has none to spare). Each document is a session
 * with its boxes inside (a box recorded writes its scan's row: session-queries.ts), their marks left
 * out: a trap photo's marks may be thousands, and the detail screen reads them online (get_scan).
 * Pulled for the last SCAN_WINDOW_DAYS; older scans are read online (get_scans).
 */
import type { Selectable } from 'kysely';
import { SCAN_WINDOW_DAYS } from '../../../common/messages/scans';
import { scanDocumentRecord } from '../../../common/schemas/scans';
import type { ScansTable } from '../../db/schema';
import type { SyncSource } from '../replication/sync-collection';
import { scanDocuments, scanSessionQueries } from './session-queries';

export const scanSource: SyncSource = {
  kind: 'scan',
  table: 'scans',
  companyColumn: 'company_id',
  // Inside: each box names its scan, grid box and Sticky Trap response; users stay integers (only the server makes them).
  named: {
    kind: 'scan',
    references: { scan_id: 'scan', room_id: 'room', grid_id: 'grid', scan_box_id: 'scan_box', grid_box_id: 'grid_box', form_response_id: 'form_response' },
  },
  windowDays: SCAN_WINDOW_DAYS,
  document: scanDocumentRecord,
  async toDocuments(db, rows) {
    const scans = rows as unknown as Array<Selectable<ScansTable>>;
    const live = await scanSessionQueries.byIds(db, scans.filter((row) => row.deleted_at === null).map((row) => row.id));
    const byId = new Map((await scanDocuments(db, live)).map((document) => [Number(document.scan_id), document]));
    return scans.map((row) => {
      const document = byId.get(row.id);
      return document ? { id: String(row.id), _deleted: false, ...document } : { id: String(row.id), _deleted: true };
    });
  },
};
