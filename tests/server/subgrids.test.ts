import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVEMENT_PAGE_MAX, subgridMessages as m } from '../../common/messages/subgrids';
import { systemActor, writer } from '../../server/db/writes';
import { createBatch, createGrid, createRoom, createTenant, createUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

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

interface Sub {
  Sub_gridboxID: number;
  ParentGridboxID: number;
  CustomName: string;
  SubX: number;
  SubY: number;
  PlantID: string | null;
  Color: string | null;
  Status: string | null;
  Content: string | null;
  ImageName: string | null;
  IsDeleted: boolean;
}
interface Movement {
  movement_id: number;
  plant_uid: string;
  sub_gridbox_id: number;
  from_parent_gridbox_id: number;
  to_parent_gridbox_id: number;
  from_position: { subx: number; suby: number };
  to_position: { subx: number; suby: number };
  movement_reason: string | null;
  notes: string | null;
  user_id: number;
}
interface BoxDocument extends PulledDocument {
  sub_gridboxes: Sub[];
}

type Query = RequestOptions['query'];
const request = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });

/** A fresh grid box of a company (each test divides its own). */
async function newBox(tenant: Tenant = farm, room = roomId) {
  const grid = await createGrid(server, tenant.companyId, tenant === farm ? room : otherRoom, 1, 1);
  return grid.boxIds[0] as number;
}

const create = (token: string, query: Query, json?: unknown, headers?: Record<string, string>) =>
  request('POST', '/create_sub_gridboxes', token, { query, ...(json === undefined ? {} : { json }), ...(headers ? { headers } : {}) });

/** Divides a box of `farm` into nx × ny sub-gridboxes as the Regular user. */
async function divide(box: number, nx: number, ny: number, extra: Query = {}) {
  const response = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx, ny, ...extra });
  expect(response.status).toBe(200);
  return response.body.sub_gridboxes as Sub[];
}

const auditTitles = async (gridBoxId: number) =>
  (await server.database.db.selectFrom('audit_events').select('event_title').where('grid_box_id', '=', gridBoxId).orderBy('id').execute()).map((row) => row.event_title);

