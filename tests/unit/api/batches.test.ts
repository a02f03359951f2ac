/**
 * Batches' domain functions (src/api/batches.ts) on a real tablet (outbox, RxDB, sync engine) against
 * the real server, behind a proxy that can cut the network. A "silent" peer that answers 500 with no
 * body stands for a server failing without a message, to see the spec's fallback messages.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isClientId } from '../../../common/client-ids';
import { batchClientMessages, batchMessages as m } from '../../../common/messages/batches';
import { httpMessages } from '../../../common/messages/http';
import {
  assignStatusToBatches,
  batchQr,
  batchQrInfo,
  batchQrUrl,
  type BatchDocument,
  createBatch,
  createBatchProblem,
  createCustomBatchStatus,
  deleteBatches,
  deleteCustomBatchStatus,
  filterBatchesByStatus,
  getBatchDashboard,
  getBatches,
  getBatchesByRoom,
  getBatchHistoryByRoom,
  getBatchProblems,
  getCustomBatchStatuses,
  getGridboxBatches,
  getLinkedGridboxesBatches,
  getLinkedGridsBatches,
  getLinkedRoomsBatches,
  getRoomsByBatch,
  harvestBatch,
  linkGridBatch,
  linkGridboxBatch,
  linkRoomBatch,
  movePlants,
  resolveBatchProblem,
  updateBatches,
} from '../../../src/api/batches';
import { createApiClient } from '../../../src/api/client';
import { ApiError, ValidationError } from '../../../src/api/context';
import { memorySession, type Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createBatch as createBatchRow, createGrid, createRoom } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true, restoreMocks: true });
/** `tablet()`: a tablet that has pulled what the server holds, with its context. */
const { reconnect, notFromServer, tabletAndContext: tablet } = fleet;
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  silent = createServer((_request, response) => {
    response.writeHead(500);
    response.end();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
});
afterAll(async () => {
  await new Promise((resolve) => silent.close(resolve));
});

/** The tablet's document of a batch, by its key: the batch's client id. */
const batchDocument = async (device: Tablet, key: string) => (await device.database.batches.findOne(key).exec())?.toMutableJSON() as (BatchDocument & { id: string; serverId?: number }) | undefined;

/** The client ids of server rows (how the tablet and its screens name them). */
const batchKey = (id: number) => clientIdOf(fleet.server, 'batches', id);
const roomKey = (id: number) => clientIdOf(fleet.server, 'rooms', id);
const gridKey = (id: number) => clientIdOf(fleet.server, 'grids', id);

/** The tablet's context talking to a peer that fails without a message. */
function silentContext(device: Tablet) {
  return { ...device.context, client: createApiClient({ baseURL: silentUrl, session: memorySession(null) }) };
}

const today = () => new Date().toISOString().slice(0, 10);

/** An ApiError with that message (its HTTP status aside). */
const apiError = (message: string) => ({ name: 'ApiError', message });

