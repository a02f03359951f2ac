/**
 * Batches of plants (spec part 1 §3 "Batch"), their links to rooms, grids and grid boxes, their crop
 * statuses, problems and history. A batch travels to the browser as one document with its links,
 * problems and history inside (ARCHITECTURE.md "The local store"), so every change to those touches
 * the batch row.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { BUILT_IN_BATCH_STATUSES } from '../../../common/batch-statuses';
import { isoTime } from '../../../common/schemas/answers';
import type {
  BatchDocument,
  BatchEventDetails,
  BatchEventKind,
  BatchEventRecord,
  BatchProblemRecord,
  BatchRecord,
  GridBoxLinkRecord,
  GridBoxWithBatches,
  GridLinkRecord,
  RoomLinkRecord,
} from '../../../common/schemas/batches';
import type { Batch, BatchEventsTable, BatchProblemsTable, DB } from '../../db/schema';
import { type Actor, actedAtOf, writer } from '../../db/writes';

type BatchProblem = Selectable<BatchProblemsTable>;
type BatchEvent = Selectable<BatchEventsTable>;

export const batchJson = (batch: Batch): BatchRecord => ({
  BatchID: batch.id,
  CompanyID: batch.company_id,
  BatchNumber: batch.batch_number,
  NumberOfPlants: batch.number_of_plants,
  StrainName: batch.strain_name,
  BatchStatus: batch.batch_status,
  Color: batch.color,
  StartDate: batch.start_date,
  EndDate: batch.end_date,
  HarvestedAt: isoTime(batch.harvested_at),
  HarvestedBy: batch.harvested_by,
  CreatedDateTime: isoTime(batch.created_at),
  UpdatedDateTime: isoTime(batch.updated_at),
});

export const batchProblemJson = (problem: BatchProblem): BatchProblemRecord => ({
  problem_id: problem.id,
  batch_id: problem.batch_id,
  company_id: problem.company_id,
  room_id: problem.room_id,
  problem_type: problem.problem_type,
  severity: problem.severity,
  notes: problem.notes,
  user_id: problem.user_id,
  created_at: isoTime(problem.created_at),
  resolved: problem.resolved_at !== null,
  resolved_at: isoTime(problem.resolved_at),
  resolved_by: problem.resolved_by,
});

/** WARNING: `kind` and `details` are read as recordEvent wrote them (the column is text and jsonb). */
export const batchEventJson = (event: BatchEvent): BatchEventRecord => ({
  event_id: event.id,
  batch_id: event.batch_id,
  kind: event.kind as BatchEventKind,
  from_room_id: event.from_room_id,
  to_room_id: event.to_room_id,
  details: event.details as BatchEventDetails | null,
  user_id: event.user_id,
  created_at: isoTime(event.created_at),
});

function groupBy<Row, Value>(rows: Row[], key: (row: Row) => number, value: (row: Row) => Value) {
  const groups = new Map<number, Value[]>();
  for (const row of rows) {
    const list = groups.get(key(row)) ?? [];
    list.push(value(row));
    groups.set(key(row), list);
  }
  return groups;
}

/** Ids of the batches linked to a room: directly, through one of its grids, or through a box of one. */
const batchIdsInRoom = (db: Kysely<DB>, roomId: number) =>
  db
    .selectFrom('batch_rooms')
    .select('batch_id')
    .where('room_id', '=', roomId)
    .union(
      db
        .selectFrom('batch_grids')
        .innerJoin('grids', 'grids.id', 'batch_grids.grid_id')
        .select('batch_grids.batch_id')
        .where('grids.room_id', '=', roomId)
        .where('grids.deleted_at', 'is', null),
    )
    .union(
      db
        .selectFrom('batch_grid_boxes')
        .innerJoin('grid_boxes', 'grid_boxes.id', 'batch_grid_boxes.grid_box_id')
        .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
        .select('batch_grid_boxes.batch_id')
        .where('grids.room_id', '=', roomId)
        .where('grids.deleted_at', 'is', null)
        .where('grid_boxes.deleted_at', 'is', null),
    );

