import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BATCH_STATUSES } from '../../common/batch-statuses';
import { batchMessages as m } from '../../common/messages/batches';
import type { BatchDocument as BatchAnswerDocument } from '../../common/schemas/batches';
import { createBatch, createGrid, createRoom, createTenant, createUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
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

/** A batch as these calls answer it: named by the server's integer id (they do not ask for the tablet's naming). */
type BatchDocument = Omit<BatchAnswerDocument, 'BatchID'> & { BatchID: number };

// Responses are read loosely: each test names the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request<Body>(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });

let counter = 0;
const batchNumber = () => `B-${Date.now().toString(36)}-${(counter += 1)}`;

async function newBatch(tenant: Tenant, form: Record<string, string | number> = {}) {
  const response = await call('POST', '/create_batch', tenant.regular.token, {
    form: { BatchNumber: batchNumber(), NumberOfPlants: 24, StrainName: 'Blue Dream', BatchStatus: 'Vegetative', Color: '#4caf50', company_id: tenant.companyId, ...form },
  });
  expect(response.status).toBe(200);
  return response.body.batch as BatchDocument;
}

const auditTitles = async (batchId: number) =>
  (await server.database.db.selectFrom('audit_events').select('event_title').where('batch_id', '=', batchId).orderBy('id').execute()).map((event) => event.event_title);

describe('create_batch', () => {
  it('creates a batch from the multipart form, with its history and an audit event', async () => {
    const number = batchNumber();
    const response = await call('POST', '/create_batch', farm.regular.token, {
      form: { BatchNumber: number, NumberOfPlants: '48', StrainName: 'Gelato', BatchStatus: 'flowering', Color: '#ff9800', company_id: farm.companyId, StartDate: '2026-03-01', EndDate: 'null' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.created,
      batch: { BatchNumber: number, NumberOfPlants: 48, StrainName: 'Gelato', BatchStatus: 'Flowering', Color: '#ff9800', StartDate: '2026-03-01', EndDate: null, RoomIDs: [], GridBoxIDs: [], open_problems: 0 },
    });
    expect(response.body.batch.history).toEqual([expect.objectContaining({ kind: 'created' })]);
    expect(await auditTitles(response.body.BatchID)).toEqual([`Created batch ${number}`]);
  });

  it('starts a batch without a status at Propagation', async () => {
    const batch = await newBatch(farm, { BatchStatus: '' });
    expect(batch.BatchStatus).toBe('Propagation');
  });

  it.each([
    ['no BatchNumber', { BatchNumber: ' ' }, m.batchNumberRequired],
    ['no NumberOfPlants', { NumberOfPlants: '' }, m.numberOfPlantsInvalid],
    ['a negative NumberOfPlants', { NumberOfPlants: -3 }, m.numberOfPlantsInvalid],
    ['a fractional NumberOfPlants', { NumberOfPlants: 2.5 }, m.numberOfPlantsInvalid],
    ['a StartDate that is not yyyy-mm-dd', { StartDate: '03/01/2026' }, m.dateInvalid('StartDate')],
    ['an EndDate that does not exist', { EndDate: '2026-02-30' }, m.dateInvalid('EndDate')],
    ['an EndDate before the StartDate', { StartDate: '2026-05-01', EndDate: '2026-04-01' }, m.endBeforeStart],
    ['an unknown status', { BatchStatus: 'Sleeping' }, m.unknownStatus('Sleeping')],
    ['a colour that is not one', { Color: 'url(x)' }, m.colorInvalid],
  ])('answers 400 for %s', async (_case, fields, message) => {
    const response = await call('POST', '/create_batch', farm.regular.token, {
      form: { BatchNumber: batchNumber(), NumberOfPlants: 10, company_id: farm.companyId, ...fields },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers the company_id message without one, and 403 for another company', async () => {
    expect((await call('POST', '/create_batch', farm.regular.token, { form: { BatchNumber: 'x', NumberOfPlants: 1 } })).body).toEqual(error(m.companyIdRequired));
    const response = await call('POST', '/create_batch', farm.regular.token, { form: { BatchNumber: 'x', NumberOfPlants: 1, company_id: other.companyId } });
    expect(response.status).toBe(403);
  });

  it('refuses a batch number the company already uses (any case), but another company may use it', async () => {
    const batch = await newBatch(farm);
    const again = await call('POST', '/create_batch', farm.admin.token, { form: { BatchNumber: batch.BatchNumber.toLowerCase(), NumberOfPlants: 1, company_id: farm.companyId } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error(m.duplicateBatchNumber(batch.BatchNumber.toLowerCase())));
    const elsewhere = await call('POST', '/create_batch', other.regular.token, { form: { BatchNumber: batch.BatchNumber, NumberOfPlants: 1, company_id: other.companyId } });
    expect(elsewhere.status).toBe(200);
  });

  it('makes one batch for a repeated request with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const form = { BatchNumber: batchNumber(), NumberOfPlants: 5, company_id: farm.companyId };
    const first = await call('POST', '/create_batch', farm.regular.token, { form, headers: { 'Idempotency-Key': key } });
    const second = await call('POST', '/create_batch', farm.regular.token, { form, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.BatchID).toBe(first.body.BatchID);
    const rows = await server.database.db.selectFrom('batches').select('id').where('batch_number', '=', form.BatchNumber).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('get_batches, update_batches and delete_batches', () => {
  it('lists the company’s batches as documents, and nothing of another company', async () => {
    const tenant = await createTenant(server);
    const first = await newBatch(tenant);
    const second = await newBatch(tenant);
    await newBatch(other);
    const response = await call('GET', '/get_batches', tenant.regular.token, { query: { company_id: tenant.companyId } });
    expect(response.body.status).toBe('success');
    expect(response.body.batches.map((batch: BatchDocument) => batch.BatchID)).toEqual([first.BatchID, second.BatchID]);
    expect((await call('GET', '/get_batches', tenant.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await call('GET', '/get_batches', tenant.regular.token, { query: { company_id: other.companyId } })).status).toBe(403);
  });

  it('changes only the supplied fields and records a status change in the history', async () => {
    const batch = await newBatch(farm, { StartDate: '2026-01-10' });
    const response = await call('PUT', '/update_batches', farm.regular.token, {
      query: { batch_id: batch.BatchID, company_id: farm.companyId },
      form: { NumberOfPlants: 30, BatchStatus: 'Flowering' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      message: m.updated,
      batch: { BatchNumber: batch.BatchNumber, NumberOfPlants: 30, StrainName: 'Blue Dream', BatchStatus: 'Flowering', StartDate: '2026-01-10', Color: '#4caf50' },
    });
    expect(response.body.batch.history.map((event: { kind: string }) => event.kind)).toEqual(['created', 'status']);
    expect(await auditTitles(batch.BatchID)).toContain(`Updated batch ${batch.BatchNumber}`);
  });

  it('answers the update messages', async () => {
    const batch = await newBatch(farm, { StartDate: '2026-01-10' });
    const update = (form: Record<string, string | number>, query: Record<string, number> = { batch_id: batch.BatchID, company_id: farm.companyId }) =>
      call('PUT', '/update_batches', farm.regular.token, { query, form });
    expect((await update({ EndDate: '2026-01-01' })).body).toEqual(error(m.endBeforeStart));
    expect((await update({ BatchStatus: 'Nope' })).body).toEqual(error(m.unknownStatus('Nope')));
    expect((await update({ NumberOfPlants: 'many' })).body).toEqual(error(m.numberOfPlantsInvalid));
    expect((await update({ NumberOfPlants: 1 }, { company_id: farm.companyId } as never)).body).toEqual(error(m.batchIdRequired));
    const otherBatch = await createBatch(server, other.companyId);
    expect((await update({ NumberOfPlants: 1 }, { batch_id: otherBatch, company_id: farm.companyId })).status).toBe(403);
  });

  it('lets an Admin delete a batch: it leaves the lists and is tombstoned in the pull', async () => {
    const batch = await newBatch(farm);
    const query = { batch_id: batch.BatchID, company_id: farm.companyId };
    expect((await call('DELETE', '/delete_batches', farm.regular.token, { query })).status).toBe(403);
    const response = await call('DELETE', '/delete_batches', farm.admin.token, { query });
    expect(response.body).toEqual({ status: 'success', message: m.deleted, BatchID: batch.BatchID });
    const listed = await call('GET', '/get_batches', farm.regular.token, { query: { company_id: farm.companyId } });
    expect(listed.body.batches.map((listedBatch: BatchDocument) => listedBatch.BatchID)).not.toContain(batch.BatchID);
    expect((await call('DELETE', '/delete_batches', farm.admin.token, { query })).status).toBe(404);
    const pulled = await pullUntil(server, farm.regular.token, 'batches', (documents) => documents.get(String(batch.BatchID))?._deleted === true);
    expect(pulled.get(String(batch.BatchID))?._deleted).toBe(true);
    expect(await auditTitles(batch.BatchID)).toContain(`Deleted batch ${batch.BatchNumber}`);
  });
});

describe('links between batches and rooms, grids and grid boxes', () => {
  it('links a room, a grid and boxes; the lookups and the synced document show them', async () => {
    const batch = await newBatch(farm);
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 3, 1);
    const [box1, box2] = grid.boxIds as [number, number];

    const room = await call('POST', '/link_room_batch', farm.regular.token, { query: { room_id: roomId, batch_id: batch.BatchID } });
    expect(room.body).toEqual({ status: 'success', message: m.linkedToRoom, batch_id: batch.BatchID, room_id: roomId });
    const gridLink = await call('POST', '/link_grid_batch', farm.regular.token, { query: { grid_id: grid.id, batch_id: batch.BatchID } });
    expect(gridLink.body.message).toBe(m.linkedToGrid);
    const boxes = await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: [box1, box2, box1] } });
    expect(boxes.body).toMatchObject({ status: 'success', message: m.linkedToBoxes, grid_box_ids: [box1, box2], newly_linked: [box1, box2] });
    // Linking again changes nothing and records nothing new.
    const again = await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: [box1] } });
    expect(again.body.newly_linked).toEqual([]);

    const rooms = await call('GET', '/get_linked_rooms_batches', farm.regular.token, { query: { batch_id: batch.BatchID } });
    expect(rooms.body).toMatchObject({ linked: true, links: [{ room_id: roomId, batch_id: batch.BatchID, batch_number: batch.BatchNumber }] });
    const grids = await call('GET', '/get_linked_grids_batches', farm.regular.token, { query: { grid_id: grid.id, batch_id: batch.BatchID } });
    expect(grids.body).toMatchObject({ linked: true, links: [{ grid_id: grid.id, room_id: roomId }] });
    const linkedBoxes = await call('GET', '/get_linked_gridboxes_batches', farm.regular.token, { query: { grid_box_id: box2 } });
    expect(linkedBoxes.body).toMatchObject({ linked: true, links: [{ grid_box_id: box2, batch_id: batch.BatchID, x: 2, y: 1 }] });
    const none = await call('GET', '/get_linked_gridboxes_batches', farm.regular.token, { query: { grid_box_id: grid.boxIds[2] as number } });
    expect(none.body).toEqual({ status: 'success', linked: false, links: [] });

    const history = await server.database.db.selectFrom('audit_events').select(['event_title', 'grid_box_id']).where('batch_id', '=', batch.BatchID).where('grid_box_id', 'is not', null).execute();
    expect(history.map((event) => event.grid_box_id).sort()).toEqual([box1, box2].sort());

    const pulled = await pullUntil<PulledDocument & BatchDocument>(server, farm.regular.token, 'batches', (documents) => (documents.get(String(batch.BatchID))?.GridBoxIDs.length ?? 0) === 2);
    expect(pulled.get(String(batch.BatchID))).toMatchObject({ RoomIDs: [roomId], GridIDs: [grid.id], GridBoxIDs: [box1, box2] });
    type BoxDocument = PulledDocument & { BatchIDs: number[] };
    const boxDocuments = await pullUntil<BoxDocument>(server, farm.regular.token, 'grid_boxes', (documents) => documents.get(String(box2))?.BatchIDs.length === 1);
    expect(boxDocuments.get(String(box1))?.BatchIDs).toEqual([batch.BatchID]);
    expect(boxDocuments.get(String(grid.boxIds[2]))?.BatchIDs).toEqual([]);
  });

  it('answers the link messages', async () => {
    const batch = await newBatch(farm);
    expect((await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: [] } })).body).toEqual(error(m.gridBoxLinkInvalid));
    expect((await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { grid_box_ids: [1] } })).body).toEqual(error(m.gridBoxLinkInvalid));
    expect((await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID } })).body).toEqual(error(m.gridBoxLinkInvalid));
    expect((await call('POST', '/link_room_batch', farm.regular.token, { query: { batch_id: batch.BatchID } })).body).toEqual(error(m.roomIdRequired));
    expect((await call('POST', '/link_grid_batch', farm.regular.token, { query: { batch_id: batch.BatchID } })).body).toEqual(error(m.gridIdRequired));
    expect((await call('POST', '/link_room_batch', farm.regular.token, { query: { room_id: 1 } })).body).toEqual(error(m.batchIdRequired));
    expect((await call('GET', '/get_linked_rooms_batches', farm.regular.token)).body).toEqual(error(m.linkedRoomOrBatchRequired));
    expect((await call('GET', '/get_linked_grids_batches', farm.regular.token)).body).toEqual(error(m.linkedGridOrBatchRequired));
    expect((await call('GET', '/get_linked_gridboxes_batches', farm.regular.token)).body).toEqual(error(m.linkedBoxOrBatchRequired));
  });

  it('answers 403 for another company’s batch, room, grid or boxes', async () => {
    const batch = await newBatch(farm);
    const theirRoom = await createRoom(server, other.companyId);
    const theirGrid = await createGrid(server, other.companyId, theirRoom, 1, 1);
    const theirBatch = await createBatch(server, other.companyId);
    const token = farm.regular.token;
    expect((await call('POST', '/link_room_batch', token, { query: { room_id: theirRoom, batch_id: batch.BatchID } })).status).toBe(403);
    expect((await call('POST', '/link_grid_batch', token, { query: { grid_id: theirGrid.id, batch_id: batch.BatchID } })).status).toBe(403);
    expect((await call('POST', '/link_gridbox_batch', token, { json: { batch_id: batch.BatchID, grid_box_ids: theirGrid.boxIds } })).status).toBe(403);
    expect((await call('GET', '/get_linked_rooms_batches', token, { query: { batch_id: theirBatch } })).status).toBe(403);
    expect((await call('GET', '/get_linked_grids_batches', token, { query: { grid_id: theirGrid.id } })).status).toBe(403);
    expect((await call('GET', '/get_linked_gridboxes_batches', token, { query: { grid_box_id: theirGrid.boxIds[0] as number } })).status).toBe(403);
    expect((await call('GET', '/get_batches_by_room', token, { query: { room_id: theirRoom } })).status).toBe(403);
    expect((await call('GET', '/get_rooms_by_batch', token, { query: { batch_id: theirBatch } })).status).toBe(403);
  });

  it('finds a room’s batches and a batch’s rooms through room, grid and box links', async () => {
    const roomA = await createRoom(server, farm.companyId);
    const roomB = await createRoom(server, farm.companyId);
    const gridB = await createGrid(server, farm.companyId, roomB, 2, 1);
    const direct = await newBatch(farm);
    const viaBox = await newBatch(farm);
    await call('POST', '/link_room_batch', farm.regular.token, { query: { room_id: roomA, batch_id: direct.BatchID } });
    await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: viaBox.BatchID, grid_box_ids: [gridB.boxIds[0]] } });
    await call('POST', '/link_room_batch', farm.regular.token, { query: { room_id: roomA, batch_id: viaBox.BatchID } });

    const inA = await call('GET', '/get_batches_by_room', farm.regular.token, { query: { room_id: roomA } });
    expect(inA.body.batches.map((batch: BatchDocument) => batch.BatchID)).toEqual([direct.BatchID, viaBox.BatchID]);
    const inB = await call('GET', '/get_batches_by_room', farm.regular.token, { query: { room_id: roomB } });
    expect(inB.body.batches.map((batch: BatchDocument) => batch.BatchID)).toEqual([viaBox.BatchID]);
    expect((await call('GET', '/get_batches_by_room', farm.regular.token)).body).toEqual(error(m.roomIdRequired));

    const rooms = await call('GET', '/get_rooms_by_batch', farm.regular.token, { query: { batch_id: viaBox.BatchID } });
    expect(rooms.body).toMatchObject({ status: 'success', message: m.roomsOfBatch });
    expect(rooms.body.data.map((room: { RoomID: number }) => room.RoomID)).toEqual([roomA, roomB]);
    expect((await call('GET', '/get_rooms_by_batch', farm.regular.token)).body).toEqual(error('batch_id is required.'));
  });
});

