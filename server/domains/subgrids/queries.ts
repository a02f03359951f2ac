/**
 * Sub-gridboxes (plant positions inside a grid box) and plant moves (spec part 2 §3).
 *
 * Sub-gridboxes travel inside their parent grid box's document (grids/collection.ts), so every write
 * here touches the parent grid_boxes row. Writes that depend on what a parent holds (positions taken,
 * the per-parent maximum) lock the parent row first, so two requests on one box run one after the other.
 */
import { randomInt } from 'node:crypto';
import { isoTime } from '../../../common/schemas/answers';
import type { PlantMoveRecord, SubGridboxRecord } from '../../../common/schemas/subgrids';
import type { Kysely, Selectable } from 'kysely';
import { subGridboxClientId } from '../../../common/client-ids';
import { subgridMessages as m } from '../../../common/messages/subgrids';
import type { DB, GridBox, PlantMovesTable, SubGridbox } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { badRequest, conflict, conflictOnUnique, notFound } from '../../http/errors';

/** Spec part 2 §3: when the custom name is blank the display name is 'Sub-{SubX}-{SubY}'. */
export const subGridboxDisplayName = (sub: Pick<SubGridbox, 'custom_name' | 'subx' | 'suby'>) =>
  sub.custom_name?.trim() ? sub.custom_name : `Sub-${sub.subx}-${sub.suby}`;

export const subGridboxJson = (sub: SubGridbox): SubGridboxRecord => ({
  Sub_gridboxID: sub.id,
  ParentGridboxID: sub.parent_gridbox_id,
  CompanyID: sub.company_id,
  CustomName: subGridboxDisplayName(sub),
  SubX: sub.subx,
  SubY: sub.suby,
  PlantID: sub.plant_id,
  Color: sub.color,
  Status: sub.status,
  Content: sub.content,
  ImageName: sub.image_name,
  IsDeleted: sub.deleted_at !== null,
  CreatedDateTime: isoTime(sub.created_at),
  UpdatedDateTime: isoTime(sub.updated_at),
});

export const plantMoveJson = (move: Selectable<PlantMovesTable>): PlantMoveRecord => ({
  movement_id: move.id,
  company_id: move.company_id,
  plant_uid: move.plant_uid,
  sub_gridbox_id: move.sub_gridbox_id,
  from_parent_gridbox_id: move.from_parent_gridbox_id,
  to_parent_gridbox_id: move.to_parent_gridbox_id,
  // Written together (queries.move): a move from nowhere has neither.
  from_position: move.from_subx === null || move.from_suby === null ? null : { subx: move.from_subx, suby: move.from_suby },
  to_position: { subx: move.to_subx, suby: move.to_suby },
  movement_reason: move.movement_reason,
  notes: move.notes,
  user_id: move.user_id,
  moved_at: isoTime(move.created_at),
});

export interface Position {
  subx: number;
  suby: number;
}

/** nx × ny positions, or an explicit list (custom positions). */
export type Layout = { nx: number; ny: number } | Position[];

const positionKey = (position: Position) => `${position.subx}-${position.suby}`;

const sizeOf = (layout: Layout) => (Array.isArray(layout) ? layout.length : layout.nx * layout.ny);

/** Positions of an nx × ny layout row by row (SubY, then SubX), as grid boxes are numbered. */
function positionsOf(layout: Layout): Position[] {
  if (Array.isArray(layout)) return layout;
  const positions: Position[] = [];
  for (let suby = 1; suby <= layout.ny; suby += 1) {
    for (let subx = 1; subx <= layout.nx; subx += 1) positions.push({ subx, suby });
  }
  return positions;
}

/**
 * Where a plant goes in a box when no position is named: the first free position, row by row, within
 * the box's layout (the columns and rows its live sub-gridboxes span); a full layout grows by a row.
 */
export function firstFreePosition(taken: Position[]): Position {
  const occupied = new Set(taken.map(positionKey));
  const columns = Math.max(0, ...taken.map((position) => position.subx));
  const rows = Math.max(0, ...taken.map((position) => position.suby));
  for (let suby = 1; suby <= rows; suby += 1) {
    for (let subx = 1; subx <= columns; subx += 1) {
      if (!occupied.has(positionKey({ subx, suby }))) return { subx, suby };
    }
  }
  return { subx: 1, suby: rows + 1 };
}

/**
 * Plant ids are 'P-' and 8 characters of Crockford's base 32 (no I, L, O, U): short enough to read
 * off a label or say aloud, about 10^12 values per company.
 */