describe('create_sub_gridboxes', () => {
  it('divides a box into nx × ny sub-gridboxes row by row, each with a plant id, and records it', async () => {
    const box = await newBox();
    const response = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx: 3, ny: 2 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.created, parent_gridbox_id: box, total_count: 6, max_allowed: 64 });
    const subs = response.body.sub_gridboxes as Sub[];
    expect(subs.map((sub) => [sub.SubX, sub.SubY])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    expect(subs[4]).toMatchObject({ ParentGridboxID: box, CustomName: 'Sub-2-2', IsDeleted: false });
    for (const sub of subs) expect(sub.PlantID).toMatch(/^P-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(subs.map((sub) => sub.PlantID)).size).toBe(6);
    expect(await auditTitles(box)).toEqual(['Created 6 sub-gridboxes']);
    const rows = await server.database.db.selectFrom('sub_gridboxes').select(['created_by', 'company_id']).where('parent_gridbox_id', '=', box).execute();
    expect(rows.every((row) => row.created_by === farm.regular.id && row.company_id === farm.companyId)).toBe(true);
  });

  it('takes x and y for nx and ny, and leaves plant ids empty when auto_initialize_plants is false', async () => {
    const box = await newBox();
    const subs = await divide(box, 0, 0, { nx: undefined, ny: undefined, x: 2, y: 1, auto_initialize_plants: 'false' });
    expect(subs.map((sub) => [sub.SubX, sub.SubY, sub.PlantID])).toEqual([
      [1, 1, null],
      [2, 1, null],
    ]);
  });

  it('creates custom positions from the JSON body, under either name, in place of nx × ny', async () => {
    const box = await newBox();
    const first = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx: 5, ny: 5 }, { custom_positions: [{ subx: 4, suby: 2 }, { subx: '1', suby: '3' }] });
    expect(first.status).toBe(200);
    expect((first.body.sub_gridboxes as Sub[]).map((sub) => [sub.SubX, sub.SubY])).toEqual([
      [4, 2],
      [1, 3],
    ]);
    const second = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id }, { customPositions: [{ subx: 2, suby: 2 }] });
    expect(second.body).toMatchObject({ status: 'success', total_count: 3 });
  });

  it('answers the spec messages and ours for bad sizes and positions', async () => {
    const box = await newBox();
    const base = { parent_gridbox_id: box, user_id: farm.regular.id };
    expect((await create(farm.regular.token, { user_id: farm.regular.id, nx: 1, ny: 1 })).body).toEqual(error(m.gridboxIdRequired));
    expect((await create(farm.regular.token, { parent_gridbox_id: box, nx: 1, ny: 1 })).body).toEqual(error(m.userIdRequired));
    expect((await create(farm.regular.token, base)).body).toEqual(error(m.sizeRequired));
    expect((await create(farm.regular.token, { ...base, nx: 2 })).body).toEqual(error(m.sizeRequired));
    expect((await create(farm.regular.token, { ...base, nx: 'two', ny: 2 })).body).toEqual(error(m.sizeRequired));
    expect((await create(farm.regular.token, base, { custom_positions: [] })).body).toEqual(error(m.sizeRequired));
    expect((await create(farm.regular.token, { ...base, nx: 0, ny: 2 })).body).toEqual(error(m.sizeInvalid));
    expect((await create(farm.regular.token, { ...base, nx: 1.5, ny: 2 })).body).toEqual(error(m.sizeInvalid));
    for (const custom of [[{ subx: 0, suby: 1 }], [{ subx: 'a', suby: 1 }], [{ subx: 1 }], [3], 'junk', { subx: 1, suby: 1 }]) {
      const response = await create(farm.regular.token, base, { custom_positions: custom });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(error(m.customPositionsInvalid));
    }
    expect(
      (
        await create(farm.regular.token, base, {
          custom_positions: [
            { subx: 1, suby: 2 },
            { subx: 1, suby: 2 },
          ],
        })
      ).body,
    ).toEqual(error(m.positionRepeated(1, 2)));
    expect((await create(farm.regular.token, { ...base, auto_initialize_plants: 'maybe', nx: 1, ny: 1 })).body).toEqual(error(m.autoInitializeInvalid));
    expect(await server.database.db.selectFrom('sub_gridboxes').select('id').where('parent_gridbox_id', '=', box).execute()).toEqual([]);
  });

  it('answers 409 for a position already taken, creating none of the request', async () => {
    const box = await newBox();
    await divide(box, 2, 1);
    const response = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id }, { custom_positions: [{ subx: 3, suby: 1 }, { subx: 2, suby: 1 }] });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ ...error(m.positionsOccupied(['2-1'])), total_count: 2, max_allowed: 64 });
    const again = await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx: 2, ny: 2 });
    expect(again.body).toEqual({ ...error(m.positionsOccupied(['1-1', '2-1'])), total_count: 2, max_allowed: 64 });
    expect((await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: box } })).body.total_count).toBe(2);
  });

  it('answers 409 with the counts beyond the company’s maximum per box', async () => {
    const tenant = await createTenant(server);
    await writer(server.database.db, systemActor(tenant.companyId)).update('companies', tenant.companyId, { max_sub_gridboxes: 4 });
    const grid = await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 1, 1);
    const box = grid.boxIds[0] as number;
    const query = { parent_gridbox_id: box, user_id: tenant.regular.id };
    expect((await create(tenant.regular.token, { ...query, nx: 3, ny: 2 })).body).toEqual({ ...error(m.limitReached(4)), total_count: 0, max_allowed: 4 });
    expect((await create(tenant.regular.token, { ...query, nx: 2, ny: 2 })).body).toMatchObject({ status: 'success', total_count: 4, max_allowed: 4 });
    const over = await create(tenant.regular.token, query, { custom_positions: [{ subx: 3, suby: 1 }] });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ ...error(m.limitReached(4)), total_count: 4, max_allowed: 4 });
  });

  it('lets one of two simultaneous divisions of a box win and answers 409 to the other', async () => {
    const box = await newBox();
    const query = { parent_gridbox_id: box, user_id: farm.regular.id, nx: 2, ny: 2 };
    const responses = await Promise.all([create(farm.regular.token, query), create(farm.regular.token, query)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const live = await server.database.db.selectFrom('sub_gridboxes').select('id').where('parent_gridbox_id', '=', box).where('deleted_at', 'is', null).execute();
    expect(live).toHaveLength(4);
  });

  it('makes one set of sub-gridboxes for a repeated request with the same Idempotency-Key', async () => {
    const box = await newBox();
    const headers = { 'Idempotency-Key': randomUUID() };
    const query = { parent_gridbox_id: box, user_id: farm.regular.id, nx: 2, ny: 2 };
    const first = await create(farm.regular.token, query, undefined, headers);
    const second = await create(farm.regular.token, query, undefined, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const rows = await server.database.db.selectFrom('sub_gridboxes').select('id').where('parent_gridbox_id', '=', box).execute();
    expect(rows).toHaveLength(4);
  });

  it('answers 403 for another company’s box or user and for a colleague’s user_id, 404 for a removed box', async () => {
    const otherBox = await newBox(other);
    expect((await create(farm.regular.token, { parent_gridbox_id: otherBox, user_id: farm.regular.id, nx: 1, ny: 1 })).status).toBe(403);
    const box = await newBox();
    expect((await create(farm.regular.token, { parent_gridbox_id: box, user_id: other.regular.id, nx: 1, ny: 1 })).status).toBe(403);
    const colleague = await createUser(server, farm.companyId, 'Regular');
    expect((await create(farm.regular.token, { parent_gridbox_id: box, user_id: colleague.id, nx: 1, ny: 1 })).status).toBe(403);
    await writer(server.database.db, systemActor(farm.companyId)).softDelete('grid_boxes', box);
    expect((await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx: 1, ny: 1 })).status).toBe(404);
  });
});

