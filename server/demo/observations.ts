/**
 * The demo's eight weeks of records: the built-in forms, twice-weekly scouting walks, weekly
 * sticky-trap reads, the treatments and batch problems they led to. Responses are written as the
 * tablets' submissions write them (one per box, an answer for every field, blank ones null, filed
 * under the batch the box held when filled, audited per box), each at the time it was filled, in a
 * few batched inserts rather than a statement per form.
 *
 * Where the spec is silent, the demo decides:
 * - Forms: the built-in set as `reset_all_templates` makes it (a new company starts with none), so an
 *   Admin's reset gives the same forms back; nothing made up beside them.
 * - A walk starts in propagation and ends in flower (clean rooms first, as IPM scouts go), samples a
 *   fifth of the growing plants of each bench, and follows up every plant near a known hot spot.
 * - The story: spider mites build up in Bench A's door corner from five weeks ago, peak three weeks
 *   ago (two plants culled, predatory mites released twice) and fade a week later; thrips low and
 *   steady in veg and flower; fungus gnats on the clone table, fewer after a nematode drench;
 *   powdery mildew specks on the batch before its harvest; most plants clean.
 * - Sticky cards hang at two boxes of each bench (one on the mother bench), read and replaced weekly.
 */
import type { Kysely } from 'kysely';
import { newClientId } from '../../common/client-ids';
import { auditTitles } from '../../common/messages/audit-titles';
import type { DB } from '../db/schema';
import { type Actor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { batchQueries } from '../domains/batches/queries';
import { DEFAULT_FORM_TEMPLATES, formQueries } from '../domains/forms/queries';
import type { Calendar, Dice } from './dice';
import { type DemoBox, type GridKey, MITE_CORNER, type Operation, type RoomKey, type Stay } from './operation';

type FormKey = 'Scouting' | 'Sticky trap count' | 'Treatment record';

interface Form {
  id: number;
  name: string;
  /** Field names in the form's order, with their ids. */
  fields: Array<{ id: number; name: string }>;
}

/** A form filled on the floor, before it is written. */
interface Filled {
  form: FormKey;
  box: DemoBox | null;
  roomId: number;
  roomName: string;
  batchId: number | null;
  userId: number;
  at: Date;
  answers: Record<string, string>;
}

const SAMPLE_SHARE = 0.15;
const ROOM_ORDER: readonly RoomKey[] = ['propagation', 'veg', 'flower'];
const LEVELS = ['None', 'Low', 'Medium', 'High'] as const;
const MINUTE_MS = 60_000;

/** The pests of the scouting form, in its options' order (a Checkbox answer lists them so, joined by ", "). */
const PESTS = ['Aphids', 'Thrips', 'Spider mites', 'Whitefly', 'Fungus gnats', 'Caterpillars'] as const;
type Pest = (typeof PESTS)[number];

const PEST_NOTES: Record<Pest, readonly string[]> = {
  'Spider mites': ['Stippling on a few fan leaves', 'Stippling and mites on leaf undersides', 'Webbing in the lower canopy'],
  Thrips: ['Silver scarring on upper leaves', 'Thrips on new growth'],
  'Fungus gnats': ['Adults on the media surface', 'Larvae in the plug'],
  Aphids: ['A small colony on a new shoot'],
  Whitefly: ['A few adults on leaf undersides'],
  Caterpillars: ['Chewed leaf edges'],
};

/** Where the cards hang: two boxes of each bench, one on the mother bench. */
const TRAPS: ReadonlyArray<{ grid: GridKey; x: number; y: number }> = [
  { grid: 'mother', x: 2, y: 3 },
  { grid: 'clone', x: 3, y: 3 },
  { grid: 'clone', x: 4, y: 8 },
  ...(['veg1', 'veg2'] as const).flatMap((grid) => [
    { grid, x: 3, y: 2 },
    { grid, x: 4, y: 9 },
  ]),
  ...(['benchA', 'benchB', 'benchC', 'benchD'] as const).flatMap((grid) => [
    { grid, x: 3, y: 3 },
    { grid, x: 4, y: 10 },
  ]),
];

/** How strong the mites are in the corner, by days ago: found, building, released on, fading. */
function miteIntensity(daysAgo: number): number {
  if (daysAgo > 34) return 0;
  if (daysAgo >= 24) return (34 - daysAgo) / 10;
  if (daysAgo >= 21) return 1;
  if (daysAgo >= 12) return 1 - ((21 - daysAgo) / 9) * 0.9;
  return 0.05;
}

const miteDistance = (box: DemoBox) => (box.grid === MITE_CORNER.grid ? Math.max(Math.abs(box.x - MITE_CORNER.x), Math.abs(box.y - MITE_CORNER.y)) : Infinity);
const MITE_FALLOFF = [1, 0.8, 0.55, 0.3, 0.1];
/** The scout follows up the corner's plants from the first find until a week after they faded. */
const watchesMites = (daysAgo: number) => daysAgo <= 34 && daysAgo >= 9;

export async function seedObservations(db: Kysely<DB>, op: Operation, cal: Calendar, roll: Dice): Promise<number> {
  const as = (userId: number, at: Date): Actor => ({ userId, companyId: op.companyId, actedAt: at });
  const forms = await builtInForms(db, as(op.adminId, cal.at(88, 11)));
  const filled: Filled[] = [];
  for (let week = 7; week >= 0; week -= 1) {
    filled.push(...scoutingWalk(op, cal, roll, 7 * week + 5, week % 2 === 1 ? op.adminId : op.growerId));
    filled.push(...trapRound(op, cal, roll, 7 * week + 3));
    filled.push(...scoutingWalk(op, cal, roll, 7 * week + 2, op.growerId));
  }
  filled.push(...treatments(op, cal));
  await writeResponses(db, op.companyId, forms, filled);
  await batchProblems(db, op, cal, as);
  return filled.length;
}

/** The built-in set, each the default of its category, as `reset_all_templates` makes it and audits it. */
async function builtInForms(db: Kysely<DB>, actor: Actor): Promise<Map<string, Form>> {
  await formQueries.lockDefaults(db, actor.companyId);
  const forms = new Map<string, Form>();
  for (const preset of DEFAULT_FORM_TEMPLATES) {
    const { id } = await formQueries.create(db, actor, { name: preset.name, category: preset.category, pageCss: null, isDefault: true }, preset.fields);
    const fields = await formQueries.liveFieldsOf(db, id);
    forms.set(preset.name, { id, name: preset.name, fields: fields.map((field) => ({ id: field.id, name: field.field_name })) });
  }
  await recordAudit(db, actor, { title: auditTitles.resetForms(0), details: { template_ids: [...forms.values()].map((form) => form.id) } });
  return forms;
}

function scoutingWalk(op: Operation, cal: Calendar, roll: Dice, daysAgo: number, userId: number): Filled[] {
  const filled: Filled[] = [];
  let clock = cal.at(daysAgo, 8, roll.int(0, 20)).getTime();
  for (const roomKey of ROOM_ORDER) {
    const room = op.rooms[roomKey];
    for (const grid of op.grids.filter((candidate) => candidate.room === roomKey)) {
      const start = new Date(clock);
      const growing = grid.boxes.filter((box) => op.growingAt(box.id, start));
      const sampled = new Set(roll.sample(growing, Math.ceil(growing.length * SAMPLE_SHARE)));
      if (watchesMites(daysAgo)) for (const box of growing) if (miteDistance(box) <= 3) sampled.add(box);
      for (const box of growing.filter((candidate) => sampled.has(candidate))) {
        clock += roll.int(25, 75) * 1000;
        const at = new Date(clock);
        const stay = op.growingAt(box.id, at);
        if (!stay) continue;
        filled.push({ form: 'Scouting', box, roomId: room.id, roomName: room.name, batchId: stay.batchId, userId, at, answers: scouted(box, stay, daysAgo, roll) });
      }
      clock += roll.int(2, 5) * MINUTE_MS;
    }
  }
  return filled;
}

/** What the scout saw on one plant. */
function scouted(box: DemoBox, stay: Stay, daysAgo: number, roll: Dice): Record<string, string> {
  const pests = new Map<Pest, number>();
  /** The pest, seen with that probability: Low, or Medium for `mediumShare` of the sightings. */
  const sighted = (probability: number, pest: Pest, mediumShare: number) => {
    if (roll.chance(probability)) pests.set(pest, roll.chance(mediumShare) ? 2 : 1);
  };
  if (box.room === 'veg' || box.room === 'flower') sighted(0.07, 'Thrips', 0.15);
  if (box.grid === 'clone') sighted(daysAgo > 19 ? 0.32 : 0.2, 'Fungus gnats', 0.3);
  if (box.grid === 'mother') sighted(0.1, 'Fungus gnats', 0);
  if (box.room === 'veg') {
    sighted(0.01, 'Aphids', 0);
    sighted(0.01, 'Whitefly', 0);
  }
  const corner = miteDistance(box);
  if (corner < MITE_FALLOFF.length) {
    const score = miteIntensity(daysAgo) * MITE_FALLOFF[corner]! + (roll.next() - 0.5) * 0.2;
    const level = score >= 0.7 ? 3 : score >= 0.45 ? 2 : score >= 0.15 ? 1 : 0;
    if (level > 0) pests.set('Spider mites', level);
  }
  const mildew = stay.number === 'LH-033' && daysAgo <= 24 && roll.chance(0.12);
  const level = Math.max(0, ...pests.values());
  const worst = [...pests].sort((a, b) => b[1] - a[1])[0];
  const vigour =
    level >= 3
      ? 'Poor'
      : level === 2
        ? 'Fair'
        : roll.weighted(box.room === 'propagation' ? [['Good', 6], ['Fair', 3], ['Excellent', 1]] : [['Good', 6], ['Excellent', 2.5], ['Fair', 1.5]]);
  const notes = worst ? PEST_NOTES[worst[0]][Math.min(worst[1], PEST_NOTES[worst[0]].length) - 1] : mildew ? 'White specks on a few lower leaves' : undefined;
  return {
    'Pest pressure': LEVELS[level]!,
    ...(pests.size > 0 ? { 'Pests seen': PESTS.filter((pest) => pests.has(pest)).join(', ') } : {}),
    ...(mildew ? { 'Disease signs': 'Powdery mildew' } : {}),
    'Plant vigour': vigour,
    ...(notes ? { Notes: notes } : {}),
  };
}

/** Every card read and replaced, one afternoon a week, by the grower. */
function trapRound(op: Operation, cal: Calendar, roll: Dice, daysAgo: number): Filled[] {
  let clock = cal.at(daysAgo, 13, roll.int(0, 15)).getTime();
  return TRAPS.map((trap) => {
    const box = op.grid(trap.grid).box(trap.x, trap.y);
    const room = op.rooms[box.room];
    clock += roll.int(60, 180) * 1000;
    const at = new Date(clock);
    const gnats = trap.grid === 'clone' ? (daysAgo > 19 ? 24 : 13) : trap.grid === 'mother' ? 8 : box.room === 'veg' ? 3 : 1.5;
    const counts = {
      Thrips: roll.count(box.room === 'propagation' ? 1.5 : box.room === 'veg' ? 4 : 6),
      Whitefly: roll.count(box.room === 'propagation' ? 0.5 : 1.1),
      'Fungus gnats': roll.count(gnats),
      'Aphids (winged)': roll.count(0.3),
      Leafminers: roll.count(0.1),
    };
    const answers = { ...Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, String(count)])), 'Trap replaced': 'Yes' };
    return { form: 'Sticky trap count' as const, box, roomId: room.id, roomName: room.name, batchId: op.linkedAt(box.id, at)?.batchId ?? null, userId: op.growerId, at, answers };
  });
}

