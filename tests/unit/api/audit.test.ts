import { describe, expect, it } from 'vitest';
import { auditClientMessages as cm, auditMessages as m, multiSelectAuditTitle } from '../../../common/messages/audit';
import { httpMessages } from '../../../common/messages/http';
import { isClientId } from '../../../common/client-ids';
import { addAuditEvent, deleteAuditEvent, getAuditEvents, updateAuditEvent } from '../../../src/api/audit';
import { createRoom } from '../../../src/api/rooms';
import type { Tablet } from '../../support/client';
import { clientIdOf, createBatch } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true, defaultUser: 'admin' });
const { tablet } = fleet;

const serverEvent = (title: string) => fleet.server.database.db.selectFrom('audit_events').selectAll().where('event_title', '=', title).executeTakeFirstOrThrow();

/**
 * An event recorded straight through the API, and the tablet's copy of it once pulled: its server id,
 * and its client id (the key of the tablet's document, the id the screens name it by).
 */
async function existingEvent(device: Tablet, title: string) {
  const response = await fleet.server.request<{ event: { EventID: number } }>('POST', '/add_audit_event', { token: fleet.farm.admin.token, json: { EventTitle: title } });
  await device.engine.syncNow();
  await device.engine.settle();
  const serverId = response.body.event.EventID;
  const key = await clientIdOf(fleet.server, 'audit_events', serverId);
  expect((await device.database.audit_events.findOne(key).exec())?.get('serverId')).toBe(serverId);
  return { serverId, key };
}

describe('getAuditEvents', () => {
  it('answers a page of the company’s events from the server, newest first, filtered by room', async () => {
    const roomId = (await fleet.server.request<{ RoomID: number }>('POST', '/create_room', { token: fleet.farm.admin.token, query: { company_id: fleet.farm.companyId }, form: { name: 'Audit room', description: 'd' } })).body.RoomID;
    await fleet.server.request('POST', '/add_audit_event', { token: fleet.farm.regular.token, json: { EventTitle: 'First look', RoomID: roomId } });
    await fleet.server.request('POST', '/add_audit_event', { token: fleet.farm.regular.token, json: { EventTitle: 'Second look', RoomID: roomId } });
    const device = await tablet(fleet.farm.regular, { start: false });

    const events = await getAuditEvents(device.context, { companyId: fleet.farm.companyId, roomId });
    expect(events.slice(0, 2).map((event) => event.EventTitle)).toEqual(['Second look', 'First look']);
    expect(events.every((event) => event.RoomID === roomId)).toBe(true);
    expect(events[0]).toMatchObject({ EventID: expect.any(Number), CompanyID: fleet.farm.companyId, UserID: fleet.farm.regular.id, UserName: expect.any(String), RoomID: roomId, CreatedAt: expect.any(String) });
    expect(await getAuditEvents(device.context, { companyId: fleet.farm.companyId, roomId, limit: 1 })).toHaveLength(1);
  });

  it("needs a company: 'company_id is required.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getAuditEvents(device.context, { companyId: 0 })).rejects.toThrow('company_id is required.');
  });

  it("keeps the server's message for another company, else 'Failed to fetch audit events.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(getAuditEvents(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    fleet.proxy.setOnline(false);
    await expect(getAuditEvents(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(cm.fetchFailed);
  });
});