describe('get_sub_gridboxes', () => {
  it('lists the live sub-gridboxes with the parent, total_count and max_allowed; removed ones on request', async () => {
    const box = await newBox();
    const subs = await divide(box, 2, 1);
    const removed = subs[0] as Sub;
    expect((await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: removed.Sub_gridboxID } })).status).toBe(200);

    const live = await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: box } });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: 'success', total_count: 1, max_allowed: 64, parent_gridbox: { id: box, X: 1, Y: 1, RoomID: roomId } });
    expect((live.body.sub_gridboxes as Sub[]).map((sub) => sub.CustomName)).toEqual(['Sub-2-1']);

    for (const flag of ['true', '1']) {
      const all = await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: box, include_deleted: flag } });
      expect((all.body.sub_gridboxes as Sub[]).map((sub) => [sub.Sub_gridboxID, sub.IsDeleted])).toEqual([
        [removed.Sub_gridboxID, true],
        [subs[1]?.Sub_gridboxID, false],
      ]);
      expect(all.body.total_count).toBe(1);
    }
    for (const flag of ['false', '0']) {
      const some = await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: box, include_deleted: flag } });
      expect(some.body.sub_gridboxes as Sub[]).toHaveLength(1);
    }
  });

  it('answers the spec message, ours for a bad flag, and 403 for another company’s box', async () => {
    expect((await request('GET', '/get_sub_gridboxes', farm.regular.token)).body).toEqual(error(m.gridboxIdRequired));
    const box = await newBox();
    expect((await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: box, include_deleted: 'maybe' } })).body).toEqual(error(m.includeDeletedInvalid));
    expect((await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: await newBox(other) } })).status).toBe(403);
  });
});

