/**
 * The audit trail (spec part 2 §3, §7). Every member reads it and may add an event of their own (the
 * client records, for example, a multi-select submission); only Admins correct or delete events, and
 * a deletion is a tombstone, never an erasure. An event's links (RoomID, BatchID, response_id) are
 * records of its own company: the guard answers another company's 403 and a missing one 404, and a
 * SuperAdmin, who may name any company's, gets 404 for one of another company than the event's.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { auditMessages as m } from '../../../common/messages/audit';
import { doneAnswer } from '../../../common/schemas/answers';
import {
  addAuditEventAnswer,
  addAuditEventBody,
  auditEventIdPath,
  auditEventsAnswer,
  auditEventsQuery,
  updateAuditEventAnswer,
  updateAuditEventBody,
} from '../../../common/schemas/audit';
import { writer } from '../../db/writes';
import { badRequest } from '../../http/errors';
import { actingCompany, assertCaller, assertLinkedWithin } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { auditEventJson, auditQueries } from './queries';
import { actorOfRequest, auditRow, recordAudit } from './record';

const listSchema = { querystring: auditEventsQuery, response: { 200: auditEventsAnswer } };
const addSchema = { body: addAuditEventBody, response: { 200: addAuditEventAnswer } };
const updateSchema = { params: auditEventIdPath, body: updateAuditEventBody, response: { 200: updateAuditEventAnswer } };
const deleteSchema = { params: auditEventIdPath, response: { 200: doneAnswer } };

async function getAuditEvents(request: RequestOf<typeof listSchema>) {
  const { company_id, room_id, batch_id, limit, offset } = request.query;
  const events = await auditQueries.list(request.db, { companyId: company_id, roomId: room_id, batchId: batch_id, limit, offset });
  return success({ events: events.map(auditEventJson) });
}

async function addAuditEvent(request: RequestOf<typeof addSchema>) {
  const { UserID, EventTitle, RoomID, BatchID, response_id, client_id } = request.body;
  // An event is always recorded as the caller's own.
  assertCaller(request, UserID);
  const actor = actorOfRequest(request, actingCompany(request, request.body.CompanyID));
  // The event links records of its own company only (the guard has checked the caller may name them).
  await assertLinkedWithin(request, actor.companyId, { room: RoomID, batch: BatchID, form_response: response_id });
  // The event the caller adds is the record itself, answered with its id: inserted now.
  const created = await writer(request.db, actor).insert('audit_events', { ...auditRow(actor, { title: EventTitle, roomId: RoomID, batchId: BatchID, responseId: response_id }), client_id });
  return success({ event: auditEventJson(await auditQueries.byId(request.db, created.id)), client_id: created.client_id }, m.added);
}

async function updateAuditEvent(request: RequestOf<typeof updateSchema>) {
  const { EventTitle, RoomID, BatchID, response_id } = request.body;
  const changes = {
    ...(EventTitle === undefined ? {} : { event_title: EventTitle }),
    ...(RoomID === undefined ? {} : { room_id: RoomID }),
    ...(BatchID === undefined ? {} : { batch_id: BatchID }),
    ...(response_id === undefined ? {} : { response_id }),
  };
  if (Object.keys(changes).length === 0) throw badRequest(m.nothingToUpdate);
  const event = await auditQueries.byId(request.db, request.params.id);
  await assertLinkedWithin(request, event.company_id, { room: RoomID, batch: BatchID, form_response: response_id });
  const actor = actorOfRequest(request, event.company_id);
  await writer(request.db, actor).update('audit_events', request.params.id, changes);
  // Corrections to the trail leave a trace of their own.
  await recordAudit(request.db, actor, { title: auditTitles.editedAuditEvent(event.id), details: { before: event.event_title, changes } });
  return success({ event: auditEventJson(await auditQueries.byId(request.db, request.params.id)) }, m.updated);
}

async function deleteAuditEvent(request: RequestOf<typeof deleteSchema>) {
  const event = await auditQueries.byId(request.db, request.params.id);
  const actor = actorOfRequest(request, event.company_id);
  await writer(request.db, actor).softDelete('audit_events', request.params.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedAuditEvent(event.id), details: { title: event.event_title } });
  return success({}, m.deleted);
}

export async function auditRoutes(app: App) {
  const owns = { id: 'audit_event' as const };
  app.get('/get_audit_events', { schema: listSchema }, getAuditEvents);
  app.post('/add_audit_event', { schema: addSchema }, addAuditEvent);
  app.put('/update_audit_event/:id', { schema: updateSchema, config: { access: 'admin', owns } }, updateAuditEvent);
  app.delete('/delete_audit_event/:id', { schema: deleteSchema, config: { access: 'admin', owns } }, deleteAuditEvent);
}
