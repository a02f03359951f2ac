import { z } from 'zod';
import { auditMessages as m } from '../messages/audit';
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
