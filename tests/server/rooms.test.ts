import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomMessages as m } from '../../common/messages/rooms';
import { createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
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

type Query = Record<string, string | number>;
const call = (method: string, path: string, token: string, query: Query = {}, form?: Record<string, string>, headers?: Record<string, string>) =>
  server.request(method, path, { token, query, ...(form ? { form } : {}), ...(headers ? { headers } : {}) });

const latest = (documents: Map<string, PulledDocument>, id: number) => documents.get(String(id));

describe('create_room', () => {
  it('creates a room and records an audit event for it', async () => {
    const response = await call('POST', '/create_room', farm.regular.token, { company_id: farm.companyId }, { name: 'Flower 1', description: 'South wing' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.created, room: { Name: 'Flower 1', Description: 'South wing', CompanyID: farm.companyId } });
    const roomId = response.body.RoomID as number;
    const events = await server.database.db.selectFrom('audit_events').selectAll().where('room_id', '=', roomId).execute();
    expect(events).toHaveLength(1);
  });

  it('answers the messages for a missing name or description', async () => {
    expect((await call('POST', '/create_room', farm.regular.token, { company_id: farm.companyId }, { description: 'x' })).body).toEqual({ status: 'error', message: m.nameRequired });
    expect((await call('POST', '/create_room', farm.regular.token, { company_id: farm.companyId }, { name: 'x', description: ' ' })).body).toEqual({ status: 'error', message: m.descriptionRequired });
    expect((await call('POST', '/create_room', farm.regular.token, {}, { name: 'x', description: 'y' })).body).toEqual({ status: 'error', message: m.companyIdRequired });
  });

  it('answers 403 for another company', async () => {
    const response = await call('POST', '/create_room', farm.admin.token, { company_id: other.companyId }, { name: 'x', description: 'y' });
    expect(response.status).toBe(403);
  });

  it('makes one room for a repeated request with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const name = `Idem ${key}`;
    const first = await call('POST', '/create_room', farm.regular.token, { company_id: farm.companyId }, { name, description: 'd' }, { 'Idempotency-Key': key });
    const second = await call('POST', '/create_room', farm.regular.token, { company_id: farm.companyId }, { name, description: 'd' }, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.RoomID).toBe(first.body.RoomID);
    const rooms = await server.database.db.selectFrom('rooms').select('id').where('name', '=', name).execute();
    expect(rooms).toHaveLength(1);
  });
});

