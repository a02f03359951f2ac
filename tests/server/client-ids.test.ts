import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxClientId, newClientId, responseClientId, subGridboxClientId } from '../../common/client-ids';
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

describe('every create takes the client id its tablet chose, and answers it', () => {
  type Answer = { status: number; body: Record<string, unknown> };
  const post = (path: string, token: string, json: Record<string, unknown>, query: Record<string, string | number> = {}) => server.request<Record<string, unknown>>('POST', path, { token, json, query }) as Promise<Answer>;
  const stored = async (table: 'batches' | 'batch_problems' | 'custom_batch_statuses' | 'trays' | 'tray_templates' | 'grid_templates' | 'grids' | 'form_templates' | 'form_fields' | 'form_responses' | 'plant_moves', clientId: string) =>
    db().selectFrom(table).select('id').where('client_id', '=', clientId).where('company_id', '=', farm.companyId).execute();

  it('batches, their problems and custom statuses', async () => {
    const batch = newClientId();
    const created = await post('/create_batch', farm.regular.token, { BatchNumber: `C-${batch.slice(0, 8)}`, NumberOfPlants: 5, company_id: farm.companyId, client_id: batch });
    expect(created.body).toMatchObject({ status: 'success', client_id: batch });
    expect(await stored('batches', batch)).toEqual([{ id: created.body.BatchID }]);
    // Named by its client id from the next call on, as a tablet does.
    const problem = newClientId();
    const reported = await post('/grid/create_batch_problem', farm.regular.token, { batch_id: batch, problem_type: 'Thrips', severity: 2, company_id: farm.companyId, user_id: farm.regular.id, client_id: problem });
    expect(reported.body).toMatchObject({ status: 'success', client_id: problem });
    expect(await stored('batch_problems', problem)).toEqual([{ id: reported.body.problem_id }]);
    const status = newClientId();
    const added = await post('/create_custom_batch_status', farm.admin.token, { company_id: farm.companyId, status_name: `Drying ${status.slice(0, 6)}`, client_id: status });
    expect(added.body).toMatchObject({ status: 'success', client_id: status });
    expect(await stored('custom_batch_statuses', status)).toHaveLength(1);

    const again = await post('/create_batch', farm.regular.token, { BatchNumber: 'C-again', NumberOfPlants: 5, company_id: farm.companyId, client_id: batch });
    expect(again).toMatchObject({ status: 409, body: { status: 'error', message: httpMessages.clientIdTaken } });
  });

  it("a division's sub-gridboxes take ids derived from the division's and their places; a plant move its own", async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 2, 1);
    const division = newClientId();
    const divided = await post('/create_sub_gridboxes', farm.regular.token, { custom_positions: [{ subx: 1, suby: 1 }, { subx: 2, suby: 1 }] }, {
      parent_gridbox_id: grid.boxIds[0] as number,
      user_id: farm.regular.id,
      client_id: division,
    });
    expect(divided.status).toBe(200);
    const expected = [subGridboxClientId(division, 1, 1), subGridboxClientId(division, 2, 1)];
    expect(divided.body.client_ids).toEqual(expected);
    const subs = await db().selectFrom('sub_gridboxes').select(['client_id', 'plant_id']).where('parent_gridbox_id', '=', grid.boxIds[0] as number).orderBy('subx').execute();
    expect(subs.map((sub) => sub.client_id)).toEqual(expected);

    const move = newClientId();
    const moved = await post('/move_plant', farm.regular.token, { plant_uid: subs[0]?.plant_id, target_parent_gridbox_id: await clientIdOf('grid_boxes', grid.boxIds[1] as number), user_id: farm.regular.id, client_id: move });
    expect(moved.body).toMatchObject({ status: 'success', client_id: move });
    expect(await stored('plant_moves', move)).toHaveLength(1);
  });

  it('trays, tray templates and grid templates; a grid made from a template derives its boxes as Create_grid does', async () => {
    const template = newClientId();
    const made = await post('/create_tray_template', farm.admin.token, { template_name: `T ${template.slice(0, 6)}`, company_id: farm.companyId, user_id: farm.admin.id, number_of_plants: 12, client_id: template });
    expect(made.body).toMatchObject({ status: 'success', client_id: template });
    expect(await stored('tray_templates', template)).toEqual([{ id: made.body.template_id }]);
    const fromTemplate = newClientId();
    const used = await post('/use_tray_template', farm.regular.token, { template_id: template, company_id: farm.companyId, user_id: farm.regular.id, tray_name: 'From template', client_id: fromTemplate });
    expect(used.body).toMatchObject({ status: 'success', client_id: fromTemplate });
    const tray = newClientId();
    const created = await post('/create_tray', farm.regular.token, { tray_name: 'Cuttings', company_id: farm.companyId, user_id: farm.regular.id, number_of_plants: 24, client_id: tray });
    expect(created.body).toMatchObject({ status: 'success', client_id: tray });
    expect((await stored('trays', tray)).length + (await stored('trays', fromTemplate)).length).toBe(2);

    const layout = newClientId();
    const saved = await post('/create_grid_templates', farm.admin.token, { template_name: `Bench ${layout.slice(0, 6)}`, template_type: 'Grid', rows: 1, columns: 2, company_id: farm.companyId, user_id: farm.admin.id, client_id: layout });
    expect(saved.body).toMatchObject({ status: 'success', client_id: layout });
    const grid = newClientId();
    const submitted = await post('/submit_grid_template', farm.regular.token, { template_id: layout, company_id: farm.companyId, room_id: await clientIdOf('rooms', await createRoom(server, farm.companyId)), user_id: farm.regular.id, client_id: grid });
    expect(submitted.body).toMatchObject({ status: 'success', client_id: grid });
    const boxes = await db()
      .selectFrom('grid_boxes')
      .innerJoin('grid_box_client_ids', 'grid_box_client_ids.grid_box_id', 'grid_boxes.id')
      .select(['x', 'y', 'client_id'])
      .where('grid_id', '=', submitted.body.GridID as number)
      .execute();
    expect(boxes).toHaveLength(2);
    for (const box of boxes) expect(box.client_id).toBe(boxClientId(grid, box.x, box.y));
  });

  it("a form template and its fields, and the responses of the four submit calls (a multi-box submit's derived from its id)", async () => {
    const [template, checked, count] = [newClientId(), newClientId(), newClientId()];
    const saved = await post('/save_form_template', farm.admin.token, {
      templateName: `Walk ${template.slice(0, 6)}`,
      companyID: farm.companyId,
      client_id: template,
      fields: [
        { fieldName: 'Checked', fieldType: 'Text', fieldOptions: [], client_id: checked },
        { fieldName: 'Count', fieldType: 'Number', fieldOptions: [], client_id: count },
      ],
    });
    expect(saved.body).toMatchObject({ status: 'success', client_id: template });
    expect(await stored('form_templates', template)).toEqual([{ id: saved.body.template_id }]);
    expect((await stored('form_fields', checked)).map((row) => row.id)).toEqual([(saved.body.field_ids as number[])[0]]);
    const later = newClientId();
    const updated = await post('/update_form_template', farm.admin.token, { templateID: template, newFields: [{ fieldName: 'Later', fieldType: 'Text', fieldOptions: [], client_id: later }], updatedFields: [] });
    expect(updated.status).toBe(200);
    expect((await stored('form_fields', later)).map((row) => row.id)).toEqual(updated.body.new_field_ids);

    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 3, 1);
    const [box1, box2, box3] = await Promise.all(grid.boxIds.map((id) => clientIdOf('grid_boxes', id)));
    const answers = [{ fieldID: checked, inputData: 'yes' }];
    const one = newClientId();
    const single = await post('/submit_form', farm.regular.token, { submittedBy: farm.regular.id, GridBoxID: box1, fieldResponses: answers, client_id: one });
    expect(single.body).toMatchObject({ status: 'success', client_id: one });
    expect(await stored('form_responses', one)).toEqual([{ id: single.body.response_id }]);
    const several = newClientId();
    const boxes = await post('/submit_form_boxes', farm.regular.token, { submittedBy: farm.regular.id, GridBoxIDs: [box2, box3, box2], fieldResponses: answers, client_id: several });
    expect(boxes.body.client_ids).toEqual([responseClientId(several, 0), responseClientId(several, 1)]);
    expect((await stored('form_responses', responseClientId(several, 1))).map((row) => row.id)).toEqual([(boxes.body.response_ids as number[])[1]]);
    const picked = newClientId();
    const multi = await post('/submit_form_multiselect', farm.regular.token, { submittedBy: farm.regular.id, roomID: await clientIdOf('rooms', roomId), GridBoxIDs: [box3], fieldResponses: answers, client_id: picked });
    expect(multi.body).toMatchObject({ status: 'success', client_ids: [responseClientId(picked, 0)] });
    const inRoom = newClientId();
    const room = await post('/submit_form_room', farm.regular.token, { submittedBy: farm.regular.id, roomID: roomId, fieldResponses: answers, client_id: inRoom });
    expect(room.body).toMatchObject({ status: 'success', client_id: inRoom });
    expect(await stored('form_responses', inRoom)).toEqual([{ id: room.body.response_id }]);
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

  it('in a JSON array’s text in the query (a report’s room_ids), mixed with integer ids; another company’s answers 403', async () => {
    const flower = await createRoom(server, farm.companyId, 'Flower');
    const veg = await createRoom(server, farm.companyId, 'Veg');
    const ask = (roomIds: unknown[]) =>
      server.request<{ rooms: Array<{ RoomID: number }> }>('GET', '/get_trends_report_graph', {
        token: farm.regular.token,
        query: { company_id: farm.companyId, date_option: 'weeks_ago', weeks_ago: 2, room_ids: JSON.stringify(roomIds) },
      });
    const answered = await ask([await clientIdOf('rooms', flower), veg]);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.rooms.map((room) => room.RoomID).sort((one, other) => one - other)).toEqual([flower, veg].sort((one, other) => one - other));
    const theirs = await createRoom(server, other.companyId);
    expect((await ask([await clientIdOf('rooms', theirs)])).status).toBe(403);
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

  it('answers a repeat of a call already applied from its record, though the record it named by client id was deleted since', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const { id: gridId } = await createGrid(server, farm.companyId, roomId, 1, 1);
    const gridClientId = await clientIdOf('grids', gridId);
    const scan = (key: string) => server.request('POST', '/mark_grid_scanned', { token: farm.regular.token, query: { grid_id: gridClientId, user_id: farm.regular.id }, headers: { 'idempotency-key': key } });
    const pushedScan = (key: string) =>
      server.request<PushAnswer>('POST', '/sync/push', {
        token: farm.regular.token,
        json: { entries: [{ id: key, method: 'POST', path: '/mark_grid_scanned', query: { grid_id: gridClientId, user_id: farm.regular.id }, body: { kind: 'none' } }] },
      });
    const [alone, pushed] = [randomUUID(), randomUUID()];
    const first = await scan(alone);
    expect(first.status).toBe(200);
    expect((await pushedScan(pushed)).body.results.map((result) => result.status)).toEqual([200]);
    expect((await server.request('PUT', '/delete_grid', { token: farm.admin.token, query: { grid_id: gridId } })).status).toBe(200);
    // The answers were lost: the tablet sends both again, under the same keys.
    const again = await scan(alone);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await pushedScan(pushed)).body.results.map((result) => result.status)).toEqual([200]);
  });
});