describe('createBatch', () => {
  it('is queued as a form with its client id; the batch appears at once under that id, and keeps it once the server has it', async () => {
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    const number = `B-${Date.now()}`;
    const created = await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: number, numberOfPlants: 24, strainName: 'Blue Dream', batchStatus: 'flowering', startDate: '2026-03-01', endDate: null });
    const key = created?.BatchID as string;
    expect(isClientId(key)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/create_batch', creates: [key], clientIds: [key] });
    const parts = entry?.body.kind === 'multipart' ? Object.fromEntries(entry.body.parts.map((part) => [part.name, 'value' in part ? part.value : null])) : {};
    expect(parts).toEqual({ BatchNumber: number, NumberOfPlants: '24', StrainName: 'Blue Dream', BatchStatus: 'Flowering', company_id: String(fleet.farm.companyId), StartDate: '2026-03-01', EndDate: 'null', client_id: key });
    expect((await batchDocument(device, key))?.serverId).toBeUndefined();
    expect(await batchDocument(device, key)).toMatchObject({
      BatchID: created?.BatchID,
      BatchNumber: number,
      BatchStatus: 'Flowering',
      StartDate: '2026-03-01',
      EndDate: null,
      RoomIDs: [],
      open_problems: 0,
      history: [{ kind: 'created', details: { status: 'Flowering' }, user_id: fleet.farm.regular.id }],
    });

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('batches').selectAll().where('batch_number', '=', number).executeTakeFirstOrThrow();
    expect([row.client_id, row.number_of_plants, row.batch_status, row.strain_name]).toEqual([key, 24, 'Flowering', 'Blue Dream']);
    // The server's copy replaced the optimistic one under the same key, its history named by the server.
    expect(await batchDocument(device, key)).toMatchObject({ id: key, serverId: row.id, BatchID: key, BatchNumber: number, history: [{ kind: 'created', batch_id: key, event_id: expect.any(Number) }] });
    expect((await device.database.batches.find({ selector: { BatchNumber: number } }).exec()).map((document) => document.primary)).toEqual([key]);
    expect(await notFromServer(device)).toEqual([]);
  });

  it('a broken rule is logged and answers null (spec: "the error is logged and null is returned")', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const existing = `Taken-${Date.now()}`;
    await createBatchRow(fleet.server, fleet.farm.companyId, existing);
    const { device, context } = await tablet();
    expect(await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: ' ', numberOfPlants: 1 })).toBeNull();
    expect(await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: existing.toLowerCase(), numberOfPlants: 1 })).toBeNull();
    expect(await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: 'New one', numberOfPlants: 1, batchStatus: 'Sprouting' })).toBeNull();
    expect(await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: 'New one', numberOfPlants: 1, startDate: '2026-05-02', endDate: '2026-05-01' })).toBeNull();
    expect(logged.mock.calls.map((call) => call[1])).toEqual([m.batchNumberRequired, m.duplicateBatchNumber(existing.toLowerCase()), m.unknownStatus('Sprouting'), m.endBeforeStart]);
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('getBatches', () => {
  it('without a company id is an empty list', async () => {
    const { context } = await tablet();
    expect(await getBatches(context, { companyId: null })).toEqual([]);
    expect(await getBatches(silentContext(fleet.tablets[0] as Tablet), {})).toEqual([]);
  });

  it('answers the company’s batches as documents, links and history inside', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    const batches = await getBatches(context, { companyId: fleet.farm.companyId });
    expect(batches.find((batch) => batch.BatchID === batchId)).toMatchObject({ BatchID: batchId, CompanyID: fleet.farm.companyId, BatchStatus: 'Vegetative', RoomIDs: [], GridIDs: [], GridBoxIDs: [], problems: [], open_problems: 0 });
  });

  it('offline, the local store answers the same batches, in the same order, named by client id (the server’s id kept as serverId)', async () => {
    await createBatchRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    const online = await getBatches(context, { companyId: fleet.farm.companyId });
    fleet.proxy.setOnline(false);
    const local = (await getBatches(context, { companyId: fleet.farm.companyId })) as Array<BatchDocument & { serverId?: number }>;
    const onlineIds = online.map((batch) => batch.BatchID as number);
    const keys = await clientIdsOf(fleet.server, 'batches', onlineIds);
    expect(local.map((batch) => [batch.BatchID, batch.serverId, batch.BatchNumber, batch.BatchStatus])).toEqual(online.map((batch, i) => [keys[i], batch.BatchID, batch.BatchNumber, batch.BatchStatus]));
  });

  it('a failure: the server’s message, else "Failed to fetch batches"', async () => {
    const { device, context } = await tablet();
    await expect(getBatches(context, { companyId: fleet.other.companyId })).rejects.toMatchObject(apiError(httpMessages.otherCompany));
    await expect(getBatches(silentContext(device), { companyId: fleet.farm.companyId })).rejects.toMatchObject(apiError(batchClientMessages.fetchFailed));
  });
});

describe('updateBatches', () => {
  it('is queued with the changed fields; the document changes at once, a status change in its history', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const key = await batchKey(batchId);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    const updated = await updateBatches(context, { batchId: key, companyId: fleet.farm.companyId, numberOfPlants: 30, batchStatus: 'flowering', color: '#4caf50', strainName: '' });
    expect(updated).toMatchObject({ BatchID: key, NumberOfPlants: 30, BatchStatus: 'Flowering', Color: '#4caf50', StrainName: null });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'PUT', path: '/update_batches', query: { batch_id: key, company_id: fleet.farm.companyId }, clientIds: [key], creates: [] });
    const local = await batchDocument(device, key);
    expect(local).toMatchObject({ serverId: batchId, NumberOfPlants: 30, BatchStatus: 'Flowering', StrainName: null });
    expect(local?.history.at(-1)).toMatchObject({ kind: 'status', batch_id: key, details: { from: 'Vegetative', to: 'Flowering' } });

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow();
    expect([row.number_of_plants, row.batch_status, row.color, row.strain_name]).toEqual([30, 'Flowering', '#4caf50', null]);
    expect(await batchDocument(device, key)).toMatchObject({ serverId: batchId, NumberOfPlants: 30, BatchStatus: 'Flowering' });
    expect((await batchDocument(device, key))?.history.map((event) => event.kind)).toEqual(['status']);
  });

  it('a broken rule is logged and answers null', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const { device, context } = await tablet();
    expect(await updateBatches(context, { batchId: 0, companyId: fleet.farm.companyId, numberOfPlants: 3 })).toBeNull();
    expect(await updateBatches(context, { batchId, companyId: fleet.farm.companyId, numberOfPlants: -1 })).toBeNull();
    expect(await updateBatches(context, { batchId, companyId: fleet.farm.companyId, startDate: '2026-05-02', endDate: '2026-05-01' })).toBeNull();
    expect(logged.mock.calls.map((call) => call[1])).toEqual([m.batchIdRequired, m.numberOfPlantsInvalid, m.endBeforeStart]);
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('deleteBatches', () => {
  it('a broken rule answers {status: "error", message}', async () => {
    const { context } = await tablet(fleet.farm.admin);
    expect(await deleteBatches(context, { batchId: 0, companyId: fleet.farm.companyId })).toEqual({ status: 'error', message: m.batchIdRequired });
    expect(await deleteBatches(context, { batchId: 3, companyId: 0 })).toEqual({ status: 'error', message: m.companyIdRequired });
  });

  it('is queued ({status: "queued"}); the batch leaves the local store and the boxes’ BatchIDs at once', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, await createRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    expect((await fleet.server.request('POST', '/link_gridbox_batch', { token: fleet.farm.admin.token, json: { batch_id: batchId, grid_box_ids: [boxId] } })).status).toBe(200);
    const [key, boxKey] = [await batchKey(batchId), await clientIdOf(fleet.server, 'grid_boxes', boxId)];
    const { device, context } = await tablet(fleet.farm.admin);
    expect((await batchDocument(device, key))?.serverId).toBe(batchId);
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([key]);

    fleet.proxy.setOnline(false);
    expect(await deleteBatches(context, { batchId: key, companyId: fleet.farm.companyId })).toEqual({ status: 'queued', BatchID: key });
    expect((await device.outbox.all()).map((entry) => [entry.method, entry.path, entry.query, entry.fallbackMessage])).toEqual([
      ['DELETE', '/delete_batches', { batch_id: key, company_id: fleet.farm.companyId }, batchClientMessages.unknownError],
    ]);
    expect(await batchDocument(device, key)).toBeUndefined();
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([]);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    expect(await device.outbox.count()).toBe(0);
    const row = await fleet.server.database.db.selectFrom('batches').select('deleted_at').where('id', '=', batchId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await batchDocument(device, key)).toBeUndefined();
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([]);
  });
});