const PLANT_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const randomPlantId = () => `P-${Array.from({ length: 8 }, () => PLANT_ID_ALPHABET[randomInt(PLANT_ID_ALPHABET.length)]).join('')}`;

/**
 * The live sub-gridboxes' unique indexes (migration 0002_grow). The pre-checks give the precise
 * message; the index catches a write that slipped past them, so a clash is a 409, never a 500.
 */
const POSITION_INDEX = 'sub_gridboxes_position';
const PLANT_INDEX = 'sub_gridboxes_plant';

export const subGridboxQueries = {
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('sub_gridboxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** A box's sub-gridboxes row by row; tombstoned ones too when asked. */
  ofParent: (db: Kysely<DB>, parentId: number, includeDeleted: boolean) => {
    let query = db.selectFrom('sub_gridboxes').selectAll().where('parent_gridbox_id', '=', parentId);
    if (!includeDeleted) query = query.where('deleted_at', 'is', null);
    return query.orderBy('suby').orderBy('subx').orderBy('id').execute();
  },

  /** Live sub-gridboxes of many boxes in one query (a sync pull page). */
  liveOfParents: (db: Kysely<DB>, parentIds: number[]) =>
    db
      .selectFrom('sub_gridboxes')
      .selectAll()
      .where('parent_gridbox_id', 'in', parentIds.concat(-1))
      .where('deleted_at', 'is', null)
      .orderBy('parent_gridbox_id')
      .orderBy('suby')
      .orderBy('subx')
      .execute(),

  async liveCount(db: Kysely<DB>, parentId: number) {
    const row = await db
      .selectFrom('sub_gridboxes')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('parent_gridbox_id', '=', parentId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** The company's per-parent maximum (`max_allowed`). */
  async maxAllowed(db: Kysely<DB>, companyId: number) {
    const row = await db.selectFrom('companies').select('max_sub_gridboxes').where('id', '=', companyId).executeTakeFirstOrThrow();
    return row.max_sub_gridboxes;
  },

  /**
   * Live grid boxes, locked until the transaction ends (in id order, so two moves between the same
   * boxes cannot deadlock). FOR NO KEY UPDATE: rows elsewhere may still reference the box meanwhile.
   */
  async lockBoxes(db: Kysely<DB>, ids: number[]): Promise<Map<number, GridBox>> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const rows = await db.selectFrom('grid_boxes').selectAll().where('id', 'in', sorted).where('deleted_at', 'is', null).orderBy('id').forNoKeyUpdate().execute();
    return new Map(rows.map((row) => [row.id, row]));
  },

  async lockBox(db: Kysely<DB>, id: number): Promise<GridBox> {
    const box = (await subGridboxQueries.lockBoxes(db, [id])).get(id);
    if (!box) throw notFound();
    return box;
  },

  /** The room a grid box is in (for audit events). */
  async roomIdOfBox(db: Kysely<DB>, boxId: number) {
    const row = await db.selectFrom('grid_boxes').innerJoin('grids', 'grids.id', 'grid_boxes.grid_id').select('grids.room_id').where('grid_boxes.id', '=', boxId).executeTakeFirstOrThrow();
    return row.room_id;
  },

  /**
   * Where a move puts a plant in the target box (locked): the named position, which must be free
   * (409) and not where the plant already is (400), else the first free one. A move into another box
   * must keep that box within the company's maximum (409).
   */
  async placement(db: Kysely<DB>, sub: SubGridbox, target: GridBox, requested: Position | undefined): Promise<Position> {
    const occupants = await subGridboxQueries.ofParent(db, target.id, false);
    const others = occupants.filter((occupant) => occupant.id !== sub.id);
    if (target.id !== sub.parent_gridbox_id) {
      const maxAllowed = await subGridboxQueries.maxAllowed(db, target.company_id);
      if (others.length + 1 > maxAllowed) throw conflict(m.limitReached(maxAllowed), { total_count: others.length, max_allowed: maxAllowed });
    }
    if (!requested) return firstFreePosition(occupants);
    if (target.id === sub.parent_gridbox_id && positionKey(requested) === positionKey(sub)) throw badRequest(m.alreadyThere);
    if (others.some((occupant) => positionKey(occupant) === positionKey(requested))) throw conflict(m.targetOccupied(requested.subx, requested.suby));
    return requested;
  },

  /** The live sub-gridbox holding a plant, in a live box of the company, locked for the move. */
  byPlant: (db: Kysely<DB>, companyId: number, plantUid: string) =>
    db
      .selectFrom('sub_gridboxes')
      .selectAll('sub_gridboxes')
      .innerJoin('grid_boxes', 'grid_boxes.id', 'sub_gridboxes.parent_gridbox_id')
      .where('sub_gridboxes.company_id', '=', companyId)
      .where('sub_gridboxes.plant_id', '=', plantUid)
      .where('sub_gridboxes.deleted_at', 'is', null)
      .where('grid_boxes.deleted_at', 'is', null)
      .forUpdate('sub_gridboxes')
      .executeTakeFirst(),

  async plantIdTaken(db: Kysely<DB>, companyId: number, plantId: string, exceptId: number) {
    const row = await db
      .selectFrom('sub_gridboxes')
      .select('id')
      .where('company_id', '=', companyId)
      .where('plant_id', '=', plantId)
      .where('deleted_at', 'is', null)
      .where('id', '<>', exceptId)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * New plant ids, unique among the company's live plants (the unique index is on live rows; a
   * clash with a removed plant's id is as unlikely as any other at this length).
   */
  async newPlantIds(db: Kysely<DB>, companyId: number, count: number): Promise<string[]> {
    const chosen = new Set<string>();
    while (chosen.size < count) {
      const candidates = [...new Set(Array.from({ length: count - chosen.size }, randomPlantId))].filter((id) => !chosen.has(id));
      const taken = await db.selectFrom('sub_gridboxes').select('plant_id').where('company_id', '=', companyId).where('plant_id', 'in', candidates).where('deleted_at', 'is', null).execute();
      const takenIds = new Set(taken.map((row) => row.plant_id));
      for (const id of candidates) if (!takenIds.has(id)) chosen.add(id);
    }
    return [...chosen];
  },

  /**
   * Creates sub-gridboxes in a box the caller has locked (`lockBox`): all of them or none. Over the
   * company's per-box maximum, or on a position already taken, answers 409 with `total_count` and
   * `max_allowed`. With `autoInitializePlants` each gets a new plant id. Touches the parent. With a
   * `divisionClientId` (the tablet's name for the call), each takes the client id derived from it and
   * its position, as the tablet computes it; else new ones.
   */
  async createInBox(db: Kysely<DB>, actor: Actor, parent: GridBox, layout: Layout, autoInitializePlants: boolean, divisionClientId?: string) {
    const maxAllowed = await subGridboxQueries.maxAllowed(db, parent.company_id);
    const live = await subGridboxQueries.ofParent(db, parent.id, false);
    const counts = { total_count: live.length, max_allowed: maxAllowed };
    // Checked before the positions are listed, so an absurd nx × ny costs nothing.
    if (live.length + sizeOf(layout) > maxAllowed) throw conflict(m.limitReached(maxAllowed), counts);
    const positions = positionsOf(layout);
    const taken = new Set(live.map(positionKey));
    const clashes = positions.filter((position) => taken.has(positionKey(position))).map(positionKey);
    if (clashes.length > 0) throw conflict(m.positionsOccupied(clashes), counts);

    const plantIds = autoInitializePlants ? await subGridboxQueries.newPlantIds(db, parent.company_id, positions.length) : [];
    const created = await writer(db, actor)
      .insertMany(
        'sub_gridboxes',
        positions.map((position, index) => ({
          ...(divisionClientId ? { client_id: subGridboxClientId(divisionClientId, position.subx, position.suby) } : {}),
          company_id: parent.company_id,
          parent_gridbox_id: parent.id,
          subx: position.subx,
          suby: position.suby,
          plant_id: plantIds[index] ?? null,
        })),
      )
      .catch(conflictOnUnique(POSITION_INDEX, m.positionTaken));
    await writer(db, actor).touch('grid_boxes', parent.id);
    created.sort((a, b) => a.suby - b.suby || a.subx - b.subx);
    return { created, total_count: live.length + created.length, max_allowed: maxAllowed };
  },

  /** Sets the given fields of a live sub-gridbox; a plant id another live plant has answers 409. */
  async update(db: Kysely<DB>, actor: Actor, sub: SubGridbox, fields: Partial<Pick<SubGridbox, 'custom_name' | 'plant_id' | 'color' | 'status' | 'content' | 'image_name'>>) {
    const plantId = fields.plant_id;
    if (plantId && (await subGridboxQueries.plantIdTaken(db, sub.company_id, plantId, sub.id))) throw conflict(m.plantIdTaken(plantId));
    await writer(db, actor)
      .update('sub_gridboxes', sub.id, fields)
      .catch(conflictOnUnique(PLANT_INDEX, m.plantIdTaken(plantId ?? '')));
    await writer(db, actor).touch('grid_boxes', sub.parent_gridbox_id);
  },

  /** Tombstones a sub-gridbox and touches its parent. */
  async softDelete(db: Kysely<DB>, actor: Actor, sub: SubGridbox) {
    const write = writer(db, actor);
    await write.softDelete('sub_gridboxes', sub.id);
    await write.touch('grid_boxes', sub.parent_gridbox_id);
  },

  /**
   * Moves a plant's sub-gridbox (locked by `byPlant`) to a position of a box, both boxes locked by
   * the caller, records the move and touches both boxes. Returns the move.
   */
  async move(db: Kysely<DB>, actor: Actor, sub: SubGridbox, target: GridBox, to: Position, about: { plantUid: string; movementReason?: string; notes?: string; userId: number; clientId?: string }) {
    const write = writer(db, actor);
    await write
      .update('sub_gridboxes', sub.id, { parent_gridbox_id: target.id, subx: to.subx, suby: to.suby })
      .catch(conflictOnUnique(POSITION_INDEX, m.targetOccupied(to.subx, to.suby)));
    const { id } = await write.insert('plant_moves', {
      client_id: about.clientId,
      company_id: sub.company_id,
      plant_uid: about.plantUid,
      sub_gridbox_id: sub.id,
      from_parent_gridbox_id: sub.parent_gridbox_id,
      to_parent_gridbox_id: target.id,
      from_subx: sub.subx,
      from_suby: sub.suby,
      to_subx: to.subx,
      to_suby: to.suby,
      movement_reason: about.movementReason ?? null,
      notes: about.notes ?? null,
      user_id: about.userId,
    });
    await write.touch('grid_boxes', [sub.parent_gridbox_id, target.id]);
    return db.selectFrom('plant_moves').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  },
};

export interface MovementFilters {
  companyId: number;
  batchId?: number;
  roomId?: number;
  /** yyyy-mm-dd, inclusive, as UTC days. */
  startDate?: string;
  endDate?: string;
  sortBy: 'moved_at' | 'plant_uid' | 'movement_reason' | 'from_parent_gridbox_id' | 'to_parent_gridbox_id';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const SORT_COLUMNS = {
  moved_at: 'plant_moves.created_at',
  plant_uid: 'plant_moves.plant_uid',
  movement_reason: 'plant_moves.movement_reason',
  from_parent_gridbox_id: 'plant_moves.from_parent_gridbox_id',
  to_parent_gridbox_id: 'plant_moves.to_parent_gridbox_id',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export const plantMoveQueries = {
  /** A page of the company's moves with the filters, and how many match in all. */
  async history(db: Kysely<DB>, filters: MovementFilters) {
    let query = db.selectFrom('plant_moves').where('plant_moves.company_id', '=', filters.companyId).where('plant_moves.deleted_at', 'is', null);
    const { batchId, roomId, startDate, endDate } = filters;
    // A move belongs to a batch or a room when the box it left or the box it entered does.
    if (batchId !== undefined) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('batch_grid_boxes')
            .select('batch_grid_boxes.grid_box_id')
            .where('batch_grid_boxes.batch_id', '=', batchId)
            .where((inner) =>
              inner.or([
                inner('batch_grid_boxes.grid_box_id', '=', inner.ref('plant_moves.from_parent_gridbox_id')),
                inner('batch_grid_boxes.grid_box_id', '=', inner.ref('plant_moves.to_parent_gridbox_id')),
              ]),
            ),
        ),
      );
    }
    if (roomId !== undefined) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('grid_boxes')
            .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
            .select('grid_boxes.id')
            .where('grids.room_id', '=', roomId)
            .where((inner) =>
              inner.or([inner('grid_boxes.id', '=', inner.ref('plant_moves.from_parent_gridbox_id')), inner('grid_boxes.id', '=', inner.ref('plant_moves.to_parent_gridbox_id'))]),
            ),
        ),
      );
    }
    if (startDate) query = query.where('plant_moves.created_at', '>=', new Date(`${startDate}T00:00:00Z`));
    if (endDate) query = query.where('plant_moves.created_at', '<', new Date(new Date(`${endDate}T00:00:00Z`).getTime() + DAY_MS));

    const total = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    const moves = await query
      .selectAll('plant_moves')
      .orderBy(SORT_COLUMNS[filters.sortBy], filters.sortOrder)
      .orderBy('plant_moves.id', filters.sortOrder)
      .limit(filters.limit)
      .offset(filters.offset)
      .execute();
    return { moves, totalCount: Number(total.count) };
  },
};
