/**
 * The trends at a real company's size (issue 15, `BENCH_ONLY=reports npm run bench`): a company of
 * 10,000 boxes (20 rooms of two 25 × 10 grids) with a year (52 weeks to now) of 500,000 form responses
 * (every week a scouting round of most boxes, and 1,000 sticky traps counted) and 100,000 plant problems,
 * then each trend call timed over HTTP as a manager's dashboard asks for it: one request after another,
 * over 8, 26 and 52 weeks, all rooms and 2 rooms (one room for the calls that take one).
 * Goal: p95 within 500 ms on PostgreSQL. PGlite is measured too, without a goal (one connection, WASM).
 *
 * Seeding through the API would take hours and cannot go back a year (the server keeps an act's time
 * at most 30 days back), so the rows are written with bulk SQL into the real tables, as the app's writes
 * leave them: the columns the writer stamps (created_at = the act's time, created_by, updated_by), the
 * `track_change` trigger on every synced row, client ids, boxes' client ids derived as the tablet
 * derives them, a response's batch as submit_form finds it (the box's latest batch link), problems a
 * scouting form's Problem answer named recorded from that response (source 'form', its time and box, the
 * answer's text as common/problem-answers.ts writes it) beside problems recorded from the box panel.
 * Left out, as no report reads them: audit events, photos; client ids the app derives (uuid v5 of a
 * parent's) or picks (v7) are the column's default here (v4).
 *
 * The spread: problem types rise and fall by season and room (an outbreak per room and type now and
 * then), around a hot spot of each room that drifts week by week; severities 1–5, mostly low; problems
 * older than two weeks mostly resolved, some treated, 3% dismissed as false alarms. The database is
 * analysed after seeding, as autovacuum leaves a database that grew over a year. WARNING: PGlite runs
 * no autovacuum, and the server does not analyse it: without statistics its planner joins a field's
 * 50,000 answers to its 50,000 responses in a nested loop (get_field_responses_report over a year takes
 * minutes), so the PGlite figures hold only for an analysed database (ANALYZE takes about 1.3 s here).
 *
 * Settings: BENCH_REPORT_SAMPLES (default 40 requests per row, after one not timed).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { boxClientId } from '../common/client-ids';
import { addDaysTo, lastWeeks, todayUtc } from '../common/schemas/report-dates';
import { createCompanyWithAdmin, addUser } from '../server/companies';
import { openDatabase } from '../server/db/database';
import { lockDataDir } from '../server/db/lock';
import { migrate } from '../server/db/migrations';
import type { DB } from '../server/db/schema';
import { problemSlugOf } from '../server/domains/problems/record';
import { freePort, startScript, stopScript } from '../tests/support/process';
import { benchPostgresUrl, percentile, withFreshPostgres } from './support';

const REPORT_COMPANY = { rooms: 20, gridsPerRoom: 2, nx: 25, ny: 10, weeks: 52, scoutingResponses: 450_000, trapResponses: 50_000, problems: 100_000 };
const BOXES_PER_ROOM = REPORT_COMPANY.gridsPerRoom * REPORT_COMPANY.nx * REPORT_COMPANY.ny;
const BOXES = REPORT_COMPANY.rooms * BOXES_PER_ROOM;
/** Sticky traps hang over every fifth box of every second row: 25 a grid. */
const isTrap = (x: number, y: number) => x % 5 === 3 && y % 2 === 0;
/** Weeks of trap counts: the traps went up two weeks into the year. */
const TRAP_WEEKS = REPORT_COMPANY.trapResponses / 1000;
/** Of the problems, those a scouting form's Problem answer named; the rest recorded from the box panel. */
const FORM_PROBLEM_SHARE = 0.8;
const BATCH_DAYS = 70;
const SPRAY_EVERY_DAYS = 21;
const GROWERS = 6;
const SAMPLES = Number(process.env.BENCH_REPORT_SAMPLES ?? 40);
const GOAL_MS = 500;

const ROOM_NAMES = ['Mother', 'Propagation', ...Array.from({ length: 6 }, (_, i) => `Veg ${i + 1}`), ...Array.from({ length: 12 }, (_, i) => `Flower ${i + 1}`)];
/** The problem types, each with how common it is and the week it peaks (0: the first of the 52). */
const TYPES = [
  { name: 'Two-spotted spider mite', weight: 1, peak: 30 },
  { name: 'Western flower thrips', weight: 0.9, peak: 24 },
  { name: 'Powdery mildew', weight: 0.8, peak: 40 },
  { name: 'Fungus gnats', weight: 0.7, peak: 8 },
  { name: 'Botrytis (grey mould, bud rot)', weight: 0.5, peak: 44 },
  { name: 'Green peach aphid', weight: 0.5, peak: 16 },
  { name: 'Broad mite', weight: 0.3, peak: 34 },
  { name: 'Greenhouse whitefly', weight: 0.3, peak: 26 },
  { name: 'Downy mildew', weight: 0.25, peak: 46 },
  { name: 'Pythium root rot', weight: 0.15, peak: 4 },
  // The company's own types (not the catalogue's).
  { name: 'Tip burn', weight: 0.2, peak: 28 },
  { name: 'Lamp stress', weight: 0.1, peak: 20 },
];
const PRODUCTS = [
  { name: 'Spinosad 480', active: 'spinosad', type: 'chemical', reentryHours: 4, preharvestDays: 1 },
  { name: 'Neem oil', active: 'azadirachtin', type: 'biological', reentryHours: 12, preharvestDays: 0 },
  { name: 'Serenade ASO', active: 'Bacillus subtilis QST 713', type: 'biological', reentryHours: 4, preharvestDays: 0 },
  { name: 'Kaligreen', active: 'potassium bicarbonate', type: 'chemical', reentryHours: 4, preharvestDays: 1 },
] as const;