describe('delete_sub_gridbox', () => {
  it('tombstones a sub-gridbox, answers the new count down to 0, and records it', async () => {
    const box = await newBox();
    const [first, second] = (await divide(box, 2, 1)) as [Sub, Sub];
    const response = await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: first.Sub_gridboxID } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.deleted, Sub_gridboxID: first.Sub_gridboxID, parent_gridbox_id: box, total_count: 1, max_allowed: 64 });
    const last = await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: second.Sub_gridboxID } });
    expect(last.body.total_count).toBe(0);
    const again = await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: second.Sub_gridboxID } });
    expect(again.status).toBe(404);
    const row = await server.database.db.selectFrom('sub_gridboxes').select(['deleted_at', 'updated_by']).where('id', '=', first.Sub_gridboxID).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.updated_by).toBe(farm.admin.id);
    expect(await auditTitles(box)).toEqual(['Created 2 sub-gridboxes', 'Deleted sub-gridbox Sub-1-1', 'Deleted sub-gridbox Sub-2-1']);
    // The position is free again.
    expect((await create(farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, nx: 1, ny: 1 })).status).toBe(200);
  });

  it('answers the spec message, and 403 to a Regular user and for another company’s sub-gridbox', async () => {
    expect((await request('DELETE', '/delete_sub_gridbox', farm.admin.token)).body).toEqual(error(m.subGridboxIdRequired));
    const [sub] = (await divide(await newBox(), 1, 1)) as [Sub];
    expect((await request('DELETE', '/delete_sub_gridbox', farm.regular.token, { query: { sub_gridbox_id: sub.Sub_gridboxID } })).status).toBe(403);
    const otherBox = await newBox(other);
    const otherSubs = await create(other.regular.token, { parent_gridbox_id: otherBox, user_id: other.regular.id, nx: 1, ny: 1 });
    const otherSub = (otherSubs.body.sub_gridboxes as Sub[])[0] as Sub;
    expect((await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: otherSub.Sub_gridboxID } })).status).toBe(403);
  });
});

describe('update_sub_gridbox', () => {
  it('merges only the fields sent, from the query or the JSON body, and records it', async () => {
    const box = await newBox();
    const [sub] = (await divide(box, 1, 1)) as [Sub];
    const byQuery = await request('PUT', '/update_sub_gridbox', farm.regular.token, { query: { sub_gridbox_id: sub.Sub_gridboxID, custom_name: 'Mother', color: '#00ff00' } });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toMatchObject({ status: 'success', message: m.updated, sub_gridbox: { CustomName: 'Mother', Color: '#00ff00', PlantID: sub.PlantID, Status: null } });
    const byBody = await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: sub.Sub_gridboxID, status: 'Healthy', content: 'Clone', image_name: 'a.jpg', plant_id: 'MOTHER-1' } });
    expect(byBody.body).toMatchObject({ sub_gridbox: { CustomName: 'Mother', Color: '#00ff00', Status: 'Healthy', Content: 'Clone', ImageName: 'a.jpg', PlantID: 'MOTHER-1' } });
    // The body wins over the query; a blank clears a field (the name falls back to Sub-x-y).
    const cleared = await request('PUT', '/update_sub_gridbox', farm.regular.token, { query: { sub_gridbox_id: sub.Sub_gridboxID, color: 'red' }, json: { custom_name: '', color: 'blue' } });
    expect(cleared.body).toMatchObject({ sub_gridbox: { CustomName: 'Sub-1-1', Color: 'blue', Status: 'Healthy' } });
    expect(await auditTitles(box)).toEqual(['Created 1 sub-gridboxes', 'Updated sub-gridbox Sub-1-1', 'Updated sub-gridbox Mother', 'Updated sub-gridbox Mother']);
  });

  it('answers 409 for a plant id another live plant has', async () => {
    const [first, second] = (await divide(await newBox(), 2, 1)) as [Sub, Sub];
    const response = await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: second.Sub_gridboxID, plant_id: first.PlantID } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(error(m.plantIdTaken(first.PlantID as string)));
  });

  it('answers the spec message, ours for nothing to update, and 403 for another company’s sub-gridbox', async () => {
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { query: { color: 'red' } })).body).toEqual(error(m.subGridboxIdRequired));
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: 'x', color: 'red' } })).body).toEqual(error(m.subGridboxIdRequired));
    const [sub] = (await divide(await newBox(), 1, 1)) as [Sub];
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { query: { sub_gridbox_id: sub.Sub_gridboxID } })).body).toEqual(error(m.nothingToUpdate));
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: sub.Sub_gridboxID, content: { a: 1 } } })).body).toEqual(error(m.textInvalid('content', 2000)));
    const otherBox = await newBox(other);
    const otherSub = ((await create(other.regular.token, { parent_gridbox_id: otherBox, user_id: other.regular.id, nx: 1, ny: 1 })).body.sub_gridboxes as Sub[])[0] as Sub;
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: otherSub.Sub_gridboxID, color: 'red' } })).status).toBe(403);
    expect((await request('PUT', '/update_sub_gridbox', farm.regular.token, { query: { sub_gridbox_id: otherSub.Sub_gridboxID, color: 'red' } })).status).toBe(403);
  });
});