/** The treatments the story calls for, each recorded for its room. */
function treatments(op: Operation, cal: Calendar): Filled[] {
  const gnats = { Product: 'Steinernema feltiae (beneficial nematodes)', Rate: '0.5 million per m²', 'Application method': 'Drench', 'Target pest or disease': 'Fungus gnats', 'Re-entry interval (hours)': '0' };
  const mites = { Product: 'Phytoseiulus persimilis (predatory mites)', 'Application method': 'Biological release', 'Target pest or disease': 'Spider mites', 'Re-entry interval (hours)': '0' };
  const corner = op.grid(MITE_CORNER.grid);
  const records: Array<{ room: RoomKey; daysAgo: number; hour: number; userId: number; answers: Record<string, string> }> = [
    { room: 'propagation', daysAgo: 40, hour: 15, userId: op.growerId, answers: { ...gnats, 'Applied by': 'Gus Grower', Notes: 'Clone table and mother bench' } },
    { room: 'flower', daysAgo: 22, hour: 15, userId: op.adminId, answers: { ...mites, Rate: '20 per m² on hot spots', 'Applied by': 'Ada Admin', Notes: `${corner.name}, rows 9 to 12; the two worst plants culled` } },
    { room: 'propagation', daysAgo: 19, hour: 15, userId: op.growerId, answers: { ...gnats, 'Applied by': 'Gus Grower', Notes: 'Second drench, clone table' } },
    { room: 'flower', daysAgo: 15, hour: 15, userId: op.adminId, answers: { ...mites, Rate: '10 per m²', 'Applied by': 'Ada Admin', Notes: `Follow-up release, ${corner.name}` } },
  ];
  return records.map((record) => {
    const room = op.rooms[record.room];
    return { form: 'Treatment record', box: null, roomId: room.id, roomName: room.name, batchId: null, userId: record.userId, at: cal.at(record.daysAgo, record.hour), answers: record.answers };
  });
}