/** A number in [0, 1) drawn from `value` (any integer expression) and `salt`: the same every run, no volatile random(). */
const frac = (value: RawBuilder<unknown>, salt: number) => sql<number>`((hashint8((${value})::bigint * 1000003 + ${sql.lit(salt)}) & 2147483647)::float8 / 2147483648.0)`;

interface Seeded {
  companyId: number;
  userId: number;
  roomIds: number[];
  /** The batch growing in the first flower room now: specific trends read its responses. */
  batchId: number;
  batchRoomId: number;
  trapCountFieldId: number;
  topProblems: string[];
  counts: Record<string, number>;
  /** Problems get_problem_trends over the 52 weeks must count (live, not dismissed). */
  problemsInYear: number;
  seconds: number;
}

/**
 * Problems per (week, room, type): a seasonal wave per type, rooms more or less prone, an outbreak now
 * and then; scaled to REPORT_COMPANY.problems exactly (largest remainders), then split form / box panel.
 */
function problemPlan() {
  const { weeks, rooms, problems } = REPORT_COMPANY;
  const cells: Array<{ week: number; room: number; type: number; raw: number }> = [];
  for (let week = 0; week < weeks; week += 1) {
    for (let room = 0; room < rooms; room += 1) {
      const prone = 0.5 + ((room * 37) % 11) / 10;
      for (const [type, { weight, peak }] of TYPES.entries()) {
        const season = Math.exp(-(((week - peak) / 7) ** 2));
        const outbreakWeek = (peak + room * 7) % weeks;
        const outbreak = (room + type) % 5 === 0 ? 2.5 * Math.exp(-(((week - outbreakWeek) / 2.5) ** 2)) : 0;
        cells.push({ week, room, type, raw: weight * prone * (0.3 + season + outbreak) });
      }
    }
  }
  const sum = cells.reduce((total, cell) => total + cell.raw, 0);
  const scaled = cells.map((cell) => ({ ...cell, exact: (cell.raw / sum) * problems, n: Math.floor((cell.raw / sum) * problems) }));
  let missing = problems - scaled.reduce((total, cell) => total + cell.n, 0);
  for (const cell of [...scaled].sort((a, b) => b.exact - b.n - (a.exact - a.n))) {
    if (missing === 0) break;
    cell.n += 1;
    missing -= 1;
  }
  return scaled.map(({ week, room, type, n }) => ({ week, room, type, form: Math.round(n * FORM_PROBLEM_SHARE), manual: n - Math.round(n * FORM_PROBLEM_SHARE) }));
}

