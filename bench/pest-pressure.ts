/**
 * The pest-pressure map figure of `npm run bench` (issue 14: at most 300 ms from the local store): a
 * room of 2,000 boxes (two grids of 40 × 25) with 20,000 problems over 12 weeks, on a tablet's local
 * store (RxDB memory storage, as the sync figures run), read and computed as the map screen does
 * (src/features/pest-pressure): the room's grids, boxes and open problems and the company's colours
 * read from the store, then the map of now. Also the week slider's first touch, which reads the room's
 * twelve weeks of problems, and each week step after, which reuses what was read.
 *
 * Seeding through the server would take minutes and cannot go back 12 weeks (the server keeps an
 * act's time at most 30 days back), so the documents are written into the tablet's store directly, as
 * a pull would have left them (client ids, link keys), like bench/forms.ts writes its template.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { boxClientId } from '../common/client-ids';
import { OPEN_PROBLEM_STATUSES, PROBLEM_STATUSES } from '../common/messages/problems';
import type { PlantProblemRecord } from '../common/schemas/problems';
import { type LocalDocument, withLinkKeys } from '../src/db/schemas';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { openGrowDatabase, type GrowDatabase } from '../src/db/database';
import { colorMappingsOf, indexProblems, pressureAt, type ProblemDoc, weekSteps } from '../src/features/pest-pressure/model';
import { PRESSURE_ROOM } from './problems';
import type { SignedIn } from './sync';

const RUNS = 5;
/** The collections the map reads, alone (RxDB counts open collections per process). */
const PRESSURE_COLLECTIONS = ['company', 'rooms', 'grids', 'grid_boxes', 'plant_problems'] as const;
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

/** The screen's first draw: what PestPressureScreen reads (its useLocalQuery selectors, as plain objects) and computes. */
async function drawNow(database: GrowDatabase, roomId: string, companyId: number) {
  const grids = await database.grids.find({ selector: { roomId } }).exec();
  const boxes = (await database.grid_boxes.find({ selector: { gridId: { $in: grids.map((grid) => grid.id) } } }).exec()).map((box) => box.toJSON() as LocalDocument & { gridId: string });
  const open = (await database.plant_problems.find({ selector: { roomId, status: { $in: [...OPEN_PROBLEM_STATUSES] } } }).exec()).map((problem) => problem.toJSON() as ProblemDoc);
  const company = await database.company.findOne(String(companyId)).exec();
  const colors = colorMappingsOf((company?.toJSON() ?? null) as { problem_color_mappings?: unknown } | null);
  return { boxes, colors, present: pressureAt(indexProblems(open, boxes, colors), Number.POSITIVE_INFINITY) };
}

export async function measurePestPressureMap(_base: string, session: SignedIn, report: (line: string) => void): Promise<void> {
  // One memory storage holds the seeded room; each run opens a new database on it, so every read is
  // cold (no RxDB document or query cache), as when the screen opens after the app starts.
  const storage = getRxStorageMemory();
  const name = `pressure${randomUUID().replaceAll('-', '')}`;
  const open = () => openGrowDatabase({ storage, name, multiInstance: false, collections: PRESSURE_COLLECTIONS });
  const now = Date.now();
  const seeded = pressureRoomDocuments(session.company_id, now);
  const seeding = await open();
  await seeding.company.upsert(seeded.company);
  await seeding.rooms.upsert({ id: seeded.roomId, Name: 'Pest pressure bench', CompanyID: session.company_id });
  await seeding.grids.bulkInsert(seeded.grids);
  await seeding.grid_boxes.bulkInsert(seeded.boxes);
  await seeding.plant_problems.bulkInsert(seeded.problems);
  await seeding.close();

  const mapTimes: number[] = [];
  const firstStepTimes: number[] = [];
  const stepTimes: number[] = [];
  let openNow = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const database = await open();
    try {
      const start = performance.now();
      const { boxes, colors, present } = await drawNow(database, seeded.roomId, session.company_id);
      mapTimes.push(performance.now() - start);
      openNow = present.total;
      if (present.circles.size === 0) throw new Error('The map drew no box');

      // The slider's first touch reads the room's weeks; each step after replays them.
      const steps = weekSteps(now);
      const touched = performance.now();
      const all = (await database.plant_problems.find({ selector: { roomId: seeded.roomId } }).exec()).map((problem) => problem.toJSON() as ProblemDoc);
      const history = indexProblems(all, boxes, colors);
      pressureAt(history, steps[1]!.at);
      firstStepTimes.push(performance.now() - touched);
      if (all.length !== PRESSURE_ROOM.problems) throw new Error(`The slider read ${all.length} problems`);
      const stepStart = performance.now();
      for (const step of steps) pressureAt(history, step.at);
      stepTimes.push((performance.now() - stepStart) / steps.length);
    } finally {
      await database.close();
    }
  }
  const boxCount = PRESSURE_ROOM.grids * PRESSURE_ROOM.nx * PRESSURE_ROOM.ny;
  const figure = Math.round(median(mapTimes));
  report(
    `pest-pressure map of a ${boxCount.toLocaleString('en')}-box room with ${PRESSURE_ROOM.problems.toLocaleString('en')} problems: median ${figure} ms (goal: at most ${GOAL_MS} ms; ${figure <= GOAL_MS ? 'met' : 'NOT MET'}) — read cold from the local store and computed, ${RUNS} runs, ${openNow.toLocaleString('en')} open now`,
  );
  report(`pest-pressure map, the week slider's first touch (reads the room's ${PRESSURE_ROOM.weeks} weeks): median ${Math.round(median(firstStepTimes))} ms; each week step after: median ${median(stepTimes).toFixed(1)} ms`);
}
