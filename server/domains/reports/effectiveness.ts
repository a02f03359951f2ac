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
  // One statement: each spray's live boxes in the rooms (sprayed), the rest of those rooms' live boxes
  // (unsprayed), and the problems seen on each group in the days before and from the spray.
  const { rows } = await sql<GroupRow & { room_id: number | null }>`
    WITH sprays AS (
      SELECT id, application_date AS at, grid_box_ids FROM spray_applications WHERE id = ANY(${applicationIds}::int[])
    ), sprayed AS (
      SELECT s.id AS application_id, b.id AS box_id, g.room_id
      FROM sprays s
      CROSS JOIN LATERAL unnest(s.grid_box_ids) AS u(box_id)
      JOIN grid_boxes b ON b.id = u.box_id AND b.deleted_at IS NULL
      JOIN grids g ON g.id = b.grid_id AND g.deleted_at IS NULL
      WHERE g.room_id = ANY(${roomIds}::int[])
    ), unsprayed AS (
      SELECT DISTINCT r.application_id, b.id AS box_id
      FROM (SELECT DISTINCT application_id, room_id FROM sprayed) r
      JOIN grids g ON g.room_id = r.room_id AND g.deleted_at IS NULL
      JOIN grid_boxes b ON b.grid_id = g.id AND b.deleted_at IS NULL
      WHERE NOT EXISTS (SELECT 1 FROM sprayed x WHERE x.application_id = r.application_id AND x.box_id = b.id)
    ), boxes AS (
      SELECT application_id, box_id, true AS treated FROM sprayed
      UNION ALL
      SELECT application_id, box_id, false AS treated FROM unsprayed
    )
    SELECT x.application_id, x.treated, NULL::int AS room_id, count(DISTINCT x.box_id)::int AS boxes,
      count(p.id) FILTER (WHERE p.observed_at < s.at)::int AS before,
      count(p.id) FILTER (WHERE p.observed_at >= s.at)::int AS after
    FROM boxes x
    JOIN sprays s ON s.id = x.application_id
    LEFT JOIN plant_problems p ON p.grid_box_id = x.box_id AND p.deleted_at IS NULL AND p.status <> 'dismissed'
      AND p.observed_at >= s.at - ${WINDOW}::interval AND p.observed_at < s.at + ${WINDOW}::interval
    GROUP BY x.application_id, x.treated
    UNION ALL
    SELECT DISTINCT application_id, NULL::boolean, room_id, 0, 0, 0 FROM sprayed`.execute(db);
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
