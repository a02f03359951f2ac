import { describe, expect, it } from 'vitest';
import { isClientId, newClientId, subGridboxClientId } from '../../../common/client-ids';
import { subgridClientMessages as c, subgridMessages as m } from '../../../common/messages/subgrids';
import { ApiError } from '../../../src/api/context';
import { createGrid as createOfflineGrid } from '../../../src/api/grids';
import {
  createSubGridboxes,
  deleteSubGridbox,
  firstFreePosition,
  getCompanyMovementHistory,
  getSubGridboxes,
  mergeSubGridbox,
  movePlant,
  removeSubGridbox,
  type SubGridbox,
  updateSubGridbox,
} from '../../../src/api/subgrids';
import type { Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createGrid } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ room: true });
const { tablet } = fleet;

/**
 * A fresh grid of nx × ny boxes on the server, pulled by the tablet; its boxes row by row: `id`, the
 * server's, and `key`, the client id by which the tablet names the box (as the screens do).
 */
async function boxesOn(device: Tablet, nx = 2, ny = 1) {
  const { boxIds } = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, nx, ny);
  const keys = await clientIdsOf(fleet.server, 'grid_boxes', boxIds);
  await device.engine.settle();
  return boxIds.map((id, index) => ({ id, key: keys[index] as string }));
}

async function localBox(device: Tablet, boxKey: string) {
  const box = await device.database.grid_boxes.findOne(boxKey).exec();
  return box ? (box.toMutableJSON() as unknown as Record<string, unknown> & { sub_gridboxes: SubGridbox[] }) : null;
}

/** The division's client id: the create_sub_gridboxes entry's `client_id` (its sub-gridboxes' are derived from it). */
const divisionOf = (entry: { query: Record<string, unknown> } | undefined) => String(entry?.query.client_id);

const liveSubsOnServer = (boxId: number) =>
  fleet.server.database.db.selectFrom('sub_gridboxes').selectAll().where('parent_gridbox_id', '=', boxId).where('deleted_at', 'is', null).orderBy('suby').orderBy('subx').execute();