/**
 * Writes the responses with their answers (every field of the form, blank ones null), one batched
 * insert per user and table, and audits each as its submission would.
 */
async function writeResponses(db: Kysely<DB>, companyId: number, forms: Map<string, Form>, filled: Filled[]) {
  const byUser = new Map<number, Filled[]>();
  for (const one of [...filled].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const list = byUser.get(one.userId) ?? [];
    list.push(one);
    byUser.set(one.userId, list);
  }
  for (const [userId, list] of byUser) {
    const write = writer(db, { userId, companyId });
    const rows = list.map((one) => ({
      client_id: newClientId(),
      company_id: companyId,
      template_id: forms.get(one.form)!.id,
      grid_box_id: one.box?.id ?? null,
      room_id: one.roomId,
      batch_id: one.batchId,
      submitted_by: userId,
      submitted_at: one.at,
      created_at: one.at,
    }));
    const inserted = await write.insertMany('form_responses', rows);
    const idOf = new Map(inserted.map((row) => [row.client_id, row.id]));
    const responseIds = rows.map((row) => idOf.get(row.client_id)!);
    await write.insertMany(
      'form_field_responses',
      list.flatMap((one, index) =>
        forms.get(one.form)!.fields.map((field) => ({ company_id: companyId, response_id: responseIds[index]!, field_id: field.id, input_data: one.answers[field.name] ?? null, created_at: one.at })),
      ),
    );
    for (const [index, one] of list.entries()) {
      const form = forms.get(one.form)!;
      const responseId = responseIds[index]!;
      const actor: Actor = { userId, companyId, actedAt: one.at };
      const details = { template_id: form.id };
      if (one.box) await recordAudit(db, actor, { title: auditTitles.submittedForBox(form.name, one.box.id), gridBoxId: one.box.id, roomId: one.roomId, batchId: one.batchId, responseId, details });
      else await recordAudit(db, actor, { title: auditTitles.submittedForRoom(form.name, one.roomName), roomId: one.roomId, responseId, details });
    }
  }
}