describe('links', () => {
  it('linkRoomBatch is queued; the batch lists the room at once with a history entry; the lookups show it from the server', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const roomId = await createRoom(fleet.server, fleet.farm.companyId);
    const [key, room] = [await batchKey(batchId), await roomKey(roomId)];
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await linkRoomBatch(context, { roomId: room, batchId: key });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query])).toEqual([['/link_room_batch', { room_id: room, batch_id: key }]]);
    const local = await batchDocument(device, key);
    expect(local?.RoomIDs).toEqual([room]);
    expect(local?.history.at(-1)).toMatchObject({ kind: 'linked_room', batch_id: key, to_room_id: room });

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    expect(await fleet.server.database.db.selectFrom('batch_rooms').select('room_id').where('batch_id', '=', batchId).execute()).toEqual([{ room_id: roomId }]);
    expect(await batchDocument(device, key)).toMatchObject({ serverId: batchId, RoomIDs: [room], history: [{ kind: 'linked_room', batch_id: key, to_room_id: room }] });
    // The spec's lookups answer from the server, with its integer ids.
    expect(await getLinkedRoomsBatches(context, { batchId })).toMatchObject({ status: 'success', linked: true, links: [{ room_id: roomId, batch_id: batchId, room_name: expect.any(String) }] });
    expect((await getRoomsByBatch(context, { batchId })).map((room) => room.RoomID)).toEqual([roomId]);
    expect((await getBatchesByRoom(context, { roomId })).batches.map((batch) => batch.BatchID)).toEqual([batchId]);
    const history = await getBatchHistoryByRoom(context, { roomId });
    expect(history.history.map((event) => [event.kind, event.batch_id])).toEqual([['linked_room', batchId]]);
  });

  it('linkGridBatch is queued; the batch lists the grid at once', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, await createRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const [key, gridKeyOf] = [await batchKey(batchId), await gridKey(grid.id)];
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await linkGridBatch(context, { gridId: gridKeyOf, batchId: key });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query, entry.clientIds])).toEqual([['/link_grid_batch', { grid_id: gridKeyOf, batch_id: key }, [gridKeyOf, key]]]);
    expect((await batchDocument(device, key))?.GridIDs).toEqual([gridKeyOf]);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    expect(await fleet.server.database.db.selectFrom('batch_grids').select('grid_id').where('batch_id', '=', batchId).execute()).toEqual([{ grid_id: grid.id }]);
    expect(await batchDocument(device, key)).toMatchObject({ serverId: batchId, GridIDs: [gridKeyOf] });
    expect(await getLinkedGridsBatches(context, { gridId: grid.id })).toMatchObject({ linked: true, links: [{ grid_id: grid.id, batch_id: batchId }] });
  });

  it('linkGridboxBatch links boxes; the grid box lookups show them from the server', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, await createRoom(fleet.server, fleet.farm.companyId), 2, 1);
    const [key, boxKeys] = [await batchKey(batchId), await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds)];
    const { device, context } = await tablet();
    await linkGridboxBatch(context, { batchId: key, gridBoxIds: boxKeys });
    expect((await device.outbox.all()).map((entry) => (entry.body.kind === 'json' ? entry.body.data : null))).toEqual([{ batch_id: key, grid_box_ids: boxKeys }]);
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    expect((await fleet.server.database.db.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).orderBy('grid_box_id').execute()).map((row) => row.grid_box_id)).toEqual(grid.boxIds);
    expect((await batchDocument(device, key))?.GridBoxIDs).toEqual(boxKeys);
    for (const boxKey of boxKeys) expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([key]);
    const linked = await getLinkedGridboxesBatches(context, { batchId });
    expect(linked?.links.map((link) => link.grid_box_id)).toEqual(grid.boxIds);
    const boxes = await getGridboxBatches(context, { gridId: grid.id });
    expect(boxes?.GridBoxes.map((box) => [box.GridBoxID, box.batches.map((batch) => batch.BatchID)])).toEqual(grid.boxIds.map((id) => [id, [batchId]]));
  });

  it('linking errors are thrown', async () => {
    const { context } = await tablet();
    await expect(linkRoomBatch(context, { roomId: 0, batchId: 1 })).rejects.toThrow(new ValidationError(m.roomIdRequired));
    await expect(linkGridBatch(context, { gridId: 1, batchId: 0 })).rejects.toThrow(new ValidationError(m.batchIdRequired));
    await expect(linkGridboxBatch(context, { batchId: 1, gridBoxIds: [] })).rejects.toThrow(new ValidationError(m.gridBoxLinkInvalid));
    await expect(getLinkedRoomsBatches(context, {})).rejects.toThrow(new ValidationError(m.linkedRoomOrBatchRequired));
    await expect(getLinkedGridsBatches(context, { batchId: 987654 })).rejects.toThrow(ApiError);
  });

  it('the grid box calls answer null on any failure', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { context } = await tablet();
    expect(await getLinkedGridboxesBatches(context, {})).toBeNull();
    expect(await getLinkedGridboxesBatches(context, { gridBoxId: 987654 })).toBeNull();
    expect(await getGridboxBatches(context, { gridId: 987654 })).toBeNull();
    expect(logged).toHaveBeenCalledTimes(3);
  });

  it('getRoomsByBatch: "batch_id is required."; the server’s message, else "Failed to fetch rooms by batch."', async () => {
    const { device, context } = await tablet();
    await expect(getRoomsByBatch(context, {})).rejects.toThrow(new ValidationError(m.batchIdRequired));
    const otherBatch = await createBatchRow(fleet.server, fleet.other.companyId);
    await expect(getRoomsByBatch(context, { batchId: otherBatch })).rejects.toMatchObject(apiError(httpMessages.otherCompany));
    await expect(getRoomsByBatch(silentContext(device), { batchId: 1 })).rejects.toMatchObject(apiError(batchClientMessages.roomsByBatchFailed));
  });
});