describe('create_sub_gridboxes', () => {
  it('needs the grid box, the user and a size or custom positions, with the spec messages', async () => {
    const device = await tablet();
    const box = (await boxesOn(device))[0]?.key as string;
    const user = fleet.farm.regular.id;
    await rejects(createSubGridboxes(device.context, { parentGridboxId: undefined as never, userId: user, nx: 1, ny: 1 }), m.gridboxIdRequired);
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: undefined as never, nx: 1, ny: 1 }), m.userIdRequired);
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: user, nx: 2 }), m.sizeRequired);
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: user, nx: Number.NaN, ny: 1 }), m.sizeRequired);
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: user, customPositions: [] }), m.sizeRequired);
    // Spec §5: custom positions need numeric subx and suby, each at least 1.
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: user, customPositions: [{ subx: 0, suby: 1 }] }), m.customPositionsInvalid);
    expect(await device.outbox.count()).toBe(0);
  });

  it("divides the box at once under client ids derived from the call's; the server keeps them and gives plant ids", async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [{ id: number; key: string }];
    fleet.proxy.setOnline(false);
    const { sub_gridboxes: created } = await createSubGridboxes(device.context, { parentGridboxId: box.key, userId: fleet.farm.regular.id, nx: 2, ny: 1 });

    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/create_sub_gridboxes', query: { parent_gridbox_id: box.key, user_id: fleet.farm.regular.id, auto_initialize_plants: 1, nx: 2, ny: 1 } });
    const division = divisionOf(entry);
    expect(isClientId(division)).toBe(true);
    const derived = [subGridboxClientId(division, 1, 1), subGridboxClientId(division, 2, 1)];
    expect(created.map((sub) => sub.Sub_gridboxID)).toEqual(derived);
    expect(entry?.creates).toEqual(derived);
    expect(entry?.clientIds).toEqual(expect.arrayContaining([box.key, division]));
    const offline = await localBox(device, box.key);
    expect(offline?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.ParentGridboxID, sub.SubX, sub.SubY, sub.CustomName, sub.PlantID, sub.pending])).toEqual([
      [derived[0], box.key, 1, 1, 'Sub-1-1', null, true],
      [derived[1], box.key, 2, 1, 'Sub-2-1', null, true],
    ]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const rows = await liveSubsOnServer(box.id);
    expect(rows.map((row) => [row.subx, row.suby, row.client_id])).toEqual([
      [1, 1, derived[0]],
      [2, 1, derived[1]],
    ]);
    expect(rows.every((row) => /^P-/.test(row.plant_id ?? ''))).toBe(true);
    // The server's copy of the box replaced it under the same key: the same sub-gridbox ids, with plant ids, none pending.
    const synced = await localBox(device, box.key);
    expect(synced?.serverId).toBe(box.id);
    expect(synced?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.ParentGridboxID, sub.PlantID, sub.pending])).toEqual(rows.map((row) => [row.client_id, box.key, row.plant_id, undefined]));
    expect(await device.outbox.count()).toBe(0);
  });

  it('custom positions win, and an edit made before the create reached the server names the sub-gridbox by its derived client id, and reaches the server', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [{ id: number; key: string }];
    fleet.proxy.setOnline(false);
    const { sub_gridboxes: created } = await createSubGridboxes(device.context, {
      parentGridboxId: box.key,
      userId: fleet.farm.regular.id,
      customPositions: [
        { subx: 3, suby: 2 },
        { subx: 1, suby: 1 },
      ],
      autoInitializePlants: false,
    });
    const mother = created.find((sub) => sub.SubX === 3) as SubGridbox;
    await updateSubGridbox(device.context, { subGridboxId: mother.Sub_gridboxID, parentGridboxId: box.key, customName: 'Mother' });
    const [create, update] = await device.outbox.all();
    expect(create?.body).toEqual({ kind: 'json', data: { custom_positions: [{ subx: 3, suby: 2 }, { subx: 1, suby: 1 }] } });
    expect(create?.query).toMatchObject({ auto_initialize_plants: 0 });
    expect(create?.query).not.toHaveProperty('nx');
    const division = divisionOf(create);
    expect(mother.Sub_gridboxID).toBe(subGridboxClientId(division, 3, 2));
    expect(create?.creates).toEqual([subGridboxClientId(division, 3, 2), subGridboxClientId(division, 1, 1)]);
    // The edit names the sub-gridbox the create makes, so it goes after it.
    expect(update?.clientIds).toEqual([mother.Sub_gridboxID]);
    expect(update?.creates).toEqual([]);
    expect(update?.body).toEqual({ kind: 'json', data: { sub_gridbox_id: mother.Sub_gridboxID, custom_name: 'Mother' } });
    expect((await localBox(device, box.key))?.sub_gridboxes.map((sub) => sub.CustomName)).toEqual(['Sub-1-1', 'Mother']);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    const rows = await liveSubsOnServer(box.id);
    expect(rows.map((row) => [row.subx, row.suby, row.custom_name, row.plant_id, row.client_id])).toEqual([
      [1, 1, null, null, subGridboxClientId(division, 1, 1)],
      [3, 2, 'Mother', null, mother.Sub_gridboxID],
    ]);
    const synced = await localBox(device, box.key);
    expect(synced?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.CustomName, sub.pending])).toEqual(rows.map((row) => [row.client_id, row.custom_name ?? `Sub-${row.subx}-${row.suby}`, undefined]));
  });

  it("divides a box of a grid made offline: the entry names the box by its client id, waits for the grid's create and reaches the server", async () => {
    const device = await tablet();
    const roomKey = await clientIdOf(fleet.server, 'rooms', fleet.roomId);
    fleet.proxy.setOnline(false);
    const { boxIds } = await createOfflineGrid(device.context, { companyId: fleet.farm.companyId, roomId: roomKey, name: `Offline ${Date.now()}`, nx: 1, ny: 1 });
    const box = boxIds[0] as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 2 });
    expect((await localBox(device, box))?.sub_gridboxes).toHaveLength(4);
    const [grid, create] = await device.outbox.all();
    expect(grid?.creates).toContain(box);
    expect(create?.clientIds).toContain(box);
    expect(create?.query).toMatchObject({ parent_gridbox_id: box });
    const division = divisionOf(create);
    const derived = [subGridboxClientId(division, 1, 1), subGridboxClientId(division, 2, 1), subGridboxClientId(division, 1, 2), subGridboxClientId(division, 2, 2)];
    expect(create?.creates).toEqual(derived);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const serverBox = await fleet.server.database.db.selectFrom('grid_box_client_ids').select('grid_box_id').where('client_id', '=', box).executeTakeFirstOrThrow();
    const rows = await liveSubsOnServer(serverBox.grid_box_id);
    expect(rows.map((row) => row.client_id)).toEqual(derived);
    // The box kept its key; the server's copy carries the server's id and the same sub-gridbox ids.
    const synced = await localBox(device, box);
    expect(synced?.serverId).toBe(serverBox.grid_box_id);
    expect(synced?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.ParentGridboxID, sub.PlantID, sub.pending])).toEqual(rows.map((row) => [row.client_id, box, row.plant_id, undefined]));
    expect(await device.outbox.count()).toBe(0);
  });

  it('refuses a position the box already holds, as the server would', async () => {
    const device = await tablet();
    const box = (await boxesOn(device))[0]?.key as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 1, ny: 1 });
    await rejects(createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, customPositions: [{ subx: 1, suby: 1 }] }), m.positionsOccupied(['1-1']));
    expect(await device.outbox.count()).toBe(1);
  });
});

