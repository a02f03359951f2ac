/**
 * The demo's plant problems and sprays (issue 14): eight weeks of problems recorded on the boxes of
 * its benches, acted on as the floor acts on them, the company's colours for its common problems, its
 * spray products and treatments, and the sprays on the boxes where problems were. Each act is written
 * as the API writes it (server/domains/problems, server/domains/treatments: the same columns, the
 * same status changes through `problemQueries.setStatus`, the same audit titles), at the time it was
 * done, by the Admin (Ada) or the grower (Gus), so the pest-pressure map and its week slider replay
 * the story and tablets pull it like any other data.
 *
 * The story follows the scouting of observations.ts: fungus gnats come and go on the clone table and
 * the mother plants with each batch of cuttings; spider mites build up in Bench A's door corner from
 * five weeks ago (a neem spray that does not hold them, two releases of predatory mites, the problems
 * marked treated, then resolved when they faded) and show again in the last week, sprayed with a
 * miticide a little before the first start (its re-entry interval still running, the flowering batch
 * there inside its pre-harvest interval: sprayTimeOf); thrips ride in on Sour Diesel in veg and follow
 * it into flower, sprayed with Beauveria, which works slowly (thrips still found on sprayed plants a
 * few days on); powdery mildew on Lemon Haze until its harvest, slowed by bicarbonate; botrytis on
 * Bench B in the last ten days, still open; and a false alarm or two, dismissed.
 *
 * Where the spec is silent, the demo decides:
 * - Problems are seen on the scouting walks' days (observations.ts: 7w + 5 and 7w + 2 days ago), in
 *   the morning, by that walk's scout, on boxes where a batch grows; a box already holding an open
 *   problem of a type is not given a second one of it, unless the box was sprayed since that one was
 *   seen: pests found again after a spray are recorded again, as a scout checking the spray records
 *   them, and they are what the treatment effectiveness report counts after the spray.
 * - A hot spot spreads from its origin to neighbouring boxes (chessboard distance), fewer and milder
 *   further out; severity 1–5 as the tablet records it.
 * - Acts (status changes, sprays) are done in the afternoon, the way the screens do them: a type in a
 *   grid or room, all of a grid, or one problem at a time.
 * - Products have made-up names with real active ingredients, rates and intervals as labels give them.
 *   A spray's quantity is the product used: its rate times the mix (SPRAY_LITRES_PER_BOX a box).
 */
