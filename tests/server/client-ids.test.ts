import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxClientId, newClientId } from '../../common/client-ids';
import { httpMessages } from '../../common/messages/http';
import type { PushAnswer } from '../../common/schemas/sync';
import { createBatch, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const db = () => server.database.db;
const clientIdOf = async (table: 'rooms' | 'grids' | 'batches' | 'grid_boxes', id: number) =>
  table === 'grid_boxes'
    ? (await db().selectFrom('grid_box_client_ids').select('client_id').where('grid_box_id', '=', id).executeTakeFirstOrThrow()).client_id
    : (await db().selectFrom(table).select('client_id').where('id', '=', id).executeTakeFirstOrThrow()).client_id;

const createRoomCall = (token: string, companyId: number, fields: Record<string, string>) =>
  server.request<{ RoomID: number; client_id: string }>('POST', '/create_room', { token, query: { company_id: companyId }, json: { description: 'Veg', ...fields } });

describe('a create stores the client id its tablet chose', () => {
  it('keeps the one given, answers it beside the integer id', async () => {
    const clientId = newClientId();
    const answer = await createRoomCall(farm.regular.token, farm.companyId, { name: 'Veg A', client_id: clientId });
    expect(answer.status).toBe(200);
    expect(answer.body.client_id).toBe(clientId);
    expect(await clientIdOf('rooms', answer.body.RoomID)).toBe(clientId);
  });

  it('gives a record made without one a new UUID v7', async () => {
    const answer = await createRoomCall(farm.regular.token, farm.companyId, { name: 'Veg B' });
    expect(answer.body.client_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await clientIdOf('rooms', answer.body.RoomID)).toBe(answer.body.client_id);
  });

  it('refuses a client id that is not a UUID, and one the company already uses, in the envelope', async () => {
    expect((await createRoomCall(farm.regular.token, farm.companyId, { name: 'Veg C', client_id: 'tmp-1' })).body).toEqual({ status: 'error', message: httpMessages.clientIdInvalid });
    const clientId = newClientId();
    expect((await createRoomCall(farm.regular.token, farm.companyId, { name: 'Veg D', client_id: clientId })).status).toBe(200);
    const again = await createRoomCall(farm.regular.token, farm.companyId, { name: 'Veg E', client_id: clientId });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ status: 'error', message: httpMessages.clientIdTaken });
    expect(await db().selectFrom('rooms').select('id').where('name', '=', 'Veg E').execute()).toEqual([]);
  });

  it("derives a new grid's boxes' client ids from the grid's and their positions", async () => {
    const roomId = await createRoom(server, farm.companyId);
    const gridClientId = newClientId();
    const answer = await server.request<{ GridID: number; client_id: string }>('POST', '/Create_grid', {
      token: farm.regular.token,
      json: { ncompany_id: farm.companyId, nroom_id: roomId, ngrid_name: 'G1', nx: 2, ny: 3, client_id: gridClientId },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.client_id).toBe(gridClientId);
    const boxes = await db()
      .selectFrom('grid_boxes')
      .innerJoin('grid_box_client_ids', 'grid_box_client_ids.grid_box_id', 'grid_boxes.id')
      .select(['x', 'y', 'client_id'])
      .where('grid_id', '=', answer.body.GridID)
      .execute();
    expect(boxes).toHaveLength(6);
    for (const box of boxes) expect(box.client_id).toBe(boxClientId(gridClientId, box.x, box.y));
  });
});

