/**
 * Plant problems (issue 14): problems recorded on grid boxes and plants, problem colours and custom
 * solutions. Status changes of many problems are one statement each (a room's 2,000 boxes), stamped with
 * the actor like the writer's updates (db/writes.ts); the `track_change` trigger bumps `change_seq`.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { ACTION_APPLIES_TO, PROBLEM_ACTIONS, type ProblemAction } from '../../../common/messages/problems';
import { isoTime } from '../../../common/schemas/answers';
import type { CustomSolutionRecord, OpenProblemEntry, PlantProblemRecord, ProblemColorMappingRecord } from '../../../common/schemas/problems';
import type { CustomSolutionsTable, DB, PlantProblemsTable, ProblemColorMappingsTable } from '../../db/schema';
import { actedAtOf, type Actor } from '../../db/writes';

export type PlantProblem = Selectable<PlantProblemsTable>;

export const plantProblemJson = (problem: PlantProblem): PlantProblemRecord => ({
  problem_id: problem.id,
  company_id: problem.company_id,
  room_id: problem.room_id,
  grid_id: problem.grid_id,
  grid_box_id: problem.grid_box_id,
  sub_gridbox_id: problem.sub_gridbox_id,
  problem_type: problem.problem_type,
  problem_slug: problem.problem_slug,
  severity: problem.severity,
  notes: problem.notes,
  image: problem.image_name,
  source: problem.source,
  form_response_id: problem.form_response_id,
  user_id: problem.user_id,
  observed_at: isoTime(problem.observed_at),
  status: problem.status,
  status_at: isoTime(problem.status_at),
  status_by: problem.status_by,
  created_at: isoTime(problem.created_at),
  updated_at: isoTime(problem.updated_at),
});

export const colorMappingJson = (mapping: Selectable<ProblemColorMappingsTable>): ProblemColorMappingRecord => ({
  id: mapping.id,
  CompanyID: mapping.company_id,
  Problem: mapping.problem,
  Color: mapping.color,
  Abbreviation: mapping.abbreviation,
  extras: mapping.extras as ProblemColorMappingRecord['extras'],
});

export const customSolutionJson = (solution: Selectable<CustomSolutionsTable>): CustomSolutionRecord => ({
  id: solution.id,
  client_id: solution.client_id,
  problem_slug: solution.problem_slug,
  solution: solution.solution,
  user_id: solution.user_id,
  created_at: isoTime(solution.created_at),
});

/**
 * Open problems (OPEN_PROBLEM_STATUSES) as literals, not parameters: the partial indexes of migration
 * 0008 are chosen only when the planner sees the query's condition is theirs.
 */
const isOpen = sql<boolean>`plant_problems.status IN ('unresolved', 'treated')`;

/** Where a bulk action reaches: a room, a grid or one box, narrowed by a problem type (without case) when given. */
export interface ProblemReach {
  roomId?: number;
  gridId?: number;
  problemId?: number;
  problemType?: string;
}

/** An open problem as the map shows it, with its grid and the box it is on (position and name), as the grid and room readers group them. */
export type OpenProblemOnBox = OpenProblemEntry & { grid_id: number; grid_box_id: number; x: number; y: number; custom_name: string | null };

