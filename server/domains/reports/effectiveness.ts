/**
 * Treatment effectiveness (spec part 2 §7, "query not shown"; issue 15): did a spray lower the problem
 * pressure where it went? For each spray recorded in the period (spray_applications, by its
 * application date), the problems seen on its boxes in the TREATMENT_WINDOW_DAYS days before it and
 * the as many days from it, against the same rooms' boxes it did not reach over the same days.
 *
 * Decisions (the spec is silent):
 * - The unsprayed boxes are the live boxes of the rooms the spray reached that this spray did not
 *   reach (another spray may have reached them: the comparison is of this spray's boxes).
 * - Efficacy is Henderson–Tilton's, the usual measure of a pesticide trial with an untreated check:
 *   100 × (1 − (Ta × Cb) / (Tb × Ca)), T the sprayed and C the unsprayed boxes' problems, b before and a
 *   after; null when any term is 0 (nothing to compare). Per box figures and reductions are beside it.
 * - Problems dismissed as false alarms do not count (problem-counts.ts); rooms named narrow the sprays
 *   to their boxes in those rooms.
 */
import { type Kysely, sql } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import { TREATMENT_WINDOW_DAYS, type TreatmentEffectivenessAnswer } from '../../../common/schemas/reports';
import type { DB } from '../../db/schema';
import { type DateFields, periodOrDefault } from './period';
import { twoDecimals } from './problem-counts';
import { type Payload, roomsOf } from './trends';

const DAY_MS = 86_400_000;
const WINDOW = `${TREATMENT_WINDOW_DAYS} days`;

interface GroupRow {
  application_id: number;
  treated: boolean;
  boxes: number;
  before: number;
  after: number;
}

function group(row: GroupRow | undefined) {
  const boxes = row?.boxes ?? 0;
  const before = row?.before ?? 0;
  const after = row?.after ?? 0;
  return {
    boxes,
    problems_before: before,
    problems_after: after,
    per_box_before: boxes > 0 ? twoDecimals(before / boxes) : null,
    per_box_after: boxes > 0 ? twoDecimals(after / boxes) : null,
    reduction_pct: before > 0 ? twoDecimals(((before - after) / before) * 100) : null,
  };
}

/** Henderson–Tilton (see the header); null when a term is 0. */
function efficacy(treated: { problems_before: number; problems_after: number }, untreated: { problems_before: number; problems_after: number }) {
  const { problems_before: tb, problems_after: ta } = treated;
  const { problems_before: cb, problems_after: ca } = untreated;
  if (tb === 0 || ca === 0 || cb === 0) return null;
  return twoDecimals(100 * (1 - (ta * cb) / (tb * ca)));
}

/**
 * Runs `read` with PostgreSQL's JIT compilation off. The sprays' statement is estimated at millions of
 * rows (the planner cannot see inside its CTEs and arrays) and answers in a third of a second, but an
 * estimate that high makes PostgreSQL compile it first: 1.1 s of JIT for a year of a 10,000-box
 * company's sprays (bench/reports.ts). SET LOCAL needs a transaction: one of the read's own.
 */
async function withoutJit<T>(db: Kysely<DB>, read: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return read(db);
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx);
    return read(trx);
  });
}