describe('QR codes', () => {
  it('answer null without batch id or company id', async () => {
    const { context } = await tablet();
    for (const input of [{ companyId: fleet.farm.companyId }, { batchId: 1 }, { batchId: 0, companyId: fleet.farm.companyId }, { batchId: 1, companyId: null }]) {
      expect(await batchQrUrl(context, input)).toBeNull();
      expect(await batchQr(context, input)).toBeNull();
      expect(await batchQrInfo(context, input)).toBeNull();
    }
  });

  it('batchQrUrl answers a PNG data URL (default 256), batchQr a PNG Blob, batchQrInfo the batch and its url', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    expect(await batchQrUrl(context, { batchId, companyId: fleet.farm.companyId })).toMatchObject({ batch_id: batchId, size: 256, url: `http://grow.test/dashboard/batch-info/${batchId}`, qr_code_url: expect.stringMatching(/^data:image\/png;base64,/) });
    const blob = await batchQr(context, { batchId, companyId: fleet.farm.companyId });
    expect(blob?.type).toBe('image/png');
    expect([...new Uint8Array(await (blob as Blob).arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(await batchQrInfo(context, { batchId, companyId: fleet.farm.companyId })).toMatchObject({ batch: { BatchID: batchId }, rooms: [], url: `http://grow.test/dashboard/batch-info/${batchId}` });
  });

  it('failures: "Failed to generate QR code", "Failed to download QR code", "Failed to fetch batch information"', async () => {
    const { device } = await tablet();
    const context = silentContext(device);
    const input = { batchId: 1, companyId: fleet.farm.companyId };
    await expect(batchQrUrl(context, input)).rejects.toMatchObject(apiError(batchClientMessages.qrUrlFailed));
    await expect(batchQr(context, input)).rejects.toMatchObject(apiError(batchClientMessages.qrDownloadFailed));
    await expect(batchQrInfo(context, input)).rejects.toMatchObject(apiError(batchClientMessages.qrInfoFailed));
  });
});

describe('getBatchDashboard', () => {
  it('answers batch_details', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    expect(await getBatchDashboard(context, { companyId: fleet.farm.companyId, batchId, startDate: '2026-01-01', endDate: null })).toMatchObject({
      BatchID: batchId,
      status: 'Vegetative',
      plants: { planned: 10, positions: 0, culled: 0 },
      rooms: [],
      open_problems: 0,
      range: { start_date: '2026-01-01', end_date: null },
    });
  });
});

describe('harvestBatch', () => {
  it('is queued; the batch shows Harvested at once (end date today), then on the server', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const key = await batchKey(batchId);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await harvestBatch(context, { batchId: key, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query, entry.fallbackMessage])).toEqual([
      ['/harvest_batch', { batch_id: key, company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id }, batchClientMessages.harvestFailed],
    ]);
    const local = await batchDocument(device, key);
    expect(local).toMatchObject({ BatchStatus: 'Harvested', HarvestedBy: fleet.farm.regular.id, EndDate: today() });
    expect(local?.history.at(-1)).toMatchObject({ kind: 'harvested', batch_id: key, details: { from: 'Vegetative' } });
    await expect(harvestBatch(context, { batchId: key, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id })).rejects.toThrow(new ValidationError(m.alreadyHarvested));

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow();
    expect([row.batch_status, row.harvested_by, row.harvested_at === null]).toEqual(['Harvested', fleet.farm.regular.id, false]);
    expect(await batchDocument(device, key)).toMatchObject({ serverId: batchId, BatchStatus: 'Harvested', HarvestedBy: fleet.farm.regular.id });
  });

  it('a failure to record it: "Failed to Harvest Batch"', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const { device, context } = await tablet();
    device.outbox.close();
    await expect(harvestBatch(context, { batchId, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id })).rejects.toMatchObject(apiError(batchClientMessages.harvestFailed));
  });
});

