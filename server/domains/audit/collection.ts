/** The `audit_events` collection: a recent window of the trail; older events are read online. */
import { AUDIT_WINDOW_DAYS } from '../../../common/messages/audit';
import { auditEventRecord } from '../../../common/schemas/audit';
import type { AuditEvent } from '../../db/schema';
import type { SyncCollection } from '../replication/sync-collection';
import { auditEventJson } from './queries';

export const auditCollection: SyncCollection = {
  name: 'audit_events',
  tables: ['audit_events'],
  sources: [
    {
      table: 'audit_events',
      companyColumn: 'company_id',
      named: { kind: 'audit_event', references: { EventID: 'audit_event', RoomID: 'room', BatchID: 'batch', response_id: 'form_response', GridBoxID: 'grid_box' } },
      windowDays: AUDIT_WINDOW_DAYS,
      document: auditEventRecord,
      async toDocuments(_db, rows) {
        return (rows as unknown as AuditEvent[]).map((event) => ({
          id: String(event.id),
          _deleted: event.deleted_at !== null,
          ...auditEventJson(event),
        }));
      },
    },
  ],
};