describe('get_sub_gridboxes', () => {
  it("needs the grid box: 'Gridbox ID is required'", async () => {
    const device = await tablet();
    await rejects(getSubGridboxes(device.context, { parentGridboxId: undefined as never }), m.gridboxIdRequired);
  });

  it("answers the server's list, total_count and max_allowed, named as the tablet names them; removed ones on request", async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [{ id: number; key: string }];
    const { sub_gridboxes: created } = await createSubGridboxes(device.context, { parentGridboxId: box.key, userId: fleet.farm.regular.id, nx: 3, ny: 1 });
    await device.engine.settle();
    const [first] = await liveSubsOnServer(box.id);
    await fleet.server.request('DELETE', '/delete_sub_gridbox', { token: fleet.farm.admin.token, query: { sub_gridbox_id: first?.id } });

    const live = await getSubGridboxes(device.context, { parentGridboxId: box.key });
    // The box, its grid and its room as the local answer names them.
    const local = await device.database.grid_boxes.findOne(box.key).exec();
    const roomKey = await clientIdOf(fleet.server, 'rooms', fleet.roomId);
    expect(live).toMatchObject({ status: 'success', source: 'server', total_count: 2, max_allowed: 64, parent_gridbox: { id: box.key, serverId: box.id, X: 1, Y: 1, GridID: local?.get('GridID'), RoomID: roomKey } });
    // The live ones under the tablet's client ids, so a change made from the answer finds them locally.
    expect(live.sub_gridboxes.map((sub) => [sub.SubX, sub.Sub_gridboxID, sub.ParentGridboxID])).toEqual([
      [2, created[1]?.Sub_gridboxID, box.key],
      [3, created[2]?.Sub_gridboxID, box.key],
    ]);
    const all = await getSubGridboxes(device.context, { parentGridboxId: box.key, includeDeleted: true });
    expect(all.sub_gridboxes.map((sub) => [sub.SubX, sub.IsDeleted])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    // A removed one keeps the server's id: the tablet has none for it.
    expect(all.sub_gridboxes[0]?.Sub_gridboxID).toBe(first?.id);
    expect(all.total_count).toBe(2);
  });

  it('reads the local store without signal, and for a box the server does not know yet', async () => {
    const device = await tablet();
    const roomKey = await clientIdOf(fleet.server, 'rooms', fleet.roomId);
    const [box] = (await boxesOn(device)) as [{ id: number; key: string }];
    await createSubGridboxes(device.context, { parentGridboxId: box.key, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const local = await getSubGridboxes(device.context, { parentGridboxId: box.key });
    expect(local).toMatchObject({ source: 'local', total_count: 2, max_allowed: null, parent_gridbox: { id: box.key, serverId: box.id, X: 1, Y: 1, RoomID: roomKey } });
    expect(local.sub_gridboxes.map((sub) => sub.CustomName)).toEqual(['Sub-1-1', 'Sub-2-1']);
    // A box the tablet does not hold, without signal: the spec's fallback.
    await rejects(getSubGridboxes(device.context, { parentGridboxId: 999_999 }), c.getFailed, ApiError);
    await rejects(getSubGridboxes(device.context, { parentGridboxId: newClientId() }), c.getFailed, ApiError);

    // A box made on the tablet whose create still waits: the local store answers even with signal, without asking the server.
    const { boxIds } = await createOfflineGrid(device.context, { companyId: fleet.farm.companyId, roomId: roomKey, name: `Unsent ${Date.now()}`, nx: 1, ny: 1 });
    const unsent = boxIds[0] as string;
    await createSubGridboxes(device.context, { parentGridboxId: unsent, userId: fleet.farm.regular.id, nx: 1, ny: 2 });
    fleet.proxy.setOnline(true);
    const asked = () => fleet.proxy.sent.filter((request) => request.url.startsWith('/api/get_sub_gridboxes')).length;
    const before = asked();
    const waiting = await getSubGridboxes(device.context, { parentGridboxId: unsent });
    expect(waiting).toMatchObject({ source: 'local', total_count: 2, max_allowed: null, parent_gridbox: { id: unsent, X: 1, Y: 1, RoomID: roomKey } });
    expect(waiting.parent_gridbox).not.toHaveProperty('serverId');
    expect(waiting.sub_gridboxes.map((sub) => [sub.SubY, sub.pending])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(asked()).toBe(before);
  });

  it('shows the box from the local store while a change to it waits in the outbox (here: refused, in the failed list)', async () => {
    const device = await tablet();
    const box = (await boxesOn(device))[0]?.key as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [first] = (await localBox(device, box))?.sub_gridboxes ?? [];
    // Deleting is Admin-only: a grower's delete stays in the outbox, failed, until retried or discarded.
    await deleteSubGridbox(device.context, { subGridboxId: first?.Sub_gridboxID as string, parentGridboxId: box });
    await device.engine.settle();
    expect(device.engine.current().failed).toHaveLength(1);
    const answer = await getSubGridboxes(device.context, { parentGridboxId: box });
    expect(answer).toMatchObject({ source: 'local', total_count: 1 });
    const deleted = await getSubGridboxes(device.context, { parentGridboxId: box, includeDeleted: true });
    expect(deleted).toMatchObject({ source: 'server', total_count: 2 });
  });
});

describe('delete_sub_gridbox', () => {
  it("needs the sub-gridbox: 'Sub gridbox ID is required'", async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(deleteSubGridbox(device.context, { subGridboxId: undefined as never }), m.subGridboxIdRequired);
    await rejects(deleteSubGridbox(device.context, { subGridboxId: 'x' as never }), m.subGridboxIdRequired);
  });

  it('drops it from the list and lowers the count, never below 0 (spec §4)', () => {
    const sub = { Sub_gridboxID: 7, SubX: 1, SubY: 1 } as SubGridbox;
    expect(removeSubGridbox({ sub_gridboxes: [sub], total_count: 3 }, 7)).toEqual({ sub_gridboxes: [], total_count: 2 });
    expect(removeSubGridbox({ sub_gridboxes: [sub], total_count: 0 }, '7' as never)).toEqual({ sub_gridboxes: [], total_count: 0 });
    const state = { sub_gridboxes: [sub], total_count: 1 };
    expect(removeSubGridbox(state, 8)).toBe(state);
  });

  it('leaves the local box at once and reaches the server', async () => {
    const device = await tablet(fleet.farm.admin);
    const box = (await boxesOn(device))[0]?.key as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.admin.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [first] = (await localBox(device, box))?.sub_gridboxes ?? [];
    const firstId = first?.Sub_gridboxID as string;
    expect(isClientId(firstId)).toBe(true);
    fleet.proxy.setOnline(false);
    const answer = await deleteSubGridbox(device.context, { subGridboxId: firstId, parentGridboxId: box });
    expect(answer).toEqual({ Sub_gridboxID: firstId, parent_gridbox_id: box, total_count: 1 });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_sub_gridbox', query: { sub_gridbox_id: firstId }, clientIds: [firstId] });
    expect((await localBox(device, box))?.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('sub_gridboxes').select('deleted_at').where('client_id', '=', firstId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await localBox(device, box))?.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2]);
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('update_sub_gridbox', () => {
  it("needs the sub-gridbox ('Sub gridbox ID is required') and a field to change", async () => {
    const device = await tablet();
    await rejects(updateSubGridbox(device.context, { subGridboxId: undefined as never, color: 'red' }), m.subGridboxIdRequired);
    await rejects(updateSubGridbox(device.context, { subGridboxId: 5 }), m.nothingToUpdate);
  });

  it('merges only the supplied fields (spec §4)', () => {
    const sub = { Sub_gridboxID: 1, SubX: 2, SubY: 3, CustomName: 'Mother', Color: 'red', Status: 'Healthy', PlantID: 'P-1', Content: null, ImageName: null } as SubGridbox;
    expect(mergeSubGridbox(sub, { status: 'Sick' })).toEqual({ ...sub, Status: 'Sick' });
    expect(mergeSubGridbox(sub, { custom_name: null, color: null })).toEqual({ ...sub, CustomName: 'Sub-2-3', Color: null });
  });

  it('sends and changes only what was given, locally at once and on the server', async () => {
    const device = await tablet();
    const box = (await boxesOn(device))[0]?.key as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 1, ny: 1 });
    await device.engine.settle();
    const [sub] = (await localBox(device, box))?.sub_gridboxes ?? [];
    const subId = sub?.Sub_gridboxID as string;
    expect(isClientId(subId)).toBe(true);
    fleet.proxy.setOnline(false);
    await updateSubGridbox(device.context, { subGridboxId: subId, parentGridboxId: box, color: '#00ff00', customName: ' Left ' });
    const shown = await updateSubGridbox(device.context, { subGridboxId: subId, parentGridboxId: box, status: 'Healthy' });
    expect(shown).toMatchObject({ Sub_gridboxID: subId, CustomName: 'Left', Color: '#00ff00', Status: 'Healthy', PlantID: sub?.PlantID });
    const [first, second] = await device.outbox.all();
    expect(first?.body).toEqual({ kind: 'json', data: { sub_gridbox_id: subId, custom_name: 'Left', color: '#00ff00' } });
    expect(second?.body).toEqual({ kind: 'json', data: { sub_gridbox_id: subId, status: 'Healthy' } });

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('sub_gridboxes').selectAll().where('client_id', '=', subId).executeTakeFirstOrThrow();
    expect([row.custom_name, row.color, row.status, row.plant_id]).toEqual(['Left', '#00ff00', 'Healthy', sub?.PlantID]);
    expect((await localBox(device, box))?.sub_gridboxes[0]).toMatchObject({ CustomName: 'Left', Color: '#00ff00', Status: 'Healthy' });
  });
});

describe('move_plant', () => {
  it("needs the plant, the target box and the user, each '… is required'", async () => {
    const device = await tablet();
    const input = { plantUid: 'P-1', targetParentGridboxId: 1, userId: fleet.farm.regular.id };
    await rejects(movePlant(device.context, { ...input, plantUid: '  ' }), m.plantUidRequired);
    await rejects(movePlant(device.context, { ...input, targetParentGridboxId: undefined as never }), m.targetRequired);
    await rejects(movePlant(device.context, { ...input, userId: undefined as never }), m.userIdRequired);
  });

  it('picks the first free position as the server does', () => {
    expect(firstFreePosition([])).toEqual({ subx: 1, suby: 1 });
    expect(firstFreePosition([{ subx: 1, suby: 1 }, { subx: 2, suby: 1 }, { subx: 1, suby: 2 }])).toEqual({ subx: 2, suby: 2 });
    expect(firstFreePosition([{ subx: 1, suby: 1 }, { subx: 2, suby: 1 }])).toEqual({ subx: 1, suby: 2 });
  });

  it('moves the plant between boxes at once, records the move under its client id, and the server agrees', async () => {
    const device = await tablet();
    const [from, to] = (await boxesOn(device, 2, 1)) as [{ id: number; key: string }, { id: number; key: string }];
    await createSubGridboxes(device.context, { parentGridboxId: from.key, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [plant] = (await localBox(device, from.key))?.sub_gridboxes ?? [];
    const plantUid = plant?.PlantID as string;

    fleet.proxy.setOnline(false);
    const move = await movePlant(device.context, { plantUid, targetParentGridboxId: to.key, userId: fleet.farm.regular.id, fromParentGridboxId: from.key, movementReason: 'Spacing' });
    expect(move).toMatchObject({
      plant_uid: plantUid,
      sub_gridbox_id: plant?.Sub_gridboxID,
      from_parent_gridbox_id: from.key,
      to_parent_gridbox_id: to.key,
      from_position: { subx: 1, suby: 1 },
      to_position: { subx: 1, suby: 1 },
      company_id: fleet.farm.companyId,
    });
    const movementId = move.movement_id as string;
    expect(isClientId(movementId)).toBe(true);
    expect((await localBox(device, from.key))?.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2]);
    expect((await localBox(device, to.key))?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.PlantID, sub.ParentGridboxID])).toEqual([[plant?.Sub_gridboxID, plantUid, to.key]]);
    const moveDocument = await device.database.operations.findOne(movementId).exec();
    expect(moveDocument?.get('kind')).toBe('plant_move');
    const [entry] = await device.outbox.all();
    expect(entry?.body).toEqual({ kind: 'json', data: { plant_uid: plantUid, target_parent_gridbox_id: to.key, user_id: fleet.farm.regular.id, movement_reason: 'Spacing', client_id: movementId } });
    expect(entry?.creates).toEqual([movementId]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const moves = await fleet.server.database.db.selectFrom('plant_moves').selectAll().where('plant_uid', '=', plantUid).execute();
    expect(moves.map((row) => [row.from_parent_gridbox_id, row.to_parent_gridbox_id, row.movement_reason, row.client_id])).toEqual([[from.id, to.id, 'Spacing', movementId]]);
    expect((await liveSubsOnServer(to.id)).map((row) => [row.plant_id, row.client_id])).toEqual([[plantUid, plant?.Sub_gridboxID]]);
    // The server's copy of the move replaced the optimistic one under the same key, named as the tablet names records.
    const local = await device.database.operations.find({ selector: { kind: 'plant_move' } }).exec();
    expect(local.map((document) => document.toMutableJSON())).toEqual([
      expect.objectContaining({ id: movementId, movement_id: movementId, serverId: moves[0]?.id, sub_gridbox_id: plant?.Sub_gridboxID, from_parent_gridbox_id: from.key, to_parent_gridbox_id: to.key }),
    ]);
    expect((await localBox(device, to.key))?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.PlantID])).toEqual([[plant?.Sub_gridboxID, plantUid]]);
  });

  it('refuses a position the tablet sees taken, and the position the plant is at', async () => {
    const device = await tablet();
    const box = (await boxesOn(device, 1, 1))[0]?.key as string;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [plant] = (await localBox(device, box))?.sub_gridboxes ?? [];
    const input = { plantUid: plant?.PlantID as string, targetParentGridboxId: box, userId: fleet.farm.regular.id };
    await rejects(movePlant(device.context, { ...input, targetPosition: { subx: 2, suby: 1 } }), m.targetOccupied(2, 1));
    await rejects(movePlant(device.context, { ...input, targetPosition: { subx: 1, suby: 1 } }), m.alreadyThere);
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('get_company_movement_history', () => {
  it("needs the company: 'Company ID is required'", async () => {
    const device = await tablet();
    await rejects(getCompanyMovementHistory(device.context, { companyId: undefined as never }), m.companyIdRequired);
  });

  it('answers a page of 50 from offset 0 by default', async () => {
    const device = await tablet();
    const [from, to] = (await boxesOn(device, 2, 1)) as [{ id: number; key: string }, { id: number; key: string }];
    await createSubGridboxes(device.context, { parentGridboxId: from.key, userId: fleet.farm.regular.id, nx: 1, ny: 1 });
    await device.engine.settle();
    const [plant] = (await localBox(device, from.key))?.sub_gridboxes ?? [];
    await movePlant(device.context, { plantUid: plant?.PlantID as string, targetParentGridboxId: to.key, userId: fleet.farm.regular.id, fromParentGridboxId: from.key });
    await device.engine.settle();

    // An online read: the spec's integer ids.
    const history = await getCompanyMovementHistory(device.context, { companyId: fleet.farm.companyId });
    expect(history).toMatchObject({ status: 'success', limit: 50, offset: 0, sort_by: 'moved_at', sort_order: 'desc' });
    expect(history.movements.find((move) => move.plant_uid === plant?.PlantID)).toMatchObject({ from_parent_gridbox_id: from.id, to_parent_gridbox_id: to.id });
    expect(history.total_count).toBeGreaterThanOrEqual(1);
  });

  it("without an answer: 'Failed to fetch company movement history'", async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    await rejects(getCompanyMovementHistory(device.context, { companyId: fleet.farm.companyId }), c.historyFailed, ApiError);
  });
});