describe('sync of sub-gridboxes inside their grid box', () => {
  it('pulls each change of a box’s sub-gridboxes inside the box’s document', async () => {
    const box = await newBox();
    const document = (documents: Map<string, BoxDocument>) => documents.get(String(box));
    const subs = await divide(box, 2, 1);
    let pulled = await pullUntil<BoxDocument>(server, farm.regular.token, 'grid_boxes', (documents) => document(documents)?.sub_gridboxes.length === 2);
    expect(document(pulled)?.sub_gridboxes.map((sub) => sub.CustomName)).toEqual(['Sub-1-1', 'Sub-2-1']);

    const [first, second] = subs as [Sub, Sub];
    await request('PUT', '/update_sub_gridbox', farm.regular.token, { json: { sub_gridbox_id: first.Sub_gridboxID, custom_name: 'Left' } });
    pulled = await pullUntil<BoxDocument>(server, farm.regular.token, 'grid_boxes', (documents) => document(documents)?.sub_gridboxes[0]?.CustomName === 'Left');
    expect(document(pulled)?.sub_gridboxes[0]?.CustomName).toBe('Left');

    await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: second.Sub_gridboxID } });
    pulled = await pullUntil<BoxDocument>(server, farm.regular.token, 'grid_boxes', (documents) => document(documents)?.sub_gridboxes.length === 1);
    expect(document(pulled)?.sub_gridboxes.map((sub) => sub.Sub_gridboxID)).toEqual([first.Sub_gridboxID]);

    const target = await newBox();
    await request('POST', '/move_plant', farm.regular.token, { json: { plant_uid: first.PlantID, target_parent_gridbox_id: target, user_id: farm.regular.id } });
    pulled = await pullUntil<BoxDocument>(
      server,
      farm.regular.token,
      'grid_boxes',
      (documents) => document(documents)?.sub_gridboxes.length === 0 && documents.get(String(target))?.sub_gridboxes.length === 1,
    );
    expect(document(pulled)?.sub_gridboxes).toEqual([]);
    expect(pulled.get(String(target))?.sub_gridboxes[0]).toMatchObject({ Sub_gridboxID: first.Sub_gridboxID, PlantID: first.PlantID, SubX: 1, SubY: 1 });
  });
});

