/**
 * The demo's operation: three rooms, eight benches of boxes named as growers name them, nine batches
 * that went from cuttings through veg to flower (one harvested), mother plants divided into positions
 * with plant ids, and a few culled plants. Each act is written as the Admin (Ada) or the grower (Gus)
 * did it, through the domains' own writes and at the time it was done, so the batch histories, the
 * plant histories and the audit trail tell the same story the tablets pull.
 *
 * Where the spec is silent, the demo decides:
 * - Sizes: a 4 × 6 mother bench and a 6 × 10 clone table, two 6 × 10 veg benches, four 6 × 12 flower
 *   benches: 492 boxes, a small real greenhouse. A box is named `<bench>-<number>` (A-07), numbered
 *   in the company's grid order, as growers label positions.
 * - A batch moves as `move_plants` moves it (out of the old room's grids and boxes, into the new
 *   room), then is placed on its benches (`link_grid_batch`, `link_gridbox_batch`), and its stage is
 *   set as `assign_status_to_batches` sets it. A harvested batch keeps its boxes, as `harvest_batch`
 *   leaves them. Mother plants stay Vegetative.
 * - Batch numbers are `<strain code>-<serial>`; plant ids of the divided mother boxes come from the
 *   demo's dice (same alphabet as the server's), so two first starts make the same plants.
 */