/** Seeds the company (see the header) in one transaction, then analyses the tables. */
async function seedCompany(db: Kysely<DB>, companyId: number, adminId: number): Promise<Seeded> {
  const started = performance.now();
  const now = new Date();
  const today = todayUtc(now);
  const yearStart = lastWeeks(REPORT_COMPANY.weeks, today).start;
  const ys = sql`${`${yearStart}T00:00:00Z`}::timestamptz`;
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const weekStart = (week: RawBuilder<unknown>) => sql`(${ys} + (${week}) * interval '7 days')`;
  /** A moment `at` (0–1) through the week, of the part already past for this week. */
  const inWeek = (week: RawBuilder<unknown>, at: RawBuilder<number>) =>
    sql`(${weekStart(week)} + ${at} * GREATEST(interval '1 second', LEAST(interval '7 days', ${nowSql} - ${weekStart(week)} - interval '1 second')))`;
  const growers = [adminId];
  for (let index = 1; index <= GROWERS; index += 1) {
    growers.push(await addUser(db, companyId, { email: `grower${index}.${sql.lit(companyId)}@bench.growroom.local`, password: randomBytes(12).toString('base64url'), role: 'Regular', name: ['Grower', String(index)] }));
  }
  const grower = (value: RawBuilder<unknown>) => sql<number>`(${sql.val(growers)}::int[])[1 + (hashint8((${value})::bigint) & 2147483647) % ${sql.lit(growers.length)}]`;
  const made = `${addDaysTo(yearStart, -60)}T08:00:00Z`;
  const stamp = { company_id: companyId, created_at: made, updated_at: made, created_by: adminId, updated_by: adminId };

  const result = await db.transaction().execute(async (trx) => {
    // Rooms, grids and boxes, with the boxes' client ids as Create_grid derives them.
    const rooms = await trx.insertInto('rooms').values(ROOM_NAMES.map((name) => ({ ...stamp, name, description: 'Seeded by npm run bench' }))).returning(['id', 'name']).execute();
    const roomIds = ROOM_NAMES.map((name) => rooms.find((room) => room.name === name)!.id);
    const grids = await trx
      .insertInto('grids')
      .values(roomIds.flatMap((roomId, room) => Array.from({ length: REPORT_COMPANY.gridsPerRoom }, (_, g) => ({ ...stamp, room_id: roomId, name: `${ROOM_NAMES[room]} bench ${'AB'[g]}`, nx: REPORT_COMPANY.nx, ny: REPORT_COMPANY.ny }))))
      .returning(['id', 'client_id', 'room_id'])
      .execute();
    await sql`
      INSERT INTO grid_boxes (company_id, grid_id, x, y, created_at, updated_at, created_by, updated_by)
      SELECT ${sql.lit(companyId)}, g.id, x, y, ${made}::timestamptz, ${made}::timestamptz, ${sql.lit(adminId)}, ${sql.lit(adminId)}
      FROM unnest(${grids.map((grid) => grid.id)}::int[]) AS g(id), generate_series(1, ${sql.lit(REPORT_COMPANY.ny)}) AS y, generate_series(1, ${sql.lit(REPORT_COMPANY.nx)}) AS x
      ORDER BY g.id, y, x`.execute(trx);
    const boxes = await trx.selectFrom('grid_boxes').select(['id', 'grid_id', 'x', 'y']).where('company_id', '=', companyId).orderBy('id').execute();
    const gridOf = new Map(grids.map((grid, index) => [grid.id, { ...grid, room: Math.floor(index / REPORT_COMPANY.gridsPerRoom), inRoom: index % REPORT_COMPANY.gridsPerRoom }]));
    for (let start = 0; start < boxes.length; start += 1000) {
      await trx
        .insertInto('grid_box_client_ids')
        .values(boxes.slice(start, start + 1000).map((box) => ({ client_id: boxClientId(gridOf.get(box.grid_id)!.client_id, box.x, box.y), company_id: companyId, grid_box_id: box.id })))
        .execute();
    }
    // The boxes numbered for the statements below: n over the company, idx within the room, trap for trap boxes.
    const numbered = boxes.map((box) => {
      const grid = gridOf.get(box.grid_id)!;
      const idx = grid.inRoom * REPORT_COMPANY.nx * REPORT_COMPANY.ny + (box.y - 1) * REPORT_COMPANY.nx + (box.x - 1);
      return { n: grid.room * BOXES_PER_ROOM + idx, room: grid.room, idx, box: box.id, grid: box.grid_id, roomId: grid.room_id, trap: isTrap(box.x, box.y) };
    });
    let traps = 0;
    await sql`CREATE TEMP TABLE bench_boxes ON COMMIT DROP AS
      SELECT * FROM unnest(${numbered.map((b) => b.n)}::int[], ${numbered.map((b) => b.room)}::int[], ${numbered.map((b) => b.idx)}::int[], ${numbered.map((b) => b.box)}::int[],
        ${numbered.map((b) => b.grid)}::int[], ${numbered.map((b) => b.roomId)}::int[], ${numbered.map((b) => (b.trap ? traps++ : null))}::int[])
        AS b(n, room_n, idx, box_id, grid_id, room_id, trap_n)`.execute(trx);
    await sql`CREATE INDEX ON bench_boxes (n)`.execute(trx);
    await sql`CREATE INDEX ON bench_boxes (box_id)`.execute(trx);

    // Batches: each room grows one after another, BATCH_DAYS each, on all its boxes (linked at the start).
    const batchRows: Array<{ room: number; start: string; end: string }> = [];
    for (let room = 0; room < REPORT_COMPANY.rooms; room += 1) {
      for (let start = addDaysTo(yearStart, -((room * 17) % BATCH_DAYS) - 7); start <= today; start = addDaysTo(start, BATCH_DAYS)) batchRows.push({ room, start, end: addDaysTo(start, BATCH_DAYS - 1) });
    }
    const batches = await trx
      .insertInto('batches')
      .values(
        batchRows.map((batch, index) => {
          const harvested = batch.end < today;
          return {
            ...stamp,
            created_at: `${batch.start}T07:00:00Z`,
            batch_number: `B-${String(index + 1).padStart(4, '0')}`,
            number_of_plants: BOXES_PER_ROOM,
            strain_name: ['Northern Lights', 'Blue Dream', 'Amnesia Haze', 'White Widow'][index % 4]!,
            batch_status: harvested ? 'Harvested' : addDaysTo(batch.start, 28) > today ? 'Vegetative' : 'Flowering',
            start_date: batch.start,
            end_date: harvested ? batch.end : null,
            harvested_at: harvested ? `${batch.end}T16:00:00Z` : null,
            harvested_by: harvested ? adminId : null,
          };
        }),
      )
      .returning('id')
      .execute();
    await sql`CREATE TEMP TABLE bench_batches ON COMMIT DROP AS
      SELECT b.batch_id, r.id AS room_id, (b.start || 'T07:00:00Z')::timestamptz AS starts,
        COALESCE(lead((b.start || 'T07:00:00Z')::timestamptz) OVER (PARTITION BY r.id ORDER BY b.start), 'infinity') AS ends
      FROM unnest(${batches.map((batch) => batch.id)}::int[], ${batchRows.map((batch) => batch.room)}::int[], ${batchRows.map((batch) => batch.start)}::text[]) AS b(batch_id, room_n, start)
      JOIN unnest(${roomIds}::int[]) WITH ORDINALITY AS r(id, ord) ON r.ord = b.room_n + 1`.execute(trx);
    await sql`INSERT INTO batch_rooms (batch_id, room_id, company_id, created_by, created_at) SELECT batch_id, room_id, ${sql.lit(companyId)}, ${sql.lit(adminId)}, starts FROM bench_batches`.execute(trx);
    await sql`
      INSERT INTO batch_grids (batch_id, grid_id, company_id, created_by, created_at)
      SELECT DISTINCT bb.batch_id, b.grid_id, ${sql.lit(companyId)}, ${sql.lit(adminId)}, bb.starts FROM bench_batches bb JOIN bench_boxes b ON b.room_id = bb.room_id`.execute(trx);
    await sql`
      INSERT INTO batch_grid_boxes (batch_id, grid_box_id, company_id, created_by, created_at)
      SELECT bb.batch_id, b.box_id, ${sql.lit(companyId)}, ${sql.lit(adminId)}, bb.starts FROM bench_batches bb JOIN bench_boxes b ON b.room_id = bb.room_id`.execute(trx);

    // The forms: weekly scouting of the boxes (with a Problem field) and the sticky-trap count.
    const [scouting, trap] = await trx
      .insertInto('form_templates')
      .values([
        { ...stamp, template_name: 'Weekly scouting', form_category: 'Scouting', is_default: true, page_css: null, user_id: adminId },
        { ...stamp, template_name: 'Sticky trap count', form_category: 'Sticky Trap', is_default: true, page_css: null, user_id: adminId },
      ])
      .returning('id')
      .execute();
    const field = (templateId: number, position: number, name: string, type: string, options: string[] = []) => ({
      ...stamp,
      template_id: templateId,
      field_name: name,
      field_type: type,
      field_options: JSON.stringify(options),
      report_id: null,
      css_class: null,
      is_required: 0,
      position,
    });
    const fields = await trx
      .insertInto('form_fields')
      .values([
        field(scouting!.id, 0, 'Problems seen', 'Problem'),
        field(scouting!.id, 1, 'Plant vigour', 'Dropdown', ['Good', 'Fair', 'Poor']),
        field(scouting!.id, 2, 'Notes', 'Textarea'),
        field(trap!.id, 0, 'Trap count', 'Number'),
        field(trap!.id, 1, 'Pests on trap', 'Checkbox', ['Thrips', 'Whitefly', 'Fungus gnats', 'Aphids']),
        field(trap!.id, 2, 'Trap replaced', 'Radio', ['Yes', 'No']),
      ])
      .returning('id')
      .execute();
    const [problemField, vigourField, notesField, countField, pestsField, replacedField] = fields.map((row) => row.id);

    // Responses: each week a round of 8,654 of the boxes (spread over the rooms, others each week), and every trap counted, each filed
    // under the batch its box held then (submit_form: the box's latest batch link made before).
    const responseColumns = sql`company_id, template_id, grid_box_id, room_id, batch_id, submitted_by, submitted_at, created_at, updated_at, created_by, updated_by`;
    const responseValues = (templateId: number) =>
      sql`${sql.lit(companyId)}, ${sql.lit(templateId)}, b.box_id, b.room_id, bb.batch_id, s.by, s.at, s.at, s.at, s.by, s.by`;
    const batchAt = sql`LEFT JOIN bench_batches bb ON bb.room_id = b.room_id AND s.at >= bb.starts AND s.at < bb.ends`;
    const W = REPORT_COMPANY.weeks;
    await sql`
      INSERT INTO form_responses (${responseColumns})
      SELECT ${responseValues(scouting!.id)}
      FROM generate_series(0, ${sql.lit(REPORT_COMPANY.scoutingResponses - 1)}) AS i
      JOIN bench_boxes b ON b.n = ((i / ${sql.lit(W)}) * 7919 + (i % ${sql.lit(W)}) * 1543) % ${sql.lit(BOXES)}
      CROSS JOIN LATERAL (SELECT ${inWeek(sql`i % ${sql.lit(W)}`, frac(sql`i`, 1))} AS at, ${grower(sql`i`)} AS by) s
      ${batchAt}`.execute(trx);
    await sql`
      INSERT INTO form_responses (${responseColumns})
      SELECT ${responseValues(trap!.id)}
      FROM generate_series(0, ${sql.lit(REPORT_COMPANY.trapResponses - 1)}) AS i
      JOIN bench_boxes b ON b.trap_n = i / ${sql.lit(TRAP_WEEKS)}
      CROSS JOIN LATERAL (SELECT ${inWeek(sql`${sql.lit(W - TRAP_WEEKS)} + i % ${sql.lit(TRAP_WEEKS)}`, frac(sql`i`, 2))} AS at, ${grower(sql`i + 7`)} AS by) s
      ${batchAt}`.execute(trx);

    // Problems: those named by scouting answers go to the round's responses nearest the room's hot spot
    // of the week (it drifts 17 boxes a week); those from the box panel gather around it too.
    const plan = problemPlan();
    await sql`CREATE TEMP TABLE bench_plan ON COMMIT DROP AS
      SELECT * FROM unnest(${plan.map((c) => c.week)}::int[], ${plan.map((c) => c.room)}::int[], ${plan.map((c) => c.type)}::int[], ${plan.map((c) => c.form)}::int[], ${plan.map((c) => c.manual)}::int[])
        AS p(week, room_n, type_n, form_n, manual_n)`.execute(trx);
    await sql`CREATE TEMP TABLE bench_types ON COMMIT DROP AS
      SELECT * FROM unnest(${TYPES.map((_, index) => index)}::int[], ${TYPES.map((type) => type.name)}::text[], ${TYPES.map((type) => problemSlugOf(type.name))}::text[]) AS t(type_n, problem_type, problem_slug)`.execute(trx);
    const hotSpot = (week: RawBuilder<unknown>, room: RawBuilder<unknown>) => sql`((${room}) * 131 + (${week}) * 17) % ${sql.lit(BOXES_PER_ROOM)}`;
    await sql`CREATE TEMP TABLE bench_scouted ON COMMIT DROP AS
      SELECT r.id, r.grid_box_id, r.room_id, r.submitted_at, r.submitted_by, b.grid_id, b.room_n, w.week,
        row_number() OVER (PARTITION BY w.week, b.room_n ORDER BY abs(b.idx - ${hotSpot(sql`w.week`, sql`b.room_n`)}) + ${frac(sql`r.id`, 3)} * 150) AS rn
      FROM form_responses r
      JOIN bench_boxes b ON b.box_id = r.grid_box_id
      CROSS JOIN LATERAL (SELECT floor(extract(epoch FROM r.submitted_at - ${ys}) / 604800)::int AS week) w
      WHERE r.company_id = ${sql.lit(companyId)} AND r.template_id = ${sql.lit(scouting!.id)}`.execute(trx);
    const problemColumns = sql`company_id, room_id, grid_id, grid_box_id, problem_type, problem_slug, severity, source, form_response_id, user_id, observed_at,
      status, status_at, status_by, created_at, updated_at, created_by, updated_by`;
    // Severity mostly low; a problem seen more than two weeks ago mostly resolved since (a few days on).
    const problemValues = (key: RawBuilder<unknown>) => sql`
      1 + floor(power(${frac(key, 4)}, 1.7) * 5), ${sql`s.source`}, s.response_id, s.by, s.at,
      st.status, st.status_at, st.by, s.at, COALESCE(st.status_at, s.at), s.by, COALESCE(st.by, s.by)`;
    const statusOf = (key: RawBuilder<unknown>) => sql`
      CROSS JOIN LATERAL (SELECT ${frac(key, 5)} AS f, LEAST(${nowSql}, s.at + (1 + ${frac(key, 6)} * 9) * interval '1 day') AS later) d
      CROSS JOIN LATERAL (SELECT
        CASE WHEN d.f < 0.03 THEN 'dismissed' WHEN s.at < ${nowSql} - interval '14 days' THEN (CASE WHEN d.f < 0.1 THEN 'treated' WHEN d.f < 0.97 THEN 'resolved' ELSE 'unresolved' END)
             WHEN d.f < 0.15 THEN 'treated' ELSE 'unresolved' END AS status) st0
      CROSS JOIN LATERAL (SELECT st0.status, CASE WHEN st0.status = 'unresolved' THEN NULL ELSE d.later END AS status_at, CASE WHEN st0.status = 'unresolved' THEN NULL ELSE ${grower(key)} END AS by) st`;
    await sql`
      INSERT INTO plant_problems (${problemColumns})
      SELECT ${sql.lit(companyId)}, sc.room_id, sc.grid_id, sc.grid_box_id, t.problem_type, t.problem_slug, ${problemValues(sql`sc.id`)}
      FROM (SELECT *, sum(form_n) OVER (PARTITION BY week, room_n ORDER BY type_n) AS upto FROM bench_plan WHERE form_n > 0) p
      JOIN bench_scouted sc ON sc.week = p.week AND sc.room_n = p.room_n AND sc.rn > p.upto - p.form_n AND sc.rn <= p.upto
      JOIN bench_types t ON t.type_n = p.type_n
      CROSS JOIN LATERAL (SELECT 'form' AS source, sc.id AS response_id, sc.submitted_by AS by, sc.submitted_at AS at) s
      ${statusOf(sql`sc.id`)}`.execute(trx);
    const manualKey = sql`(p.week * 1000000 + p.room_n * 10000 + p.type_n * 1000 + k + 500000000)`;
    await sql`
      INSERT INTO plant_problems (${problemColumns})
      SELECT ${sql.lit(companyId)}, b.room_id, b.grid_id, b.box_id, t.problem_type, t.problem_slug, ${problemValues(manualKey)}
      FROM bench_plan p
      CROSS JOIN LATERAL generate_series(1, p.manual_n) AS k
      JOIN bench_types t ON t.type_n = p.type_n
      JOIN bench_boxes b ON b.room_n = p.room_n
        AND b.idx = ((${hotSpot(sql`p.week`, sql`p.room_n`)} + floor((${frac(manualKey, 7)} + ${frac(manualKey, 8)} + ${frac(manualKey, 9)} - 1.5) * 60)::int) % ${sql.lit(BOXES_PER_ROOM)} + ${sql.lit(BOXES_PER_ROOM)}) % ${sql.lit(BOXES_PER_ROOM)}
      CROSS JOIN LATERAL (SELECT 'manual' AS source, NULL::int AS response_id, ${grower(manualKey)} AS by, ${inWeek(sql`p.week`, frac(manualKey, 10))} AS at) s
      ${statusOf(manualKey)}`.execute(trx);

    // The answers: the Problem answer of the responses that named problems, vigour on every round,
    // a note now and then; each trap's count (rising and falling with the season), pests, replaced.
    const answerColumns = sql`company_id, response_id, field_id, input_data, created_at, updated_at, created_by, updated_by`;
    const answerStamp = sql`r.submitted_at, r.submitted_at, r.submitted_by, r.submitted_by`;
    await sql`
      INSERT INTO form_field_responses (${answerColumns})
      SELECT ${sql.lit(companyId)}, p.form_response_id, ${sql.lit(problemField!)}, string_agg(p.problem_type || ' (' || p.severity::int || ')', ', ' ORDER BY p.id),
        min(p.observed_at), min(p.observed_at), min(p.user_id), min(p.user_id)
      FROM plant_problems p WHERE p.company_id = ${sql.lit(companyId)} AND p.source = 'form' GROUP BY p.form_response_id`.execute(trx);
    await sql`
      INSERT INTO form_field_responses (${answerColumns})
      SELECT ${sql.lit(companyId)}, r.id, v.field_id, v.input_data, ${answerStamp}
      FROM form_responses r
      CROSS JOIN LATERAL (VALUES
        (${sql.lit(vigourField!)}, CASE WHEN ${frac(sql`r.id`, 11)} < 0.7 THEN 'Good' WHEN ${frac(sql`r.id`, 11)} < 0.92 THEN 'Fair' ELSE 'Poor' END),
        (${sql.lit(notesField!)}, CASE WHEN ${frac(sql`r.id`, 12)} < 0.05 THEN 'Checked leaf undersides, see the box history' END)) AS v(field_id, input_data)
      WHERE r.company_id = ${sql.lit(companyId)} AND r.template_id = ${sql.lit(scouting!.id)} AND v.input_data IS NOT NULL`.execute(trx);
    const season = sql`(0.5 + 0.5 * sin(extract(epoch FROM r.submitted_at - ${ys}) / 604800 / ${sql.lit(W)} * 2 * pi() + r.room_id))`;
    await sql`
      INSERT INTO form_field_responses (${answerColumns})
      SELECT ${sql.lit(companyId)}, r.id, v.field_id, v.input_data, ${answerStamp}
      FROM form_responses r
      CROSS JOIN LATERAL (VALUES
        (${sql.lit(countField!)}, round((3 + 60 * ${season}) * (0.5 + ${frac(sql`r.id`, 13)}))::int::text),
        (${sql.lit(pestsField!)}, NULLIF(concat_ws(', ', CASE WHEN ${frac(sql`r.id`, 14)} < 0.6 THEN 'Thrips' END, CASE WHEN ${frac(sql`r.id`, 15)} < 0.35 THEN 'Whitefly' END,
          CASE WHEN ${frac(sql`r.id`, 16)} < 0.3 THEN 'Fungus gnats' END, CASE WHEN ${frac(sql`r.id`, 17)} < 0.15 THEN 'Aphids' END), '')),
        (${sql.lit(replacedField!)}, CASE WHEN ${frac(sql`r.id`, 18)} < 0.3 THEN 'Yes' ELSE 'No' END)) AS v(field_id, input_data)
      WHERE r.company_id = ${sql.lit(companyId)} AND r.template_id = ${sql.lit(trap!.id)} AND v.input_data IS NOT NULL`.execute(trx);

    // Products, their treatments, and a spray of one grid of each room every SPRAY_EVERY_DAYS days.
    const products = await trx
      .insertInto('spray_products')
      .values(PRODUCTS.map((product) => ({ ...stamp, name: product.name, active_ingredient: product.active, rate: 1, rate_unit: 'ml/L', reentry_hours: product.reentryHours, preharvest_days: product.preharvestDays, details: '{}' })))
      .returning('id')
      .execute();
    await trx
      .insertInto('treatments')
      .values(PRODUCTS.map((product, index) => ({ ...stamp, treatment_type: product.type, sub_type: null, product_id: products[index]!.id, data: '{}', removed_at: null, user_id: adminId })))
      .execute();
    const sprays = [];
    for (let room = 0; room < REPORT_COMPANY.rooms; room += 1) {
      const roomGrids = grids.filter((grid) => grid.room_id === roomIds[room]);
      for (let day = (room * 3) % SPRAY_EVERY_DAYS, k = 0; ; day += SPRAY_EVERY_DAYS, k += 1) {
        const at = new Date(`${addDaysTo(yearStart, day)}T09:00:00Z`);
        if (at > now) break;
        const product = PRODUCTS[(room + k) % PRODUCTS.length]!;
        const gridId = roomGrids[k % roomGrids.length]!.id;
        const by = growers[(room + k) % growers.length]!;
        const hours = (h: number) => new Date(at.getTime() + h * 3_600_000);
        sprays.push({
          company_id: companyId,
          created_at: at,
          updated_at: at,
          created_by: by,
          updated_by: by,
          product_id: products[PRODUCTS.indexOf(product)]!.id,
          product_name: product.name,
          application_date: at,
          quantity_used: 2,
          quantity_unit: 'L',
          notes: null,
          grid_box_ids: numbered.filter((box) => box.grid === gridId).map((box) => box.box),
          reentry_until: hours(product.reentryHours),
          preharvest_until: hours(product.preharvestDays * 24),
          user_id: by,
        });
      }
    }
    await trx.insertInto('spray_applications').values(sprays).execute();

    const count = async (table: keyof DB) => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE company_id = ${sql.lit(companyId)}`.execute(trx)).rows[0]!.n);
    const counts: Record<string, number> = {};
    for (const table of ['grid_boxes', 'batches', 'form_responses', 'form_field_responses', 'plant_problems', 'spray_applications'] as const) counts[table] = await count(table);
    // The plan puts no more form problems in a room's week than its round has responses: all are made.
    if (counts.plant_problems !== REPORT_COMPANY.problems) throw new Error(`Seeded ${counts.plant_problems} problems, planned ${REPORT_COMPANY.problems}`);
    const { rows: inYear } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM plant_problems WHERE company_id = ${sql.lit(companyId)} AND status <> 'dismissed' AND observed_at >= ${ys}`.execute(trx);
    const { rows: top } = await sql<{ problem_type: string }>`SELECT problem_type FROM plant_problems WHERE company_id = ${sql.lit(companyId)} GROUP BY 1 ORDER BY count(*) DESC LIMIT 3`.execute(trx);
    const current = batchRows.findIndex((batch) => batch.room === ROOM_NAMES.indexOf('Flower 1') && batch.end >= today);
    return {
      roomIds,
      batchId: batches[current]!.id,
      batchRoomId: roomIds[ROOM_NAMES.indexOf('Flower 1')]!,
      trapCountFieldId: countField!,
      topProblems: top.map((row) => row.problem_type),
      counts,
      problemsInYear: inYear[0]!.n,
    };
  });
  await sql`VACUUM ANALYZE`.execute(db);
  return { ...result, companyId, userId: adminId, seconds: (performance.now() - started) / 1000 };
}

