/**
 * Rooms' domain functions (src/api/rooms.ts) on a real tablet (outbox, RxDB, sync engine) against the
 * real server, behind a proxy that can cut the network.
 */
import { describe, expect, it } from 'vitest';
import { roomClientMessages, roomMessages } from '../../../common/messages/rooms';
import { ApiError, ValidationError } from '../../../src/api/context';
import { createRoom, deleteRoom, getRoomScroll, loadRoomGridsBoxes, updateAllRoomScroll, updateRoomScroll } from '../../../src/api/rooms';
import { clientIdOf, clientIdsOf, createBatch, createGrid, createRoom as createRoomRow } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet();
/** `tablet()`: a tablet that has pulled what the server holds, with its context. */
const { reconnect, notFromServer, tabletAndContext: tablet } = fleet;

describe('createRoom', () => {
  it('is queued with the room shown at once under its client id, and reaches the server under that id', async () => {
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    const name = `Queued room ${Date.now()}`;
    const { RoomID } = await createRoom(context, { companyId: fleet.farm.companyId, name, description: 'Made offline' });
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/create_room']);
    expect((await device.database.rooms.findOne(RoomID).exec())?.get('Name')).toBe(name);

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('rooms').select(['id', 'client_id']).where('name', '=', name).executeTakeFirstOrThrow();
    expect(row.client_id).toBe(RoomID);
    const local = await device.database.rooms.findOne(RoomID).exec();
    expect([local?.get('RoomID'), local?.get('serverId')]).toEqual([RoomID, row.id]);
    expect(await notFromServer(device)).toEqual([]);
  });
});

describe('loadRoomGridsBoxes', () => {
  it('answers the rooms with their grids and boxes from the server', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, 2, 1);
    const { context } = await tablet();
    const answer = await loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId, roomId });
    expect(answer.status).toBe('success');
    expect(answer.offline).toBeUndefined();
    expect(answer.rooms).toHaveLength(1);
    const [room] = answer.rooms;
    expect(room).toMatchObject({ RoomID: roomId, CompanyID: fleet.farm.companyId, Scanned: false, StartScroll: 0 });
    expect(room?.grids.map((g) => g.id)).toEqual([grid.id]);
    expect(room?.grids[0]?.boxes.map((box) => [box.id, box.X, box.Y])).toEqual([
      [grid.boxIds[0], 1, 1],
      [grid.boxIds[1], 2, 1],
    ]);
    const all = await loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId });
    expect(all.rooms.map((r) => r.RoomID)).toContain(roomId);
  });

  it('checks the company id first, with the server’s message', async () => {
    const { context } = await tablet();
    await expect(loadRoomGridsBoxes(context, { companyId: 0 })).rejects.toThrow(new ValidationError(roomMessages.companyIdRequired));
  });

  it('reads the local store when the server cannot be reached, records made offline included', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, 3, 2);
    const { context } = await tablet();
    const online = await loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId });
    fleet.proxy.setOnline(false);
    const { RoomID: offlineRoom } = await createRoom(context, { companyId: fleet.farm.companyId, name: 'Offline room', description: 'No signal' });

    // The local store names records by client id (the server's integer id kept as `serverId`), in the server's order.
    const local = await loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId });
    expect(local.offline).toBe(true);
    const onlineRoomIds = online.rooms.map((room) => room.RoomID as number);
    expect(local.rooms.map((room) => room.RoomID)).toEqual([...(await clientIdsOf(fleet.server, 'rooms', onlineRoomIds)), offlineRoom]);
    const [roomKey, gridKey] = [await clientIdOf(fleet.server, 'rooms', roomId), await clientIdOf(fleet.server, 'grids', grid.id)];
    const room = local.rooms.find((r) => r.RoomID === roomKey);
    const onlineRoom = online.rooms.find((r) => r.RoomID === roomId);
    expect(room).toMatchObject({ Name: onlineRoom?.Name, Description: onlineRoom?.Description, serverId: roomId });
    expect(room?.grids.map((g) => g.id)).toEqual([gridKey]);
    expect(room?.grids[0]?.boxes.map((box) => box.id)).toEqual(await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds));
    expect(room?.grids[0]?.boxes[0]).toMatchObject({ GridID: gridKey, X: 1, Y: 1, culled: false, serverId: grid.boxIds[0] });

    const one = await loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId, roomId: offlineRoom });
    expect(one.rooms.map((r) => [r.RoomID, r.grids])).toEqual([[offlineRoom, []]]);
  });

  it('offline, a room that is not in the local store: "Room data not found in local database"', async () => {
    const { context } = await tablet();
    fleet.proxy.setOnline(false);
    await expect(loadRoomGridsBoxes(context, { companyId: fleet.farm.companyId, roomId: 987654 })).rejects.toThrow(new ApiError(roomClientMessages.roomDataNotFound));
  });
});