describe('batch QR codes', () => {
  it('encodes the batch-info address: a data URL at the asked size (256 by default) and a PNG to download', async () => {
    const batch = await newBatch(farm);
    const url = `${server.config.publicUrl}/dashboard/batch-info/${batch.BatchID}`;
    const small = await call('GET', `/batch_qr_url/${batch.BatchID}`, farm.regular.token, { query: { company_id: farm.companyId } });
    expect(small.body).toMatchObject({ status: 'success', batch_id: batch.BatchID, url, size: 256 });
    expect(small.body.qr_code_url).toBe(await QRCode.toDataURL(url, { width: 256, margin: 2, errorCorrectionLevel: 'M' }));
    const large = await call('GET', `/batch_qr_url/${batch.BatchID}`, farm.regular.token, { query: { company_id: farm.companyId, size: 512 } });
    expect(large.body.size).toBe(512);
    expect((await call('GET', `/batch_qr_url/${batch.BatchID}`, farm.regular.token, { query: { company_id: farm.companyId, size: 10 } })).body).toEqual(error(m.qrSizeInvalid));

    const response = await fetch(`${server.url}/api/batch_qr/${batch.BatchID}?company_id=${farm.companyId}`, { headers: { authorization: `Bearer ${farm.regular.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png).toEqual(await QRCode.toBuffer(url, { type: 'png', width: 512, margin: 2, errorCorrectionLevel: 'M' }));

    const info = await call('GET', `/batch_qr_info/${batch.BatchID}`, farm.regular.token, { query: { company_id: farm.companyId } });
    expect(info.body).toMatchObject({ status: 'success', url, batch: { BatchID: batch.BatchID, BatchNumber: batch.BatchNumber }, rooms: [] });
  });

  it('needs the company id, and answers 403 for another company’s batch', async () => {
    const theirBatch = await createBatch(server, other.companyId);
    for (const path of ['/batch_qr_url', '/batch_qr', '/batch_qr_info']) {
      expect((await call('GET', `${path}/${theirBatch}`, farm.regular.token, { query: { company_id: farm.companyId } })).status).toBe(403);
      expect((await call('GET', `${path}/${theirBatch}`, farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    }
  });
});

describe('get_batch_dashboard', () => {
  it('answers batch_details: plants, places, open problems, dates and status', async () => {
    const batch = await newBatch(farm, { StartDate: '2026-01-01', EndDate: '2026-01-31', NumberOfPlants: 12 });
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 2);
    await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: grid.boxIds } });
    await call('POST', '/update_culling_status', farm.regular.token, { form: { GridBoxID: grid.boxIds[0] as number, user_id: farm.regular.id, culled: 1 } });
    await call('POST', '/grid/create_batch_problem', farm.regular.token, {
      json: { batch_id: batch.BatchID, problem_type: 'Powdery mildew', severity: 3, company_id: farm.companyId, user_id: farm.regular.id, room_id: roomId },
    });
    const response = await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { company_id: farm.companyId, batch_id: batch.BatchID } });
    expect(response.status).toBe(200);
    expect(response.body.batch_details).toMatchObject({
      BatchID: batch.BatchID,
      status: 'Vegetative',
      plants: { planned: 12, positions: 4, culled: 1 },
      rooms: [{ RoomID: roomId }],
      open_problems: 1,
      dates: { start_date: '2026-01-01', end_date: '2026-01-31', days_in_cultivation: 30 },
    });
    expect(response.body.batch_details.grid_boxes).toHaveLength(4);
    expect(response.body.batch_details.problems).toHaveLength(1);
    const narrowed = await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { company_id: farm.companyId, batch_id: batch.BatchID, start_date: '2000-01-01', end_date: '2000-01-02' } });
    expect(narrowed.body.batch_details).toMatchObject({ open_problems: 1, problems: [], history: [] });
  });

  it('answers its messages and 403 for another company’s batch', async () => {
    const batch = await newBatch(farm);
    expect((await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { company_id: farm.companyId } })).body).toEqual(error(m.batchIdRequired));
    expect((await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { batch_id: batch.BatchID } })).body).toEqual(error(m.companyIdRequired));
    expect((await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { company_id: farm.companyId, batch_id: batch.BatchID, start_date: 'June' } })).body).toEqual(error(m.dateRangeInvalid));
    const theirs = await createBatch(server, other.companyId);
    expect((await call('GET', '/get_batch_dashboard', farm.regular.token, { query: { company_id: farm.companyId, batch_id: theirs } })).status).toBe(403);
  });
});

describe('harvest_batch, move_plants and get_batch_history_by_room', () => {
  it('harvests a batch once, as the caller', async () => {
    const batch = await newBatch(farm);
    const query = { batch_id: batch.BatchID, company_id: farm.companyId, user_id: farm.regular.id };
    const colleague = await createUser(server, farm.companyId, 'Regular');
    expect((await call('POST', '/harvest_batch', farm.regular.token, { query: { ...query, user_id: colleague.id } })).status).toBe(403);
    const response = await call('POST', '/harvest_batch', farm.regular.token, { query });
    expect(response.body).toMatchObject({ status: 'success', message: m.harvested, batch: { BatchStatus: 'Harvested', EndDate: new Date().toISOString().slice(0, 10) } });
    expect(response.body.batch.history.at(-1)).toMatchObject({ kind: 'harvested' });
    const again = await call('POST', '/harvest_batch', farm.regular.token, { query });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error(m.alreadyHarvested));
    expect((await call('POST', '/harvest_batch', farm.regular.token, { query: { batch_id: batch.BatchID, company_id: farm.companyId } })).body).toEqual(error(m.userIdRequired));
    expect(await auditTitles(batch.BatchID)).toContain(`Harvested batch ${batch.BatchNumber}`);
  });

  it('moves a batch between rooms with its links there, and both rooms’ histories show it', async () => {
    const batch = await newBatch(farm);
    const from = await createRoom(server, farm.companyId);
    const to = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, from, 2, 1);
    await call('POST', '/link_room_batch', farm.regular.token, { query: { room_id: from, batch_id: batch.BatchID } });
    await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: grid.boxIds } });

    const response = await call('POST', '/move_plants', farm.regular.token, { query: { batch_id: batch.BatchID, old_room_id: from, new_room_id: to } });
    expect(response.body).toMatchObject({ status: 'success', message: m.moved, batch: { RoomIDs: [to], GridBoxIDs: [] } });
    expect(response.body.batch.history.at(-1)).toMatchObject({ kind: 'moved', from_room_id: from, to_room_id: to });

    for (const roomId of [from, to]) {
      const history = await call('POST', '/get_batch_history_by_room', farm.regular.token, { json: { room_id: roomId } });
      expect(history.body.history.filter((event: { batch_id: number }) => event.batch_id === batch.BatchID).map((event: { kind: string }) => event.kind)).toEqual(
        roomId === from ? ['linked_room', 'moved'] : ['moved'],
      );
    }
    const byQuery = await call('POST', '/get_batch_history_by_room', farm.regular.token, { query: { room_id: to } });
    expect(byQuery.body.history).toHaveLength(1);
  });

  it('answers the move and history messages, and 403 for another company’s room', async () => {
    const batch = await newBatch(farm);
    const [a, b] = [await createRoom(server, farm.companyId), await createRoom(server, farm.companyId)];
    const move = (query: Record<string, number>) => call('POST', '/move_plants', farm.regular.token, { query });
    expect((await move({ batch_id: batch.BatchID, old_room_id: a, new_room_id: a })).body).toEqual(error(m.sameRoom));
    expect((await move({ batch_id: batch.BatchID, old_room_id: a, new_room_id: b })).body).toEqual(error(m.notInOldRoom));
    expect((await move({ batch_id: batch.BatchID, new_room_id: b })).body).toEqual(error(m.oldRoomRequired));
    expect((await move({ batch_id: batch.BatchID, old_room_id: a })).body).toEqual(error(m.newRoomRequired));
    expect((await move({ old_room_id: a, new_room_id: b })).body).toEqual(error(m.batchIdRequired));
    const theirRoom = await createRoom(server, other.companyId);
    expect((await move({ batch_id: batch.BatchID, old_room_id: a, new_room_id: theirRoom })).status).toBe(403);
    expect((await call('POST', '/get_batch_history_by_room', farm.regular.token, { json: {} })).body).toEqual(error(m.roomIdRequired));
    expect((await call('POST', '/get_batch_history_by_room', farm.regular.token, { json: { room_id: theirRoom } })).status).toBe(403);
  });
});

describe('batch statuses', () => {
  it('offers the built-in statuses and the company’s own, which an Admin adds and removes', async () => {
    const tenant = await createTenant(server);
    const create = (token: string, fields: Record<string, string | number>) => call('POST', '/create_custom_batch_status', token, { query: fields });
    expect((await create(tenant.regular.token, { company_id: tenant.companyId, status_name: 'Mothers' })).status).toBe(403);
    const created = await create(tenant.admin.token, { company_id: tenant.companyId, status_name: 'Mothers' });
    expect(created.body).toMatchObject({ status: 'success', message: m.customStatusCreated, custom_status: { status_name: 'Mothers' } });
    // The body works as well as the query.
    expect((await call('POST', '/create_custom_batch_status', tenant.admin.token, { json: { company_id: tenant.companyId, status_name: 'Clones' } })).status).toBe(200);
    expect((await create(tenant.admin.token, { company_id: tenant.companyId, status_name: 'mothers' })).body).toEqual(error(m.customStatusExists('mothers')));
    expect((await create(tenant.admin.token, { company_id: tenant.companyId, status_name: 'Flowering' })).status).toBe(409);

    const listed = await call('GET', '/get_custom_batch_statuses', tenant.regular.token, { query: { company_id: tenant.companyId } });
    expect(listed.body.custom_statuses.map((status: { status_name: string }) => status.status_name)).toEqual(['Clones', 'Mothers']);
    expect(listed.body.built_in_statuses).toEqual([...BUILT_IN_BATCH_STATUSES]);
    // The company's synced document carries them, for the status pickers offline.
    type CompanyDocument = PulledDocument & { custom_batch_statuses: Array<{ status_name: string }> };
    const statusNames = (documents: Map<string, CompanyDocument>) => documents.get(String(tenant.companyId))?.custom_batch_statuses.map((status) => status.status_name) ?? [];
    const company = await pullUntil<CompanyDocument>(server, tenant.regular.token, 'company', (documents) => statusNames(documents).length === 2);
    expect(statusNames(company)).toEqual(['Clones', 'Mothers']);

    const batch = await newBatch(tenant, { BatchStatus: 'Mothers' });
    expect(batch.BatchStatus).toBe('Mothers');
    const removed = await call('DELETE', '/delete_custom_batch_status', tenant.admin.token, { query: { company_id: tenant.companyId, status_name: 'Mothers' } });
    expect(removed.body).toEqual({ status: 'success', message: m.customStatusDeleted, status_name: 'Mothers' });
    expect((await call('DELETE', '/delete_custom_batch_status', tenant.admin.token, { query: { company_id: tenant.companyId, status_name: 'Mothers' } })).status).toBe(404);
    // A removed status can no longer be given, but the batch that had it keeps it.
    expect((await call('POST', '/create_batch', tenant.regular.token, { form: { BatchNumber: batchNumber(), NumberOfPlants: 1, BatchStatus: 'Mothers', company_id: tenant.companyId } })).status).toBe(400);
    const filtered = await call('GET', '/filter_batches_by_status', tenant.regular.token, { query: { company_id: tenant.companyId, status_name: 'mothers' } });
    expect(filtered.body.batches.map((found: BatchDocument) => found.BatchID)).toEqual([batch.BatchID]);
    const titles = (await server.database.db.selectFrom('audit_events').select('event_title').where('company_id', '=', tenant.companyId).execute()).map((event) => event.event_title);
    expect(titles).toEqual(expect.arrayContaining(['Added batch status Mothers', 'Removed batch status Mothers']));
  });

  it('answers the custom-status messages and 403 for another company', async () => {
    const admin = farm.admin.token;
    expect((await call('POST', '/create_custom_batch_status', admin, { query: { company_id: farm.companyId } })).body).toEqual(error(m.customStatusInvalid));
    expect((await call('POST', '/create_custom_batch_status', admin, { query: { status_name: 'X' } })).body).toEqual(error(m.customStatusInvalid));
    expect((await call('DELETE', '/delete_custom_batch_status', admin, { query: { company_id: farm.companyId, status_name: '  ' } })).body).toEqual(error(m.customStatusInvalid));
    expect((await call('POST', '/create_custom_batch_status', admin, { query: { company_id: other.companyId, status_name: 'X' } })).status).toBe(403);
    expect((await call('GET', '/get_custom_batch_statuses', farm.regular.token, { query: { company_id: other.companyId } })).status).toBe(403);
    expect((await call('GET', '/filter_batches_by_status', farm.regular.token, { query: { company_id: farm.companyId } })).body).toEqual(error(m.statusNameRequired));
    expect((await call('GET', '/filter_batches_by_status', farm.regular.token, { query: { company_id: other.companyId, status_name: 'Curing' } })).status).toBe(403);
  });

  it('assigns a status to several batches, recording each change', async () => {
    const first = await newBatch(farm);
    const second = await newBatch(farm);
    const response = await call('POST', '/assign_status_to_batches', farm.regular.token, {
      query: { company_id: farm.companyId },
      form: { batch_status: 'drying', batch_ids: `${first.BatchID},${second.BatchID}` },
    });
    expect(response.body).toEqual({ status: 'success', message: m.statusAssigned, batch_status: 'Drying', batch_ids: [first.BatchID, second.BatchID] });
    const filtered = await call('GET', '/filter_batches_by_status', farm.regular.token, { query: { company_id: farm.companyId, status_name: 'Drying' } });
    expect(filtered.body.batches.map((batch: BatchDocument) => batch.BatchID)).toEqual(expect.arrayContaining([first.BatchID, second.BatchID]));
    expect(await auditTitles(first.BatchID)).toContain(`Set batch ${first.BatchNumber} to Drying`);
  });

  it('answers the three Invalid payload messages, an unknown status, and 403 for another company’s batch', async () => {
    const batch = await newBatch(farm);
    const assign = (query: Record<string, number>, form: Record<string, string>) => call('POST', '/assign_status_to_batches', farm.regular.token, { query, form });
    expect((await assign({}, { batch_status: 'Curing', batch_ids: String(batch.BatchID) })).body).toEqual(error(m.statusCompanyRequired));
    expect((await assign({ company_id: farm.companyId }, { batch_ids: String(batch.BatchID) })).body).toEqual(error(m.statusRequired));
    expect((await assign({ company_id: farm.companyId }, { batch_status: 'Curing', batch_ids: '' })).body).toEqual(error(m.statusBatchIdsRequired));
    expect((await assign({ company_id: farm.companyId }, { batch_status: 'Curing' })).body).toEqual(error(m.statusBatchIdsRequired));
    expect((await assign({ company_id: farm.companyId }, { batch_status: 'Asleep', batch_ids: String(batch.BatchID) })).body).toEqual(error(m.unknownStatus('Asleep')));
    const theirs = await createBatch(server, other.companyId);
    expect((await assign({ company_id: farm.companyId }, { batch_status: 'Curing', batch_ids: `${batch.BatchID},${theirs}` })).status).toBe(403);
  });
});

describe('batch problems', () => {
  const problem = (batchId: number, extra: Record<string, unknown> = {}) => ({
    batch_id: batchId,
    problem_type: 'Spider mites',
    severity: 2,
    company_id: farm.companyId,
    user_id: farm.regular.id,
    ...extra,
  });

  it('records a problem on a batch; blank notes are not kept', async () => {
    const batch = await newBatch(farm);
    const response = await call('POST', '/grid/create_batch_problem', farm.regular.token, { json: problem(batch.BatchID, { notes: '   ' }) });
    expect(response.body).toMatchObject({ status: 'success', message: m.problemCreated, problem: { batch_id: batch.BatchID, problem_type: 'Spider mites', severity: 2, notes: null, resolved: false } });
    const pulled = await pullUntil<PulledDocument & BatchDocument>(server, farm.regular.token, 'batches', (documents) => documents.get(String(batch.BatchID))?.open_problems === 1);
    expect(pulled.get(String(batch.BatchID))?.open_problems).toBe(1);
  });

  it.each([
    ['batch_id', { batch_id: undefined }],
    ['a zero batch_id', { batch_id: 0 }],
    ['problem_type', { problem_type: ' ' }],
    ['severity', { severity: undefined }],
    ['a zero severity', { severity: 0 }],
    ['a severity that is not a number', { severity: 'high' }],
    ['company_id', { company_id: undefined }],
    ['user_id', { user_id: undefined }],
  ])('answers the Missing required fields message without %s', async (_case, change) => {
    const batch = await newBatch(farm);
    const response = await call('POST', '/grid/create_batch_problem', farm.regular.token, { json: problem(batch.BatchID, change) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(m.problemFieldsMissing));
  });

  it('answers 403 for another company’s batch and for another user’s name', async () => {
    const theirs = await createBatch(server, other.companyId);
    expect((await call('POST', '/grid/create_batch_problem', farm.regular.token, { json: problem(theirs) })).status).toBe(403);
    const batch = await newBatch(farm);
    expect((await call('POST', '/grid/create_batch_problem', farm.regular.token, { json: problem(batch.BatchID, { user_id: farm.admin.id }) })).status).toBe(403);
    expect((await call('GET', '/grid/get_batch_problems', farm.regular.token, { query: { company_id: other.companyId, include_resolved: 'false' } })).status).toBe(403);
    expect((await call('POST', '/grid/resolve_batch_problem', farm.regular.token, { json: { batch_id: theirs, user_id: farm.regular.id } })).status).toBe(403);
  });

  it('resolves problems narrowed by room and type, and lists them with or without the resolved ones', async () => {
    const batch = await newBatch(farm);
    const [north, south] = [await createRoom(server, farm.companyId), await createRoom(server, farm.companyId)];
    const report = (extra: Record<string, unknown>) => call('POST', '/grid/create_batch_problem', farm.regular.token, { json: problem(batch.BatchID, extra) });
    await report({ problem_type: 'Spider mites', room_id: north });
    await report({ problem_type: 'Spider mites', room_id: south });
    await report({ problem_type: 'Root rot', room_id: north, notes: 'Check drainage' });

    const resolved = await call('POST', '/grid/resolve_batch_problem', farm.regular.token, { json: { batch_id: batch.BatchID, user_id: farm.regular.id, room_ids: [north], problem_type: 'spider mites' } });
    expect(resolved.body).toEqual({
      status: 'success',
      message: m.problemsResolved,
      problems_resolved: 1,
      gridbox_problems_resolved: 0,
      plant_problems_resolved: 0,
      rooms_affected: [north],
      filters_applied: { room_ids: [north], problem_type: 'spider mites' },
    });
    const open = await call('GET', '/grid/get_batch_problems', farm.regular.token, { query: { company_id: farm.companyId, include_resolved: 'false', batch_id: batch.BatchID } });
    expect(open.body.total_batch_problems).toBe(2);
    const all = await call('GET', '/grid/get_batch_problems', farm.regular.token, { query: { company_id: farm.companyId, include_resolved: 'true', batch_id: batch.BatchID } });
    expect(all.body.total_batch_problems).toBe(3);
    expect(all.body.problems.find((found: { notes: string | null }) => found.notes === 'Check drainage')).toMatchObject({ problem_type: 'Root rot', resolved: false });

    const rest = await call('POST', '/grid/resolve_batch_problem', farm.regular.token, { json: { batch_id: batch.BatchID, user_id: farm.regular.id } });
    expect(rest.body).toMatchObject({ problems_resolved: 2, filters_applied: { room_ids: null, problem_type: null } });
    expect(rest.body.rooms_affected.sort()).toEqual([north, south].sort());
    expect(await auditTitles(batch.BatchID)).toContain(`Resolved 2 problem(s) on batch ${batch.BatchNumber}`);
  });

  it('answers the resolve and list messages', async () => {
    expect((await call('POST', '/grid/resolve_batch_problem', farm.regular.token, { json: { user_id: farm.regular.id } })).body).toEqual(error(m.resolveFieldsRequired));
    expect((await call('GET', '/grid/get_batch_problems', farm.regular.token, { query: { include_resolved: 'true' } })).body).toEqual(error(m.companyIdRequired));
    expect((await call('GET', '/grid/get_batch_problems', farm.regular.token, { query: { company_id: farm.companyId, include_resolved: 'yes' } })).status).toBe(400);
  });
});

describe('get_gridbox_batches', () => {
  it('answers each box of a grid with its batches', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 1);
    const batch = await newBatch(farm);
    await call('POST', '/link_gridbox_batch', farm.regular.token, { json: { batch_id: batch.BatchID, grid_box_ids: [grid.boxIds[1]] } });
    const response = await call('GET', '/get_gridbox_batches', farm.regular.token, { query: { GridID: grid.id } });
    expect(response.body).toEqual({
      status: 'success',
      GridID: grid.id,
      GridBoxes: [
        { GridBoxID: grid.boxIds[0], GridID: grid.id, X: 1, Y: 1, CustomName: null, batches: [] },
        { GridBoxID: grid.boxIds[1], GridID: grid.id, X: 2, Y: 1, CustomName: null, batches: [{ BatchID: batch.BatchID, BatchNumber: batch.BatchNumber, StrainName: 'Blue Dream', BatchStatus: 'Vegetative', Color: '#4caf50' }] },
      ],
    });
    expect((await call('GET', '/get_gridbox_batches', farm.regular.token)).body).toEqual(error(m.gridIdOfBoxesRequired));
    const theirGrid = await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1);
    expect((await call('GET', '/get_gridbox_batches', farm.regular.token, { query: { GridID: theirGrid.id } })).status).toBe(403);
  });
});