describe('movePlants', () => {
  it('is queued; the batch leaves the old room (room, grid and box links) for the new one at once, then on the server', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const [oldRoom, newRoom] = [await createRoom(fleet.server, fleet.farm.companyId), await createRoom(fleet.server, fleet.farm.companyId)];
    const grid = await createGrid(fleet.server, fleet.farm.companyId, oldRoom, 1, 1);
    const boxId = grid.boxIds[0] as number;
    for (const [path, options] of [
      ['/link_room_batch', { query: { room_id: oldRoom, batch_id: batchId } }],
      ['/link_grid_batch', { query: { grid_id: grid.id, batch_id: batchId } }],
      ['/link_gridbox_batch', { json: { batch_id: batchId, grid_box_ids: [boxId] } }],
    ] as const) {
      expect((await fleet.server.request('POST', path, { token: fleet.farm.regular.token, ...options })).status).toBe(200);
    }
    const [key, oldKey, newKey, gridKeyOf, boxKey] = [await batchKey(batchId), await roomKey(oldRoom), await roomKey(newRoom), await gridKey(grid.id), await clientIdOf(fleet.server, 'grid_boxes', boxId)];
    const { device, context } = await tablet();
    expect(await batchDocument(device, key)).toMatchObject({ RoomIDs: [oldKey], GridIDs: [gridKeyOf], GridBoxIDs: [boxKey] });
    fleet.proxy.setOnline(false);
    await movePlants(context, { batchId: key, oldRoomId: oldKey, newRoomId: newKey });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query, entry.fallbackMessage])).toEqual([
      ['/move_plants', { batch_id: key, old_room_id: oldKey, new_room_id: newKey }, batchClientMessages.moveFailed],
    ]);
    const local = await batchDocument(device, key);
    expect(local).toMatchObject({ RoomIDs: [newKey], GridIDs: [], GridBoxIDs: [] });
    expect(local?.history.at(-1)).toMatchObject({ kind: 'moved', batch_id: key, from_room_id: oldKey, to_room_id: newKey, details: { grid_ids: [gridKeyOf], grid_box_ids: [boxKey] } });
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([]);

    await reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    expect(await fleet.server.database.db.selectFrom('batch_rooms').select('room_id').where('batch_id', '=', batchId).execute()).toEqual([{ room_id: newRoom }]);
    expect(await fleet.server.database.db.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).execute()).toEqual([]);
    expect(await batchDocument(device, key)).toMatchObject({ serverId: batchId, RoomIDs: [newKey], GridIDs: [], GridBoxIDs: [] });
    expect((await batchDocument(device, key))?.history.at(-1)).toMatchObject({ kind: 'moved', batch_id: key, from_room_id: oldKey, to_room_id: newKey });
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('BatchIDs')).toEqual([]);
    expect(await notFromServer(device)).toEqual([]);
  });

  it('refuses what the server would: the same room, a batch not in the old room', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const [a, b] = [await roomKey(await createRoom(fleet.server, fleet.farm.companyId)), await roomKey(await createRoom(fleet.server, fleet.farm.companyId))];
    const key = await batchKey(batchId);
    const { device, context } = await tablet();
    await expect(movePlants(context, { batchId: key, oldRoomId: a, newRoomId: a })).rejects.toThrow(new ValidationError(m.sameRoom));
    await expect(movePlants(context, { batchId: key, oldRoomId: a, newRoomId: b })).rejects.toThrow(new ValidationError(m.notInOldRoom));
    await expect(movePlants(context, { batchId: key, oldRoomId: 0, newRoomId: b })).rejects.toThrow(new ValidationError(m.oldRoomRequired));
    expect(await device.outbox.count()).toBe(0);
  });

  it('a failure to record it: "Failed to Move Plant"', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const [oldRoom, newRoom] = [await createRoom(fleet.server, fleet.farm.companyId), await createRoom(fleet.server, fleet.farm.companyId)];
    expect((await fleet.server.request('POST', '/link_room_batch', { token: fleet.farm.regular.token, query: { room_id: oldRoom, batch_id: batchId } })).status).toBe(200);
    const { device, context } = await tablet();
    device.outbox.close();
    await expect(movePlants(context, { batchId, oldRoomId: oldRoom, newRoomId: newRoom })).rejects.toMatchObject(apiError(batchClientMessages.moveFailed));
  });
});