export async function treatmentEffectiveness(
  db: Kysely<DB>,
  companyId: number,
  query: DateFields & { room_ids?: number[] | undefined; product_name?: string | undefined },
): Promise<Payload<TreatmentEffectivenessAnswer>> {
  const period = periodOrDefault(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const roomIds = rooms.map((room) => room.id);
  const applications = await db
    .selectFrom('spray_applications')
    .select(['id', 'product_id', 'product_name', 'application_date'])
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('application_date', '>=', period.from)
    .where('application_date', '<', period.until)
    .$if(query.product_name !== undefined, (q) => q.where(sql<string>`lower(product_name)`, '=', (query.product_name ?? '').toLowerCase()))
    .orderBy('application_date')
    .orderBy('id')
    .execute();
  if (applications.length === 0 || roomIds.length === 0) return { period: { start_date: period.start, end_date: period.end }, weeks: period.weeks, window_days: TREATMENT_WINDOW_DAYS, applications: [] };
  const applicationIds = applications.map((application) => application.id);
  // One statement: the live boxes of the live grids in the rooms (`live`); each spray's boxes among
  // them (sprayed) and the rest of the rooms it reached (unsprayed, counted as the rooms' boxes less
  // the sprayed); and the problems seen in those rooms in the days before and from each spray, each
  // on a sprayed box or not. A problem's room is its box's (grids do not move between rooms), so the
  // problems are read by room and time through plant_problems_room, a few hundred per spray, rather
  // than box by box (170,000 lookups for a year of a 10,000-box company's sprays: bench/reports.ts).
  // WARNING: the planner cannot estimate these CTEs' rows; two shapes keep it from plans that take
  // seconds. OFFSET 0 keeps the problems' read a scan per spray and room with both time bounds in the
  // index condition (else it scans each room's whole history). Whether a problem's box was sprayed is
  // found by grouping the sprayed boxes and the problems together by spray and box, not by joining
  // them: with the sprays' ids known the join took 10 s on PostgreSQL (a nested loop over every
  // sprayed box), and PGlite chose the same when it expected few sprays. Without JIT (see withoutJit).
  const { rows } = await withoutJit(db, (trx) => sql<GroupRow & { room_id: number | null }>`
    WITH sprays AS (
      SELECT id, application_date AS at, grid_box_ids FROM spray_applications WHERE id = ANY(${applicationIds}::int[])
    ), live AS (
      SELECT b.id AS box_id, g.room_id
      FROM grids g JOIN grid_boxes b ON b.grid_id = g.id AND b.deleted_at IS NULL
      WHERE g.deleted_at IS NULL AND g.room_id = ANY(${roomIds}::int[])
    ), sprayed AS (
      SELECT DISTINCT s.id AS application_id, l.box_id, l.room_id
      FROM sprays s CROSS JOIN LATERAL unnest(s.grid_box_ids) AS u(box_id) JOIN live l ON l.box_id = u.box_id
    ), spray_rooms AS (
      SELECT application_id, room_id, count(*)::int AS sprayed FROM sprayed GROUP BY application_id, room_id
    ), groups AS (
      SELECT r.application_id, sum(r.sprayed)::int AS treated, (sum(n.boxes) - sum(r.sprayed))::int AS untreated
      FROM spray_rooms r JOIN (SELECT room_id, count(*) AS boxes FROM live GROUP BY room_id) n ON n.room_id = r.room_id
      GROUP BY r.application_id
    ), by_box AS (
      SELECT application_id, bool_or(sprayed) AS treated, sum(before) AS before, sum(after) AS after
      FROM (
        SELECT application_id, box_id, true AS sprayed, 0 AS before, 0 AS after FROM sprayed
        UNION ALL
        SELECT r.application_id, p.grid_box_id, false, (p.observed_at < s.at)::int, (p.observed_at >= s.at)::int
        FROM spray_rooms r
        JOIN sprays s ON s.id = r.application_id
        CROSS JOIN LATERAL (
          SELECT p.grid_box_id, p.observed_at FROM plant_problems p
          WHERE p.room_id = r.room_id AND p.deleted_at IS NULL AND p.status <> 'dismissed'
            AND p.observed_at >= s.at - ${WINDOW}::interval AND p.observed_at < s.at + ${WINDOW}::interval
          OFFSET 0
        ) p
        JOIN live l ON l.box_id = p.grid_box_id
      ) seen_or_sprayed
      GROUP BY application_id, box_id
    ), seen AS (
      SELECT application_id, treated, sum(before)::int AS before, sum(after)::int AS after FROM by_box GROUP BY application_id, treated
    )
    SELECT g.application_id, t.treated, NULL::int AS room_id, CASE WHEN t.treated THEN g.treated ELSE g.untreated END AS boxes,
      COALESCE(seen.before, 0) AS before, COALESCE(seen.after, 0) AS after
    FROM groups g
    CROSS JOIN (VALUES (true), (false)) AS t(treated)
    LEFT JOIN seen ON seen.application_id = g.application_id AND seen.treated = t.treated
    UNION ALL
    SELECT application_id, NULL::boolean, room_id, 0, 0, 0 FROM spray_rooms`.execute(trx));
  const now = Date.now();
  const roomsById = new Map(rooms.map((room) => [room.id, room]));
  return {
    period: { start_date: period.start, end_date: period.end },
    weeks: period.weeks,
    window_days: TREATMENT_WINDOW_DAYS,
    applications: applications
      .map((application) => {
        const own = rows.filter((row) => row.application_id === application.id);
        const treated = group(own.find((row) => row.treated === true));
        const untreated = group(own.find((row) => row.treated === false));
        const at = new Date(application.application_date).getTime();
        const sprayedRooms = own.flatMap((row) => (row.room_id === null ? [] : [roomsById.get(row.room_id)!])).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
        return {
          application_id: application.id,
          ApplicationDate: isoTime(application.application_date),
          ProductName: application.product_name,
          product_id: application.product_id,
          rooms: sprayedRooms.map((room) => ({ RoomID: room.id, Name: room.name })),
          before_from: new Date(at - TREATMENT_WINDOW_DAYS * DAY_MS).toISOString(),
          after_until: new Date(at + TREATMENT_WINDOW_DAYS * DAY_MS).toISOString(),
          after_complete: at + TREATMENT_WINDOW_DAYS * DAY_MS <= now,
          treated,
          untreated,
          efficacy_pct: efficacy(treated, untreated),
        };
      })
      // A spray none of whose boxes is in the rooms asked (or live) says nothing here.
      .filter((application) => application.treated.boxes > 0),
  };
}
