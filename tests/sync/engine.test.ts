import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, createTenant, type Tenant } from '../support/factories';
import { startProxy, type NetworkProxy } from '../support/proxy';
import { startServer, type TestServer } from '../support/server';
import { startTablet, type Tablet } from '../support/client';
import { createGrid, updateCullingStatus } from '../../src/api/grids';
import { createRoom } from '../../src/api/rooms';
import { linkGridboxBatch } from '../../src/api/batches';
import type { TempId } from '../../sync/types';

let server: TestServer;
let proxy: NetworkProxy;
let farm: Tenant;
const tablets: Tablet[] = [];

beforeAll(async () => {
  server = await startServer();
  proxy = await startProxy(server.url);
  farm = await createTenant(server);
});
afterEach(async () => {
  proxy.setOnline(true);
  while (tablets.length) await tablets.pop()?.close();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

async function tablet(user = farm.regular) {
  const started = await startTablet(`${proxy.url}/api`, user);
  tablets.push(started);
  return started;
}

/** Every document of every local collection, as plain data. */
async function localDocuments(device: Tablet) {
  const all: Array<Record<string, unknown>> = [];
  for (const collection of Object.values(device.database.collections)) {
    for (const document of await collection.find().exec()) all.push(document.toMutableJSON());
  }
  return all;
}

describe('offline work reaches the server once, under server ids', () => {
  it('a room, a grid in it, a cull of one of its boxes and a batch link, made offline', async () => {
    const batchId = await createBatch(server, farm.companyId);
    const device = await tablet();
    await device.engine.settle();
    proxy.setOnline(false);

    const name = `Offline room ${Date.now()}`;
    const { RoomID } = await createRoom(device.context, { companyId: farm.companyId, name, description: 'Made without signal' });
    const { GridID, boxIds } = await createGrid(device.context, { companyId: farm.companyId, roomId: RoomID, name: 'Bench A', nx: 3, ny: 2 });
    await updateCullingStatus(device.context, { gridBoxId: boxIds[4] as TempId, userId: farm.regular.id, culled: true });
    await linkGridboxBatch(device.context, { batchId, gridBoxIds: [boxIds[0] as TempId, boxIds[1] as TempId] });

    // The screens see it all at once, offline.
    const offlineGrids = await device.database.grids.find({ selector: { roomId: RoomID } }).exec();
    expect(offlineGrids.map((grid) => grid.id)).toEqual([GridID]);
    expect((await device.database.grid_boxes.find({ selector: { gridId: GridID } }).exec()).length).toBe(6);
    expect(await device.outbox.count()).toBe(4);

    proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();

    const rooms = await server.database.db.selectFrom('rooms').selectAll().where('name', '=', name).execute();
    expect(rooms).toHaveLength(1);
    const room = rooms[0] as (typeof rooms)[number];
    const grids = await server.database.db.selectFrom('grids').selectAll().where('room_id', '=', room.id).execute();
    expect(grids).toHaveLength(1);
    const grid = grids[0] as (typeof grids)[number];
    const boxes = await server.database.db.selectFrom('grid_boxes').selectAll().where('grid_id', '=', grid.id).orderBy('y').orderBy('x').execute();
    expect(boxes.map((box) => box.culled)).toEqual([false, false, false, false, true, false]);
    const links = await server.database.db.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).orderBy('grid_box_id').execute();
    expect(links.map((link) => link.grid_box_id)).toEqual([boxes[0]?.id, boxes[1]?.id]);

    expect(await device.outbox.count()).toBe(0);
    const local = JSON.stringify(await localDocuments(device));
    expect(local).not.toContain('tmp-');
    const localRoom = await device.database.rooms.findOne(String(room.id)).exec();
    expect(localRoom?.get('Name')).toBe(name);
    const localBoxes = await device.database.grid_boxes.find({ selector: { gridId: String(grid.id) } }).exec();
    expect(localBoxes).toHaveLength(6);
    expect(localBoxes.find((box) => box.get('X') === 2 && box.get('Y') === 2)?.get('culled')).toBe(true);
  });
});
