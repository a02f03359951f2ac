import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMessages as m } from '../../common/messages/audit';
import { httpMessages } from '../../common/messages/http';
import { systemActor, writer } from '../../server/db/writes';
import { createBatch, createRoom, createSuperAdmin, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

/** Rooms and batches of a tenant by a short label, created on first use: links must name real records. */
const labelled = new Map<string, number>();
async function roomOf(tenant: Tenant, label: number) {
  const key = `room:${tenant.companyId}:${label}`;
  if (!labelled.has(key)) labelled.set(key, await createRoom(server, tenant.companyId, `Room ${label}`));
  return labelled.get(key) as number;
}
async function batchOf(tenant: Tenant, label: number) {
  const key = `batch:${tenant.companyId}:${label}`;
  if (!labelled.has(key)) labelled.set(key, await createBatch(server, tenant.companyId, `B-${label}`));
  return labelled.get(key) as number;
}
/** A form response of a tenant (of a template of its own), written straight to the database. */
async function responseOf(tenant: Tenant, label: number) {
  const key = `response:${tenant.companyId}:${label}`;
  if (!labelled.has(key)) {
    const write = writer(server.database.db, systemActor(tenant.companyId));
    const template = await write.insert('form_templates', { company_id: tenant.companyId, template_name: `Form ${label}` });
    labelled.set(key, (await write.insert('form_responses', { company_id: tenant.companyId, template_id: template.id })).id);
  }
  return labelled.get(key) as number;
}

interface AuditEvent {
  EventID: number;
  CompanyID: number;
  UserID: number | null;
  UserName: string | null;
  EventTitle: string;
  RoomID: number | null;
  BatchID: number | null;
  response_id: number | null;
  CreatedAt: string;
}
interface EventAnswer {
  status: string;
  message?: string;
  event: AuditEvent;
}

const list = (token: string, query: Record<string, string | number> = {}) => server.request<{ status: string; events: AuditEvent[] }>('GET', '/get_audit_events', { token, query });
const add = (token: string, json: Record<string, unknown>) => server.request<EventAnswer>('POST', '/add_audit_event', { token, json });
const update = (token: string, id: number | string, json?: Record<string, unknown>) =>
  server.request<EventAnswer>('PUT', `/update_audit_event/${id}`, { token, ...(json === undefined ? {} : { json }) });
const remove = (token: string, id: number | string) => server.request('DELETE', `/delete_audit_event/${id}`, { token });

/** Records an event as `who` and answers its id. */
async function record(who: SignedInUser, title: string, extra: Record<string, unknown> = {}): Promise<number> {
  const response = await add(who.token, { CompanyID: who.companyId, UserID: who.id, EventTitle: title, ...extra });
  expect(response.status).toBe(200);
  return response.body.event.EventID;
}

const titles = (events: AuditEvent[]) => events.map((event) => event.EventTitle);

type AuditDocument = PulledDocument & { EventTitle: string };

describe('GET /api/get_audit_events', () => {
  let trail: Tenant;
  let grower: SignedInUser;

  beforeAll(async () => {
    trail = await createTenant(server);
    grower = await createUser(server, trail.companyId, 'Regular');
    await record(grower, 'Scouted room 7', { RoomID: await roomOf(trail, 7) });
    await record(grower, 'Sprayed batch 3', { RoomID: await roomOf(trail, 7), BatchID: await batchOf(trail, 3) });
    await record(trail.admin, 'Answered form 11', { RoomID: await roomOf(trail, 8), BatchID: await batchOf(trail, 3), response_id: await responseOf(trail, 11) });
  });

  it('answers the company’s events newest first, with every field', async () => {
    const response = await list(trail.regular.token, { company_id: trail.companyId });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    const events = response.body.events;
    expect(titles(events).slice(0, 3)).toEqual(['Answered form 11', 'Sprayed batch 3', 'Scouted room 7']);
    expect(events.every((event) => event.CompanyID === trail.companyId)).toBe(true);
    const ids = events.map((event) => event.EventID);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const times = events.map((event) => Date.parse(event.CreatedAt));
    expect(times.every((time) => Number.isFinite(time))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(events[0]).toEqual(
      expect.objectContaining({
        EventID: expect.any(Number),
        CompanyID: trail.companyId,
        UserID: trail.admin.id,
        UserName: 'Company Admin',
        EventTitle: 'Answered form 11',
        RoomID: await roomOf(trail, 8),
        BatchID: await batchOf(trail, 3),
        response_id: await responseOf(trail, 11),
        CreatedAt: expect.any(String),
      }),
    );
    expect(events[2]).toMatchObject({ UserID: grower.id, UserName: `Regular ${grower.email.split('@')[0]}`, RoomID: await roomOf(trail, 7), BatchID: null, response_id: null });
  });

  it('filters by room and by batch', async () => {
    expect(titles((await list(trail.regular.token, { company_id: trail.companyId, room_id: await roomOf(trail, 7) })).body.events)).toEqual(['Sprayed batch 3', 'Scouted room 7']);
    expect(titles((await list(trail.regular.token, { company_id: trail.companyId, batch_id: await batchOf(trail, 3) })).body.events)).toEqual(['Answered form 11', 'Sprayed batch 3']);
    expect(titles((await list(trail.regular.token, { company_id: trail.companyId, room_id: await roomOf(trail, 7), batch_id: await batchOf(trail, 3) })).body.events)).toEqual(['Sprayed batch 3']);
    expect((await list(trail.regular.token, { company_id: trail.companyId, room_id: await roomOf(trail, 999) })).body.events).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const all = (await list(trail.regular.token, { company_id: trail.companyId })).body.events;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const first = await list(trail.regular.token, { company_id: trail.companyId, limit: 2 });
    expect(first.body.events.map((event) => event.EventID)).toEqual(all.slice(0, 2).map((event) => event.EventID));
    const second = await list(trail.regular.token, { company_id: trail.companyId, limit: 2, offset: 2 });
    expect(second.body.events.map((event) => event.EventID)).toEqual(all.slice(2, 4).map((event) => event.EventID));
    expect((await list(trail.regular.token, { company_id: trail.companyId, offset: all.length })).body.events).toEqual([]);
  });

  it('answers 400 for a limit out of range', async () => {
    for (const limit of [0, 501, 'many']) {
      const response = await list(trail.regular.token, { company_id: trail.companyId, limit });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 'error' });
    }
  });

  it('answers 403 for another company and 400 without company_id', async () => {
    const foreign = await list(trail.admin.token, { company_id: other.companyId });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    const missing = await list(trail.admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: 'error', message: 'company_id is required.' });
  });

  it('lets a SuperAdmin read any company’s trail', async () => {
    const operator = await createSuperAdmin(server);
    const response = await list(operator.token, { company_id: trail.companyId, limit: 3 });
    expect(response.status).toBe(200);
    expect(titles(response.body.events)).toEqual(['Answered form 11', 'Sprayed batch 3', 'Scouted room 7']);
  });
});