describe('a parameter that names a record takes its client id', () => {
  it('in the body: a grid in a room named by its client id, a cull of a box named by its derived id', async () => {
    const room = await createRoomCall(farm.regular.token, farm.companyId, { name: 'Flower 1', client_id: newClientId() });
    const gridClientId = newClientId();
    const grid = await server.request<{ GridID: number }>('POST', '/Create_grid', {
      token: farm.regular.token,
      json: { ncompany_id: farm.companyId, nroom_id: room.body.client_id, ngrid_name: 'G2', nx: 2, ny: 2, client_id: gridClientId },
    });
    expect(grid.status).toBe(200);
    expect((await db().selectFrom('grids').select('room_id').where('id', '=', grid.body.GridID).executeTakeFirstOrThrow()).room_id).toBe(room.body.RoomID);
    const cull = await server.request('POST', '/update_culling_status', {
      token: farm.regular.token,
      json: { GridBoxID: boxClientId(gridClientId, 2, 1), user_id: farm.regular.id, culled: 1 },
    });
    expect(cull.status).toBe(200);
    const box = await db().selectFrom('grid_boxes').select(['culled', 'x', 'y']).where('grid_id', '=', grid.body.GridID).where('culled', '=', true).execute();
    expect(box).toEqual([{ culled: true, x: 2, y: 1 }]);
  });

  it('in the query and in a list, mixed with integer ids', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const { id: gridId, boxIds } = await createGrid(server, farm.companyId, roomId, 3, 1);
    const batchId = await createBatch(server, farm.companyId);
    const [first, second, third] = boxIds as [number, number, number];
    const linked = await server.request('POST', '/link_gridbox_batch', {
      token: farm.regular.token,
      json: { batch_id: await clientIdOf('batches', batchId), grid_box_ids: [first, await clientIdOf('grid_boxes', second), await clientIdOf('grid_boxes', third)] },
    });
    expect(linked.status).toBe(200);
    const links = await db().selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).orderBy('grid_box_id').execute();
    expect(links.map((link) => link.grid_box_id)).toEqual([first, second, third]);
    const deleted = await server.request('PUT', '/delete_grid', { token: farm.admin.token, query: { grid_id: await clientIdOf('grids', gridId) } });
    expect(deleted.status).toBe(200);
  });

  it("answers 403 for another company's record and 404 for a client id that names nothing", async () => {
    const theirs = await createRoomCall(other.regular.token, other.companyId, { name: 'Theirs', client_id: newClientId() });
    const intoTheirs = await server.request('POST', '/Create_grid', {
      token: farm.regular.token,
      json: { ncompany_id: farm.companyId, nroom_id: theirs.body.client_id, ngrid_name: 'G3', nx: 1, ny: 1 },
    });
    expect(intoTheirs.status).toBe(403);
    expect(intoTheirs.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    const nowhere = randomUUID();
    const missing = await server.request('GET', '/get_room_scroll', { token: farm.regular.token, query: { company_id: farm.companyId, room_id: nowhere } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 'error', message: httpMessages.recordNotFound(`room ${nowhere}`) });
  });

  it('lets one push carry a create and the changes that name what it made', async () => {
    const roomClientId = newClientId();
    const gridClientId = newClientId();
    const entries = [
      { id: randomUUID(), method: 'POST', path: '/create_room', query: { company_id: farm.companyId }, body: { kind: 'json', data: { name: 'Pushed room', description: 'x', client_id: roomClientId } } },
      {
        id: randomUUID(),
        method: 'POST',
        path: '/Create_grid',
        body: { kind: 'json', data: { ncompany_id: farm.companyId, nroom_id: roomClientId, ngrid_name: 'Pushed grid', nx: 2, ny: 1, client_id: gridClientId } },
      },
      { id: randomUUID(), method: 'POST', path: '/update_culling_status', body: { kind: 'json', data: { GridBoxID: boxClientId(gridClientId, 1, 1), user_id: farm.regular.id, culled: 1 } } },
    ];
    const answer = await server.request<PushAnswer>('POST', '/sync/push', { token: farm.regular.token, json: { entries } });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.status)).toEqual([200, 200, 200]);
    const box = await db()
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .innerJoin('rooms', 'rooms.id', 'grids.room_id')
      .innerJoin('grid_box_client_ids', 'grid_box_client_ids.grid_box_id', 'grid_boxes.id')
      .select(['grid_boxes.culled', 'rooms.client_id'])
      .where('grid_box_client_ids.client_id', '=', boxClientId(gridClientId, 1, 1))
      .executeTakeFirstOrThrow();
    expect(box).toEqual({ culled: true, client_id: roomClientId });
  });
});
