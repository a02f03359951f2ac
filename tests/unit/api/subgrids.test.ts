import { describe, expect, it } from 'vitest';
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
import type { TempId } from '../../../sync/types';
import type { Tablet } from '../../support/client';
import { createGrid } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ room: true });
const { tablet } = fleet;

/** A fresh grid of nx × ny boxes on the server, pulled by the tablet; its box ids row by row. */
async function boxesOn(device: Tablet, nx = 2, ny = 1) {
  const { boxIds } = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, nx, ny);
  await device.engine.settle();
  return boxIds;
}

async function localBox(device: Tablet, boxId: number | string) {
  const box = await device.database.grid_boxes.findOne(String(boxId)).exec();
  return box ? (box.toMutableJSON() as unknown as Record<string, unknown> & { sub_gridboxes: SubGridbox[] }) : null;
}

const liveSubsOnServer = (boxId: number) =>
  fleet.server.database.db.selectFrom('sub_gridboxes').selectAll().where('parent_gridbox_id', '=', boxId).where('deleted_at', 'is', null).orderBy('suby').orderBy('subx').execute();

describe('create_sub_gridboxes', () => {
  it('needs the grid box, the user and a size or custom positions, with the spec messages', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
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

  it('divides the box at once under temporary ids; the server assigns ids and plant ids', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
    fleet.proxy.setOnline(false);
    const { sub_gridboxes: created } = await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 1 });

    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/create_sub_gridboxes', query: { parent_gridbox_id: box, user_id: fleet.farm.regular.id, auto_initialize_plants: 1, nx: 2, ny: 1 } });
    const offline = await localBox(device, box);
    expect(offline?.sub_gridboxes.map((sub) => [sub.SubX, sub.SubY, sub.CustomName, sub.PlantID])).toEqual([
      [1, 1, 'Sub-1-1', null],
      [2, 1, 'Sub-2-1', null],
    ]);
    expect(offline?.sub_gridboxes.map((sub) => sub.Sub_gridboxID)).toEqual(created.map((sub) => sub.Sub_gridboxID));
    expect(String(created[0]?.Sub_gridboxID)).toMatch(/^tmp-/);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const rows = await liveSubsOnServer(box);
    expect(rows.map((row) => [row.subx, row.suby])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(rows.every((row) => /^P-/.test(row.plant_id ?? ''))).toBe(true);
    const synced = await localBox(device, box);
    expect(JSON.stringify(synced)).not.toContain('tmp-');
    expect(synced?.sub_gridboxes.map((sub) => [sub.Sub_gridboxID, sub.PlantID])).toEqual(rows.map((row) => [row.id, row.plant_id]));
    expect(await device.outbox.count()).toBe(0);
  });

  it('custom positions win, and an edit made before the create reached the server follows it under the server id', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
    fleet.proxy.setOnline(false);
    const { sub_gridboxes: created } = await createSubGridboxes(device.context, {
      parentGridboxId: box,
      userId: fleet.farm.regular.id,
      customPositions: [
        { subx: 3, suby: 2 },
        { subx: 1, suby: 1 },
      ],
      autoInitializePlants: false,
    });
    const mother = created.find((sub) => sub.SubX === 3) as SubGridbox;
    await updateSubGridbox(device.context, { subGridboxId: mother.Sub_gridboxID, parentGridboxId: box, customName: 'Mother' });
    const [create, update] = await device.outbox.all();
    expect(create?.body).toEqual({ kind: 'json', data: { custom_positions: [{ subx: 3, suby: 2 }, { subx: 1, suby: 1 }] } });
    expect(create?.query).toMatchObject({ auto_initialize_plants: 0 });
    expect(create?.query).not.toHaveProperty('nx');
    expect(update?.tempIds).toEqual([mother.Sub_gridboxID]);
    expect((await localBox(device, box))?.sub_gridboxes.map((sub) => sub.CustomName)).toEqual(['Sub-1-1', 'Mother']);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const rows = await liveSubsOnServer(box);
    expect(rows.map((row) => [row.subx, row.suby, row.custom_name, row.plant_id])).toEqual([
      [1, 1, null, null],
      [3, 2, 'Mother', null],
    ]);
    expect(JSON.stringify(await localBox(device, box))).not.toContain('tmp-');
  });

  it('divides a box of a grid made offline: the entry waits for the grid and goes under its ids', async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const { boxIds } = await createOfflineGrid(device.context, { companyId: fleet.farm.companyId, roomId: fleet.roomId, name: `Offline ${Date.now()}`, nx: 1, ny: 1 });
    const box = boxIds[0] as TempId;
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 2 });
    expect((await localBox(device, box))?.sub_gridboxes).toHaveLength(4);
    const [, create] = await device.outbox.all();
    expect(create?.tempIds).toContain(box);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const [serverBox] = await fleet.server.database.db.selectFrom('grid_boxes').innerJoin('grids', 'grids.id', 'grid_boxes.grid_id').select('grid_boxes.id').where('grids.room_id', '=', fleet.roomId).orderBy('grid_boxes.id', 'desc').execute();
    const rows = await liveSubsOnServer(serverBox?.id as number);
    expect(rows).toHaveLength(4);
    const synced = await localBox(device, serverBox?.id as number);
    expect(synced?.sub_gridboxes.map((sub) => sub.Sub_gridboxID)).toEqual(rows.map((row) => row.id));
    expect(JSON.stringify(synced)).not.toContain('tmp-');
    expect(await localBox(device, box)).toBeNull();
  });

  it('refuses a position the box already holds, as the server would', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
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

  it("answers the server's list, total_count and max_allowed; removed ones on request", async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 3, ny: 1 });
    await device.engine.settle();
    const [first] = await liveSubsOnServer(box);
    await fleet.server.request('DELETE', '/delete_sub_gridbox', { token: fleet.farm.admin.token, query: { sub_gridbox_id: first?.id } });

    const live = await getSubGridboxes(device.context, { parentGridboxId: box });
    expect(live).toMatchObject({ status: 'success', source: 'server', total_count: 2, max_allowed: 64, parent_gridbox: { id: box, X: 1, Y: 1, RoomID: fleet.roomId } });
    expect(live.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2, 3]);
    const all = await getSubGridboxes(device.context, { parentGridboxId: box, includeDeleted: true });
    expect(all.sub_gridboxes.map((sub) => [sub.SubX, sub.IsDeleted])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(all.total_count).toBe(2);
  });

  it('reads the local store without signal, and for a box the server does not know yet', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const local = await getSubGridboxes(device.context, { parentGridboxId: box });
    expect(local).toMatchObject({ source: 'local', total_count: 2, max_allowed: null, parent_gridbox: { id: box, X: 1, Y: 1, RoomID: fleet.roomId } });
    expect(local.sub_gridboxes.map((sub) => sub.CustomName)).toEqual(['Sub-1-1', 'Sub-2-1']);
    // A box the tablet does not hold, without signal: the spec's fallback.
    await rejects(getSubGridboxes(device.context, { parentGridboxId: 999_999 }), c.getFailed, ApiError);
    const temporary = await getSubGridboxes(device.context, { parentGridboxId: 'tmp-00000000-0000-0000-0000-000000000000' }).catch((error: Error) => error.message);
    expect(temporary).toBe(c.boxNotLocal);
  });

  it('shows the box from the local store while a change to it waits in the outbox (here: refused, in the failed list)', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device)) as [number];
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [first] = (await localBox(device, box))?.sub_gridboxes ?? [];
    // Deleting is Admin-only: a grower's delete stays in the outbox, failed, until retried or discarded.
    await deleteSubGridbox(device.context, { subGridboxId: first?.Sub_gridboxID as number, parentGridboxId: box });
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
    const [box] = (await boxesOn(device)) as [number];
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.admin.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [first] = (await localBox(device, box))?.sub_gridboxes ?? [];
    fleet.proxy.setOnline(false);
    const answer = await deleteSubGridbox(device.context, { subGridboxId: first?.Sub_gridboxID as number, parentGridboxId: box });
    expect(answer).toEqual({ Sub_gridboxID: first?.Sub_gridboxID, parent_gridbox_id: box, total_count: 1 });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_sub_gridbox', query: { sub_gridbox_id: first?.Sub_gridboxID } });
    expect((await localBox(device, box))?.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('sub_gridboxes').select('deleted_at').where('id', '=', first?.Sub_gridboxID as number).executeTakeFirstOrThrow();
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
    const [box] = (await boxesOn(device)) as [number];
    await createSubGridboxes(device.context, { parentGridboxId: box, userId: fleet.farm.regular.id, nx: 1, ny: 1 });
    await device.engine.settle();
    const [sub] = (await localBox(device, box))?.sub_gridboxes ?? [];
    const subId = sub?.Sub_gridboxID as number;
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
    const row = await fleet.server.database.db.selectFrom('sub_gridboxes').selectAll().where('id', '=', subId).executeTakeFirstOrThrow();
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

  it('moves the plant between boxes at once, records the move, and the server agrees', async () => {
    const device = await tablet();
    const [from, to] = (await boxesOn(device, 2, 1)) as [number, number];
    await createSubGridboxes(device.context, { parentGridboxId: from, userId: fleet.farm.regular.id, nx: 2, ny: 1 });
    await device.engine.settle();
    const [plant] = (await localBox(device, from))?.sub_gridboxes ?? [];
    const plantUid = plant?.PlantID as string;

    fleet.proxy.setOnline(false);
    const move = await movePlant(device.context, { plantUid, targetParentGridboxId: to, userId: fleet.farm.regular.id, fromParentGridboxId: from, movementReason: 'Spacing' });
    expect(move).toMatchObject({ plant_uid: plantUid, from_parent_gridbox_id: from, to_parent_gridbox_id: to, from_position: { subx: 1, suby: 1 }, to_position: { subx: 1, suby: 1 }, company_id: fleet.farm.companyId });
    expect((await localBox(device, from))?.sub_gridboxes.map((sub) => sub.SubX)).toEqual([2]);
    expect((await localBox(device, to))?.sub_gridboxes.map((sub) => [sub.PlantID, sub.ParentGridboxID])).toEqual([[plantUid, to]]);
    const moveDocument = await device.database.operations.findOne(`plant_move:${String(move.movement_id)}`).exec();
    expect(moveDocument?.get('kind')).toBe('plant_move');
    const [entry] = await device.outbox.all();
    expect(entry?.body).toEqual({ kind: 'json', data: { plant_uid: plantUid, target_parent_gridbox_id: to, user_id: fleet.farm.regular.id, movement_reason: 'Spacing' } });

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const moves = await fleet.server.database.db.selectFrom('plant_moves').selectAll().where('plant_uid', '=', plantUid).execute();
    expect(moves.map((row) => [row.from_parent_gridbox_id, row.to_parent_gridbox_id, row.movement_reason])).toEqual([[from, to, 'Spacing']]);
    expect((await liveSubsOnServer(to)).map((row) => row.plant_id)).toEqual([plantUid]);
    const local = await device.database.operations.find({ selector: { kind: 'plant_move' } }).exec();
    expect(local.map((document) => document.id)).toEqual([`plant_move:${moves[0]?.id}`]);
    expect(JSON.stringify(local.map((document) => document.toMutableJSON()))).not.toContain('tmp-');
    expect((await localBox(device, to))?.sub_gridboxes.map((sub) => sub.PlantID)).toEqual([plantUid]);
  });

  it('refuses a position the tablet sees taken, and the position the plant is at', async () => {
    const device = await tablet();
    const [box] = (await boxesOn(device, 1, 1)) as [number];
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
    const [from, to] = (await boxesOn(device, 2, 1)) as [number, number];
    await createSubGridboxes(device.context, { parentGridboxId: from, userId: fleet.farm.regular.id, nx: 1, ny: 1 });
    await device.engine.settle();
    const [plant] = (await localBox(device, from))?.sub_gridboxes ?? [];
    await movePlant(device.context, { plantUid: plant?.PlantID as string, targetParentGridboxId: to, userId: fleet.farm.regular.id, fromParentGridboxId: from });
    await device.engine.settle();

    const history = await getCompanyMovementHistory(device.context, { companyId: fleet.farm.companyId });
    expect(history).toMatchObject({ status: 'success', limit: 50, offset: 0, sort_by: 'moved_at', sort_order: 'desc' });
    expect(history.movements.find((move) => move.plant_uid === plant?.PlantID)).toMatchObject({ from_parent_gridbox_id: from, to_parent_gridbox_id: to });
    expect(history.total_count).toBeGreaterThanOrEqual(1);
  });

  it("without an answer: 'Failed to fetch company movement history'", async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    await rejects(getCompanyMovementHistory(device.context, { companyId: fleet.farm.companyId }), c.historyFailed, ApiError);
  });
});
