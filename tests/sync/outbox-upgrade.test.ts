/**
 * The outbox of the previous version (Dexie version 2: records made offline named `tmp-<uuid>`, their
 * creates sent without an id) opened by this one (sync/outbox-upgrade.ts): waiting entries are renamed
 * to client ids and their creates carry them, so they replay against the real server into the records
 * the tablet shows, once, under the same keys.
 */
import { randomUUID } from 'node:crypto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { boxClientId } from '../../common/client-ids';
import { clientIdOf, createGrid } from '../support/factories';
import { useFleet } from '../support/fleet';

const fleet = useFleet({ room: true });

/** Writes entries as version 2 of the outbox stored them. */
async function legacyOutbox(name: string, entries: Array<Record<string, unknown>>) {
  const db = new Dexie(name, { indexedDB: globalThis.indexedDB, IDBKeyRange: globalThis.IDBKeyRange });
  db.version(1).stores({ entries: 'id, &seq, state', idMap: 'tempId, mappedAt' });
  db.version(2).stores({ entries: 'id, &seq, state, userId, *tempIds', idMap: 'tempId, mappedAt' });
  await db.table('entries').bulkAdd(entries);
  await db.table('idMap').add({ tempId: `tmp-${randomUUID()}`, serverId: 1, collection: 'rooms', documentId: 'x', mappedAt: Date.now() });
  db.close();
}

const entry = (seq: number, userId: number, fields: Record<string, unknown>) => ({
  id: randomUUID(),
  seq,
  query: {},
  body: { kind: 'none' },
  tempIds: [],
  creates: [],
  effects: [],
  label: `Entry ${seq}`,
  userId,
  actedAt: new Date(Date.now() - 60_000 + seq).toISOString(),
  fallbackMessage: null,
  attempts: 0,
  state: 'pending',
  error: null,
  createdAt: Date.now(),
  nextAttemptAt: 0,
  ...fields,
});

describe('an outbox written by the previous version', () => {
  it('replays into the records the tablet shows: a room, a grid in it, a cull of a new box and of an existing one', async () => {
    const user = fleet.farm.regular;
    const existing = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 1, 1);
    const existingBox = existing.boxIds[0] as number;
    const [room, grid, box1, box2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const name = `Upgraded room ${Date.now()}`;
    const outboxName = `outbox-${randomUUID()}`;
    await legacyOutbox(outboxName, [
      entry(1, user.id, {
        method: 'POST',
        path: '/create_room',
        query: { company_id: fleet.farm.companyId },
        body: { kind: 'multipart', parts: [{ name: 'name', value: name }, { name: 'description', value: 'Queued before the update' }] },
        tempIds: [`tmp-${room}`],
        creates: [{ tempId: `tmp-${room}`, collection: 'rooms', path: ['RoomID'] }],
        effects: [{ op: 'upsert', collection: 'rooms', id: `tmp-${room}`, data: { RoomID: `tmp-${room}`, CompanyID: fleet.farm.companyId, Name: name }, before: null }],
      }),
      entry(2, user.id, {
        method: 'POST',
        path: '/Create_grid',
        body: { kind: 'multipart', parts: [{ name: 'nx', value: '2' }, { name: 'ny', value: '1' }, { name: 'ngrid_name', value: 'Bench' }, { name: 'ncompany_id', value: String(fleet.farm.companyId) }, { name: 'nroom_id', value: `tmp-${room}` }] },
        tempIds: [`tmp-${room}`, `tmp-${grid}`, `tmp-${box1}`, `tmp-${box2}`],
        creates: [
          { tempId: `tmp-${grid}`, collection: 'grids', path: ['GridID'] },
          { tempId: `tmp-${box1}`, collection: 'grid_boxes', path: ['grid', 'boxes'], match: { X: 1, Y: 1 }, field: 'id' },
          { tempId: `tmp-${box2}`, collection: 'grid_boxes', path: ['grid', 'boxes'], match: { X: 2, Y: 1 }, field: 'id' },
        ],
        effects: [
          { op: 'upsert', collection: 'grids', id: `tmp-${grid}`, data: { Name: 'Bench', RoomID: `tmp-${room}`, nx: 2, ny: 1 }, before: null },
          { op: 'upsert', collection: 'grid_boxes', id: `tmp-${box1}`, data: { GridID: `tmp-${grid}`, X: 1, Y: 1, culled: false }, before: null },
          { op: 'upsert', collection: 'grid_boxes', id: `tmp-${box2}`, data: { GridID: `tmp-${grid}`, X: 2, Y: 1, culled: false }, before: null },
        ],
      }),
      entry(3, user.id, {
        method: 'POST',
        path: '/update_culling_status',
        body: { kind: 'multipart', parts: [{ name: 'GridBoxID', value: `tmp-${box2}` }, { name: 'user_id', value: String(user.id) }, { name: 'culled', value: '1' }] },
        tempIds: [`tmp-${box2}`],
        effects: [{ op: 'patch', collection: 'grid_boxes', id: `tmp-${box2}`, data: { culled: true }, before: null }],
      }),
      // A box the server had already named: the request goes as it is; its effect named the old local key.
      entry(4, user.id, {
        method: 'POST',
        path: '/update_culling_status',
        body: { kind: 'multipart', parts: [{ name: 'GridBoxID', value: String(existingBox) }, { name: 'user_id', value: String(user.id) }, { name: 'culled', value: '1' }] },
        effects: [{ op: 'patch', collection: 'grid_boxes', id: String(existingBox), data: { culled: true }, before: null }],
      }),
    ]);

    const device = await fleet.tablet(user, { outboxName, settle: false });
    const upgraded = await device.outbox.all();
    expect(upgraded.map((each) => each.creates)).toEqual([[room], [grid, boxClientId(grid, 1, 1), boxClientId(grid, 2, 1)], [], []]);
    expect(upgraded[2]?.clientIds).toEqual([boxClientId(grid, 2, 1)]);
    expect(upgraded[3]?.effects).toEqual([]);
    await device.engine.settle();

    expect(await device.outbox.count()).toBe(0);
    const db = fleet.server.database.db;
    const rooms = await db.selectFrom('rooms').select(['id', 'client_id']).where('name', '=', name).execute();
    expect(rooms.map((row) => row.client_id)).toEqual([room]);
    const grids = await db.selectFrom('grids').select(['id', 'client_id']).where('room_id', '=', rooms[0]!.id).execute();
    expect(grids.map((row) => row.client_id)).toEqual([grid]);
    const boxes = await db.selectFrom('grid_boxes').select(['id', 'x', 'culled']).where('grid_id', '=', grids[0]!.id).orderBy('x').execute();
    expect(boxes.map((row) => row.culled)).toEqual([false, true]);
    expect((await db.selectFrom('grid_boxes').select('culled').where('id', '=', existingBox).executeTakeFirstOrThrow()).culled).toBe(true);

    // The tablet shows them under the keys it gave them, as the server's copies.
    expect((await device.database.rooms.findOne(room).exec())?.get('serverId')).toBe(rooms[0]!.id);
    expect((await device.database.grid_boxes.findOne(boxClientId(grid, 2, 1)).exec())?.get('culled')).toBe(true);
    expect((await device.database.grid_boxes.findOne(await clientIdOf(fleet.server, 'grid_boxes', existingBox)).exec())?.get('culled')).toBe(true);
    expect(await fleet.notFromServer(device)).toEqual([]);
  });
});