describe('addAuditEvent', () => {
  it("needs a title: 'EventTitle is required.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(addAuditEvent(device.context, { eventTitle: '  ' })).rejects.toThrow(m.titleRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is queued, appears at once under its client id, and reaches the server once under that id, with its room made offline', async () => {
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    const device = await tablet(fleet.farm.regular);
    const batchKey = await clientIdOf(fleet.server, 'batches', batchId);
    fleet.proxy.setOnline(false);
    const { RoomID } = await createRoom(device.context, { companyId: fleet.farm.companyId, name: 'Veg 3', description: 'Made without signal' });
    const title = multiSelectAuditTitle('Veg 3');
    const event = await addAuditEvent(device.context, { eventTitle: title, roomId: RoomID, batchId: batchKey });

    expect(isClientId(event.id)).toBe(true);
    expect(event.EventID).toBe(event.id);
    const [roomEntry, entry] = await device.outbox.all();
    expect(roomEntry?.creates).toEqual([RoomID]);
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/add_audit_event',
      body: { kind: 'json', data: { EventTitle: title, RoomID, BatchID: batchKey, UserID: fleet.farm.regular.id, CompanyID: fleet.farm.companyId, client_id: event.id } },
      creates: [event.id],
    });
    expect(entry?.clientIds).toEqual(expect.arrayContaining([RoomID, batchKey, event.id]));
    const local = await device.database.audit_events.findOne(event.id).exec();
    expect(local?.toMutableJSON()).toMatchObject({ EventID: event.id, EventTitle: title, RoomID, BatchID: batchKey, UserID: fleet.farm.regular.id, CompanyID: fleet.farm.companyId, UserName: expect.any(String) });
    expect(local?.get('serverId')).toBeUndefined();

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    const room = await fleet.server.database.db.selectFrom('rooms').select(['id', 'client_id']).where('company_id', '=', fleet.farm.companyId).where('name', '=', 'Veg 3').executeTakeFirstOrThrow();
    expect(room.client_id).toBe(RoomID);
    const rows = await fleet.server.database.db.selectFrom('audit_events').selectAll().where('event_title', '=', title).execute();
    expect(rows).toEqual([expect.objectContaining({ client_id: event.id, room_id: room.id, batch_id: batchId, user_id: fleet.farm.regular.id, company_id: fleet.farm.companyId })]);
    // The server's copy replaced the optimistic one under the same key, named by client ids, its integer id as serverId.
    const synced = await device.database.audit_events.findOne(event.id).exec();
    expect(synced?.toMutableJSON()).toMatchObject({ serverId: rows[0]?.id, EventID: event.id, EventTitle: title, RoomID, BatchID: batchKey });
    expect((await device.database.rooms.findOne(RoomID).exec())?.get('serverId')).toBe(room.id);
    expect((await device.database.audit_events.find({ selector: { EventTitle: title } }).exec()).map((document) => document.primary)).toEqual([event.id]);
    expect(await fleet.notFromServer(device)).toEqual([]);
  });
});

describe('updateAuditEvent', () => {
  it("needs something to change ('Nothing to update.') and a non-blank title ('EventTitle is required.')", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(updateAuditEvent(device.context, { eventId: 1 })).rejects.toThrow(m.nothingToUpdate);
    await expect(updateAuditEvent(device.context, { eventId: 1, eventTitle: ' ' })).rejects.toThrow(m.titleRequired);
    await expect(updateAuditEvent(device.context, { eventId: 0, eventTitle: 'x' })).rejects.toThrow(m.idInvalid);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is queued with its optimistic change and reaches the server (Admins)', async () => {
    const device = await tablet(fleet.farm.admin);
    const { serverId, key } = await existingEvent(device, 'Sprayed bench 4');
    fleet.proxy.setOnline(false);
    expect(await updateAuditEvent(device.context, { eventId: key, eventTitle: 'Sprayed bench 5', batchId: null })).toEqual({ EventTitle: 'Sprayed bench 5', BatchID: null });
    expect(await device.outbox.all()).toEqual([expect.objectContaining({ method: 'PUT', path: `/update_audit_event/${key}`, clientIds: [key], body: { kind: 'json', data: { EventTitle: 'Sprayed bench 5', BatchID: null } } })]);
    expect((await device.database.audit_events.findOne(key).exec())?.get('EventTitle')).toBe('Sprayed bench 5');

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    expect(await serverEvent('Sprayed bench 5')).toMatchObject({ id: serverId, client_id: key });
    expect((await device.database.audit_events.findOne(key).exec())?.toMutableJSON()).toMatchObject({ EventTitle: 'Sprayed bench 5', serverId });
  });

  it("a Regular user's correction is refused by the server and shows in the failed list", async () => {
    const device = await tablet(fleet.farm.regular);
    const { key } = await existingEvent(device, 'Checked traps');
    await updateAuditEvent(device.context, { eventId: key, eventTitle: 'Checked all traps' });
    await device.engine.settle();
    expect(device.engine.current().failed).toEqual([expect.objectContaining({ error: httpMessages.roleForbidden })]);
  });
});

describe('deleteAuditEvent', () => {
  it('is queued, leaves the local trail at once, and tombstones the event on the server', async () => {
    const device = await tablet(fleet.farm.admin);
    const { serverId, key } = await existingEvent(device, 'Mistaken entry');
    fleet.proxy.setOnline(false);
    await deleteAuditEvent(device.context, { eventId: key });
    expect(await device.outbox.all()).toEqual([expect.objectContaining({ method: 'DELETE', path: `/delete_audit_event/${key}` })]);
    expect(await device.database.audit_events.findOne(key).exec()).toBeNull();

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    const row = await serverEvent('Mistaken entry');
    expect(row.id).toBe(serverId);
    expect(row.deleted_at).not.toBeNull();
    expect(await device.database.audit_events.findOne(key).exec()).toBeNull();
  });

  it("checks the id: 'Audit event id must be a number.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(deleteAuditEvent(device.context, { eventId: -3 })).rejects.toThrow(m.idInvalid);
  });
});
