import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridMessages as m } from '../../common/messages/grids';
import { createGrid, createRoom, createTenant, createUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let otherRoom: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  otherRoom = await createRoom(server, other.companyId);
});
afterAll(() => server.close());

type Query = Record<string, string | number>;
const call = (method: string, path: string, token: string, query: Query = {}, form?: Record<string, string | number>) =>
  server.request(method, path, { token, query, ...(form ? { form } : {}) });

interface Box {
  id: number;
  X: number;
  Y: number;
  culled: boolean;
  CulledBy: number | null;
  CustomName: string | null;
}

describe('Create_grid', () => {
  it('creates nx × ny boxes from form fields', async () => {
    const response = await call('POST', '/Create_grid', farm.regular.token, {}, { nx: 3, ny: 2, ngrid_name: 'G1', ncompany_id: farm.companyId, nroom_id: roomId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.gridCreated, grid: { Name: 'G1', RoomID: roomId, nx: 3, ny: 2 } });
    const boxes = (response.body.grid as { boxes: Box[] }).boxes;
    expect(boxes.map((box) => [box.X, box.Y])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    const events = await server.database.db.selectFrom('audit_events').select('id').where('room_id', '=', roomId).where('event_title', 'like', 'Created grid G1%').execute();
    expect(events).toHaveLength(1);
  });

  it('accepts a JSON body', async () => {
    const response = await server.request('POST', '/Create_grid', { token: farm.regular.token, json: { nx: 1, ny: 1, ngrid_name: 'J', ncompany_id: farm.companyId, nroom_id: roomId } });
    expect(response.status).toBe(200);
    expect((response.body.grid as { boxes: Box[] }).boxes).toHaveLength(1);
  });

  it.each([
    [{ nx: 0, ny: 2 }, m.sizeInvalid],
    [{ nx: 101, ny: 2 }, m.sizeInvalid],
    [{ nx: 2.5, ny: 2 }, m.sizeInvalid],
    [{ nx: 2, ny: 'x' }, m.sizeInvalid],
    [{ nx: 2, ny: 2, ngrid_name: '' }, m.gridNameRequired],
  ])('rejects %o with "%s"', async (fields, message) => {
    const response = await call('POST', '/Create_grid', farm.regular.token, {}, { ngrid_name: 'G', ncompany_id: farm.companyId, nroom_id: roomId, ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it('answers 403 for another company’s company or room', async () => {
    expect((await call('POST', '/Create_grid', farm.regular.token, {}, { nx: 1, ny: 1, ngrid_name: 'G', ncompany_id: other.companyId, nroom_id: otherRoom })).status).toBe(403);
    expect((await call('POST', '/Create_grid', farm.regular.token, {}, { nx: 1, ny: 1, ngrid_name: 'G', ncompany_id: farm.companyId, nroom_id: otherRoom })).status).toBe(403);
  });
});

describe('delete_grid', () => {
  it('tombstones the grid and its boxes', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 2, 2);
    const response = await call('PUT', '/delete_grid', farm.admin.token, { grid_id: grid.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.gridDeleted });
    const row = await server.database.db.selectFrom('grids').select(['deleted_at', 'updated_by']).where('id', '=', grid.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.updated_by).toBe(farm.admin.id);
    const live = await server.database.db.selectFrom('grid_boxes').select('id').where('grid_id', '=', grid.id).where('deleted_at', 'is', null).execute();
    expect(live).toHaveLength(0);
  });

  it('answers 403 to a Regular user and for another company’s grid', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    expect((await call('PUT', '/delete_grid', farm.regular.token, { grid_id: grid.id })).status).toBe(403);
    const otherGrid = await createGrid(server, other.companyId, otherRoom, 1, 1);
    expect((await call('PUT', '/delete_grid', farm.admin.token, { grid_id: otherGrid.id })).status).toBe(403);
    expect((await call('PUT', '/delete_grid', farm.admin.token)).body).toEqual({ status: 'error', message: m.gridIdRequired });
  });
});

describe('culling', () => {
  it('culls and un-culls a box as the caller, and lists the culled ones', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 2, 1);
    const [first, second] = grid.boxIds as [number, number];
    const cull = await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: first, user_id: farm.regular.id, culled: 'true' });
    expect(cull.status).toBe(200);
    expect(cull.body).toMatchObject({ status: 'success', message: m.cullingUpdated, grid_box: { id: first, culled: true, CulledBy: farm.regular.id } });
    await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: second, user_id: farm.regular.id, culled: 1 });
    await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: second, user_id: farm.regular.id, culled: 0 });
    const listed = await call('GET', '/get_culled_gridboxes', farm.regular.token, { GridID: grid.id });
    expect(listed.body.status).toBe('success');
    expect((listed.body.grid_boxes as Box[]).map((box) => box.id)).toEqual([first]);
  });

  it('answers the spec message without a box or user, and a message for a bad flag', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    expect((await call('POST', '/update_culling_status', farm.regular.token, {}, { user_id: farm.regular.id, culled: 1 })).body).toEqual({ status: 'error', message: m.cullingRequired });
    expect((await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: grid.boxIds[0] as number, culled: 1 })).body).toEqual({ status: 'error', message: m.cullingRequired });
    expect((await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: grid.boxIds[0] as number, user_id: farm.regular.id, culled: 2 })).body).toEqual({ status: 'error', message: m.culledInvalid });
  });

  it('answers 403 for another user, another company’s box or grid', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    const colleague = await createUser(server, farm.companyId, 'Regular');
    expect((await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: grid.boxIds[0] as number, user_id: colleague.id, culled: 1 })).status).toBe(403);
    const otherGrid = await createGrid(server, other.companyId, otherRoom, 1, 1);
    expect((await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: otherGrid.boxIds[0] as number, user_id: farm.regular.id, culled: 1 })).status).toBe(403);
    expect((await call('GET', '/get_culled_gridboxes', farm.regular.token, { GridID: otherGrid.id })).status).toBe(403);
  });
});