describe('load_room_grids_boxes', () => {
  it('answers every room with its grids and their boxes, or just the one room', async () => {
    const tenant = await createTenant(server);
    const roomA = await createRoom(server, tenant.companyId, 'A');
    const roomB = await createRoom(server, tenant.companyId, 'B');
    const grid = await createGrid(server, tenant.companyId, roomA, 3, 2);
    const all = await call('GET', '/load_room_grids_boxes', tenant.regular.token, { company_id: tenant.companyId });
    expect(all.status).toBe(200);
    const rooms = all.body.rooms as Array<{ RoomID: number; grids: Array<{ id: number; boxes: Array<{ id: number; X: number; Y: number }> }> }>;
    expect(rooms.map((room) => room.RoomID)).toEqual([roomA, roomB]);
    expect(rooms[0]?.grids).toHaveLength(1);
    expect(rooms[0]?.grids[0]?.id).toBe(grid.id);
    expect(rooms[0]?.grids[0]?.boxes.map((box) => box.id)).toEqual(grid.boxIds);
    expect(rooms[1]?.grids).toEqual([]);
    const one = await call('GET', '/load_room_grids_boxes', tenant.regular.token, { company_id: tenant.companyId, room_id: roomB });
    expect((one.body.rooms as Array<{ RoomID: number }>).map((room) => room.RoomID)).toEqual([roomB]);
  });

  // Its speed is measured by `npm run bench`, never asserted here; this checks the whole answer.
  it('answers all 10 rooms × 10 grids × 100 boxes in one reply', async () => {
    const tenant = await createTenant(server);
    for (let r = 0; r < 10; r += 1) {
      const roomId = await createRoom(server, tenant.companyId);
      for (let g = 0; g < 10; g += 1) await createGrid(server, tenant.companyId, roomId, 10, 10);
    }
    const response = await call('GET', '/load_room_grids_boxes', tenant.regular.token, { company_id: tenant.companyId });
    expect(response.status).toBe(200);
    const rooms = response.body.rooms as Array<{ grids: Array<{ boxes: unknown[] }> }>;
    expect(rooms).toHaveLength(10);
    expect(rooms.every((room) => room.grids.length === 10)).toBe(true);
    expect(rooms.flatMap((room) => room.grids).flatMap((grid) => grid.boxes)).toHaveLength(10_000);
  });

  it('answers 403 for another company’s company or room id', async () => {
    const otherRoom = await createRoom(server, other.companyId);
    expect((await call('GET', '/load_room_grids_boxes', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
    expect((await call('GET', '/load_room_grids_boxes', farm.regular.token, { company_id: farm.companyId, room_id: otherRoom })).status).toBe(403);
    expect((await call('GET', '/load_room_grids_boxes', farm.regular.token)).body).toEqual({ status: 'error', message: m.companyIdRequired });
  });
});

/**
 * Each instance keeps the floor plan's answers as it sent them (server/http/answer-cache.ts): a
 * change is read at once by the instance it went through, and by any instance once the change's
 * notification reaches it (here: a write straight to the database, as another instance's would be).
 */
describe('load_room_grids_boxes kept by each instance', () => {
  type Floor = { rooms: Array<{ Name: string; grids: Array<{ Name: string; boxes: Array<{ id: number; culled: boolean; CustomName: string | null }> }> }> };
  const floorOf = async (tenant: Tenant, roomId?: number) =>
    (await call('GET', '/load_room_grids_boxes', tenant.regular.token, { company_id: tenant.companyId, ...(roomId ? { room_id: roomId } : {}) })).body as unknown as Floor;
  const boxesOf = (floor: Floor) => floor.rooms.flatMap((room) => room.grids).flatMap((grid) => grid.boxes);

  it('answers a change made through this instance at once, in the room and in the whole company', async () => {
    const tenant = await createTenant(server);
    const roomId = await createRoom(server, tenant.companyId);
    const grid = await createGrid(server, tenant.companyId, roomId, 2, 1);
    const [first] = grid.boxIds;
    // Read first, so the instance keeps the answers the changes replace.
    expect(boxesOf(await floorOf(tenant, roomId)).map((box) => box.culled)).toEqual([false, false]);
    expect(boxesOf(await floorOf(tenant))).toHaveLength(2);

    const cull = await call('POST', '/update_culling_status', tenant.regular.token, {}, { GridBoxID: String(first), user_id: String(tenant.regular.id), culled: '1' });
    expect(cull.status).toBe(200);
    expect(boxesOf(await floorOf(tenant, roomId)).find((box) => box.id === first)?.culled).toBe(true);
    expect(boxesOf(await floorOf(tenant)).find((box) => box.id === first)?.culled).toBe(true);

    // Through a push too (a tablet's queued changes).
    const push = await server.request('POST', '/sync/push', {
      token: tenant.regular.token,
      json: { entries: [{ id: `rename-${randomUUID()}`, method: 'POST', path: '/update_grid_box_name', body: { kind: 'json', data: { GridBoxID: first, custom_name: 'Mother 1' } } }] },
    });
    expect(push.status).toBe(200);
    expect(boxesOf(await floorOf(tenant, roomId)).find((box) => box.id === first)?.CustomName).toBe('Mother 1');

    const created = await call('POST', '/create_room', tenant.admin.token, { company_id: tenant.companyId }, { name: 'Dry room', description: 'd' });
    expect(created.status).toBe(200);
    expect((await floorOf(tenant)).rooms.map((room) => room.Name)).toContain('Dry room');
  });

  it('answers a change made elsewhere once its notification arrives', async () => {
    const tenant = await createTenant(server);
    const roomId = await createRoom(server, tenant.companyId);
    const grid = await createGrid(server, tenant.companyId, roomId, 1, 1);
    expect(boxesOf(await floorOf(tenant))).toHaveLength(1);
    await server.database.db.updateTable('grid_boxes').set({ custom_name: 'Renamed elsewhere' }).where('id', '=', grid.boxIds[0]!).execute();
    await expect.poll(async () => boxesOf(await floorOf(tenant))[0]?.CustomName, { timeout: 5_000, interval: 50 }).toBe('Renamed elsewhere');
    await createGrid(server, tenant.companyId, roomId, 2, 2, 'Added elsewhere');
    await expect.poll(async () => (await floorOf(tenant, roomId)).rooms[0]?.grids.map((each) => each.Name), { timeout: 5_000, interval: 50 }).toContain('Added elsewhere');
  });

  it('does not answer one company what it keeps of another', async () => {
    const first = await createTenant(server);
    const second = await createTenant(server);
    await createRoom(server, first.companyId, 'Only first');
    await createRoom(server, second.companyId, 'Only second');
    expect((await floorOf(first)).rooms.map((room) => room.Name)).toEqual(['Only first']);
    expect((await floorOf(second)).rooms.map((room) => room.Name)).toEqual(['Only second']);
  });
});

describe('delete_room', () => {
  it('tombstones the room, its grids, their boxes and sub-gridboxes, and sync pulls them as deleted', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 2);
    const divided = await server.request('POST', '/create_sub_gridboxes', { token: farm.regular.token, query: { parent_gridbox_id: grid.boxIds[0] as number, user_id: farm.regular.id, nx: 2, ny: 1 } });
    expect(divided.status).toBe(200);
    const response = await call('DELETE', '/delete_room', farm.admin.token, { room_id: roomId });
    expect(response.status).toBe(200);
    // Their sub-gridboxes go too: a plant id of a deleted room is free again.
    const liveSubs = await server.database.db.selectFrom('sub_gridboxes').select('id').where('parent_gridbox_id', '=', grid.boxIds[0] as number).where('deleted_at', 'is', null).execute();
    expect(liveSubs).toEqual([]);
    expect(response.body).toMatchObject({ status: 'success', message: m.deleted });

    const grids = await pullUntil(server, farm.regular.token, 'grids', (documents) => latest(documents, grid.id)?._deleted === true);
    expect(latest(grids, grid.id)?._deleted).toBe(true);
    const boxes = await pullUntil(server, farm.regular.token, 'grid_boxes', (documents) => grid.boxIds.every((id) => latest(documents, id)?._deleted === true));
    for (const id of grid.boxIds) expect(latest(boxes, id)?._deleted).toBe(true);
    const rooms = await pullUntil(server, farm.regular.token, 'rooms', (documents) => latest(documents, roomId)?._deleted === true);
    expect(latest(rooms, roomId)?._deleted).toBe(true);

    const row = await server.database.db.selectFrom('grid_boxes').select(['updated_by']).where('id', '=', grid.boxIds[0] as number).executeTakeFirstOrThrow();
    expect(row.updated_by).toBe(farm.admin.id);
    const load = await call('GET', '/load_room_grids_boxes', farm.regular.token, { company_id: farm.companyId });
    expect((load.body.rooms as Array<{ RoomID: number }>).some((room) => room.RoomID === roomId)).toBe(false);
  });

  it('answers 403 to a Regular user and for another company’s room', async () => {
    const roomId = await createRoom(server, farm.companyId);
    expect((await call('DELETE', '/delete_room', farm.regular.token, { room_id: roomId })).status).toBe(403);
    const otherRoom = await createRoom(server, other.companyId);
    expect((await call('DELETE', '/delete_room', farm.admin.token, { room_id: otherRoom })).status).toBe(403);
    expect((await call('DELETE', '/delete_room', farm.admin.token)).body).toEqual({ status: 'error', message: m.roomIdRequired });
  });
});

describe('room scroll', () => {
  it('sets and reads one room’s scroll, from setValue or start_scroll', async () => {
    const roomId = await createRoom(server, farm.companyId);
    expect((await call('GET', '/get_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId })).body).toEqual({ status: 'success', StartScroll: 0 });
    const set = await call('PUT', '/update_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId, setValue: 120.5 });
    expect(set.status).toBe(200);
    expect((await call('GET', '/get_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId })).body).toMatchObject({ StartScroll: 120.5 });
    await call('PUT', '/update_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId }, { start_scroll: '40' });
    expect((await call('GET', '/get_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId })).body).toMatchObject({ StartScroll: 40 });
    const events = await server.database.db.selectFrom('audit_events').select('id').where('room_id', '=', roomId).execute();
    expect(events).toHaveLength(2);
  });

  it('rejects a missing or non-numeric value', async () => {
    const roomId = await createRoom(server, farm.companyId);
    expect((await call('PUT', '/update_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId })).body).toEqual({ status: 'error', message: m.scrollRequired });
    expect((await call('PUT', '/update_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: roomId, setValue: 'abc' })).body).toEqual({ status: 'error', message: m.scrollRequired });
  });

  it('an Admin sets every room’s scroll; a Regular user cannot', async () => {
    const tenant = await createTenant(server);
    const rooms = [await createRoom(server, tenant.companyId), await createRoom(server, tenant.companyId)];
    expect((await call('PUT', '/update_all_room_scroll', tenant.regular.token, { company_id: tenant.companyId, setValue: 7 })).status).toBe(403);
    const set = await call('PUT', '/update_all_room_scroll', tenant.admin.token, { company_id: tenant.companyId, setValue: 7 });
    expect(set.body).toMatchObject({ status: 'success', updated: 2 });
    for (const roomId of rooms) {
      expect((await call('GET', '/get_room_scroll', tenant.regular.token, { company_id: tenant.companyId, room_id: roomId })).body).toMatchObject({ StartScroll: 7 });
    }
  });

  it('answers 403 for another company’s rooms', async () => {
    const otherRoom = await createRoom(server, other.companyId);
    expect((await call('GET', '/get_room_scroll', farm.regular.token, { company_id: farm.companyId, room_id: otherRoom })).status).toBe(403);
    expect((await call('PUT', '/update_room_scroll', farm.regular.token, { company_id: other.companyId, room_id: otherRoom, setValue: 1 })).status).toBe(403);
    expect((await call('PUT', '/update_all_room_scroll', farm.admin.token, { company_id: other.companyId, setValue: 1 })).status).toBe(403);
  });
});