import type { Kysely } from 'kysely';
import { newClientId } from '../../common/client-ids';
import { auditTitles } from '../../common/messages/audit-titles';
import { OPEN_PROBLEM_STATUSES, type ProblemAction } from '../../common/messages/problems';
import type { TreatmentType } from '../../common/messages/treatments';
import { catalogueProblem } from '../../common/plant-problems';
import { sprayIntervalEnds } from '../../common/schemas/treatments';
import type { DB } from '../db/schema';
import { type Actor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { type ActedOn, actOnProblems } from '../domains/problems/record';
import type { ProblemReach } from '../domains/problems/queries';
import { sprayProductJson, treatmentQueries } from '../domains/treatments/queries';
import type { Calendar, Dice } from './dice';
import type { DemoBox, GridKey, Operation, RoomKey } from './operation';

type Slug = 'two-spotted-spider-mite' | 'western-flower-thrips' | 'fungus-gnats' | 'powdery-mildew' | 'botrytis';
type ProductKey = 'beauveria' | 'bicarbonate' | 'neem' | 'bifenazate';
type Who = 'admin' | 'grower';

/** The catalogue's name of a problem: what the tablet's picker records as its type. */
const nameOf = (slug: Slug) => catalogueProblem(slug)!.name;

/** The company's colours for its common problems, set by the Admin before the story's first problems. */
const COLORS: ReadonlyArray<{ slug: Slug; color: string; abbreviation: string }> = [
  { slug: 'two-spotted-spider-mite', color: '#e53935', abbreviation: 'SM' },
  { slug: 'western-flower-thrips', color: '#f9a825', abbreviation: 'TH' },
  { slug: 'fungus-gnats', color: '#6d4c41', abbreviation: 'FG' },
  { slug: 'powdery-mildew', color: '#8e24aa', abbreviation: 'PM' },
  { slug: 'botrytis', color: '#455a64', abbreviation: 'BOT' },
];
const COLORS_DAY = 56;

/**
 * Products with real active ingredients at label-like rates and intervals (re-entry in hours,
 * pre-harvest in days), each with its treatments as the treatment screen records them (`data.notes`).
 */
const PRODUCTS: ReadonlyArray<{
  key: ProductKey;
  name: string;
  activeIngredient: string;
  rate: number;
  rateUnit: string;
  reentryHours: number;
  preharvestDays: number;
  treatments: ReadonlyArray<{ type: TreatmentType; subType: string; notes: string }>;
}> = [
  {
    key: 'beauveria',
    name: 'BeauvaGuard WP',
    activeIngredient: 'Beauveria bassiana strain GHA (22%)',
    rate: 1.25,
    rateUnit: 'g/L',
    reentryHours: 4,
    preharvestDays: 0,
    treatments: [{ type: 'biological', subType: 'Entomopathogenic fungus', notes: 'Thrips, whitefly and aphids: wet the leaf undersides late in the day, three sprays 5 to 7 days apart. No fungicide within 48 hours.' }],
  },
  {
    key: 'bicarbonate',
    name: 'KaliCarb 85 SP',
    activeIngredient: 'Potassium bicarbonate (85%)',
    rate: 5,
    rateUnit: 'g/L',
    reentryHours: 4,
    preharvestDays: 0,
    treatments: [
      { type: 'chemical', subType: 'Contact fungicide', notes: 'Powdery mildew at the first specks: full coverage, repeat after 7 days. Works on contact only.' },
      { type: 'cultural', subType: 'Sanitation and climate', notes: 'Strip and bag leaves with mildew before spraying; keep RH under 60% at lights-off and air moving under the canopy.' },
    ],
  },
  {
    key: 'neem',
    name: 'AzaNeem 3 EC',
    activeIngredient: 'Azadirachtin (3%)',
    rate: 1.5,
    rateUnit: 'mL/L',
    reentryHours: 4,
    preharvestDays: 0,
    treatments: [{ type: 'chemical', subType: 'Botanical insecticide', notes: 'Mites and thrips on young hot spots; fungus gnat larvae as a drench at the same rate. Rotate with other modes of action.' }],
  },
  {
    key: 'bifenazate',
    name: 'BifenaMite 43 SC',
    activeIngredient: 'Bifenazate (43.2%)',
    rate: 0.4,
    rateUnit: 'mL/L',
    reentryHours: 12,
    preharvestDays: 3,
    treatments: [{ type: 'chemical', subType: 'Miticide', notes: 'Spider mite hot spots only, once per crop (resistance). Predatory mites can go back in three days later.' }],
  },
];
const PRODUCTS_DAY = 45;
const SPRAY_LITRES_PER_BOX = 0.25;

/** A moment of the story: a day and time, or `recent` minutes after the recent spray (sprayTimeOf). */
type Moment = { daysAgo: number; hour: number; minute?: number } | { recent: number };

/** A walk's find: the boxes within `reach` of the origin (chessboard distance), severity `severity` at the origin. */
interface Sighting {
  daysAgo: number;
  origin: [number, number];
  reach: number;
  severity: number;
  /** The note of the origin's problem, when the story needs one. */
  note?: string;
}

type Step = Moment & { by: Who } & (
    | { act: ProblemAction; reach: 'type-in-grid' | 'type-in-room' | 'grid' | 'each'; seenBeforeDaysAgo?: number }
    | { spray: ProductKey; quantityNote?: string }
  );

interface Outbreak {
  slug: Slug;
  grid: GridKey;
  /** Recorded on one plant of a divided box (sub-gridbox) where the box has plants. */
  onPlants?: boolean;
  sightings: Sighting[];
  steps: Step[];
}

const OUTBREAKS: readonly Outbreak[] = [
  {
    slug: 'fungus-gnats',
    grid: 'clone',
    sightings: [
      { daysAgo: 54, origin: [2, 3], reach: 1, severity: 2 },
      { daysAgo: 51, origin: [2, 3], reach: 1, severity: 2 },
      { daysAgo: 47, origin: [2, 3], reach: 2, severity: 3, note: 'Larvae in the plugs, adults on the dome lids' },
      { daysAgo: 44, origin: [2, 3], reach: 2, severity: 2 },
      { daysAgo: 26, origin: [3, 4], reach: 1, severity: 2 },
      { daysAgo: 23, origin: [3, 5], reach: 1, severity: 3 },
      { daysAgo: 19, origin: [3, 5], reach: 2, severity: 2 },
      { daysAgo: 16, origin: [3, 5], reach: 1, severity: 1 },
      { daysAgo: 5, origin: [4, 2], reach: 1, severity: 1, note: 'Adults on the media surface of the new cuttings' },
      { daysAgo: 2, origin: [4, 2], reach: 1, severity: 2 },
    ],
    steps: [
      // The trays are emptied when their batch moves to veg; the second wave is gone a week after the drench.
      { daysAgo: 44, hour: 15, by: 'grower', act: 'resolve', reach: 'type-in-grid' },
      { daysAgo: 12, hour: 14, by: 'grower', act: 'resolve', reach: 'type-in-grid' },
    ],
  },
  {
    slug: 'fungus-gnats',
    grid: 'mother',
    onPlants: true,
    sightings: [
      { daysAgo: 47, origin: [2, 1], reach: 1, severity: 1 },
      { daysAgo: 44, origin: [2, 1], reach: 1, severity: 2, note: 'Adults flying up when the pots are moved' },
      { daysAgo: 40, origin: [2, 1], reach: 1, severity: 1 },
    ],
    steps: [{ daysAgo: 33, hour: 14, minute: 30, by: 'grower', act: 'resolve', reach: 'type-in-room' }],
  },
  {
    slug: 'two-spotted-spider-mite',
    grid: 'benchA',
    sightings: [
      { daysAgo: 33, origin: [1, 12], reach: 0, severity: 2, note: 'Stippling on a few fan leaves by the door' },
      { daysAgo: 30, origin: [1, 12], reach: 1, severity: 3 },
      { daysAgo: 26, origin: [1, 12], reach: 2, severity: 3 },
      { daysAgo: 23, origin: [1, 12], reach: 2, severity: 4, note: 'Webbing in the lower canopy' },
      { daysAgo: 19, origin: [1, 12], reach: 3, severity: 3 },
      { daysAgo: 16, origin: [1, 12], reach: 2, severity: 2 },
      { daysAgo: 5, origin: [2, 11], reach: 1, severity: 1, note: 'A few mites back on the corner plants' },
      { daysAgo: 2, origin: [2, 11], reach: 1, severity: 2 },
    ],
    steps: [
      { daysAgo: 29, hour: 15, minute: 30, by: 'admin', spray: 'neem' },
      // After each release of predatory mites (observations.ts), the corner's mites are marked treated.
      { daysAgo: 22, hour: 15, minute: 10, by: 'admin', act: 'treat', reach: 'type-in-grid' },
      { daysAgo: 15, hour: 15, minute: 10, by: 'admin', act: 'treat', reach: 'type-in-grid' },
      { daysAgo: 12, hour: 15, minute: 50, by: 'admin', act: 'resolve', reach: 'type-in-grid' },
      { recent: 0, by: 'admin', spray: 'bifenazate' },
      { recent: 10, by: 'admin', act: 'treat', reach: 'type-in-grid' },
    ],
  },
  {
    slug: 'western-flower-thrips',
    grid: 'veg2',
    sightings: [
      { daysAgo: 40, origin: [5, 4], reach: 0, severity: 1 },
      { daysAgo: 37, origin: [5, 4], reach: 1, severity: 2, note: 'Silver scarring on upper leaves' },
      { daysAgo: 33, origin: [5, 4], reach: 1, severity: 2 },
      { daysAgo: 30, origin: [5, 4], reach: 2, severity: 3 },
      { daysAgo: 26, origin: [5, 4], reach: 1, severity: 2 },
    ],
    steps: [
      { daysAgo: 36, hour: 15, minute: 30, by: 'grower', spray: 'beauveria' },
      { daysAgo: 29, hour: 16, by: 'grower', spray: 'beauveria' },
      // Cleared the day before Sour Diesel moved to flower.
      { daysAgo: 24, hour: 14, minute: 30, by: 'admin', act: 'resolve', reach: 'type-in-grid' },
    ],
  },
  {
    slug: 'western-flower-thrips',
    grid: 'benchC',
    sightings: [
      { daysAgo: 19, origin: [3, 2], reach: 0, severity: 1 },
      { daysAgo: 16, origin: [3, 2], reach: 1, severity: 1 },
      { daysAgo: 12, origin: [3, 2], reach: 1, severity: 2, note: 'Thrips on new growth' },
      { daysAgo: 9, origin: [3, 2], reach: 2, severity: 2 },
      { daysAgo: 5, origin: [3, 3], reach: 2, severity: 3 },
      { daysAgo: 2, origin: [4, 3], reach: 2, severity: 2 },
    ],
    steps: [
      { daysAgo: 14, hour: 14, by: 'grower', act: 'resolve', reach: 'each', seenBeforeDaysAgo: 15 },
      { daysAgo: 8, hour: 15, minute: 30, by: 'admin', spray: 'beauveria' },
      { daysAgo: 8, hour: 15, minute: 40, by: 'admin', act: 'treat', reach: 'type-in-grid' },
      { daysAgo: 4, hour: 15, minute: 30, by: 'grower', spray: 'beauveria' },
    ],
  },
  {
    slug: 'western-flower-thrips',
    grid: 'veg1',
    sightings: [
      { daysAgo: 9, origin: [2, 7], reach: 0, severity: 1 },
      { daysAgo: 5, origin: [2, 7], reach: 1, severity: 1 },
      { daysAgo: 2, origin: [2, 7], reach: 1, severity: 2 },
    ],
    steps: [],
  },
  {
    slug: 'powdery-mildew',
    grid: 'benchD',
    sightings: [
      { daysAgo: 23, origin: [5, 9], reach: 0, severity: 1, note: 'White specks on a few lower leaves' },
      { daysAgo: 19, origin: [5, 9], reach: 1, severity: 2 },
      { daysAgo: 16, origin: [5, 9], reach: 1, severity: 2 },
      { daysAgo: 12, origin: [5, 9], reach: 2, severity: 3 },
    ],
    steps: [
      { daysAgo: 22, hour: 15, by: 'admin', spray: 'bicarbonate' },
      { daysAgo: 15, hour: 16, by: 'grower', spray: 'bicarbonate' },
      // Lemon Haze was harvested at 14:00 (operation.ts); its bench's problems go with it.
      { daysAgo: 10, hour: 15, by: 'admin', act: 'resolve', reach: 'grid' },
    ],
  },
  {
    slug: 'powdery-mildew',
    grid: 'benchB',
    sightings: [{ daysAgo: 16, origin: [5, 3], reach: 0, severity: 1, note: 'White specks on upper leaves' }],
    // Hard-water residue from the foliar feed, not mildew.
    steps: [{ daysAgo: 15, hour: 12, by: 'admin', act: 'dismiss', reach: 'each' }],
  },
  {
    slug: 'botrytis',
    grid: 'benchB',
    sightings: [
      { daysAgo: 9, origin: [4, 8], reach: 0, severity: 2, note: 'Brown, soft patch inside a top cola' },
      { daysAgo: 5, origin: [4, 8], reach: 1, severity: 3 },
      { daysAgo: 2, origin: [4, 8], reach: 1, severity: 4, note: 'Grey fuzz on two colas, leaves wilting from the bud' },
    ],
    // The first rotten bud cut out and bagged.
    steps: [{ daysAgo: 8, hour: 14, by: 'grower', act: 'resolve', reach: 'each', seenBeforeDaysAgo: 8 }],
  },
  {
    slug: 'botrytis',
    grid: 'benchC',
    sightings: [{ daysAgo: 12, origin: [2, 9], reach: 0, severity: 2, note: 'Browning leaves on a top cola' }],
    // Sugar leaves burnt by the light, the bud sound.
    steps: [{ daysAgo: 12, hour: 14, minute: 30, by: 'admin', act: 'dismiss', reach: 'each' }],
  },
];

/** Notes a scout writes on some of the problems, by how bad they are (1–2, 3, 4–5). */
const NOTES: Record<Slug, readonly [string, string, string]> = {
  'two-spotted-spider-mite': ['Stippling on a few leaves', 'Stippling and mites on leaf undersides', 'Webbing on the tops'],
  'western-flower-thrips': ['Silver scarring on a few leaves', 'Thrips on new growth', 'Scarring and black specks on most leaves'],
  'fungus-gnats': ['Adults on the media surface', 'Larvae in the plug', 'Larvae in the roots, cuttings wilting'],
  'powdery-mildew': ['White specks on lower leaves', 'Powdery patches on several leaves', 'White powder on leaves and buds'],
  botrytis: ['A brown leaf inside a cola', 'Soft brown patch in a bud', 'Grey fuzz on the bud'],
};
const NOTE_SHARE = 0.35;

const OPEN: ReadonlySet<string> = new Set(OPEN_PROBLEM_STATUSES);
const isOpen = (problem: { status: string }) => OPEN.has(problem.status);

/** Where the walk is at that hour: propagation first, then veg, then flower (observations.ts). */
const WALK_START: Record<RoomKey, [number, number]> = { propagation: [8, 10], veg: [8, 55], flower: [9, 40] };

export interface ProblemsSummary {
  problems: number;
  open: number;
  products: number;
  sprays: number;
}

/** What the story knows of a recorded problem. */
interface Recorded {
  id: number;
  slug: Slug;
  grid: GridKey;
  boxId: number;
  observedAt: Date;
  status: string;
}

export async function seedProblems(db: Kysely<DB>, op: Operation, cal: Calendar, roll: Dice, now: Date): Promise<ProblemsSummary> {
  const userOf = (who: Who) => (who === 'admin' ? op.adminId : op.growerId);
  const as = (who: Who, at: Date): Actor => ({ userId: userOf(who), companyId: op.companyId, actedAt: at });
  await mapColors(db, op.companyId, as('admin', cal.at(COLORS_DAY, 16, 30)));
  const products = await addProducts(db, op.companyId, as('admin', cal.at(PRODUCTS_DAY, 14)));
  const plants = await plantsOf(db, op);
  const recorded = new Map<number, Recorded>();
  const sprayAt = sprayTimeOf(now, cal, PRODUCTS.find((product) => product.key === 'bifenazate')!.reentryHours);
  const at = (moment: Moment) => ('recent' in moment ? new Date(sprayAt.getTime() + moment.recent * 60_000) : cal.at(moment.daysAgo, moment.hour, moment.minute ?? 0));

  // The story in order: each walk's finds in the morning, the acts of the afternoon after them.
  const walkDays = [...new Set(OUTBREAKS.flatMap((outbreak) => outbreak.sightings.map((sighting) => sighting.daysAgo)))];
  const timeline: Array<{ at: Date; run: () => Promise<unknown> }> = [
    ...walkDays.map((daysAgo) => ({ at: cal.at(daysAgo, WALK_START.propagation[0], WALK_START.propagation[1]), run: () => walk(daysAgo) })),
    ...OUTBREAKS.flatMap((outbreak) => outbreak.steps.map((step) => ({ at: at(step), run: () => ('spray' in step ? spray(outbreak, step, at(step)) : act(outbreak, step, at(step))) }))),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  let sprays = 0;
  /** When each box was last sprayed. */
  const sprayedAt = new Map<number, Date>();
  for (const event of timeline) await event.run();
  const open = [...recorded.values()].filter(isOpen).length;
  return { problems: recorded.size, open, products: PRODUCTS.length, sprays };

  /** A box holds an open problem of the type, seen since the box was last sprayed: the scout does not record it twice. */
  function holdsOpen(boxId: number, slug: Slug) {
    const sprayed = sprayedAt.get(boxId);
    for (const problem of recorded.values()) {
      if (problem.boxId === boxId && problem.slug === slug && isOpen(problem) && !(sprayed && sprayed > problem.observedAt)) return true;
    }
    return false;
  }

  /** The finds of one walk day, recorded as create_gridbox_problem records them, one batched insert per scout. */
  async function walk(daysAgo: number) {
    const who: Who = daysAgo % 7 === 5 && Math.floor(daysAgo / 7) % 2 === 1 ? 'admin' : 'grower';
    const found: Array<{ box: DemoBox; outbreak: Outbreak; at: Date; severity: number; note: string | null; subGridboxId: number | null }> = [];
    for (const outbreak of OUTBREAKS) {
      const sighting = outbreak.sightings.find((candidate) => candidate.daysAgo === daysAgo);
      if (!sighting) continue;
      const grid = op.grid(outbreak.grid);
      const [hour, minute] = WALK_START[grid.room];
      const gridIndex = op.grids.filter((candidate) => candidate.room === grid.room).indexOf(grid);
      let clock = cal.at(daysAgo, hour, minute + gridIndex * 12 + roll.int(0, 5)).getTime();
      for (const box of grid.boxes) {
        const distance = Math.max(Math.abs(box.x - sighting.origin[0]), Math.abs(box.y - sighting.origin[1]));
        if (distance > sighting.reach) continue;
        // Read every box's dice, found or not, so one box's fate does not shift the others'.
        const seen = roll.chance(distance === 0 ? 1 : 0.7 / distance);
        const severity = Math.min(5, Math.max(1, Math.round(sighting.severity - distance * 0.7 + (roll.next() - 0.5))));
        const noted = roll.chance(NOTE_SHARE);
        clock += roll.int(40, 110) * 1000;
        const seenAt = new Date(clock);
        if (!seen || !op.growingAt(box.id, seenAt) || holdsOpen(box.id, outbreak.slug)) continue;
        const boxPlants = outbreak.onPlants ? (plants.get(box.id) ?? []) : [];
        const note = distance === 0 && sighting.note ? sighting.note : noted ? NOTES[outbreak.slug][severity <= 2 ? 0 : severity === 3 ? 1 : 2] : null;
        found.push({ box, outbreak, at: seenAt, severity, note, subGridboxId: boxPlants.length > 0 ? roll.pick(boxPlants) : null });
      }
    }
    if (found.length === 0) return;
    found.sort((a, b) => a.at.getTime() - b.at.getTime());
    const actor = as(who, found[0]!.at);
    const rows = found.map((one) => ({
      client_id: newClientId(),
      company_id: op.companyId,
      room_id: op.rooms[one.box.room].id,
      grid_id: op.grid(one.box.grid).id,
      grid_box_id: one.box.id,
      sub_gridbox_id: one.subGridboxId,
      problem_type: nameOf(one.outbreak.slug),
      problem_slug: one.outbreak.slug,
      severity: one.severity,
      notes: one.note,
      image_name: null,
      form_response_id: null,
      user_id: actor.userId,
      observed_at: one.at,
      status_at: null,
      status_by: null,
      created_at: one.at,
    }));
    const inserted = await writer(db, actor).insertMany('plant_problems', rows);
    const idOf = new Map(inserted.map((row) => [row.client_id, row.id]));
    for (const [index, one] of found.entries()) {
      const id = idOf.get(rows[index]!.client_id)!;
      recorded.set(id, { id, slug: one.outbreak.slug, grid: one.box.grid, boxId: one.box.id, observedAt: one.at, status: 'unresolved' });
      await recordAudit(db, as(who, one.at), {
        title: (one.subGridboxId === null ? auditTitles.recordedProblem.onBox : auditTitles.recordedProblem.onPlantOfBox)(nameOf(one.outbreak.slug), one.severity, one.box.name),
        roomId: op.rooms[one.box.room].id,
        gridBoxId: one.box.id,
        details: { problem_id: id },
      });
    }
  }

  /** An action on the outbreak's problems, as the manage calls apply and audit it (server/domains/problems/routes.ts `act`). */
  async function act(outbreak: Outbreak, step: Extract<Step, { act: ProblemAction }>, when: Date) {
    const grid = op.grid(outbreak.grid);
    const room = op.rooms[grid.room];
    const problemType = nameOf(outbreak.slug);
    const apply = async (reach: ProblemReach, place: { at: ActedOn; gridBoxId?: number }, actor = as(step.by, when)) => {
      const changed = await actOnProblems(db, actor, step.act, reach, { roomId: room.id, ...place });
      for (const row of changed) recorded.get(row.id)!.status = row.status;
    };
    if (step.reach === 'type-in-grid') return apply({ gridId: grid.id, problemType }, { at: { grid: grid.name } });
    if (step.reach === 'type-in-room') return apply({ roomId: room.id, problemType }, { at: { room: room.name } });
    if (step.reach === 'grid') return apply({ gridId: grid.id }, { at: { grid: grid.name } });
    const before = step.seenBeforeDaysAgo === undefined ? when : cal.at(step.seenBeforeDaysAgo, 0);
    // One at a time from the box panel: the problems it shows (open ones), seen before the cut.
    const each = [...recorded.values()].filter((problem) => problem.slug === outbreak.slug && problem.grid === outbreak.grid && isOpen(problem) && problem.observedAt < before);
    // A minute a box, as the grower goes from one to the next.
    for (const [index, problem] of each.entries()) {
      await apply({ problemId: problem.id }, { at: { box: problem.boxId, problemType }, gridBoxId: problem.boxId }, as(step.by, new Date(when.getTime() + index * 60_000)));
    }
  }

  /**
   * A spray of the boxes holding the outbreak's open problems (plants still growing there), as
   * link_treatment_products_gridboxes records it: the interval ends fixed from the product, a history
   * entry for each box.
   */
  async function spray(outbreak: Outbreak, step: Extract<Step, { spray: ProductKey }>, when: Date) {
    const boxIds = [
      ...new Set(
        [...recorded.values()]
          .filter((problem) => problem.slug === outbreak.slug && problem.grid === outbreak.grid && isOpen(problem))
          .filter((problem) => op.growingAt(problem.boxId, when))
          .map((problem) => problem.boxId),
      ),
    ].sort((a, b) => a - b);
    if (boxIds.length === 0) return;
    const plan = PRODUCTS.find((product) => product.key === step.spray)!;
    const product = products.get(step.spray)!;
    const actor = as(step.by, when);
    const quantity = Math.round(boxIds.length * SPRAY_LITRES_PER_BOX * plan.rate * 10) / 10;
    const unit = plan.rateUnit.split('/')[0]!;
    const { reentryUntil, preharvestUntil } = sprayIntervalEnds(when, sprayProductJson(product));
    const { id } = await writer(db, actor).insert('spray_applications', {
      client_id: newClientId(),
      company_id: op.companyId,
      product_id: product.id,
      product_name: product.name,
      application_date: when,
      quantity_used: quantity,
      quantity_unit: unit,
      notes: `${nameOf(outbreak.slug)}, ${boxIds.length * SPRAY_LITRES_PER_BOX} L of mix on ${op.grid(outbreak.grid).name}`,
      grid_box_ids: boxIds,
      reentry_until: reentryUntil,
      preharvest_until: preharvestUntil,
      user_id: actor.userId,
    });
    const roomId = op.rooms[op.grid(outbreak.grid).room].id;
    for (const boxId of boxIds) {
      await recordAudit(db, actor, { title: auditTitles.sprayed(product.name, quantity, unit), roomId, gridBoxId: boxId, details: { application_id: id, product_id: product.id } });
      sprayedAt.set(boxId, when);
    }
    sprays += 1;
  }
}

/**
 * When today's miticide went on: the afternoon spray at 16:00 when that was at least half an hour ago
 * and its re-entry interval has hours left; else half an hour ago (the lights-off spray of a flower
 * room), so the demo always opens with a box inside a running re-entry interval.
 */
function sprayTimeOf(now: Date, cal: Calendar, reentryHours: number): Date {
  const halfAnHourAgo = new Date(now.getTime() - 30 * 60_000);
  const afternoon = cal.at(0, 16);
  if (afternoon <= halfAnHourAgo && now.getTime() - afternoon.getTime() < (reentryHours - 2) * 3_600_000) return afternoon;
  return halfAnHourAgo;
}

/** The colours, as map_problem_color sets them (the company's document touched: it carries them). */
async function mapColors(db: Kysely<DB>, companyId: number, actor: Actor) {
  const write = writer(db, actor);
  for (const { slug, color, abbreviation } of COLORS) {
    const problem = nameOf(slug);
    const { id } = await write.insert('problem_color_mappings', { company_id: companyId, problem, color, abbreviation, extras: JSON.stringify({}) });
    await recordAudit(db, actor, { title: auditTitles.setColour(problem, color, abbreviation), details: { mapping_id: id } });
  }
  await write.touch('companies', companyId);
}

/** The products and their treatments, as add_spray_product and create_treatment write them; answers the products by key. */
async function addProducts(db: Kysely<DB>, companyId: number, actor: Actor) {
  const write = writer(db, actor);
  const products = new Map<ProductKey, Awaited<ReturnType<typeof treatmentQueries.productById>>>();
  for (const plan of PRODUCTS) {
    const { id } = await write.insert('spray_products', {
      company_id: companyId,
      name: plan.name,
      active_ingredient: plan.activeIngredient,
      rate: plan.rate,
      rate_unit: plan.rateUnit,
      reentry_hours: plan.reentryHours,
      preharvest_days: plan.preharvestDays,
      details: JSON.stringify({}),
    });
    await recordAudit(db, actor, { title: auditTitles.addedSprayProduct(plan.name), details: { product_id: id } });
    products.set(plan.key, await treatmentQueries.productById(db, id));
    for (const treatment of plan.treatments) {
      const created = await write.insert('treatments', {
        company_id: companyId,
        treatment_type: treatment.type,
        sub_type: treatment.subType,
        product_id: id,
        data: JSON.stringify({ notes: treatment.notes }),
        removed_at: null,
        user_id: actor.userId,
      });
      await recordAudit(db, actor, { title: auditTitles.treatments[treatment.type].created(plan.name), details: { treatment_id: created.id, product_id: id } });
    }
  }
  return products;
}

/** The plants (sub-gridboxes) of the divided boxes, by box. */
async function plantsOf(db: Kysely<DB>, op: Operation): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('sub_gridboxes')
    .select(['id', 'parent_gridbox_id'])
    .where('company_id', '=', op.companyId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  const plants = new Map<number, number[]>();
  for (const row of rows) plants.set(row.parent_gridbox_id, [...(plants.get(row.parent_gridbox_id) ?? []), row.id]);
  return plants;
}