import type { Kysely } from 'kysely';
import type { BUILT_IN_BATCH_STATUSES } from '../../common/batch-statuses';
import { boxNumber } from '../../common/grid-order';
import { auditTitles } from '../../common/messages/audit-titles';
import type { DB, GridBox } from '../db/schema';
import { type Actor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { batchQueries } from '../domains/batches/queries';
import { gridOrderOf } from '../domains/companies/queries';
import { gridQueries } from '../domains/grids/queries';
import { subGridboxQueries } from '../domains/subgrids/queries';
import type { Calendar, Dice } from './dice';

export type RoomKey = 'propagation' | 'veg' | 'flower';
export type GridKey = 'mother' | 'clone' | 'veg1' | 'veg2' | 'benchA' | 'benchB' | 'benchC' | 'benchD';

const ROOMS: ReadonlyArray<{ key: RoomKey; name: string; description: string }> = [
  { key: 'propagation', name: 'Propagation / Mother room', description: 'Mother plants and rooted cuttings, T5 fluorescents, 18/6' },
  { key: 'veg', name: 'Veg room', description: 'Vegetative growth, LED, 18/6' },
  { key: 'flower', name: 'Flower room 1', description: 'Flowering, LED, 12/12' },
];

const GRIDS: ReadonlyArray<{ key: GridKey; room: RoomKey; name: string; prefix: string; nx: number; ny: number; description: string }> = [
  { key: 'mother', room: 'propagation', name: 'Mother bench', prefix: 'M', nx: 4, ny: 6, description: 'Mother plants in 25 L pots' },
  { key: 'clone', room: 'propagation', name: 'Clone table', prefix: 'C', nx: 6, ny: 10, description: 'Trays of cuttings under domes' },
  { key: 'veg1', room: 'veg', name: 'Veg bench 1', prefix: 'V1', nx: 6, ny: 10, description: 'Ebb and flow table' },
  { key: 'veg2', room: 'veg', name: 'Veg bench 2', prefix: 'V2', nx: 6, ny: 10, description: 'Ebb and flow table' },
  { key: 'benchA', room: 'flower', name: 'Bench A', prefix: 'A', nx: 6, ny: 12, description: 'Rolling bench, door side' },
  { key: 'benchB', room: 'flower', name: 'Bench B', prefix: 'B', nx: 6, ny: 12, description: 'Rolling bench' },
  { key: 'benchC', room: 'flower', name: 'Bench C', prefix: 'C', nx: 6, ny: 12, description: 'Rolling bench' },
  { key: 'benchD', room: 'flower', name: 'Bench D', prefix: 'D', nx: 6, ny: 12, description: 'Rolling bench, wall side' },
];

/** Where a batch stood from a day on: whole benches, or some rows or columns of one. */
interface StayPlan {
  daysAgo: number;
  /** A built-in stage: its title is the table's own (a company's status has another). */
  status: (typeof BUILT_IN_BATCH_STATUSES)[number];
  grids: GridKey[];
  rows?: [number, number];
  columns?: [number, number];
}

interface BatchPlan {
  number: string;
  strain: string;
  plants: number;
  color: string;
  stays: StayPlan[];
  harvestedDaysAgo?: number;
}

const CLONES_FRONT: Pick<StayPlan, 'grids' | 'rows'> = { grids: ['clone'], rows: [1, 5] };
const CLONES_BACK: Pick<StayPlan, 'grids' | 'rows'> = { grids: ['clone'], rows: [6, 9] };

/** Nine batches, oldest first; no two share a box at one time. */
const BATCHES: readonly BatchPlan[] = [
  { number: 'LH-033', strain: 'Lemon Haze', plants: 72, color: '#d4a017', harvestedDaysAgo: 10, stays: [
    { daysAgo: 84, status: 'Propagation', ...CLONES_FRONT },
    { daysAgo: 77, status: 'Vegetative', grids: ['veg2'] },
    { daysAgo: 63, status: 'Flowering', grids: ['benchD'] },
  ] },
  { number: 'MOTHER-BD', strain: 'Blue Dream', plants: 16, color: '#4a7fc1', stays: [{ daysAgo: 84, status: 'Vegetative', grids: ['mother'], columns: [1, 2] }] },
  { number: 'MOTHER-NL', strain: 'Northern Lights', plants: 16, color: '#2e8b57', stays: [{ daysAgo: 84, status: 'Vegetative', grids: ['mother'], columns: [3, 4] }] },
  { number: 'NL-035', strain: 'Northern Lights', plants: 144, color: '#2e8b57', stays: [
    { daysAgo: 72, status: 'Propagation', ...CLONES_BACK },
    { daysAgo: 58, status: 'Vegetative', grids: ['veg1'] },
    { daysAgo: 37, status: 'Flowering', grids: ['benchA', 'benchB'] },
  ] },
  { number: 'SD-036', strain: 'Sour Diesel', plants: 72, color: '#8d6e63', stays: [
    { daysAgo: 58, status: 'Propagation', ...CLONES_FRONT },
    { daysAgo: 44, status: 'Vegetative', grids: ['veg2'] },
    { daysAgo: 23, status: 'Flowering', grids: ['benchC'] },
  ] },
  { number: 'BD-039', strain: 'Blue Dream', plants: 60, color: '#4a7fc1', stays: [
    { daysAgo: 30, status: 'Propagation', ...CLONES_FRONT },
    { daysAgo: 16, status: 'Vegetative', grids: ['veg1'] },
  ] },
  { number: 'GL-040', strain: 'Gelato', plants: 60, color: '#9c4f96', stays: [
    { daysAgo: 23, status: 'Propagation', ...CLONES_BACK },
    { daysAgo: 9, status: 'Vegetative', grids: ['veg2'] },
  ] },
  { number: 'NL-041', strain: 'Northern Lights', plants: 60, color: '#2e8b57', stays: [{ daysAgo: 9, status: 'Propagation', ...CLONES_FRONT }] },
  { number: 'LH-042', strain: 'Lemon Haze', plants: 48, color: '#d4a017', stays: [{ daysAgo: 4, status: 'Propagation', ...CLONES_BACK }] },
];

/** The corner of Bench A (by the door) where spider mites build up (observations.ts). */
export const MITE_CORNER = { grid: 'benchA' as GridKey, x: 1, y: 12 };

/** Plants culled: the two worst of the mite corner, a veg plant with root rot, two trays of cuttings that did not root. */
const CULLS: ReadonlyArray<{ grid: GridKey; x: number; y: number; daysAgo: number; hour: number }> = [
  { grid: 'benchA', x: 1, y: 12, daysAgo: 22, hour: 11 },
  { grid: 'benchA', x: 2, y: 12, daysAgo: 22, hour: 11 },
  { grid: 'veg1', x: 4, y: 7, daysAgo: 6, hour: 14 },
  { grid: 'clone', x: 2, y: 3, daysAgo: 3, hour: 10 },
  { grid: 'clone', x: 5, y: 4, daysAgo: 3, hour: 10 },
];

/** Mother boxes divided into 2 × 2 positions, one mother plant (with its plant id) in each. */
const DIVIDED: ReadonlyArray<{ grid: GridKey; x: number; y: number }> = [
  { grid: 'mother', x: 1, y: 1 },
  { grid: 'mother', x: 2, y: 1 },
  { grid: 'mother', x: 3, y: 1 },
  { grid: 'mother', x: 4, y: 1 },
];

export interface DemoBox {
  id: number;
  grid: GridKey;
  room: RoomKey;
  x: number;
  y: number;
  name: string;
}

export interface DemoGrid {
  key: GridKey;
  id: number;
  name: string;
  room: RoomKey;
  /** Row by row, as a grower walks the bench. */
  boxes: DemoBox[];
  box(x: number, y: number): DemoBox;
}

/** A batch on some boxes from `from` until it moved on (`until`), or still there. */
export interface Stay {
  batchId: number;
  number: string;
  status: string;
  boxIds: ReadonlySet<number>;
  from: Date;
  until: Date | null;
  harvestedAt: Date | null;
}

export interface Operation {
  companyId: number;
  adminId: number;
  growerId: number;
  rooms: Record<RoomKey, { id: number; name: string }>;
  grids: DemoGrid[];
  grid(key: GridKey): DemoGrid;
  batchCount: number;
  batchId(number: string): number;
  /** The batch the box was linked to at `at`: the one a response filled then is filed under. */
  linkedAt(boxId: number, at: Date): Stay | null;
  /** The batch growing in the box at `at`: linked, not harvested, the plant not culled. */
  growingAt(boxId: number, at: Date): Stay | null;
}

const PLANT_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export async function seedOperation(
  db: Kysely<DB>,
  people: { companyId: number; adminId: number; growerId: number },
  cal: Calendar,
  roll: Dice,
): Promise<Operation> {
  const { companyId, adminId, growerId } = people;
  const as = (userId: number, at: Date): Actor => ({ userId, companyId, actedAt: at });

  // Rooms and benches, set up by the Admin the week before the first batch.
  const rooms = {} as Operation['rooms'];
  for (const [index, room] of ROOMS.entries()) {
    const actor = as(adminId, cal.at(88, 9, index * 5));
    const { id } = await writer(db, actor).insert('rooms', { company_id: companyId, name: room.name, description: room.description });
    await recordAudit(db, actor, { title: auditTitles.createdRoom(room.name), roomId: id });
    rooms[room.key] = { id, name: room.name };
  }
  const company = await db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
  const order = gridOrderOf(company);
  const grids: DemoGrid[] = [];
  for (const [index, plan] of GRIDS.entries()) {
    const actor = as(adminId, cal.at(88, 9, 20 + index * 5));
    const roomId = rooms[plan.room].id;
    const id = await gridQueries.createWithBoxes(db, actor, { roomId, name: plan.name, nx: plan.nx, ny: plan.ny, description: plan.description });
    await recordAudit(db, actor, { title: auditTitles.createdGrid(plan.name, plan.nx, plan.ny), roomId, details: { grid_id: id } });
    const boxes: DemoBox[] = [];
    const write = writer(db, actor);
    for (const row of await gridQueries.boxesOfGrids(db, [id])) {
      const name = `${plan.prefix}-${String(boxNumber(order, row.x, row.y, plan.nx, plan.ny)).padStart(2, '0')}`;
      await write.update('grid_boxes', row.id, { custom_name: name });
      await recordAudit(db, actor, { title: auditTitles.renamedPlant(name), roomId, gridBoxId: row.id });
      boxes.push({ id: row.id, grid: plan.key, room: plan.room, x: row.x, y: row.y, name });
    }
    const byPlace = new Map(boxes.map((box) => [`${box.x},${box.y}`, box]));
    grids.push({ key: plan.key, id, name: plan.name, room: plan.room, boxes, box: (x, y) => byPlace.get(`${x},${y}`)! });
  }
  const grid = (key: GridKey) => grids.find((candidate) => candidate.key === key)!;

  const stays: Stay[] = [];
  const batchIds = new Map<string, number>();
  for (const [index, plan] of BATCHES.entries()) {
    const batchId = await growBatch(db, { as, adminId, growerId, rooms, grid, cal }, plan, index, stays);
    batchIds.set(plan.number, batchId);
  }

  const culledAt = new Map<number, Date>();
  for (const cull of CULLS) {
    const box = grid(cull.grid).box(cull.x, cull.y);
    const at = cal.at(cull.daysAgo, cull.hour, culledAt.size * 2);
    const actor = as(growerId, at);
    await writer(db, actor).update('grid_boxes', box.id, { culled: true, culled_by: growerId, culled_at: at });
    await recordAudit(db, actor, { title: auditTitles.culledPlant, roomId: rooms[box.room].id, gridBoxId: box.id, details: { culled: true } });
    culledAt.set(box.id, at);
  }

  await divideMotherBoxes(db, as(adminId, cal.at(84, 11)), DIVIDED.map((place) => grid(place.grid).box(place.x, place.y)), rooms, roll);

  const linkedAt = (boxId: number, at: Date) =>
    stays
      .filter((stay) => stay.boxIds.has(boxId) && stay.from <= at && (stay.until === null || at < stay.until))
      .reduce<Stay | null>((latest, stay) => (latest === null || stay.from > latest.from ? stay : latest), null);
  return {
    ...people,
    rooms,
    grids,
    grid,
    batchCount: batchIds.size,
    batchId: (number) => batchIds.get(number)!,
    linkedAt,
    growingAt(boxId, at) {
      const stay = linkedAt(boxId, at);
      const culled = culledAt.get(boxId);
      if (!stay || (stay.harvestedAt && at >= stay.harvestedAt) || (culled && at >= culled)) return null;
      return stay;
    },
  };
}

interface Setting {
  as: (userId: number, at: Date) => Actor;
  adminId: number;
  growerId: number;
  rooms: Operation['rooms'];
  grid: (key: GridKey) => DemoGrid;
  cal: Calendar;
}

/**
 * A batch's life as the floor records it: created by the Admin, placed by the grower, moved room to
 * room with its stage set on arrival, harvested. Adds its stays to `stays`; answers its id.
 */
async function growBatch(db: Kysely<DB>, setting: Setting, plan: BatchPlan, index: number, stays: Stay[]): Promise<number> {
  const { as, adminId, growerId, rooms, grid, cal } = setting;
  const first = plan.stays[0]!;
  const created = as(adminId, cal.at(first.daysAgo, 9, index % 6));
  const { id: batchId } = await writer(db, created).insert('batches', {
    company_id: created.companyId,
    batch_number: plan.number,
    number_of_plants: plan.plants,
    strain_name: plan.strain,
    batch_status: first.status,
    color: plan.color,
    start_date: cal.day(first.daysAgo),
    end_date: null,
    harvested_at: null,
    harvested_by: null,
  });
  await batchQueries.recordEvent(db, created, batchId, 'created', { details: { status: first.status } });
  await recordAudit(db, created, { title: auditTitles.createdBatch(plan.number), batchId });

  let status = first.status;
  let previous: { stay: Stay; room: RoomKey } | null = null;
  for (const stayPlan of plan.stays) {
    const room = grid(stayPlan.grids[0]!).room;
    const roomId = rooms[room].id;
    const placed = as(growerId, cal.at(stayPlan.daysAgo, 10, 10 + (index % 6)));
    if (previous === null) {
      await batchQueries.linkRoom(db, placed, batchId, roomId);
      await batchQueries.recordEvent(db, placed, batchId, 'linked_room', { toRoomId: roomId });
      await recordAudit(db, placed, { title: auditTitles.linkedBatchToRoom(plan.number, rooms[room].name), batchId, roomId });
    } else {
      const moved = as(growerId, cal.at(stayPlan.daysAgo, 10, index % 6));
      const from = rooms[previous.room];
      const left = await batchQueries.unlinkRoom(db, batchId, from.id);
      await batchQueries.linkRoom(db, moved, batchId, roomId);
      await writer(db, moved).touch('grid_boxes', left.gridBoxIds);
      const details = { grid_ids: left.gridIds, grid_box_ids: left.gridBoxIds };
      await batchQueries.recordEvent(db, moved, batchId, 'moved', { fromRoomId: from.id, toRoomId: roomId, details });
      await recordAudit(db, moved, { title: auditTitles.movedBatch(plan.number, from.name, rooms[room].name), batchId, roomId, details: { ...details, from_room_id: from.id } });
      previous.stay.until = moved.actedAt!;
    }
    if (stayPlan.status !== status) {
      const staged = as(adminId, cal.at(stayPlan.daysAgo, 10, 30 + (index % 6)));
      await writer(db, staged).update('batches', batchId, { batch_status: stayPlan.status });
      await batchQueries.recordEvent(db, staged, batchId, 'status', { details: { from: status, to: stayPlan.status } });
      await recordAudit(db, staged, { title: auditTitles.setBatchStatus[stayPlan.status](plan.number), batchId });
      status = stayPlan.status;
    }
    const boxIds: number[] = [];
    for (const key of stayPlan.grids) {
      const bench = grid(key);
      await batchQueries.linkGrid(db, placed, batchId, bench.id);
      await recordAudit(db, placed, { title: auditTitles.linkedBatchToGrid(plan.number, bench.name), batchId, roomId, details: { grid_id: bench.id } });
      const [top, bottom] = stayPlan.rows ?? [1, Number.MAX_SAFE_INTEGER];
      const [left, right] = stayPlan.columns ?? [1, Number.MAX_SAFE_INTEGER];
      boxIds.push(...bench.boxes.filter((box) => box.y >= top && box.y <= bottom && box.x >= left && box.x <= right).map((box) => box.id));
    }
    const linked = await batchQueries.linkGridBoxes(db, placed, batchId, boxIds);
    for (const gridBoxId of linked) await recordAudit(db, placed, { title: auditTitles.linkedPlantToBatch(plan.number), batchId, roomId, gridBoxId });
    const stay: Stay = { batchId, number: plan.number, status: stayPlan.status, boxIds: new Set(boxIds), from: placed.actedAt!, until: null, harvestedAt: null };
    stays.push(stay);
    previous = { stay, room };
  }

  if (plan.harvestedDaysAgo !== undefined && previous) {
    const at = cal.at(plan.harvestedDaysAgo, 14);
    const harvested = as(growerId, at);
    await writer(db, harvested).update('batches', batchId, { batch_status: 'Harvested', harvested_at: at, harvested_by: growerId, end_date: cal.day(plan.harvestedDaysAgo) });
    await batchQueries.recordEvent(db, harvested, batchId, 'harvested', { details: { from: status } });
    await recordAudit(db, harvested, { title: auditTitles.harvestedBatch(plan.number), batchId });
    previous.stay.harvestedAt = at;
  }
  return batchId;
}

/** Divides each box into 2 × 2 positions, each a mother plant with a plant id from the dice. */
async function divideMotherBoxes(db: Kysely<DB>, actor: Actor, boxes: DemoBox[], rooms: Operation['rooms'], roll: Dice) {
  const plantId = () => `P-${Array.from({ length: 8 }, () => roll.pick([...PLANT_ID_ALPHABET])).join('')}`;
  const used = new Set<string>();
  for (const box of boxes) {
    const parent: GridBox = await subGridboxQueries.lockBox(db, box.id);
    // The ids come from the dice, not the server's random ones, so they are written after the division.
    const { created } = await subGridboxQueries.createInBox(db, actor, parent, { nx: 2, ny: 2 }, false);
    for (const sub of created) {
      let id = plantId();
      while (used.has(id)) id = plantId();
      used.add(id);
      await subGridboxQueries.update(db, actor, sub, { plant_id: id });
    }
    await recordAudit(db, actor, {
      title: auditTitles.createdSubGridboxes(created.length),
      roomId: rooms[box.room].id,
      gridBoxId: box.id,
      details: { sub_gridbox_ids: created.map((sub) => sub.id) },
    });
  }
}