describe('crop statuses', () => {
  it('assignStatusToBatches: the three "Invalid payload: …" messages', async () => {
    const { context } = await tablet();
    await expect(assignStatusToBatches(context, { batchStatus: 'Drying', batchIds: [1] })).rejects.toThrow(new ValidationError(m.statusCompanyRequired));
    await expect(assignStatusToBatches(context, { companyId: fleet.farm.companyId, batchStatus: ' ', batchIds: [1] })).rejects.toThrow(new ValidationError(m.statusRequired));
    await expect(assignStatusToBatches(context, { companyId: fleet.farm.companyId, batchStatus: 'Drying', batchIds: [] })).rejects.toThrow(new ValidationError(m.statusBatchIdsRequired));
  });

  it('assignStatusToBatches is queued with the ids joined by commas; the batches change at once, then on the server', async () => {
    const [first, second] = [await createBatchRow(fleet.server, fleet.farm.companyId), await createBatchRow(fleet.server, fleet.farm.companyId)];
    const [firstKey, secondKey] = await clientIdsOf(fleet.server, 'batches', [first, second]);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await assignStatusToBatches(context, { companyId: fleet.farm.companyId, batchStatus: 'drying', batchIds: [firstKey as string, secondKey as string] });
    const entries = await device.outbox.all();
    expect(entries).toHaveLength(1);
    const parts = entries[0]?.body.kind === 'multipart' ? entries[0].body.parts.map((part) => ('value' in part ? [part.name, part.value] : [])) : [];
    expect(parts).toEqual([
      ['batch_status', 'Drying'],
      ['batch_ids', `${firstKey},${secondKey}`],
    ]);
    expect(entries[0]?.clientIds).toEqual([firstKey, secondKey]);
    expect((await batchDocument(device, firstKey as string))?.BatchStatus).toBe('Drying');
    expect((await batchDocument(device, secondKey as string))?.BatchStatus).toBe('Drying');

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const rows = await fleet.server.database.db.selectFrom('batches').select('batch_status').where('id', 'in', [first, second]).execute();
    expect(rows.map((row) => row.batch_status)).toEqual(['Drying', 'Drying']);
    expect((await batchDocument(device, firstKey as string))?.BatchStatus).toBe('Drying');
    expect((await filterBatchesByStatus(context, { companyId: fleet.farm.companyId, statusName: 'DRYING' })).map((batch) => batch.BatchID)).toEqual(expect.arrayContaining([first, second]));
  });

  it('assignStatusToBatches with a batch made offline: one request with the client ids joined, which the server resolves once the create is in', async () => {
    const known = await createBatchRow(fleet.server, fleet.farm.companyId);
    const knownKey = await batchKey(known);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    const number = `Offline-${Date.now()}`;
    const created = await createBatch(context, { companyId: fleet.farm.companyId, batchNumber: number, numberOfPlants: 5 });
    const createdKey = created?.BatchID as string;
    await assignStatusToBatches(context, { companyId: fleet.farm.companyId, batchStatus: 'Curing', batchIds: [knownKey, createdKey] });
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.creates])).toEqual([
      ['/create_batch', [createdKey]],
      ['/assign_status_to_batches', []],
    ]);
    const assign = entries[1];
    const list = assign?.body.kind === 'multipart' ? assign.body.parts.find((part) => part.name === 'batch_ids') : undefined;
    expect(list && 'value' in list ? list.value : null).toBe(`${knownKey},${createdKey}`);
    expect(assign?.clientIds).toEqual([knownKey, createdKey]);
    expect((await batchDocument(device, knownKey))?.BatchStatus).toBe('Curing');
    expect((await batchDocument(device, createdKey))?.BatchStatus).toBe('Curing');

    await reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    expect(device.engine.current().failed).toEqual([]);
    const rows = await fleet.server.database.db.selectFrom('batches').select(['id', 'client_id', 'batch_status']).where((eb) => eb.or([eb('id', '=', known), eb('batch_number', '=', number)])).orderBy('id').execute();
    expect(rows.map((row) => [row.client_id, row.batch_status])).toEqual([
      [knownKey, 'Curing'],
      [createdKey, 'Curing'],
    ]);
    expect(await batchDocument(device, createdKey)).toMatchObject({ serverId: rows[1]?.id, BatchID: createdKey, BatchStatus: 'Curing' });
    expect(await batchDocument(device, knownKey)).toMatchObject({ serverId: known, BatchStatus: 'Curing' });
    expect(await notFromServer(device)).toEqual([]);
  });

  it('custom statuses: "Company ID and status name are required"', async () => {
    const { context } = await tablet(fleet.farm.admin);
    await expect(createCustomBatchStatus(context, { companyId: fleet.farm.companyId, statusName: '' })).rejects.toThrow(new ValidationError(m.customStatusInvalid));
    await expect(createCustomBatchStatus(context, { statusName: 'Cloning' })).rejects.toThrow(new ValidationError(m.customStatusInvalid));
    await expect(deleteCustomBatchStatus(context, { companyId: 0, statusName: 'Cloning' })).rejects.toThrow(new ValidationError(m.customStatusInvalid));
    await expect(deleteCustomBatchStatus(context, { companyId: fleet.farm.companyId })).rejects.toThrow(new ValidationError(m.customStatusInvalid));
    await expect(createCustomBatchStatus(context, { companyId: fleet.farm.companyId, statusName: 'flowering' })).rejects.toThrow(new ValidationError(m.customStatusExists('flowering')));
  });

  it('createCustomBatchStatus and deleteCustomBatchStatus are queued; the company document follows at once, then the server', async () => {
    const { device, context } = await tablet(fleet.farm.admin);
    const names = async () => ((await device.database.company.findOne(String(fleet.farm.companyId)).exec())?.get('custom_batch_statuses') as Array<{ status_name: string }>).map((status) => status.status_name);
    fleet.proxy.setOnline(false);
    await createCustomBatchStatus(context, { companyId: fleet.farm.companyId, statusName: 'Cloning' });
    expect(await names()).toContain('Cloning');

    await reconnect(device);
    expect((await getCustomBatchStatuses(context, { companyId: fleet.farm.companyId })).custom_statuses.map((status) => status.status_name)).toContain('Cloning');
    expect(await names()).toContain('Cloning');
    expect(await device.outbox.count()).toBe(0);
    expect(await notFromServer(device)).toEqual([]);

    fleet.proxy.setOnline(false);
    await deleteCustomBatchStatus(context, { companyId: fleet.farm.companyId, statusName: 'cloning' });
    expect((await device.outbox.all()).map((entry) => [entry.method, entry.path, entry.query])).toEqual([['DELETE', '/delete_custom_batch_status', { company_id: fleet.farm.companyId, status_name: 'cloning' }]]);
    expect(await names()).not.toContain('Cloning');

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('custom_batch_statuses').select('deleted_at').where('company_id', '=', fleet.farm.companyId).where('name', '=', 'Cloning').executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await names()).not.toContain('Cloning');
  });
});

