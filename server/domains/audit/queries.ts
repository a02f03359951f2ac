/** Reading the audit trail; writing goes through record.ts. */
import { sql, type Kysely } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { AuditEventRecord } from '../../../common/schemas/audit';
import type { AuditEvent, DB } from '../../db/schema';

export type AuditEventRow = AuditEvent & { user_name?: string | null };

/** An audit event as the API and the synced collection show it (spec part 2 §3 field names). */
export const auditEventJson = (event: AuditEventRow): AuditEventRecord => ({
  EventID: event.id,
  CompanyID: event.company_id,
  UserID: event.user_id,
  UserName: event.user_name ?? null,
  EventTitle: event.event_title,
  RoomID: event.room_id,
  BatchID: event.batch_id,
  response_id: event.response_id,
  GridBoxID: event.grid_box_id,
  // record.ts writes an object or nothing.
  Details: event.details as Record<string, unknown> | null,
  CreatedAt: isoTime(event.created_at),
  UpdatedAt: isoTime(event.updated_at),
});

export const auditQueries = {
  withUserNames: (db: Kysely<DB>) =>
    db
      .selectFrom('audit_events')
      .leftJoin('users', 'users.id', 'audit_events.user_id')
      .selectAll('audit_events')
      .select(sql<string | null>`nullif(concat_ws(' ', users.first_name, users.last_name), '')`.as('user_name')),

  list: (db: Kysely<DB>, filter: { companyId: number; roomId?: number | undefined; batchId?: number | undefined; limit: number; offset: number }) => {
    let query = auditQueries.withUserNames(db).where('audit_events.company_id', '=', filter.companyId).where('audit_events.deleted_at', 'is', null);
    if (filter.roomId !== undefined) query = query.where('audit_events.room_id', '=', filter.roomId);
    if (filter.batchId !== undefined) query = query.where('audit_events.batch_id', '=', filter.batchId);
    return query.orderBy('audit_events.created_at', 'desc').orderBy('audit_events.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  },

  byId: (db: Kysely<DB>, id: number) => auditQueries.withUserNames(db).where('audit_events.id', '=', id).executeTakeFirstOrThrow(),
};
