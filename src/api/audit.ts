/**
 * Audit events (spec part 2 §3, §4, §7). The tablet keeps a recent window of the trail in the
 * `audit_events` collection (90 days, pulled), which the audit screen reads reactively; older pages
 * come from the server (`getAuditEvents`). Adding, correcting and deleting are queued writes with their
 * optimistic change to the local collection. Correcting and deleting are the Admins' (the server
 * refuses others with 403; such an entry shows in the sync status's failed list).
 */
import type { z } from 'zod';
import { auditClientMessages as cm, auditMessages as m } from '../../common/messages/audit';
import { changeLabels } from '../../common/messages/changes';
import { addAuditEventBody, type AuditEventRecord, auditEventIdPath, type auditEventsAnswer, auditEventsQuery, updateAuditEventBody } from '../../common/schemas/audit';
import { type ClientId, newClientId } from '../../common/client-ids';
import { localCompany } from './companies';
import { type ApiContext, ValidationError, check, json, now, online, record } from './context';
import type { RecordId } from './records';

/**
 * GET /get_audit_events (query company_id, optional room_id, batch_id, limit 1–500 default 100,
 * offset): a page of the company's events, newest first, from the server (beyond the local window,
 * or filtered). The server's message, or 'Failed to fetch audit events.'.
 */
export async function getAuditEvents(context: Pick<ApiContext, 'client'>, input: { companyId: number; roomId?: number; batchId?: number; limit?: number; offset?: number }): Promise<AuditEventRecord[]> {
  const query = check(auditEventsQuery, { company_id: input.companyId, room_id: input.roomId, batch_id: input.batchId, limit: input.limit, offset: input.offset });
  const answer = await online<z.infer<typeof auditEventsAnswer>>(context, { path: '/get_audit_events', query }, cm.fetchFailed);
  return answer.events;
}

/**
 * POST /add_audit_event (JSON CompanyID, UserID, EventTitle, RoomID, BatchID, response_id), queued:
 * 'EventTitle is required.'. The event is recorded as the signed-in user (company and user default to
 * the session's); it appears at once in `audit_events` under its client id (its `id` and `EventID`).
 * Returns that local document.
 */
export async function addAuditEvent(
  context: ApiContext,
  input: { eventTitle: string; companyId?: number; userId?: number; roomId?: RecordId | null; batchId?: RecordId | null; responseId?: RecordId | null },
) {
  const session = await context.client.session.get();
  const values = check(addAuditEventBody, {
    CompanyID: input.companyId ?? session?.company_id,
    UserID: input.userId ?? session?.user_id,
    EventTitle: input.eventTitle,
    RoomID: input.roomId ?? null,
    BatchID: input.batchId ?? null,
    response_id: input.responseId ?? null,
  });
  const body = {
    CompanyID: values.CompanyID ?? null,
    UserID: values.UserID ?? null,
    EventTitle: values.EventTitle,
    RoomID: (values.RoomID ?? null) as RecordId | null,
    BatchID: (values.BatchID ?? null) as RecordId | null,
    response_id: (values.response_id ?? null) as RecordId | null,
  };
  const companyId = body.CompanyID ?? session?.company_id ?? null;
  const users = companyId === null ? null : (await localCompany(context, companyId))?.users;
  const user = Array.isArray(users) ? (users as Array<{ user_id: number; first_name?: string; last_name?: string }>).find((item) => item.user_id === body.UserID) : undefined;
  const eventId = newClientId();
  const at = now();
  const document: AuditEventRecord & { id: ClientId } = {
    id: eventId,
    EventID: eventId,
    CompanyID: companyId as number,
    UserID: body.UserID,
    UserName: user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || null : null,
    EventTitle: body.EventTitle,
    RoomID: body.RoomID,
    BatchID: body.BatchID,
    response_id: body.response_id,
    GridBoxID: null,
    Details: null,
    CreatedAt: at,
    UpdatedAt: at,
  };
  const { id: _id, ...data } = document;
  await record(context, {
    method: 'POST',
    path: '/add_audit_event',
    body: json({ ...body, client_id: eventId }),
    creates: [eventId],
    effects: [{ op: 'upsert', collection: 'audit_events', id: eventId, data }],
    label: changeLabels.recordAuditEvent(body.EventTitle),
  });
  return document;
}

/**
 * PUT /update_audit_event/{id} (Admins; JSON EventTitle, RoomID, BatchID, response_id, each optional;
 * null clears a link), queued: 'EventTitle is required.' for a blank title, 'Nothing to update.' when
 * no field is given. Returns the changes written locally.
 */
export async function updateAuditEvent(
  context: ApiContext,
  input: { eventId: RecordId; eventTitle?: string; roomId?: RecordId | null; batchId?: RecordId | null; responseId?: RecordId | null },
) {
  const { id } = check(auditEventIdPath, { id: input.eventId });
  const values = check(updateAuditEventBody, { EventTitle: input.eventTitle, RoomID: input.roomId, BatchID: input.batchId, response_id: input.responseId });
  const changes = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<Pick<AuditEventRecord, 'EventTitle' | 'RoomID' | 'BatchID' | 'response_id'>>;
  if (Object.keys(changes).length === 0) throw new ValidationError(m.nothingToUpdate);
  const eventId = id as RecordId;
  await record(context, {
    method: 'PUT',
    path: `/update_audit_event/${eventId}`,
    body: json(changes),
    effects: (await context.store.get('audit_events', String(eventId))) ? [{ op: 'patch', collection: 'audit_events', id: String(eventId), data: { ...changes, UpdatedAt: now() } }] : [],
    label: changes.EventTitle ? changeLabels.correctAuditEventTitled(changes.EventTitle) : changeLabels.correctAuditEvent(eventId),
  });
  return changes;
}

/** DELETE /delete_audit_event/{id} (Admins), queued: the event leaves the local trail at once (the server keeps a tombstone). */
export async function deleteAuditEvent(context: ApiContext, input: { eventId: RecordId }) {
  const { id } = check(auditEventIdPath, { id: input.eventId });
  const eventId = id as RecordId;
  const local = await context.store.get('audit_events', String(eventId));
  await record(context, {
    method: 'DELETE',
    path: `/delete_audit_event/${eventId}`,
    effects: local ? [{ op: 'remove', collection: 'audit_events', id: String(eventId) }] : [],
    label: local?.EventTitle ? changeLabels.deleteAuditEventTitled(String(local.EventTitle)) : changeLabels.deleteAuditEvent(eventId),
  });
}