interface Session {
  token: string;
  at: number;
}

/** One trend call asked one way: its row in the table. */
interface Case {
  call: string;
  period: string;
  scope: string;
  query: Record<string, string | number>;
  /** Checks the answer holds what was seeded (a request answering nothing would time nothing). */
  check?: (answer: Record<string, unknown>) => void;
}

interface Row {
  call: string;
  period: string;
  scope: string;
  database: string;
  p50: number;
  p95: number;
}

const PERIODS = [8, 26, 52];

function casesOf(seeded: Seeded): Case[] {
  const { companyId, roomIds } = seeded;
  const twoRooms = roomIds.slice(-2);
  const cases: Case[] = [];
  const scopes: Array<{ scope: string; rooms: Record<string, string> }> = [
    { scope: 'all rooms', rooms: {} },
    { scope: '2 rooms', rooms: { room_ids: JSON.stringify(twoRooms) } },
  ];
  const oneRoom: Array<{ scope: string; room: Record<string, number> }> = [
    { scope: 'all rooms', room: {} },
    { scope: '1 room', room: { room_id: seeded.batchRoomId } },
  ];
  for (const weeks of PERIODS) {
    const period = `${weeks} weeks`;
    const asked = { company_id: companyId, date_option: 'weeks_ago', weeks_ago: weeks };
    for (const { scope, rooms } of scopes) {
      const query = { ...asked, ...rooms };
      cases.push({
        call: 'get_problem_trends',
        period,
        scope,
        query,
        check:
          weeks === 52 && scope === 'all rooms'
            ? (answer) => {
                const total = (answer.totals as Array<{ count: number }>).reduce((sum, point) => sum + point.count, 0);
                if (total !== seeded.problemsInYear) throw new Error(`get_problem_trends counted ${total} problems over the year, ${seeded.problemsInYear} were seeded`);
              }
            : undefined,
      });
      cases.push({ call: 'get_trends_report_graph', period, scope, query });
      cases.push({ call: 'get_trends_with_severity', period, scope, query });
      cases.push({ call: 'get_single_problem_trend', period, scope, query: { ...query, problem: seeded.topProblems[0]! } });
      cases.push({ call: 'get_gutter_trends', period, scope, query: { ...asked, room_ids: JSON.stringify(scope === '2 rooms' ? twoRooms : roomIds), plant_problems: JSON.stringify(seeded.topProblems), batch_id: 'NULL' } });
      cases.push({ call: 'get_treatment_effectiveness_report', period, scope, query });
    }
    cases.push({ call: 'get_trends_cumulative_report_graph', period, scope: '1 room', query: { ...asked, room_id: seeded.batchRoomId } });
    for (const { scope, room } of oneRoom) {
      cases.push({ call: 'get_specific_trends', period, scope, query: { ...asked, batch_id: seeded.batchId, ...room } });
      cases.push({ call: 'get_field_responses_report', period, scope, query: { ...asked, FieldID: seeded.trapCountFieldId, ...room } });
    }
  }
  cases.push({ call: 'get_report_info', period: '-', scope: 'company', query: { company_id: companyId } });
  const order = ['get_problem_trends', 'get_trends_report_graph', 'get_trends_cumulative_report_graph', 'get_trends_with_severity', 'get_single_problem_trend', 'get_specific_trends', 'get_gutter_trends', 'get_field_responses_report', 'get_treatment_effectiveness_report', 'get_report_info'];
  return cases.sort((a, b) => order.indexOf(a.call) - order.indexOf(b.call));
}