describe('POST /api/add_audit_event', () => {
  it('a Regular user records an event of their own', async () => {
    const response = await add(farm.regular.token, { CompanyID: farm.companyId, UserID: farm.regular.id, EventTitle: 'Submitted MultiSelect Template in room North', RoomID: await roomOf(farm, 4), BatchID: await batchOf(farm, 9), response_id: await responseOf(farm, 21) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.added,
      event: { CompanyID: farm.companyId, UserID: farm.regular.id, EventTitle: 'Submitted MultiSelect Template in room North', RoomID: await roomOf(farm, 4), BatchID: await batchOf(farm, 9), response_id: await responseOf(farm, 21) },
    });
    const events = (await list(farm.admin.token, { company_id: farm.companyId })).body.events;
    expect(events[0]).toMatchObject({ EventID: response.body.event.EventID, UserID: farm.regular.id, EventTitle: 'Submitted MultiSelect Template in room North' });
  });

  it('takes the company and the user from the token when they are left out', async () => {
    const response = await add(farm.regular.token, { EventTitle: 'Checked sticky traps' });
    expect(response.status).toBe(200);
    expect(response.body.event).toMatchObject({ CompanyID: farm.companyId, UserID: farm.regular.id, RoomID: null, BatchID: null, response_id: null });
  });

  it.each([
    ['no EventTitle', {}],
    ['a blank EventTitle', { EventTitle: '   ' }],
  ])('answers 400 for %s', async (_case, body) => {
    const response = await add(farm.regular.token, { CompanyID: farm.companyId, UserID: farm.regular.id, ...body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.titleRequired });
  });

  it('answers 403 for someone else’s UserID, even in the same company, and records nothing', async () => {
    const before = (await list(farm.admin.token, { company_id: farm.companyId })).body.events.length;
    const sameCompany = await add(farm.regular.token, { CompanyID: farm.companyId, UserID: farm.admin.id, EventTitle: 'Forged by a grower' });
    expect(sameCompany.status).toBe(403);
    expect(sameCompany.body).toMatchObject({ status: 'error' });
    const otherCompany = await add(farm.regular.token, { UserID: other.regular.id, EventTitle: 'Forged across companies' });
    expect(otherCompany.status).toBe(403);
    expect(otherCompany.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await list(farm.admin.token, { company_id: farm.companyId })).body.events).toHaveLength(before);
  });

  it('answers 403 for another company’s room, batch or form response, and 404 for one that does not exist', async () => {
    expect((await add(farm.regular.token, { EventTitle: 'Scouted their room', RoomID: await roomOf(other, 1) })).status).toBe(403);
    expect((await add(farm.regular.token, { EventTitle: 'Sprayed their batch', BatchID: await batchOf(other, 1) })).status).toBe(403);
    expect((await add(farm.regular.token, { EventTitle: 'Read their form', response_id: await responseOf(other, 1) })).status).toBe(403);
    expect((await add(farm.regular.token, { EventTitle: 'Scouted nowhere', RoomID: 987654 })).status).toBe(404);
    expect((await add(farm.regular.token, { EventTitle: 'Read no form', response_id: 987654 })).status).toBe(404);
  });

  it('answers 403 for another company’s CompanyID and records nothing there', async () => {
    const response = await add(farm.regular.token, { CompanyID: other.companyId, UserID: farm.regular.id, EventTitle: 'Planted in another company' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect(titles((await list(other.admin.token, { company_id: other.companyId })).body.events)).not.toContain('Planted in another company');
  });
});

describe('PUT /api/update_audit_event/{id}', () => {
  it('an Admin changes the title, and the edit is audited', async () => {
    const id = await record(farm.regular, 'Sprayed the wrong room', { RoomID: await roomOf(farm, 5) });
    const response = await update(farm.admin.token, id, { EventTitle: 'Sprayed room 6', RoomID: await roomOf(farm, 6) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.updated, event: { EventID: id, EventTitle: 'Sprayed room 6', RoomID: await roomOf(farm, 6), UserID: farm.regular.id } });
    const events = (await list(farm.regular.token, { company_id: farm.companyId })).body.events;
    expect(events.find((event) => event.EventID === id)).toMatchObject({ EventTitle: 'Sprayed room 6', RoomID: await roomOf(farm, 6) });
    expect(events[0]).toMatchObject({ EventTitle: `Edited audit event ${id}`, UserID: farm.admin.id, CompanyID: farm.companyId });
  });

  it('clears a link with null and keeps the fields left out', async () => {
    const id = await record(farm.regular, 'Scouted batch 2', { RoomID: await roomOf(farm, 3), BatchID: await batchOf(farm, 2) });
    const response = await update(farm.admin.token, id, { BatchID: null });
    expect(response.status).toBe(200);
    expect(response.body.event).toMatchObject({ EventTitle: 'Scouted batch 2', RoomID: await roomOf(farm, 3), BatchID: null });
  });

  it('answers 403 to a Regular user and changes nothing', async () => {
    const id = await record(farm.regular, 'Own event');
    const response = await update(farm.regular.token, id, { EventTitle: 'Rewritten' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
    expect((await list(farm.admin.token, { company_id: farm.companyId })).body.events.find((event) => event.EventID === id)?.EventTitle).toBe('Own event');
  });

  it('answers 403 for another company’s event and changes nothing', async () => {
    const foreign = await record(other.regular, 'Their event');
    const response = await update(farm.admin.token, foreign, { EventTitle: 'Rewritten' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await list(other.admin.token, { company_id: other.companyId })).body.events.find((event) => event.EventID === foreign)?.EventTitle).toBe('Their event');
  });

  it('answers 404 for an unknown id', async () => {
    const response = await update(farm.admin.token, 987654, { EventTitle: 'Nothing here' });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error' });
  });

  it('answers 400 when there is nothing to change', async () => {
    const id = await record(farm.regular, 'Untouched');
    for (const body of [{}, undefined]) {
      const response = await update(farm.admin.token, id, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: 'error', message: m.nothingToUpdate });
    }
    const blank = await update(farm.admin.token, id, { EventTitle: '' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ status: 'error', message: m.titleRequired });
  });

  it('answers 400 for a non-numeric id', async () => {
    const response = await update(farm.admin.token, 'abc', { EventTitle: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.idInvalid });
  });
});

describe('DELETE /api/delete_audit_event/{id}', () => {
  it('an Admin tombstones it: gone from the list, pulled as deleted, and the deletion audited', async () => {
    const id = await record(farm.regular, 'Entered by mistake');
    const response = await remove(farm.admin.token, id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.deleted });
    const events = (await list(farm.admin.token, { company_id: farm.companyId, limit: 500 })).body.events;
    expect(events.map((event) => event.EventID)).not.toContain(id);
    expect(events[0]).toMatchObject({ EventTitle: `Deleted audit event ${id}`, UserID: farm.admin.id });

    const pulled = await pullUntil<AuditDocument>(server, farm.regular.token, 'audit_events', (documents) => documents.get(String(id))?._deleted === true);
    expect(pulled.get(String(id))).toMatchObject({ _deleted: true, EventTitle: 'Entered by mistake' });
  });

  it('answers 404 for an event already deleted', async () => {
    const id = await record(farm.regular, 'Deleted twice');
    expect((await remove(farm.admin.token, id)).status).toBe(200);
    const again = await remove(farm.admin.token, id);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ status: 'error' });
    expect((await update(farm.admin.token, id, { EventTitle: 'Revived' })).status).toBe(404);
  });

  it('answers 403 to a Regular user and keeps the event', async () => {
    const id = await record(farm.regular, 'Kept from a grower');
    const response = await remove(farm.regular.token, id);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
    expect((await list(farm.admin.token, { company_id: farm.companyId })).body.events.map((event) => event.EventID)).toContain(id);
  });

  it('answers 403 for another company’s event and keeps it', async () => {
    const foreign = await record(other.regular, 'Kept from a stranger');
    const response = await remove(farm.admin.token, foreign);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await list(other.admin.token, { company_id: other.companyId })).body.events.map((event) => event.EventID)).toContain(foreign);
  });
});