describe('grid box names', () => {
  it('sets and clears a custom name, and lists the names', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 2, 1);
    const [first] = grid.boxIds as [number];
    const set = await call('POST', '/update_grid_box_name', farm.regular.token, {}, { GridBoxID: first, custom_name: 'Mother A' });
    expect(set.status).toBe(200);
    let names = await call('GET', '/get_gridboxes_names', farm.regular.token, { GridID: grid.id });
    expect(names.body).toEqual({
      status: 'success',
      grid_boxes: [
        { id: first, CustomName: 'Mother A', X: 1, Y: 1 },
        { id: grid.boxIds[1], CustomName: null, X: 2, Y: 1 },
      ],
    });
    await call('POST', '/update_grid_box_name', farm.regular.token, {}, { GridBoxID: first, custom_name: '' });
    names = await call('GET', '/get_gridboxes_names', farm.regular.token, { GridID: grid.id });
    expect((names.body.grid_boxes as Box[])[0]?.CustomName).toBeNull();
  });

  it('answers a message without a box, and 403 for another company’s box or grid', async () => {
    expect((await call('POST', '/update_grid_box_name', farm.regular.token, {}, { custom_name: 'x' })).body).toEqual({ status: 'error', message: m.gridBoxIdRequired });
    expect((await call('GET', '/get_gridboxes_names', farm.regular.token)).body).toEqual({ status: 'error', message: m.gridIdMissing });
    const otherGrid = await createGrid(server, other.companyId, otherRoom, 1, 1);
    expect((await call('POST', '/update_grid_box_name', farm.regular.token, {}, { GridBoxID: otherGrid.boxIds[0] as number, custom_name: 'x' })).status).toBe(403);
    expect((await call('GET', '/get_gridboxes_names', farm.regular.token, { GridID: otherGrid.id })).status).toBe(403);
  });
});

describe('get_plant_history_date', () => {
  it('groups a box’s audit events by date', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    const [box] = grid.boxIds as [number];
    await call('POST', '/update_culling_status', farm.regular.token, {}, { GridBoxID: box, user_id: farm.regular.id, culled: 1 });
    await call('POST', '/update_grid_box_name', farm.regular.token, {}, { GridBoxID: box, custom_name: 'P1' });
    const response = await call('GET', '/get_plant_history_date', farm.regular.token, { company_id: farm.companyId, Grid_boxID: box });
    expect(response.status).toBe(200);
    const history = response.body.history as Array<{ date: string; events: Array<{ EventTitle: string; GridBoxID: number }> }>;
    expect(history).toHaveLength(1);
    expect(history[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(history[0]?.events.map((event) => event.EventTitle)).toEqual(['Culled plant', 'Renamed plant to P1']);
  });

  it('answers an empty history with 200', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    const response = await call('GET', '/get_plant_history_date', farm.regular.token, { company_id: farm.companyId, Grid_boxID: grid.boxIds[0] as number });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', history: [] });
  });

  it('answers a message without the box and 403 for another company’s box', async () => {
    expect((await call('GET', '/get_plant_history_date', farm.regular.token, { company_id: farm.companyId })).body).toEqual({ status: 'error', message: m.historyRequired });
    const otherGrid = await createGrid(server, other.companyId, otherRoom, 1, 1);
    expect((await call('GET', '/get_plant_history_date', farm.regular.token, { company_id: farm.companyId, Grid_boxID: otherGrid.boxIds[0] as number })).status).toBe(403);
  });
});
