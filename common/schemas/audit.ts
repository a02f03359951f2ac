import { z } from 'zod';
import { auditMessages as m } from '../messages/audit';
import { answer, recordRef, timestamp } from './answers';
import { formBody, optionalId, requiredId, requiredText, optionalClientId } from './fields';

const nullableId = z.preprocess((value) => (value === '' ? null : value), requiredId('Ids must be positive whole numbers.').nullable().optional());

export const addAuditEventBody = formBody({
  CompanyID: optionalId(),
  UserID: optionalId(),
  EventTitle: requiredText(m.titleRequired, 500),
  RoomID: nullableId,
  BatchID: nullableId,
  response_id: nullableId,
  client_id: optionalClientId(),
});

export const updateAuditEventBody = formBody({
  EventTitle: requiredText(m.titleRequired, 500).optional(),
  RoomID: nullableId,
  BatchID: nullableId,
  response_id: nullableId,
});

export const auditEventIdPath = z.object({ id: requiredId(m.idInvalid) });

export const auditEventsQuery = z.object({
  company_id: requiredId('company_id is required.'),
  room_id: optionalId(),
  batch_id: optionalId(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

// ——— Answers ———

/** An audit event, as answers and the synced `audit_events` collection show it. */
export const auditEventRecord = z.object({
  EventID: recordRef,
  CompanyID: z.number().int(),
  UserID: z.number().int().nullable(),
  UserName: z.string().nullable(),
  EventTitle: z.string(),
  RoomID: recordRef.nullable(),
  BatchID: recordRef.nullable(),
  response_id: recordRef.nullable(),
  GridBoxID: recordRef.nullable(),
  /** What the trail adds about the act (server/domains/audit/record.ts `details`), or null. */
  Details: z.record(z.string(), z.unknown()).nullable(),
  CreatedAt: timestamp,
  UpdatedAt: timestamp,
});

export type AuditEventRecord = z.infer<typeof auditEventRecord>;

export const auditEventsAnswer = answer({ events: z.array(auditEventRecord) });
export const addAuditEventAnswer = answer({ event: auditEventRecord, client_id: z.string() });
export const updateAuditEventAnswer = answer({ event: auditEventRecord });