export const problemQueries = {
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('plant_problems').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** A live grid box with its grid's room (the guard has found it the caller's to act on). */
  liveBox: (db: Kysely<DB>, boxId: number) =>
    db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select(['grid_boxes.id', 'grid_boxes.company_id', 'grid_boxes.grid_id', 'grid_boxes.x', 'grid_boxes.y', 'grid_boxes.custom_name', 'grids.room_id'])
      .where('grid_boxes.id', '=', boxId)
      .where('grid_boxes.deleted_at', 'is', null)
      .executeTakeFirst(),

  /** A live room's company and name (what an action on it acts for and records). */
  liveRoom: (db: Kysely<DB>, id: number) => db.selectFrom('rooms').select(['id', 'company_id', 'name']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /** A live grid's company, name and room. */
  liveGrid: (db: Kysely<DB>, id: number) =>
    db.selectFrom('grids').select(['id', 'company_id', 'name', 'room_id']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  async subGridboxIsInBox(db: Kysely<DB>, subGridboxId: number, boxId: number) {
    const sub = await db.selectFrom('sub_gridboxes').select('id').where('id', '=', subGridboxId).where('parent_gridbox_id', '=', boxId).where('deleted_at', 'is', null).executeTakeFirst();
    return sub !== undefined;
  },

  openOfBox: (db: Kysely<DB>, boxId: number) =>
    db.selectFrom('plant_problems').selectAll().where('grid_box_id', '=', boxId).where('deleted_at', 'is', null).where(isOpen).orderBy('observed_at').orderBy('id').execute(),

  /**
   * The open problems of a grid or a room on live boxes, by grid, row and column, as the map's entries
   * (OpenProblemEntry) with their box: one statement through the partial index of open problems
   * (plant_problems_open_room / _open_grid), its rows made into one JSON array by the database. A room
   * of 2,000 boxes has thousands of open problems; read as rows, their fields alone cost more (PGlite
   * converts each field of each row) than the whole statement as one value.
   */
  async openOnBoxes(db: Kysely<DB>, reach: { roomId: number } | { gridId: number }): Promise<OpenProblemOnBox[]> {
    const where = 'roomId' in reach ? sql`p.room_id = ${reach.roomId}` : sql`p.grid_id = ${reach.gridId}`;
    const { rows } = await sql<{ problems: Array<Omit<OpenProblemOnBox, 'observed_at'> & { observed_at: string }> }>`
      SELECT coalesce(json_agg(json_build_object(
        'problem_id', p.id, 'grid_id', p.grid_id, 'grid_box_id', p.grid_box_id, 'sub_gridbox_id', p.sub_gridbox_id,
        'problem_type', p.problem_type, 'problem_slug', p.problem_slug, 'severity', p.severity, 'status', p.status,
        'observed_at', p.observed_at, 'user_id', p.user_id, 'x', b.x, 'y', b.y, 'custom_name', b.custom_name
      ) ORDER BY p.grid_id, b.y, b.x, p.observed_at, p.id), '[]') AS problems
      FROM plant_problems p
      JOIN grid_boxes b ON b.id = p.grid_box_id AND b.deleted_at IS NULL
      WHERE p.status IN ('unresolved', 'treated') AND p.deleted_at IS NULL AND ${where}`.execute(db);
    // json gives timestamps in the session's zone and format: answers give them in UTC (isoTime).
    return (rows[0]?.problems ?? []).map((problem) => ({ ...problem, observed_at: isoTime(problem.observed_at) }));
  },

  /** The open problems of a type (without case) in a room or a grid, on live boxes, by grid, row and column. */
  openOfType: (db: Kysely<DB>, reach: { roomId: number } | { gridId: number }, problemType: string) => {
    let query = db
      .selectFrom('plant_problems')
      .innerJoin('grid_boxes', 'grid_boxes.id', 'plant_problems.grid_box_id')
      .selectAll('plant_problems')
      .where(isOpen)
      .where('plant_problems.deleted_at', 'is', null)
      .where('grid_boxes.deleted_at', 'is', null)
      .where(sql<string>`lower(plant_problems.problem_type)`, '=', problemType.toLowerCase());
    query = 'roomId' in reach ? query.where('plant_problems.room_id', '=', reach.roomId) : query.where('plant_problems.grid_id', '=', reach.gridId);
    return query.orderBy('plant_problems.grid_id').orderBy('grid_boxes.y').orderBy('grid_boxes.x').orderBy('plant_problems.observed_at').orderBy('plant_problems.id').execute();
  },

  /** A room's live grids, by id (as openOnBoxes orders problems). */
  companyOfRoom: async (db: Kysely<DB>, roomId: number) => (await db.selectFrom('rooms').select('company_id').where('id', '=', roomId).executeTakeFirstOrThrow()).company_id,

  gridsOfRoom: (db: Kysely<DB>, roomId: number) => db.selectFrom('grids').select(['id', 'name']).where('room_id', '=', roomId).where('deleted_at', 'is', null).orderBy('id').execute(),

  /**
   * Applies an action to the problems in reach whose status it applies to (ACTION_APPLIES_TO), at the
   * act's time and by the actor; answers the problems changed. Problems of deleted boxes are left alone.
   */
  setStatus: (db: Kysely<DB>, actor: Actor, action: ProblemAction, reach: ProblemReach) => {
    let query = db
      .updateTable('plant_problems')
      .set({ status: PROBLEM_ACTIONS[action], status_at: actedAtOf(actor), status_by: actor.userId, updated_by: actor.userId })
      .where('company_id', '=', actor.companyId)
      .where('deleted_at', 'is', null)
      // Literals, as `isOpen`, for the partial index of open problems.
      .where(sql<boolean>`plant_problems.status IN (${sql.join(ACTION_APPLIES_TO[action].map((status) => sql.lit(status)))})`)
      .where(({ exists, selectFrom }) => exists(selectFrom('grid_boxes').select('grid_boxes.id').whereRef('grid_boxes.id', '=', 'plant_problems.grid_box_id').where('grid_boxes.deleted_at', 'is', null)));
    if (reach.problemId !== undefined) query = query.where('id', '=', reach.problemId);
    if (reach.roomId !== undefined) query = query.where('room_id', '=', reach.roomId);
    if (reach.gridId !== undefined) query = query.where('grid_id', '=', reach.gridId);
    if (reach.problemType !== undefined) query = query.where(sql<string>`lower(problem_type)`, '=', reach.problemType.toLowerCase());
    return query.returningAll().execute();
  },

  /**
   * Resolves the open problems on the boxes linked to a batch (grid/resolve_batch_problem), narrowed by
   * rooms and by a problem type (without case) when given; answers those resolved.
   */
  resolveOfBatch: (db: Kysely<DB>, actor: Actor, batchId: number, filter: { roomIds?: number[]; problemType?: string }) => {
    let query = db
      .updateTable('plant_problems')
      .set({ status: PROBLEM_ACTIONS.resolve, status_at: actedAtOf(actor), status_by: actor.userId, updated_by: actor.userId })
      .where('grid_box_id', 'in', db.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId))
      .where('company_id', '=', actor.companyId)
      .where(isOpen)
      .where('deleted_at', 'is', null);
    if (filter.roomIds?.length) query = query.where('room_id', 'in', filter.roomIds);
    if (filter.problemType) query = query.where(sql<string>`lower(problem_type)`, '=', filter.problemType.toLowerCase());
    return query.returningAll().execute();
  },

  colorMappings: (db: Kysely<DB>, companyIds: number[]) =>
    db.selectFrom('problem_color_mappings').selectAll().where('company_id', 'in', companyIds.concat(-1)).where('deleted_at', 'is', null).orderBy('problem').orderBy('id').execute(),

  /** The company's live mapping of a problem (compared without case, as the unique index does). */
  colorMappingOf: (db: Kysely<DB>, companyId: number, problem: string) =>
    db
      .selectFrom('problem_color_mappings')
      .selectAll()
      .where('company_id', '=', companyId)
      .where(sql<string>`lower(problem)`, '=', problem.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),

  colorMappingById: (db: Kysely<DB>, id: number) => db.selectFrom('problem_color_mappings').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The companies' live solutions, oldest first (the company document carries them: companies/collection.ts). */
  customSolutionsOf: (db: Kysely<DB>, companyIds: number[]) =>
    db.selectFrom('custom_solutions').selectAll().where('company_id', 'in', companyIds.concat(-1)).where('deleted_at', 'is', null).orderBy('created_at').orderBy('id').execute(),

  customSolutions: (db: Kysely<DB>, companyId: number, problemSlug: string) =>
    db.selectFrom('custom_solutions').selectAll().where('company_id', '=', companyId).where('problem_slug', '=', problemSlug).where('deleted_at', 'is', null).orderBy('created_at').orderBy('id').execute(),

  customSolutionById: (db: Kysely<DB>, id: number) => db.selectFrom('custom_solutions').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
};
