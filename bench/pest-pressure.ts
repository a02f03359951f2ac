/**
 * The pest-pressure map figure of `npm run bench` (issue 14: at most 300 ms from the local store): a
 * room of 2,000 boxes (two grids of 40 × 25) with 20,000 problems over 12 weeks, on a tablet's local
 * store (RxDB memory storage, as the sync figures run), read and computed as the map screen does
 * (src/features/pest-pressure): the room's grids, boxes and problems and the company's colours read
 * from the store, then the map of now. Also each week step of the slider, which reuses what was read.
 *
 * Seeding through the server would take minutes and cannot go back 12 weeks (the server keeps an
 * act's time at most 30 days back), so the documents are written into the tablet's store directly, as
 * a pull would have left them (client ids, link keys), like bench/forms.ts writes its template.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { boxClientId } from '../common/client-ids';
import { PROBLEM_STATUSES } from '../common/messages/problems';
import type { PlantProblemRecord } from '../common/schemas/problems';
import { type LocalDocument, withLinkKeys } from '../src/db/schemas';
import { colorMappingsOf, indexProblems, pressureAt, type ProblemDoc, weekSteps } from '../src/features/pest-pressure/model';
import { startTablet } from '../tests/support/client';
import { PRESSURE_ROOM } from './problems';
import { type SignedIn, tabletUser } from './sync';

const RUNS = 5;
const GOAL_MS = 300;
const WEEK_MS = 7 * 86_400_000;
/** Problems growers record most, in the catalogue's names (as bench/problems.ts). */
const TYPES = ['Two-spotted spider mite', 'Western flower thrips', 'Powdery mildew', 'Fungus gnats', 'Botrytis (grey mould)', 'Green peach aphid', 'Broad mite', 'Root aphids'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The room's documents as a pull leaves them: each problem seen in its week, those older than two weeks resolved at their week's end. */
function pressureRoomDocuments(companyId: number, now: number) {
  const roomId = randomUUID();
  const grids: LocalDocument[] = [];
  const boxes: LocalDocument[] = [];
  for (let index = 1; index <= PRESSURE_ROOM.grids; index += 1) {
    const gridId = randomUUID();
    grids.push(withLinkKeys('grids', { id: gridId, Name: `Bay ${index}`, CompanyID: companyId, RoomID: roomId, nx: PRESSURE_ROOM.nx, ny: PRESSURE_ROOM.ny }));
    for (let y = 1; y <= PRESSURE_ROOM.ny; y += 1) {
      for (let x = 1; x <= PRESSURE_ROOM.nx; x += 1) boxes.push(withLinkKeys('grid_boxes', { id: boxClientId(gridId, x, y), GridID: gridId, CompanyID: companyId, X: x, Y: y }));
    }
  }
  const perWeek = Math.ceil(PRESSURE_ROOM.problems / PRESSURE_ROOM.weeks);
  const problems: LocalDocument[] = [];
  for (let made = 0; made < PRESSURE_ROOM.problems; made += 1) {
    const week = PRESSURE_ROOM.weeks - Math.floor(made / perWeek);
    const type = made % TYPES.length;
    // A hot spot per type that drifts week by week, as pressure moves through a room.
    const box = boxes[(type * 211 + week * 37 + ((made * 7919) % 97)) % boxes.length]!;
    const observed = new Date(now - week * WEEK_MS + ((made % perWeek) / perWeek) * WEEK_MS).toISOString();
    const closed = week > PRESSURE_ROOM.openWeeks ? new Date(now - (week - 1) * WEEK_MS).toISOString() : null;
    const id = randomUUID();
    const problem: PlantProblemRecord = {
      problem_id: id,
      company_id: companyId,
      room_id: roomId,
      grid_id: String(box.GridID),
      grid_box_id: box.id,
      sub_gridbox_id: null,
      problem_type: TYPES[type]!,
      problem_slug: null,
      severity: 1 + (made % 5),
      notes: null,
      image: null,
      source: 'manual',
      form_response_id: null,
      user_id: null,
      observed_at: observed,
      status: closed ? PROBLEM_STATUSES[2] : PROBLEM_STATUSES[0],
      status_at: closed,
      status_by: null,
      created_at: observed,
      updated_at: closed ?? observed,
    };
    problems.push(withLinkKeys('plant_problems', { ...problem, id, serverId: made + 1 }));
  }
  const company = withLinkKeys('company', {
    id: String(companyId),
    company_id: companyId,
    problem_color_mappings: [{ id: 1, CompanyID: companyId, Problem: TYPES[0], Color: '#1565c0', Abbreviation: 'TSM', extras: {} }],
  });
  return { roomId, grids, boxes, problems, company };
}

export async function measurePestPressureMap(base: string, session: SignedIn, report: (line: string) => void): Promise<void> {
  // The collections the map reads, alone: the other figures' tablets have closed, but RxDB counts per process.
  const tablet = await startTablet(base, tabletUser(session), { start: false, collections: ['company', 'rooms', 'grids', 'grid_boxes', 'plant_problems'] });
  try {
    const now = Date.now();
    const seeded = pressureRoomDocuments(session.company_id, now);
    const database = tablet.database;
    await database.company.upsert(seeded.company);
    await database.rooms.upsert({ id: seeded.roomId, Name: 'Pest pressure bench', CompanyID: session.company_id });
    await database.grids.bulkInsert(seeded.grids);
    await database.grid_boxes.bulkInsert(seeded.boxes);
    await database.plant_problems.bulkInsert(seeded.problems);

    const mapTimes: number[] = [];
    const stepTimes: number[] = [];
    let open = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const start = performance.now();
      // The screen's reads (its useLocalQuery selectors), as plain objects.
      const grids = await database.grids.find({ selector: { roomId: seeded.roomId } }).exec();
      const gridIds = grids.map((grid) => grid.id);
      const boxes = (await database.grid_boxes.find({ selector: { gridId: { $in: gridIds } } }).exec()).map((box) => box.toJSON() as LocalDocument & { gridId: string });
      const problems = (await database.plant_problems.find({ selector: { roomId: seeded.roomId } }).exec()).map((problem) => problem.toJSON() as ProblemDoc);
      const company = await database.company.findOne(String(session.company_id)).exec();
      const index = indexProblems(problems, boxes, colorMappingsOf((company?.toJSON() ?? null) as { problem_color_mappings?: unknown } | null));
      const present = pressureAt(index, Number.POSITIVE_INFINITY);
      mapTimes.push(performance.now() - start);
      open = present.total;
      if (problems.length !== PRESSURE_ROOM.problems || present.circles.size === 0) throw new Error(`The map read ${problems.length} problems and drew ${present.circles.size} boxes`);
      const steps = weekSteps(now);
      const stepStart = performance.now();
      for (const step of steps) pressureAt(index, step.at);
      stepTimes.push((performance.now() - stepStart) / steps.length);
    }
    const boxCount = PRESSURE_ROOM.grids * PRESSURE_ROOM.nx * PRESSURE_ROOM.ny;
    const figure = Math.round(median(mapTimes));
    report(
      `pest-pressure map of a ${boxCount.toLocaleString('en')}-box room with ${PRESSURE_ROOM.problems.toLocaleString('en')} problems: median ${figure} ms (goal: at most ${GOAL_MS} ms; ${figure <= GOAL_MS ? 'met' : 'NOT MET'}) — read from the local store and computed, ${RUNS} runs, ${open.toLocaleString('en')} open now`,
    );
    report(`pest-pressure map, one week step of the slider (${PRESSURE_ROOM.weeks} weeks back): median ${median(stepTimes).toFixed(1)} ms`);
  } finally {
    await tablet.close();
  }
}