/** Starts the server on the seeded database (as `npm start` runs it), signs in, times every case, stops it. */
async function measure(database: 'pglite' | 'postgres', databaseUrl: string | undefined, dataDir: string, seeded: Seeded, email: string, password: string): Promise<Row[]> {
  const port = await freePort();
  const server = await startScript(
    'server/main.ts',
    { PORT: String(port), HOST: '127.0.0.1', WEB_ROOT: join(dataDir, 'no-web-app'), LOG_LEVEL: 'warn', SEED_DEMO: '0', DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    'Grow Room is running',
  );
  // What the server says (LOG_LEVEL warn: warnings and errors) goes to the bench's output.
  server.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  try {
    const base = `http://127.0.0.1:${port}/api`;
    let session: Session | undefined;
    // An access token lasts 15 minutes; PGlite's run takes longer.
    const token = async () => {
      if (!session || Date.now() - session.at > 10 * 60_000) {
        const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }).toString() });
        session = { token: ((await login.json()) as { access_token: string }).access_token, at: Date.now() };
      }
      return session.token;
    };
    const ask = async (item: Case) => {
      const url = new URL(`${base}/${item.call}`);
      for (const [key, value] of Object.entries(item.query)) url.searchParams.set(key, String(value));
      const start = performance.now();
      const response = await fetch(url, { headers: { authorization: `Bearer ${await token()}`, 'accept-encoding': 'gzip, deflate, br, zstd' } });
      const answer = (await response.json()) as Record<string, unknown>;
      const elapsed = performance.now() - start;
      if (!response.ok) throw new Error(`${item.call} ${url.search} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      return { answer, elapsed };
    };
    const rows: Row[] = [];
    for (const item of casesOf(seeded)) {
      await token();
      // One request not timed: a dashboard's server has answered before.
      item.check?.((await ask(item)).answer);
      const times: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample += 1) times.push((await ask(item)).elapsed);
      const row = { call: item.call, period: item.period, scope: item.scope, database, p50: percentile(times, 50), p95: percentile(times, 95) };
      console.log(`${database}: ${row.call}, ${row.period}, ${row.scope}: p50 ${row.p50} ms, p95 ${row.p95} ms`);
      rows.push(row);
    }
    return rows;
  } finally {
    await stopScript(server);
  }
}

/** A fresh database (PGlite in a data directory, or `databaseUrl`) with the company seeded, then measured. */
async function seedAndMeasure(database: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-bench-reports-'));
  try {
    const email = `admin.${randomBytes(4).toString('hex')}@bench.growroom.local`;
    const password = randomBytes(12).toString('base64url');
    const unlock = databaseUrl ? () => undefined : lockDataDir(dataDir);
    let seeded: Seeded;
    try {
      // As `npm run cli -- create-company` makes it (migrations, then the company and its Admin).
      const opened = await openDatabase({ databaseUrl, dataDir });
      try {
        await migrate(opened.db as never);
        const company = await createCompanyWithAdmin(opened.db, { name: 'Bench Reports Farm', adminEmail: email, adminPassword: password });
        seeded = await seedCompany(opened.db, company.company_id, company.user_id);
      } finally {
        await opened.close();
      }
    } finally {
      unlock();
    }
    const { counts } = seeded;
    console.log(
      `${database}: seeded in ${seeded.seconds.toFixed(0)} s: ${counts.grid_boxes?.toLocaleString('en')} boxes, ${counts.form_responses?.toLocaleString('en')} form responses ` +
        `(${counts.form_field_responses?.toLocaleString('en')} answers), ${counts.plant_problems?.toLocaleString('en')} problems, ${counts.batches} batches, ${counts.spray_applications} sprays`,
    );
    return await measure(database, databaseUrl, dataDir, seeded, email, password);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: Row[]) {
  const header = ['call', 'period', 'rooms', 'database', 'p50 ms', 'p95 ms', 'goal', 'met'];
  const lines = rows.map((row) => {
    const goal = row.database === 'postgres';
    return [row.call, row.period, row.scope, row.database, String(row.p50), String(row.p95), goal ? `p95 ≤ ${GOAL_MS} ms` : '- (none)', goal ? (row.p95 <= GOAL_MS ? '✓' : '✗') : ''];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(`\nTrends of a company of ${BOXES.toLocaleString('en')} boxes, a year of ${(REPORT_COMPANY.scoutingResponses + REPORT_COMPANY.trapResponses).toLocaleString('en')} form responses and ${REPORT_COMPANY.problems.toLocaleString('en')} problems: ${SAMPLES} sequential requests per row\n`);
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
  const postgres = rows.filter((row) => row.database === 'postgres');
  if (postgres.length > 0) {
    const missed = postgres.filter((row) => row.p95 > GOAL_MS);
    console.log(`\npostgres: ${postgres.length - missed.length} of ${postgres.length} rows within p95 ≤ ${GOAL_MS} ms (goal ${missed.length === 0 ? 'met' : 'NOT MET'}); slowest p95 ${Math.max(...postgres.map((row) => row.p95))} ms`);
  }
}

/** `BENCH_ONLY=reports`: on PGlite, then on PostgreSQL (BENCH_DATABASE_URL, or this machine's server). */
export async function measureReports(): Promise<void> {
  const rows = await seedAndMeasure('pglite', undefined);
  const postgresUrl = await benchPostgresUrl();
  if (postgresUrl) rows.push(...(await withFreshPostgres(postgresUrl, (url) => seedAndMeasure('postgres', url))));
  else console.log('\n(No PostgreSQL server: set BENCH_DATABASE_URL for the figures the goal is about.)');
  print(rows);
}