describe('move_plant', () => {
  const move = (token: string, json: Record<string, unknown>) => request('POST', '/move_plant', token, { json });

  it('moves a plant to a named position of another box, records the move and the audit event', async () => {
    const from = await newBox();
    const to = await newBox();
    const [plant] = (await divide(from, 1, 1)) as [Sub];
    await divide(to, 2, 2);
    await request('DELETE', '/delete_sub_gridbox', farm.admin.token, {
      query: { sub_gridbox_id: ((await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: to } })).body.sub_gridboxes as Sub[])[3]?.Sub_gridboxID as number },
    });
    const response = await move(farm.regular.token, {
      plant_uid: plant.PlantID,
      target_parent_gridbox_id: to,
      user_id: farm.regular.id,
      target_position: { subx: 2, suby: 2 },
      movement_reason: 'Spacing',
      notes: 'Moved before flowering',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.moved,
      movement: {
        plant_uid: plant.PlantID,
        sub_gridbox_id: plant.Sub_gridboxID,
        from_parent_gridbox_id: from,
        to_parent_gridbox_id: to,
        from_position: { subx: 1, suby: 1 },
        to_position: { subx: 2, suby: 2 },
        movement_reason: 'Spacing',
        notes: 'Moved before flowering',
        user_id: farm.regular.id,
      },
      sub_gridbox: { Sub_gridboxID: plant.Sub_gridboxID, ParentGridboxID: to, SubX: 2, SubY: 2, PlantID: plant.PlantID },
    });
    const moves = await server.database.db.selectFrom('plant_moves').selectAll().where('plant_uid', '=', plant.PlantID as string).execute();
    expect(moves).toHaveLength(1);
    expect(moves[0]?.created_by).toBe(farm.regular.id);
    expect((await auditTitles(to)).at(-1)).toBe(`Moved plant ${plant.PlantID} to position 2-2`);
    expect((await request('GET', '/get_sub_gridboxes', farm.regular.token, { query: { parent_gridbox_id: from } })).body.total_count).toBe(0);
  });

  it('without a position takes the first free one row by row, or starts a new row when the layout is full', async () => {
    const from = await newBox();
    const plants = await divide(from, 3, 1);
    const [a, b, c] = plants as [Sub, Sub, Sub];
    const empty = await newBox();
    const first = await move(farm.regular.token, { plant_uid: a.PlantID, target_parent_gridbox_id: empty, user_id: farm.regular.id });
    expect((first.body.movement as Movement).to_position).toEqual({ subx: 1, suby: 1 });

    const holey = await newBox();
    const subs = await divide(holey, 2, 2);
    await request('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: (subs[1] as Sub).Sub_gridboxID } });
    const second = await move(farm.regular.token, { plant_uid: b.PlantID, target_parent_gridbox_id: holey, user_id: farm.regular.id });
    expect((second.body.movement as Movement).to_position).toEqual({ subx: 2, suby: 1 });
    const third = await move(farm.regular.token, { plant_uid: c.PlantID, target_parent_gridbox_id: holey, user_id: farm.regular.id });
    expect((third.body.movement as Movement).to_position).toEqual({ subx: 1, suby: 3 });
  });

  it('accepts form fields, with the position as JSON text', async () => {
    const [plant] = (await divide(await newBox(), 1, 1)) as [Sub];
    const target = await newBox();
    const response = await request('POST', '/move_plant', farm.regular.token, {
      form: { plant_uid: plant.PlantID as string, target_parent_gridbox_id: target, user_id: farm.regular.id, target_position: '{"subx":3,"suby":1}' },
    });
    expect(response.status).toBe(200);
    expect((response.body.movement as Movement).to_position).toEqual({ subx: 3, suby: 1 });
  });

  it('answers 409 for an occupied position or a full box, 400 for the position the plant is at', async () => {
    const box = await newBox();
    const [a, b] = (await divide(box, 2, 1)) as [Sub, Sub];
    const occupied = await move(farm.regular.token, { plant_uid: a.PlantID, target_parent_gridbox_id: box, user_id: farm.regular.id, target_position: { subx: 2, suby: 1 } });
    expect(occupied.status).toBe(409);
    expect(occupied.body).toEqual(error(m.targetOccupied(2, 1)));
    const same = await move(farm.regular.token, { plant_uid: b.PlantID, target_parent_gridbox_id: box, user_id: farm.regular.id, target_position: { subx: 2, suby: 1 } });
    expect(same.body).toEqual(error(m.alreadyThere));
    // Within its own box a plant may go to a free position.
    const within = await move(farm.regular.token, { plant_uid: b.PlantID, target_parent_gridbox_id: box, user_id: farm.regular.id, target_position: { subx: 1, suby: 2 } });
    expect((within.body.movement as Movement).to_position).toEqual({ subx: 1, suby: 2 });

    const tenant = await createTenant(server);
    await writer(server.database.db, systemActor(tenant.companyId)).update('companies', tenant.companyId, { max_sub_gridboxes: 1 });
    const grid = await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 2, 1);
    const [full, source] = grid.boxIds as [number, number];
    await create(tenant.regular.token, { parent_gridbox_id: full, user_id: tenant.regular.id, nx: 1, ny: 1 });
    const plant = ((await create(tenant.regular.token, { parent_gridbox_id: source, user_id: tenant.regular.id, nx: 1, ny: 1 })).body.sub_gridboxes as Sub[])[0] as Sub;
    const over = await move(tenant.regular.token, { plant_uid: plant.PlantID, target_parent_gridbox_id: full, user_id: tenant.regular.id });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ ...error(m.limitReached(1)), total_count: 1, max_allowed: 1 });
  });

  it('answers 404 for a plant the company does not have', async () => {
    const target = await newBox();
    const missing = await move(farm.regular.token, { plant_uid: 'P-NOTHERE', target_parent_gridbox_id: target, user_id: farm.regular.id });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(error(m.plantNotFound('P-NOTHERE')));
    const otherPlant = ((await create(other.regular.token, { parent_gridbox_id: await newBox(other), user_id: other.regular.id, nx: 1, ny: 1 })).body.sub_gridboxes as Sub[])[0] as Sub;
    expect((await move(farm.regular.token, { plant_uid: otherPlant.PlantID, target_parent_gridbox_id: target, user_id: farm.regular.id })).status).toBe(404);
  });

  it('answers the spec messages and ours for a bad position', async () => {
    const target = await newBox();
    const full = { plant_uid: 'P-1', target_parent_gridbox_id: target, user_id: farm.regular.id };
    expect((await move(farm.regular.token, { ...full, plant_uid: ' ' })).body).toEqual(error(m.plantUidRequired));
    expect((await move(farm.regular.token, { ...full, target_parent_gridbox_id: undefined })).body).toEqual(error(m.targetRequired));
    expect((await move(farm.regular.token, { ...full, user_id: undefined })).body).toEqual(error(m.userIdRequired));
    expect((await move(farm.regular.token, { ...full, target_position: { subx: 0, suby: 1 } })).body).toEqual(error(m.targetPositionInvalid));
    expect((await request('POST', '/move_plant', farm.regular.token)).body).toEqual(error(m.plantUidRequired));
  });

  it('answers 403 for another company’s target box and for someone else’s user_id', async () => {
    const [plant] = (await divide(await newBox(), 1, 1)) as [Sub];
    expect((await move(farm.regular.token, { plant_uid: plant.PlantID, target_parent_gridbox_id: await newBox(other), user_id: farm.regular.id })).status).toBe(403);
    expect((await move(farm.regular.token, { plant_uid: plant.PlantID, target_parent_gridbox_id: await newBox(), user_id: farm.admin.id })).status).toBe(403);
    expect((await move(farm.regular.token, { plant_uid: plant.PlantID, target_parent_gridbox_id: await newBox(), user_id: other.regular.id })).status).toBe(403);
  });
});