/** The mites, reported on their batch and resolved once they faded; the gnats on the new cuttings, still open. */
async function batchProblems(db: Kysely<DB>, op: Operation, cal: Calendar, as: (userId: number, at: Date) => Actor) {
  const corner = op.grid(MITE_CORNER.grid);
  const problems = [
    { batch: 'NL-035', room: 'flower' as const, type: 'Spider mites', severity: 3, daysAgo: 24, notes: `Webbing in the door corner of ${corner.name} (${corner.box(1, 12).name}, ${corner.box(2, 12).name})`, resolvedDaysAgo: 12 },
    { batch: 'NL-041', room: 'propagation' as const, type: 'Fungus gnats', severity: 1, daysAgo: 5, notes: 'Adults on the media surface of the new cuttings', resolvedDaysAgo: null },
  ];
  for (const problem of problems) {
    const batchId = op.batchId(problem.batch);
    const roomId = op.rooms[problem.room].id;
    const reported = as(op.growerId, cal.at(problem.daysAgo, 9, 45));
    await writer(db, reported).insert('batch_problems', {
      company_id: op.companyId,
      batch_id: batchId,
      room_id: roomId,
      problem_type: problem.type,
      severity: problem.severity,
      notes: problem.notes,
      user_id: op.growerId,
      resolved_at: null,
      resolved_by: null,
    });
    await writer(db, reported).touch('batches', batchId);
    await recordAudit(db, reported, { title: auditTitles.reportedBatchProblem(problem.type, problem.severity, problem.batch), batchId, roomId });
    if (problem.resolvedDaysAgo === null) continue;
    const resolver = as(op.adminId, cal.at(problem.resolvedDaysAgo, 16));
    const resolved = await batchQueries.resolveProblems(db, resolver, batchId, { problemType: problem.type });
    await writer(db, resolver).touch('batches', batchId);
    await recordAudit(db, resolver, { title: auditTitles.resolvedBatchProblems(resolved.length, problem.batch), batchId, details: { problem_ids: resolved.map((row) => row.id) } });
  }
}