describe('batch problems', () => {
  const valid = () => ({ batchId: 1, problemType: 'Mites', severity: 3, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id });

  it.each([
    ['batch_id', { batchId: 0 }],
    ['problem_type', { problemType: '  ' }],
    ['severity 0', { severity: 0 }],
    ['severity NaN', { severity: Number.NaN }],
    ['severity Infinity', { severity: Number.POSITIVE_INFINITY }],
    ['company_id', { companyId: 0 }],
    ['user_id', { userId: 0 }],
  ])('createBatchProblem without %s: "Missing required fields: …"', async (_field, change) => {
    const { context } = await tablet();
    await expect(createBatchProblem(context, { ...valid(), ...change })).rejects.toThrow(new ValidationError(m.problemFieldsMissing));
  });

  it('createBatchProblem is queued (notes only if not blank); resolveBatchProblem resolves at once; the server follows', async () => {
    const batchId = await createBatchRow(fleet.server, fleet.farm.companyId);
    const roomId = await createRoom(fleet.server, fleet.farm.companyId);
    const [key, room] = [await batchKey(batchId), await roomKey(roomId)];
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    const problem = await createBatchProblem(context, { batchId: key, problemType: 'Mites', severity: 3, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, notes: '   ', roomId: room });
    const mould = await createBatchProblem(context, { batchId: key, problemType: 'Mould', severity: 2.5, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, notes: 'Under the canopy' });
    expect([isClientId(problem.problem_id), isClientId(mould.problem_id), problem.problem_id !== mould.problem_id]).toEqual([true, true, true]);
    const bodies = (await device.outbox.all()).map((entry) => (entry.body.kind === 'json' ? entry.body.data : null));
    expect(bodies).toEqual([
      { batch_id: key, problem_type: 'Mites', severity: 3, company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id, room_id: room, client_id: problem.problem_id },
      { batch_id: key, problem_type: 'Mould', severity: 2.5, company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id, notes: 'Under the canopy', client_id: mould.problem_id },
    ]);
    expect(problem).toMatchObject({ batch_id: key, room_id: room, notes: null, resolved: false });
    expect(await batchDocument(device, key)).toMatchObject({ open_problems: 2, problems: [{ problem_id: problem.problem_id, problem_type: 'Mites' }, { problem_id: mould.problem_id, problem_type: 'Mould' }] });

    const resolved = await resolveBatchProblem(context, { batchId: key, userId: fleet.farm.regular.id, roomIds: [room] });
    expect(resolved).toEqual({ problems_resolved: 1, gridbox_problems_resolved: 0, plant_problems_resolved: 0, rooms_affected: [room], filters_applied: { room_ids: [room], problem_type: null } });
    const resolveEntry = (await device.outbox.all()).at(-1);
    expect(resolveEntry?.body).toEqual({ kind: 'json', data: { batch_id: key, user_id: fleet.farm.regular.id, room_ids: room } });
    expect(await batchDocument(device, key)).toMatchObject({ open_problems: 1, problems: [{ problem_type: 'Mites', resolved: true, resolved_by: fleet.farm.regular.id }, { resolved: false }] });

    await reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await fleet.server.database.db.selectFrom('batch_problems').select(['id', 'client_id', 'room_id', 'problem_type', 'notes', 'resolved_at']).where('batch_id', '=', batchId).orderBy('id').execute();
    expect(rows.map((row) => [row.client_id, row.room_id, row.problem_type, row.notes, row.resolved_at !== null])).toEqual([
      [problem.problem_id, roomId, 'Mites', null, true],
      [mould.problem_id, null, 'Mould', 'Under the canopy', false],
    ]);
    // The server's document, under the same key: its problems named by the ids the tablet gave them.
    expect(await batchDocument(device, key)).toMatchObject({
      serverId: batchId,
      open_problems: 1,
      problems: [
        { problem_id: problem.problem_id, batch_id: key, room_id: room, resolved: true },
        { problem_id: mould.problem_id, batch_id: key, room_id: null, resolved: false },
      ],
    });
    expect(await notFromServer(device)).toEqual([]);
    const open = await getBatchProblems(context, { companyId: fleet.farm.companyId, batchId });
    expect([open.total_batch_problems, open.problems.map((p) => p.problem_type)]).toEqual([1, ['Mould']]);
    expect((await getBatchProblems(context, { companyId: fleet.farm.companyId, batchId, includeResolved: true })).total_batch_problems).toBe(2);
  });

  it('resolveBatchProblem also resolves the open problems on the batch’s boxes and plants at once, counts them as the server does, and the server resolves the same ones once', async () => {
    const { farm } = fleet;
    const batchId = await createBatchRow(fleet.server, farm.companyId);
    const roomId = await createRoom(fleet.server, farm.companyId);
    const grid = await createGrid(fleet.server, farm.companyId, roomId, 3, 1);
    const [linkedBox, plantBox, otherBox] = grid.boxIds as [number, number, number];
    const asGrower = async <T,>(method: string, path: string, options: { json?: Record<string, unknown>; query?: Record<string, number> }) => {
      const response = await fleet.server.request<T>(method, path, { token: farm.regular.token, ...options });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    await asGrower('POST', '/link_gridbox_batch', { json: { batch_id: batchId, grid_box_ids: [linkedBox, plantBox] } });
    const divided = await asGrower<{ sub_gridboxes: Array<{ Sub_gridboxID: number }> }>('POST', '/create_sub_gridboxes', { query: { parent_gridbox_id: plantBox, user_id: farm.regular.id, nx: 1, ny: 1 } });
    const record = async (box: number, problemType: string, extra: Record<string, unknown> = {}) =>
      (await asGrower<{ problem_id: number }>('POST', '/create_gridbox_problem', { json: { GridBoxID: box, problem_type: problemType, severity: 2, user_id: farm.regular.id, ...extra } })).problem_id;
    const onBox = await record(linkedBox, 'Two-spotted spider mite');
    const onPlant = await record(plantBox, 'Powdery mildew', { sub_gridbox_id: divided.sub_gridboxes[0]!.Sub_gridboxID });
    const notTheBatchs = await record(otherBox, 'Fungus gnats');
    const [key, room, problemKeys] = [await batchKey(batchId), await roomKey(roomId), await clientIdsOf(fleet.server, 'plant_problems', [onBox, onPlant, notTheBatchs])];
    const { device, context } = await tablet();
    const statusOf = async () => Promise.all(problemKeys.map(async (problemKey) => (await device.database.plant_problems.findOne(problemKey).exec())?.get('status') as string));
    expect(await statusOf()).toEqual(['unresolved', 'unresolved', 'unresolved']);

    fleet.proxy.setOnline(false);
    const resolved = await resolveBatchProblem(context, { batchId: key, userId: farm.regular.id });
    expect(resolved).toEqual({ problems_resolved: 0, gridbox_problems_resolved: 1, plant_problems_resolved: 1, rooms_affected: [room], filters_applied: { room_ids: null, problem_type: null } });
    expect(await statusOf()).toEqual(['resolved', 'resolved', 'unresolved']);

    await reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await fleet.server.database.db.selectFrom('plant_problems').select(['id', 'status', 'status_by']).where('id', 'in', [onBox, onPlant, notTheBatchs]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: onBox, status: 'resolved', status_by: farm.regular.id },
      { id: onPlant, status: 'resolved', status_by: farm.regular.id },
      { id: notTheBatchs, status: 'unresolved', status_by: null },
    ]);
    expect(await statusOf()).toEqual(['resolved', 'resolved', 'unresolved']);
    expect(await notFromServer(device)).toEqual([]);
  });
});