export const batchQueries = {
  /**
   * Bumps the batches linked to rooms or grids being deleted (to the room, to a grid, or to a box of
   * one): their documents list live links only, so they changed although no batch row did.
   */
  async touchLinkedTo(db: Kysely<DB>, actor: Actor, deleted: { roomIds?: number[]; gridIds: number[] }) {
    const roomIds = (deleted.roomIds ?? []).concat(-1);
    const gridIds = deleted.gridIds.concat(-1);
    const { rows } = await sql<{ batch_id: number }>`
      SELECT batch_id FROM batch_rooms WHERE room_id = ANY(${roomIds}::integer[])
      UNION SELECT batch_id FROM batch_grids WHERE grid_id = ANY(${gridIds}::integer[])
      UNION SELECT links.batch_id FROM batch_grid_boxes AS links JOIN grid_boxes ON grid_boxes.id = links.grid_box_id WHERE grid_boxes.grid_id = ANY(${gridIds}::integer[])`.execute(db);
    await writer(db, actor).touch(
      'batches',
      rows.map((row) => row.batch_id),
    );
  },

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  byIds: (db: Kysely<DB>, ids: number[]) => db.selectFrom('batches').selectAll().where('id', 'in', ids.concat(-1)).where('deleted_at', 'is', null).orderBy('id').execute(),

  byCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('batches').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute(),

  byStatus: (db: Kysely<DB>, companyId: number, status: string) =>
    db
      .selectFrom('batches')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .where(sql<string>`lower(batch_status)`, '=', status.trim().toLowerCase())
      .orderBy('id')
      .execute(),

  /** Batches linked to a room directly, through its grids or through their boxes. */
  inRoom: (db: Kysely<DB>, roomId: number) =>
    db.selectFrom('batches').selectAll().where('id', 'in', batchIdsInRoom(db, roomId)).where('deleted_at', 'is', null).orderBy('id').execute(),

  /** Live rooms a batch is in: linked directly, or holding a linked grid or grid box. */
  roomsOf: (db: Kysely<DB>, batchId: number) =>
    db
      .selectFrom('rooms')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('batch_rooms')
          .select('room_id')
          .where('batch_id', '=', batchId)
          .union(eb.selectFrom('batch_grids').innerJoin('grids', 'grids.id', 'batch_grids.grid_id').select('grids.room_id').where('batch_grids.batch_id', '=', batchId).where('grids.deleted_at', 'is', null))
          .union(
            eb
              .selectFrom('batch_grid_boxes')
              .innerJoin('grid_boxes', 'grid_boxes.id', 'batch_grid_boxes.grid_box_id')
              .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
              .select('grids.room_id')
              .where('batch_grid_boxes.batch_id', '=', batchId)
              .where('grid_boxes.deleted_at', 'is', null)
              .where('grids.deleted_at', 'is', null),
          ),
      )
      .orderBy('id')
      .execute(),

  /** Batches as documents: five queries whatever their number. */
  async documents(db: Kysely<DB>, batches: Batch[]): Promise<BatchDocument[]> {
    const ids = batches.map((batch) => batch.id).concat(-1);
    const [rooms, grids, boxes, problems, events] = await Promise.all([
      db.selectFrom('batch_rooms').innerJoin('rooms', 'rooms.id', 'batch_rooms.room_id').select(['batch_rooms.batch_id', 'rooms.id']).where('batch_rooms.batch_id', 'in', ids).where('rooms.deleted_at', 'is', null).orderBy('rooms.id').execute(),
      db.selectFrom('batch_grids').innerJoin('grids', 'grids.id', 'batch_grids.grid_id').select(['batch_grids.batch_id', 'grids.id']).where('batch_grids.batch_id', 'in', ids).where('grids.deleted_at', 'is', null).orderBy('grids.id').execute(),
      db
        .selectFrom('batch_grid_boxes')
        .innerJoin('grid_boxes', 'grid_boxes.id', 'batch_grid_boxes.grid_box_id')
        .select(['batch_grid_boxes.batch_id', 'grid_boxes.id'])
        .where('batch_grid_boxes.batch_id', 'in', ids)
        .where('grid_boxes.deleted_at', 'is', null)
        .orderBy('grid_boxes.id')
        .execute(),
      db.selectFrom('batch_problems').selectAll().where('batch_id', 'in', ids).where('deleted_at', 'is', null).orderBy('id').execute(),
      db.selectFrom('batch_events').selectAll().where('batch_id', 'in', ids).orderBy('id').execute(),
    ]);
    const roomsOf = groupBy(rooms, (row) => row.batch_id, (row) => row.id);
    const gridsOf = groupBy(grids, (row) => row.batch_id, (row) => row.id);
    const boxesOf = groupBy(boxes, (row) => row.batch_id, (row) => row.id);
    const problemsOf = groupBy(problems, (row) => row.batch_id, batchProblemJson);
    const eventsOf = groupBy(events, (row) => row.batch_id, batchEventJson);
    return batches.map((batch) => {
      const batchProblems = problemsOf.get(batch.id) ?? [];
      return {
        ...batchJson(batch),
        RoomIDs: roomsOf.get(batch.id) ?? [],
        GridIDs: gridsOf.get(batch.id) ?? [],
        GridBoxIDs: boxesOf.get(batch.id) ?? [],
        open_problems: batchProblems.filter((problem) => !problem.resolved).length,
        problems: batchProblems,
        history: eventsOf.get(batch.id) ?? [],
      };
    });
  },

  customStatuses: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('custom_batch_statuses').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('name').execute(),

  customStatusNamed: (db: Kysely<DB>, companyId: number, name: string) =>
    db
      .selectFrom('custom_batch_statuses')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .where(sql<string>`lower(name)`, '=', name.trim().toLowerCase())
      .executeTakeFirst(),

  /** The status as the company spells it (built-in or custom, any case), or undefined if unknown. */
  async knownStatus(db: Kysely<DB>, companyId: number, name: string): Promise<string | undefined> {
    const builtIn = BUILT_IN_BATCH_STATUSES.find((status) => status.toLowerCase() === name.trim().toLowerCase());
    if (builtIn) return builtIn;
    return (await batchQueries.customStatusNamed(db, companyId, name))?.name;
  },

  /** Links a batch to a room; true if the link is new. Touches the batch, whose document holds its links. */
  async linkRoom(db: Kysely<DB>, actor: Actor, batchId: number, roomId: number) {
    const inserted = await db
      .insertInto('batch_rooms')
      .values({ batch_id: batchId, room_id: roomId, company_id: actor.companyId, created_by: actor.userId, created_at: actedAtOf(actor) })
      .onConflict((conflict) => conflict.doNothing())
      .returning('room_id')
      .execute();
    await writer(db, actor).touch('batches', batchId);
    return inserted.length > 0;
  },

  async linkGrid(db: Kysely<DB>, actor: Actor, batchId: number, gridId: number) {
    const inserted = await db
      .insertInto('batch_grids')
      .values({ batch_id: batchId, grid_id: gridId, company_id: actor.companyId, created_by: actor.userId, created_at: actedAtOf(actor) })
      .onConflict((conflict) => conflict.doNothing())
      .returning('grid_id')
      .execute();
    await writer(db, actor).touch('batches', batchId);
    return inserted.length > 0;
  },

  /**
   * Links a batch to grid boxes; returns the ids newly linked. Touches the batch and those boxes. Links
   * are dated at the act's time: a form filled later is filed under the batch the box held then.
   */
  async linkGridBoxes(db: Kysely<DB>, actor: Actor, batchId: number, boxIds: number[]) {
    const inserted = await db
      .insertInto('batch_grid_boxes')
      .values(boxIds.map((gridBoxId) => ({ batch_id: batchId, grid_box_id: gridBoxId, company_id: actor.companyId, created_by: actor.userId, created_at: actedAtOf(actor) })))
      .onConflict((conflict) => conflict.doNothing())
      .returning('grid_box_id')
      .execute();
    const write = writer(db, actor);
    await write.touch('batches', batchId);
    await write.touch(
      'grid_boxes',
      inserted.map((row) => row.grid_box_id),
    );
    return inserted.map((row) => row.grid_box_id);
  },

  /** Links of the boxes to live batches, in batch order (for the boxes' documents). */
  liveLinksOfBoxes: (db: Kysely<DB>, boxIds: number[]) =>
    db
      .selectFrom('batch_grid_boxes')
      .innerJoin('batches', 'batches.id', 'batch_grid_boxes.batch_id')
      .select(['batch_grid_boxes.grid_box_id', 'batch_grid_boxes.batch_id'])
      .where('batch_grid_boxes.grid_box_id', 'in', boxIds.concat(-1))
      .where('batches.deleted_at', 'is', null)
      .orderBy('batch_grid_boxes.batch_id')
      .execute(),

  /** The room of each grid box. */
  roomsOfBoxes: (db: Kysely<DB>, boxIds: number[]) =>
    db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select(['grid_boxes.id as grid_box_id', 'grids.room_id'])
      .where('grid_boxes.id', 'in', boxIds.concat(-1))
      .orderBy('grid_boxes.id')
      .execute(),

  /** Room links with names, narrowed to a room, a batch or both. */
  linkedRooms: (db: Kysely<DB>, companyId: number, filter: { roomId?: number; batchId?: number }) => {
    let query = db
      .selectFrom('batch_rooms')
      .innerJoin('rooms', 'rooms.id', 'batch_rooms.room_id')
      .innerJoin('batches', 'batches.id', 'batch_rooms.batch_id')
      .select(['batch_rooms.room_id', 'rooms.name as room_name', 'batch_rooms.batch_id', 'batches.batch_number', 'batch_rooms.created_at as linked_at'])
      .where('batch_rooms.company_id', '=', companyId)
      .where('rooms.deleted_at', 'is', null)
      .where('batches.deleted_at', 'is', null);
    if (filter.roomId !== undefined) query = query.where('batch_rooms.room_id', '=', filter.roomId);
    if (filter.batchId !== undefined) query = query.where('batch_rooms.batch_id', '=', filter.batchId);
    return query.orderBy('batch_rooms.batch_id').orderBy('batch_rooms.room_id').execute();
  },

  linkedGrids: (db: Kysely<DB>, companyId: number, filter: { gridId?: number; batchId?: number }) => {
    let query = db
      .selectFrom('batch_grids')
      .innerJoin('grids', 'grids.id', 'batch_grids.grid_id')
      .innerJoin('batches', 'batches.id', 'batch_grids.batch_id')
      .select(['batch_grids.grid_id', 'grids.name as grid_name', 'grids.room_id', 'batch_grids.batch_id', 'batches.batch_number', 'batch_grids.created_at as linked_at'])
      .where('batch_grids.company_id', '=', companyId)
      .where('grids.deleted_at', 'is', null)
      .where('batches.deleted_at', 'is', null);
    if (filter.gridId !== undefined) query = query.where('batch_grids.grid_id', '=', filter.gridId);
    if (filter.batchId !== undefined) query = query.where('batch_grids.batch_id', '=', filter.batchId);
    return query.orderBy('batch_grids.batch_id').orderBy('batch_grids.grid_id').execute();
  },

  linkedGridBoxes: (db: Kysely<DB>, companyId: number, filter: { gridBoxId?: number; batchId?: number }) => {
    let query = db
      .selectFrom('batch_grid_boxes')
      .innerJoin('grid_boxes', 'grid_boxes.id', 'batch_grid_boxes.grid_box_id')
      .innerJoin('batches', 'batches.id', 'batch_grid_boxes.batch_id')
      .select([
        'batch_grid_boxes.grid_box_id',
        'grid_boxes.grid_id',
        'grid_boxes.x',
        'grid_boxes.y',
        'grid_boxes.custom_name',
        'grid_boxes.culled',
        'batch_grid_boxes.batch_id',
        'batches.batch_number',
        'batch_grid_boxes.created_at as linked_at',
      ])
      .where('batch_grid_boxes.company_id', '=', companyId)
      .where('grid_boxes.deleted_at', 'is', null)
      .where('batches.deleted_at', 'is', null);
    if (filter.gridBoxId !== undefined) query = query.where('batch_grid_boxes.grid_box_id', '=', filter.gridBoxId);
    if (filter.batchId !== undefined) query = query.where('batch_grid_boxes.batch_id', '=', filter.batchId);
    return query.orderBy('batch_grid_boxes.batch_id').orderBy('batch_grid_boxes.grid_box_id').execute();
  },

  /** Moves a batch's links out of a room: its room link, and its grid and box links inside that room. */
  async unlinkRoom(db: Kysely<DB>, batchId: number, roomId: number) {
    const room = await db.deleteFrom('batch_rooms').where('batch_id', '=', batchId).where('room_id', '=', roomId).returning('room_id').execute();
    const grids = await db
      .deleteFrom('batch_grids')
      .where('batch_id', '=', batchId)
      .where('grid_id', 'in', (eb) => eb.selectFrom('grids').select('id').where('room_id', '=', roomId))
      .returning('grid_id')
      .execute();
    const boxes = await db
      .deleteFrom('batch_grid_boxes')
      .where('batch_id', '=', batchId)
      .where('grid_box_id', 'in', (eb) => eb.selectFrom('grid_boxes').innerJoin('grids', 'grids.id', 'grid_boxes.grid_id').select('grid_boxes.id').where('grids.room_id', '=', roomId))
      .returning('grid_box_id')
      .execute();
    return { room: room.length > 0, gridIds: grids.map((row) => row.grid_id), gridBoxIds: boxes.map((row) => row.grid_box_id) };
  },

  recordEvent: (db: Kysely<DB>, actor: Actor, batchId: number, kind: BatchEventKind, event: { fromRoomId?: number | null; toRoomId?: number | null; details?: BatchEventDetails } = {}) =>
    db
      .insertInto('batch_events')
      .values({
        company_id: actor.companyId,
        batch_id: batchId,
        kind,
        from_room_id: event.fromRoomId ?? null,
        to_room_id: event.toRoomId ?? null,
        details: event.details ? JSON.stringify(event.details) : null,
        user_id: actor.userId,
        created_at: actedAtOf(actor),
      })
      .execute(),

  /** A room's batch history: every event that brought a batch into the room or took it out, oldest first. */
  historyOfRoom: (db: Kysely<DB>, companyId: number, roomId: number) =>
    db
      .selectFrom('batch_events')
      .innerJoin('batches', 'batches.id', 'batch_events.batch_id')
      .selectAll('batch_events')
      .select(['batches.batch_number', 'batches.strain_name'])
      .where('batch_events.company_id', '=', companyId)
      .where((eb) => eb.or([eb('batch_events.from_room_id', '=', roomId), eb('batch_events.to_room_id', '=', roomId)]))
      .orderBy('batch_events.created_at')
      .orderBy('batch_events.id')
      .execute(),

  problems: (db: Kysely<DB>, companyId: number, filter: { batchId?: number; includeResolved: boolean }) => {
    let query = db.selectFrom('batch_problems').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null);
    if (filter.batchId !== undefined) query = query.where('batch_id', '=', filter.batchId);
    if (!filter.includeResolved) query = query.where('resolved_at', 'is', null);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  },

  /** Resolves a batch's open problems, narrowed by rooms and type; returns those resolved. */
  resolveProblems: (db: Kysely<DB>, actor: Actor, batchId: number, filter: { roomIds?: number[]; problemType?: string }) => {
    let query = db
      .updateTable('batch_problems')
      .set({ resolved_at: actedAtOf(actor), resolved_by: actor.userId, updated_by: actor.userId })
      .where('batch_id', '=', batchId)
      .where('resolved_at', 'is', null)
      .where('deleted_at', 'is', null);
    if (filter.roomIds?.length) query = query.where('room_id', 'in', filter.roomIds);
    if (filter.problemType) query = query.where(sql<string>`lower(problem_type)`, '=', filter.problemType.toLowerCase());
    return query.returningAll().execute();
  },

  /** A grid's boxes, each with the live batches linked to it. */
  async boxesWithBatches(db: Kysely<DB>, gridId: number): Promise<GridBoxWithBatches[]> {
    const boxes = await db.selectFrom('grid_boxes').selectAll().where('grid_id', '=', gridId).where('deleted_at', 'is', null).orderBy('y').orderBy('x').execute();
    const links = await db
      .selectFrom('batch_grid_boxes')
      .innerJoin('batches', 'batches.id', 'batch_grid_boxes.batch_id')
      .innerJoin('grid_boxes', 'grid_boxes.id', 'batch_grid_boxes.grid_box_id')
      .select(['batch_grid_boxes.grid_box_id', 'batches.id', 'batches.batch_number', 'batches.strain_name', 'batches.batch_status', 'batches.color'])
      .where('grid_boxes.grid_id', '=', gridId)
      .where('batches.deleted_at', 'is', null)
      .orderBy('batches.id')
      .execute();
    const batchesOf = groupBy(
      links,
      (link) => link.grid_box_id,
      (link) => ({ BatchID: link.id, BatchNumber: link.batch_number, StrainName: link.strain_name, BatchStatus: link.batch_status, Color: link.color }),
    );
    return boxes.map((box) => ({ GridBoxID: box.id, GridID: box.grid_id, X: box.x, Y: box.y, CustomName: box.custom_name, batches: batchesOf.get(box.id) ?? [] }));
  },
};

type RowOf<Query extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<Query>>[number];

/** Links as get_linked_*_batches answer them: the rows of batchQueries.linked*, dated as text. */
export const roomLinkJson = (link: RowOf<typeof batchQueries.linkedRooms>): RoomLinkRecord => ({ ...link, linked_at: isoTime(link.linked_at) });
export const gridLinkJson = (link: RowOf<typeof batchQueries.linkedGrids>): GridLinkRecord => ({ ...link, linked_at: isoTime(link.linked_at) });
export const gridBoxLinkJson = (link: RowOf<typeof batchQueries.linkedGridBoxes>): GridBoxLinkRecord => ({ ...link, linked_at: isoTime(link.linked_at) });