describe('deleteRoom', () => {
  it('is queued; the room, its grids and boxes and the batches’ links to them leave the local store at once', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, 2, 2);
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    const link = await fleet.server.request('POST', '/link_room_batch', { token: fleet.farm.admin.token, query: { room_id: roomId, batch_id: batchId } });
    expect(link.status).toBe(200);
    const { device, context } = await tablet(fleet.farm.admin);
    const [roomKey, gridKey, batchKey] = [await clientIdOf(fleet.server, 'rooms', roomId), await clientIdOf(fleet.server, 'grids', grid.id), await clientIdOf(fleet.server, 'batches', batchId)];
    expect((await device.database.batches.findOne(batchKey).exec())?.get('RoomIDs')).toEqual([roomKey]);

    fleet.proxy.setOnline(false);
    await deleteRoom(context, { roomId: roomKey });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_room', query: { room_id: roomKey } });
    expect(await device.database.rooms.findOne(roomKey).exec()).toBeNull();
    expect(await device.database.grids.find({ selector: { roomId: roomKey } }).exec()).toHaveLength(0);
    expect(await device.database.grid_boxes.find({ selector: { gridId: gridKey } }).exec()).toHaveLength(0);
    expect((await device.database.batches.findOne(batchKey).exec())?.get('RoomIDs')).toEqual([]);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    expect(await device.outbox.count()).toBe(0);
    const row = await fleet.server.database.db.selectFrom('rooms').select('deleted_at').where('id', '=', roomId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await device.database.rooms.findOne(roomKey).exec()).toBeNull();
    expect(await device.database.grid_boxes.find({ selector: { gridId: gridKey } }).exec()).toHaveLength(0);
  });

  it('needs a room id', async () => {
    const { context } = await tablet(fleet.farm.admin);
    await expect(deleteRoom(context, { roomId: 0 })).rejects.toThrow(new ValidationError(roomMessages.roomIdRequired));
  });
});

describe('room scroll', () => {
  it('getRoomScroll answers the server’s value', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    expect(await getRoomScroll(context, { companyId: fleet.farm.companyId, roomId })).toEqual({ status: 'success', StartScroll: 0 });
  });

  it('getRoomScroll swallows failures: the local value when there is one, else null', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const { context } = await tablet();
    expect(await getRoomScroll(context, { companyId: fleet.farm.companyId, roomId: 987654 })).toBeNull();
    fleet.proxy.setOnline(false);
    expect(await getRoomScroll(context, { companyId: fleet.farm.companyId, roomId: await clientIdOf(fleet.server, 'rooms', roomId) })).toEqual({ status: 'success', StartScroll: 0 });
  });

  it('updateRoomScroll is queued, shown at once, and reaches the server', async () => {
    const roomId = await createRoomRow(fleet.server, fleet.farm.companyId);
    const roomKey = await clientIdOf(fleet.server, 'rooms', roomId);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await updateRoomScroll(context, { companyId: fleet.farm.companyId, roomId: roomKey, value: 420 });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query])).toEqual([['/update_room_scroll', { company_id: fleet.farm.companyId, room_id: roomKey, setValue: 420 }]]);
    expect((await device.database.rooms.findOne(roomKey).exec())?.get('StartScroll')).toBe(420);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('rooms').select('start_scroll').where('id', '=', roomId).executeTakeFirstOrThrow();
    expect(row.start_scroll).toBe(420);
    expect((await device.database.rooms.findOne(roomKey).exec())?.get('StartScroll')).toBe(420);
  });

  it('updateRoomScroll needs a number: "setValue must be a number."', async () => {
    const { context } = await tablet();
    await expect(updateRoomScroll(context, { companyId: fleet.farm.companyId, roomId: 1, value: Number.NaN })).rejects.toThrow(new ValidationError(roomMessages.scrollRequired));
  });

  it('updateAllRoomScroll (Admin) is queued; every local room takes the value, then every server room', async () => {
    const [first, second] = [await createRoomRow(fleet.server, fleet.farm.companyId), await createRoomRow(fleet.server, fleet.farm.companyId)];
    const { device, context } = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    await updateAllRoomScroll(context, { companyId: fleet.farm.companyId, value: 7 });
    const local = await device.database.rooms.find({ selector: { CompanyID: fleet.farm.companyId } }).exec();
    expect(local.length).toBeGreaterThanOrEqual(2);
    expect(new Set(local.map((room) => room.get('StartScroll')))).toEqual(new Set([7]));

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const rows = await fleet.server.database.db.selectFrom('rooms').select('start_scroll').where('id', 'in', [first, second]).execute();
    expect(rows.map((row) => row.start_scroll)).toEqual([7, 7]);
    expect(await device.outbox.count()).toBe(0);
  });
});