describe('get_company_movement_history', () => {
  let tenant: Tenant;
  let roomA: number;
  let roomB: number;
  let batchId: number;
  const plants: Sub[] = [];

  /** Moves on fixed days: two plants within room A (one of them in the batch's box), one to room B. */
  beforeAll(async () => {
    tenant = await createTenant(server);
    roomA = await createRoom(server, tenant.companyId);
    roomB = await createRoom(server, tenant.companyId);
    const gridA = await createGrid(server, tenant.companyId, roomA, 3, 1);
    const gridB = await createGrid(server, tenant.companyId, roomB, 1, 1);
    const [source, batchBox, plainBox] = gridA.boxIds as [number, number, number];
    batchId = await createBatch(server, tenant.companyId);
    await server.database.db.insertInto('batch_grid_boxes').values({ batch_id: batchId, grid_box_id: batchBox, company_id: tenant.companyId }).execute();
    const created = await create(tenant.regular.token, { parent_gridbox_id: source, user_id: tenant.regular.id, nx: 3, ny: 1 });
    plants.push(...(created.body.sub_gridboxes as Sub[]));
    const moves: Array<[Sub, number, string]> = [
      [plants[0] as Sub, batchBox, '2024-03-01T10:00:00Z'],
      [plants[1] as Sub, plainBox, '2024-03-02T23:30:00Z'],
      [plants[2] as Sub, gridB.boxIds[0] as number, '2024-03-03T00:10:00Z'],
    ];
    for (const [plant, target, at] of moves) {
      const response = await request('POST', '/move_plant', tenant.regular.token, { json: { plant_uid: plant.PlantID, target_parent_gridbox_id: target, user_id: tenant.regular.id } });
      expect(response.status).toBe(200);
      await server.database.db.updateTable('plant_moves').set({ created_at: new Date(at) }).where('id', '=', (response.body.movement as Movement).movement_id).execute();
    }
  });

  const history = (query: Query, token = tenant.regular.token) => request('GET', '/get_company_movement_history', token, { query: { company_id: tenant.companyId, ...query } });
  const uids = (response: { body: Record<string, unknown> }) => (response.body.movements as Movement[]).map((movement) => movement.plant_uid);
  const uid = (index: number) => plants[index]?.PlantID;

  it('answers the company’s moves, newest first, with the paging defaults', async () => {
    const response = await history({});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', total_count: 3, limit: 50, offset: 0, sort_by: 'moved_at', sort_order: 'desc' });
    expect(uids(response)).toEqual([uid(2), uid(1), uid(0)]);
  });

  it('filters by batch, room and inclusive days', async () => {
    expect(uids(await history({ batch_id: batchId }))).toEqual([uid(0)]);
    expect(uids(await history({ room_id: roomB }))).toEqual([uid(2)]);
    // Room A holds every source box, so all moves left it.
    expect((await history({ room_id: roomA })).body.total_count).toBe(3);
    expect(uids(await history({ start_date: '2024-03-02', end_date: '2024-03-02' }))).toEqual([uid(1)]);
    expect(uids(await history({ start_date: '2024-03-02' }))).toEqual([uid(2), uid(1)]);
    expect(uids(await history({ end_date: '2024-03-01' }))).toEqual([uid(0)]);
    expect((await history({ start_date: '2024-04-01' })).body).toMatchObject({ movements: [], total_count: 0 });
  });

  it('sorts by a listed column and pages with limit and offset, capping the page size', async () => {
    const sorted = [uid(0), uid(1), uid(2)].sort();
    expect(uids(await history({ sort_by: 'plant_uid', sort_order: 'ASC' }))).toEqual(sorted);
    const page = await history({ sort_by: 'plant_uid', sort_order: 'asc', limit: 1, offset: 1 });
    expect(page.body).toMatchObject({ total_count: 3, limit: 1, offset: 1 });
    expect(uids(page)).toEqual([sorted[1]]);
    expect((await history({ limit: 100000 })).body.limit).toBe(MOVEMENT_PAGE_MAX);
  });

  it('answers the spec message and ours for bad filters', async () => {
    expect((await request('GET', '/get_company_movement_history', tenant.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await history({ sort_by: 'id' })).body).toEqual(error(m.sortByInvalid));
    expect((await history({ sort_order: 'up' })).body).toEqual(error(m.sortOrderInvalid));
    expect((await history({ start_date: '2024-02-30' })).body).toEqual(error(m.dateInvalid('start_date')));
    expect((await history({ end_date: '03/01/2024' })).body).toEqual(error(m.dateInvalid('end_date')));
    expect((await history({ start_date: '2024-03-02', end_date: '2024-03-01' })).body).toEqual(error(m.dateRangeInvalid));
    expect((await history({ limit: 0 })).body).toEqual(error(m.limitInvalid));
    expect((await history({ offset: -1 })).body).toEqual(error(m.offsetInvalid));
    expect((await history({ batch_id: 'x' })).body).toEqual(error(m.batchIdInvalid));
    expect((await history({ room_id: 'x' })).body).toEqual(error(m.roomIdInvalid));
  });

  it('answers 403 for another company’s company, batch or room id', async () => {
    expect((await history({ company_id: other.companyId })).status).toBe(403);
    expect((await history({ batch_id: await createBatch(server, other.companyId) })).status).toBe(403);
    expect((await history({ room_id: otherRoom })).status).toBe(403);
  });
});
