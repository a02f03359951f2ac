/**
 * The demo company of the first start (server/demo/), on a real database: what it holds (rooms,
 * named boxes, batches at every stage, culled plants, divided mother boxes, the built-in forms,
 * eight weeks of scouting and sticky-trap reads with their story, the plant problems, colours, spray
 * products and sprays that came of it), that its users sign in and read it over HTTP and pull it as
 * tablets do, that it is made once, and the same every time but for its dates.
 */
import { readFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxNumber } from '../../common/grid-order';
import { OPEN_PROBLEM_STATUSES } from '../../common/messages/problems';
import { catalogueProblem } from '../../common/plant-problems';
import type { GridOrder } from '../../common/messages/settings';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrations';
import type { DB } from '../../server/db/schema';
import { DEMO_ADMIN_EMAIL, DEMO_COMPANY, DEMO_GROWER_EMAIL, seedDemoIfEmpty } from '../../server/demo/index';
import { DEFAULT_FORM_TEMPLATES } from '../../server/domains/forms/queries';
import { signIn } from '../support/factories';
import { databaseKind, freshPostgres, startServer, type TestServer } from '../support/server';
import { serverDocuments } from '../support/sync';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const isOpen = (status: string) => (OPEN_PROBLEM_STATUSES as readonly string[]).includes(status);

let server: TestServer;
let db: Kysely<DB>;
let printed: string | null;
let companyId: number;
let users: { admin: number; grower: number };

beforeAll(async () => {
  server = await startServer();
  db = server.database.db;
  printed = await seedDemoIfEmpty(db, server.config.dataDir, server.config.publicUrl);
  const company = await db.selectFrom('companies').selectAll().executeTakeFirstOrThrow();
  companyId = company.id;
  const rows = await db.selectFrom('users').select(['id', 'email']).where('company_id', '=', companyId).execute();
  users = { admin: rows.find((row) => row.email === DEMO_ADMIN_EMAIL)!.id, grower: rows.find((row) => row.email === DEMO_GROWER_EMAIL)!.id };
});
afterAll(() => server.close());

const passwordOf = (text: string, email: string) => new RegExp(`${email.replace(/\./g, '\\.')}\\s+password: (\\S+)`).exec(text)?.[1] ?? '';
const daysAgo = (value: Date | string) => (Date.now() - new Date(value).getTime()) / DAY_MS;
/** 0 for the last 7 days, 1 for the 7 before, … */
const weekAgo = (value: Date | string) => Math.floor(daysAgo(value) / 7);

/** Boxes with their grid and room, keyed by id. */
async function boxesOf(database: Kysely<DB>) {
  const rows = await database
    .selectFrom('grid_boxes')
    .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
    .innerJoin('rooms', 'rooms.id', 'grids.room_id')
    .select(['grid_boxes.id', 'grid_boxes.x', 'grid_boxes.y', 'grid_boxes.custom_name', 'grid_boxes.culled', 'grid_boxes.culled_by', 'grid_boxes.culled_at', 'grids.name as grid', 'grids.nx', 'grids.ny', 'grids.room_id', 'rooms.name as room'])
    .where('grid_boxes.deleted_at', 'is', null)
    .orderBy('grids.id')
    .orderBy('grid_boxes.y')
    .orderBy('grid_boxes.x')
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every plant problem with its box (grid, room, position, culling), oldest seen first. */
async function problemsOf(database: Kysely<DB>) {
  const boxes = await boxesOf(database);
  const rows = await database.selectFrom('plant_problems').selectAll().where('deleted_at', 'is', null).orderBy('observed_at').orderBy('id').execute();
  return rows.map((row) => ({ ...row, box: boxes.get(row.grid_box_id)! }));
}

/** Every form response with its answers by field name, and where it was filled. */
async function responsesOf(database: Kysely<DB>) {
  const boxes = await boxesOf(database);
  const responses = await database
    .selectFrom('form_responses')
    .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
    .innerJoin('rooms', 'rooms.id', 'form_responses.room_id')
    .selectAll('form_responses')
    .select(['form_templates.template_name', 'form_templates.form_category', 'rooms.name as room'])
    .orderBy('form_responses.submitted_at')
    .orderBy('form_responses.id')
    .execute();
  const answers = await database
    .selectFrom('form_field_responses')
    .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
    .select(['form_field_responses.response_id', 'form_fields.field_name', 'form_field_responses.input_data', 'form_field_responses.created_at'])
    .orderBy('form_fields.position')
    .execute();
  const answersOf = new Map<number, Array<(typeof answers)[number]>>();
  for (const answer of answers) answersOf.set(answer.response_id, [...(answersOf.get(answer.response_id) ?? []), answer]);
  return responses.map((response) => {
    const given = answersOf.get(response.id) ?? [];
    return {
      ...response,
      box: response.grid_box_id === null ? null : boxes.get(response.grid_box_id)!,
      answerRows: given,
      answer: (field: string) => given.find((row) => row.field_name === field)?.input_data ?? null,
    };
  });
}

describe('the demo company of the first start', () => {
  it('is made with its Admin and grower, whose sign-in is printed once and kept for the owner only', async () => {
    expect(printed).toContain(`Demo company "${DEMO_COMPANY}" created`);
    const text = printed ?? '';
    expect(passwordOf(text, DEMO_ADMIN_EMAIL)).toMatch(/^[\w-]{12}$/);
    expect(passwordOf(text, DEMO_GROWER_EMAIL)).toMatch(/^[\w-]{12}$/);
    const file = join(server.config.dataDir, 'demo-sign-in.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(text);

    const companies = await db.selectFrom('companies').select(['name']).execute();
    expect(companies).toEqual([{ name: DEMO_COMPANY }]);
    const roles = await db.selectFrom('users').select(['email', 'role']).where('company_id', '=', companyId).orderBy('id').execute();
    expect(roles).toEqual([
      { email: DEMO_ADMIN_EMAIL, role: 'Admin' },
      { email: DEMO_GROWER_EMAIL, role: 'Regular' },
    ]);
  });

  it('has rooms with benches of realistic sizes, every box named by its bench and its number in the company’s grid order', async () => {
    const rooms = await db.selectFrom('rooms').select(['id', 'name']).where('company_id', '=', companyId).orderBy('id').execute();
    expect(rooms.map((room) => room.name)).toEqual(['Propagation / Mother room', 'Veg room', 'Flower room 1']);
    const grids = await db.selectFrom('grids').select(['room_id', 'name', 'nx', 'ny']).where('company_id', '=', companyId).orderBy('id').execute();
    for (const room of rooms) expect(grids.filter((grid) => grid.room_id === room.id).length).toBeGreaterThanOrEqual(2);
    for (const grid of grids) expect(grid.nx * grid.ny).toBeGreaterThanOrEqual(24);
    const boxes = [...(await boxesOf(db)).values()];
    expect(boxes.length).toBe(grids.reduce((sum, grid) => sum + grid.nx * grid.ny, 0));
    expect(boxes.length).toBeLessThanOrEqual(600);

    const { grid_order: order } = await db.selectFrom('companies').select('grid_order').where('id', '=', companyId).executeTakeFirstOrThrow();
    for (const box of boxes) {
      const number = boxNumber(order as GridOrder, box.x, box.y, box.nx, box.ny);
      expect(box.custom_name).toMatch(new RegExp(`^[A-Z][A-Z0-9]?-0*${number}$`));
    }
    const benchA = boxes.filter((box) => box.grid === 'Bench A');
    expect(benchA.find((box) => box.x === 1 && box.y === 1)?.custom_name).toBe('A-01');
    expect(benchA.find((box) => box.x === 6 && box.y === 12)?.custom_name).toBe('A-72');
    // Each name is on the box's history, as a rename on a tablet would put it.
    const renamed = await db.selectFrom('audit_events').select('grid_box_id').where('company_id', '=', companyId).where('event_title', 'like', 'Renamed plant to %').execute();
    expect(renamed).toHaveLength(boxes.length);
  });

  it('has batches at every stage, each linked to boxes of the rooms it is in, with the history of how it got there', async () => {
    const batches = await db.selectFrom('batches').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
    expect(new Set(batches.map((batch) => batch.batch_status))).toEqual(new Set(['Propagation', 'Vegetative', 'Flowering', 'Harvested']));
    for (const batch of batches) expect(batch.strain_name).toBeTruthy();
    const boxes = await boxesOf(db);
    const boxLinks = await db.selectFrom('batch_grid_boxes').select(['batch_id', 'grid_box_id']).where('company_id', '=', companyId).execute();
    const roomLinks = await db.selectFrom('batch_rooms').select(['batch_id', 'room_id']).where('company_id', '=', companyId).execute();
    for (const batch of batches) {
      const linked = boxLinks.filter((link) => link.batch_id === batch.id);
      expect(linked.length, batch.batch_number).toBeGreaterThan(0);
      const rooms = new Set(roomLinks.filter((link) => link.batch_id === batch.id).map((link) => link.room_id));
      expect(rooms.size, batch.batch_number).toBe(1);
      for (const link of linked) expect(rooms.has(boxes.get(link.grid_box_id)!.room_id), batch.batch_number).toBe(true);
    }
    // One batch to a box.
    expect(new Set(boxLinks.map((link) => link.grid_box_id)).size).toBe(boxLinks.length);

    const harvested = batches.find((batch) => batch.batch_status === 'Harvested')!;
    expect(harvested.harvested_by).toBe(users.grower);
    expect(daysAgo(harvested.harvested_at!)).toBeGreaterThan(1);
    expect(harvested.end_date).not.toBeNull();

    const flowering = batches.find((batch) => batch.batch_number === 'NL-035')!;
    const history = await db.selectFrom('batch_events').select(['kind', 'details', 'created_at']).where('batch_id', '=', flowering.id).orderBy('created_at').orderBy('id').execute();
    expect(history.map((event) => event.kind)).toEqual(['created', 'linked_room', 'moved', 'status', 'moved', 'status']);
    expect(history.map((event) => (event.details as { to?: string } | null)?.to).filter(Boolean)).toEqual(['Vegetative', 'Flowering']);
    for (const event of history) expect(daysAgo(event.created_at)).toBeGreaterThan(1);
  });

  it('has a few culled plants and mother boxes divided into positions with plant ids', async () => {
    const boxes = [...(await boxesOf(db)).values()];
    const culled = boxes.filter((box) => box.culled);
    expect(culled.length).toBeGreaterThanOrEqual(3);
    expect(culled.length).toBeLessThanOrEqual(10);
    for (const box of culled) {
      expect(box.culled_by).toBe(users.grower);
      expect(daysAgo(box.culled_at!)).toBeGreaterThan(1);
    }
    const subs = await db.selectFrom('sub_gridboxes').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    const parents = new Set(subs.map((sub) => sub.parent_gridbox_id));
    expect(parents.size).toBeGreaterThanOrEqual(2);
    for (const parent of parents) {
      expect(boxes.find((box) => box.id === parent)?.grid).toBe('Mother bench');
      const positions = subs.filter((sub) => sub.parent_gridbox_id === parent).map((sub) => `${sub.subx},${sub.suby}`);
      expect(positions.sort()).toEqual(['1,1', '1,2', '2,1', '2,2']);
    }
    for (const sub of subs) expect(sub.plant_id).toMatch(/^P-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(new Set(subs.map((sub) => sub.plant_id)).size).toBe(subs.length);
  });

  it('has exactly the built-in forms, each the default of its category', async () => {
    const templates = await db.selectFrom('form_templates').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute();
    const fields = await db.selectFrom('form_fields').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('position').execute();
    expect(
      templates.map((template) => ({
        name: template.template_name,
        category: template.form_category,
        isDefault: template.is_default,
        fields: fields.filter((field) => field.template_id === template.id).map((field) => [field.field_name, field.field_type, field.is_required]),
      })),
    ).toEqual(
      DEFAULT_FORM_TEMPLATES.map((preset) => ({
        name: preset.name,
        category: preset.category,
        isDefault: true,
        fields: preset.fields.map((field) => [field.fieldName, field.fieldType, field.isRequired]),
      })),
    );
    const hideRules = await db.selectFrom('form_field_hide_rules').select('id').where('company_id', '=', companyId).execute();
    expect(hideRules).toEqual([]);
  });

  it('has eight weeks of forms filled in working hours by its users, each at its own time and audited then', async () => {
    const responses = await responsesOf(db);
    const scouting = responses.filter((response) => response.template_name === 'Scouting');
    expect(scouting.length).toBeGreaterThan(400);
    const oldest = Math.max(...responses.map((response) => daysAgo(response.submitted_at)));
    expect(oldest).toBeGreaterThanOrEqual(49);
    expect(oldest).toBeLessThanOrEqual(57);
    for (const response of responses) {
      expect(new Date(response.submitted_at).getTime()).toBeLessThan(Date.now());
      expect(new Date(response.created_at).getTime()).toBe(new Date(response.submitted_at).getTime());
      expect(new Date(response.submitted_at).getHours()).toBeGreaterThanOrEqual(7);
      expect(new Date(response.submitted_at).getHours()).toBeLessThan(18);
      expect([users.admin, users.grower]).toContain(response.submitted_by);
      expect(response.created_by).toBe(response.submitted_by);
      for (const answer of response.answerRows) expect(new Date(answer.created_at).getTime()).toBe(new Date(response.submitted_at).getTime());
    }
    expect(new Set(scouting.map((response) => response.submitted_by))).toEqual(new Set([users.admin, users.grower]));
    for (let week = 0; week < 8; week += 1) expect(scouting.filter((response) => weekAgo(response.submitted_at) === week).length, `week ${week}`).toBeGreaterThan(20);
    // A box's observation is filed under the batch growing there; every field of the form is answered or null.
    const fieldCount = new Map(DEFAULT_FORM_TEMPLATES.map((preset) => [preset.name, preset.fields.length]));
    for (const response of responses) expect(response.answerRows).toHaveLength(fieldCount.get(response.template_name)!);
    for (const response of scouting) expect(response.batch_id).not.toBeNull();

    const audited = await db.selectFrom('audit_events').select(['response_id', 'event_title', 'created_at', 'user_id']).where('company_id', '=', companyId).where('response_id', 'is not', null).where('event_title', 'like', 'Submitted %').execute();
    const auditOf = new Map(audited.map((event) => [event.response_id, event]));
    expect(audited).toHaveLength(responses.length);
    for (const response of responses) {
      const event = auditOf.get(response.id)!;
      expect(event.event_title).toBe(response.box ? `Submitted ${response.template_name} for grid box ${response.grid_box_id}` : `Submitted ${response.template_name} in room ${response.room}`);
      expect(new Date(event.created_at).getTime()).toBe(new Date(response.submitted_at).getTime());
      expect(event.user_id).toBe(response.submitted_by);
    }
  });

  it('tells the pest story: mites build up in a corner of the flower room and fade, thrips low and steady, gnats in propagation, most plants clean', async () => {
    const scouting = (await responsesOf(db)).filter((response) => response.template_name === 'Scouting');
    const pests = (response: (typeof scouting)[number]) => (response.answer('Pests seen') ?? '').split(', ').filter(Boolean);
    expect(scouting.filter((response) => response.answer('Pest pressure') === 'None').length / scouting.length).toBeGreaterThan(0.7);

    const mites = scouting.filter((response) => pests(response).includes('Spider mites'));
    for (const response of mites) {
      expect(response.box?.grid).toBe('Bench A');
      expect(Math.max(Math.abs(response.box!.x - 1), Math.abs(response.box!.y - 12))).toBeLessThanOrEqual(4);
    }
    const mitesByWeek = Array.from({ length: 8 }, (_, week) => mites.filter((response) => weekAgo(response.submitted_at) === week).length);
    const peak = mitesByWeek.indexOf(Math.max(...mitesByWeek));
    expect(peak).toBeGreaterThanOrEqual(2);
    expect(peak).toBeLessThanOrEqual(4);
    expect(mitesByWeek.slice(5)).toEqual([0, 0, 0]);
    expect(mitesByWeek[0]! + mitesByWeek[1]!).toBeLessThanOrEqual(mitesByWeek[peak]! / 5);
    expect(mites.some((response) => response.answer('Pest pressure') === 'High')).toBe(true);

    const thrips = scouting.filter((response) => pests(response).includes('Thrips'));
    for (const response of thrips) expect(['Veg room', 'Flower room 1']).toContain(response.room);
    expect(thrips.some((response) => response.answer('Pest pressure') === 'High' && pests(response).length === 1)).toBe(false);
    for (let week = 0; week < 8; week += 1) {
      const observed = scouting.filter((response) => weekAgo(response.submitted_at) === week && response.room !== 'Propagation / Mother room');
      expect(thrips.filter((response) => weekAgo(response.submitted_at) === week).length / observed.length, `week ${week}`).toBeLessThan(0.2);
    }
    expect(new Set(thrips.map((response) => weekAgo(response.submitted_at))).size).toBeGreaterThanOrEqual(6);

    const gnats = scouting.filter((response) => pests(response).includes('Fungus gnats'));
    for (const response of gnats) expect(response.room).toBe('Propagation / Mother room');
    expect(new Set(gnats.map((response) => weekAgo(response.submitted_at))).size).toBeGreaterThanOrEqual(6);
  });

  it('has a sticky card read at the same boxes every week, more gnats on the clone table than in flower', async () => {
    const traps = (await responsesOf(db)).filter((response) => response.form_category === 'Sticky Trap');
    const byWeek = Array.from({ length: 8 }, (_, week) => traps.filter((response) => weekAgo(response.submitted_at) === week));
    const cards = new Set(byWeek[0]!.map((response) => response.grid_box_id));
    expect(cards.size).toBeGreaterThanOrEqual(8);
    for (const week of byWeek) expect(new Set(week.map((response) => response.grid_box_id))).toEqual(cards);
    for (const response of traps) {
      expect(response.answer('Thrips')).toMatch(/^\d+$/);
      expect(response.answer('Whitefly')).toMatch(/^\d+$/);
      expect(response.answer('Trap replaced')).toBe('Yes');
    }
    const meanGnats = (grid: (name: string) => boolean) => {
      const reads = traps.filter((response) => grid(response.box!.grid));
      return reads.reduce((sum, response) => sum + Number(response.answer('Fungus gnats')), 0) / reads.length;
    };
    expect(meanGnats((grid) => grid === 'Clone table')).toBeGreaterThan(3 * meanGnats((grid) => grid.startsWith('Bench')));
  });

  it('has plant problems from the catalogue on the boxes of every room over the weeks, the older ones mostly closed and the recent mostly open', async () => {
    const problems = await problemsOf(db);
    expect(problems.length).toBeGreaterThanOrEqual(36);
    expect(problems.length).toBeLessThanOrEqual(250);
    for (const problem of problems) {
      // As the tablet's picker records a catalogue problem: its name as the type, its slug beside it.
      expect(catalogueProblem(problem.problem_slug ?? '')?.name).toBe(problem.problem_type);
      expect(Number.isInteger(problem.severity) && problem.severity >= 1 && problem.severity <= 5).toBe(true);
      expect(problem.source).toBe('manual');
      expect([users.admin, users.grower]).toContain(problem.user_id);
      expect(problem.created_by).toBe(problem.user_id);
      expect(new Date(problem.created_at).getTime()).toBe(new Date(problem.observed_at).getTime());
      expect(daysAgo(problem.observed_at)).toBeGreaterThan(1);
      expect(new Date(problem.observed_at).getHours()).toBeGreaterThanOrEqual(7);
      expect(new Date(problem.observed_at).getHours()).toBeLessThan(18);
      expect(problem.room_id).toBe(problem.box.room_id);
      // Never on a plant already culled.
      if (problem.box.culled_at) expect(new Date(problem.observed_at).getTime()).toBeLessThan(new Date(problem.box.culled_at).getTime());
      if (problem.status === 'unresolved') expect([problem.status_at, problem.status_by]).toEqual([null, null]);
      else {
        expect(new Date(problem.status_at!).getTime()).toBeGreaterThan(new Date(problem.observed_at).getTime());
        expect(new Date(problem.status_at!).getTime()).toBeLessThan(Date.now());
        expect([users.admin, users.grower]).toContain(problem.status_by);
      }
    }
    expect(new Set(problems.map((problem) => problem.status))).toEqual(new Set(['unresolved', 'treated', 'resolved', 'dismissed']));
    expect(new Set(problems.map((problem) => weekAgo(problem.observed_at))).size).toBeGreaterThanOrEqual(6);
    expect(new Set(problems.map((problem) => problem.problem_slug)).size).toBeGreaterThanOrEqual(4);
    expect(problems.filter((problem) => problem.sub_gridbox_id !== null).length).toBeGreaterThan(0);
    const rooms = (open: boolean) => new Set(problems.filter((problem) => isOpen(problem.status) === open).map((problem) => problem.box.room));
    expect(rooms(true)).toEqual(new Set(['Propagation / Mother room', 'Veg room', 'Flower room 1']));
    expect(rooms(false)).toEqual(new Set(['Propagation / Mother room', 'Veg room', 'Flower room 1']));
    const older = problems.filter((problem) => daysAgo(problem.observed_at) > 14);
    const recent = problems.filter((problem) => daysAgo(problem.observed_at) <= 14);
    expect(older.filter((problem) => !isOpen(problem.status)).length / older.length).toBeGreaterThan(0.9);
    expect(recent.filter((problem) => isOpen(problem.status)).length / recent.length).toBeGreaterThan(0.5);
    expect(problems.filter((problem) => problem.status === 'dismissed').length).toBeLessThanOrEqual(5);
  });

  it('has hot spots that spread over neighbouring boxes week by week, so the pest-pressure map moves', async () => {
    const problems = await problemsOf(db);
    const mites = problems.filter((problem) => problem.problem_slug === 'two-spotted-spider-mite');
    for (const problem of mites) {
      expect(problem.box.grid).toBe('Bench A');
      expect(Math.max(Math.abs(problem.box.x - 1), Math.abs(problem.box.y - 12))).toBeLessThanOrEqual(3);
    }
    // The map at a moment (src/features/pest-pressure/model.ts): seen by then, and still open then.
    const boxesUnderPressure = (at: number, room: string) =>
      new Set(
        problems
          .filter((problem) => problem.box.room === room && new Date(problem.observed_at).getTime() <= at)
          .filter((problem) => isOpen(problem.status) || new Date(problem.status_at!).getTime() > at)
          .map((problem) => problem.grid_box_id),
      );
    const weeks = Array.from({ length: 8 }, (_, week) => Date.now() - week * 7 * DAY_MS);
    const flower = weeks.map((at) => [...boxesUnderPressure(at, 'Flower room 1')].sort().join());
    expect(new Set(flower.filter(Boolean)).size).toBeGreaterThanOrEqual(5);
    expect(flower[7]).toBe('');
    // The mites' corner fills up, then empties: the week slider shows the spread and the clean-up.
    const miteBoxes = weeks.map((at) => new Set(mites.filter((problem) => new Date(problem.observed_at).getTime() <= at && (isOpen(problem.status) || new Date(problem.status_at!).getTime() > at)).map((problem) => problem.grid_box_id)).size);
    expect(Math.max(...miteBoxes.slice(2, 5))).toBeGreaterThan(miteBoxes[4]!);
    expect(Math.max(...miteBoxes.slice(2, 5))).toBeGreaterThan(miteBoxes[1]!);
    expect(miteBoxes[5]).toBe(0);
  });

  it('records every problem and every act on problems in the audit trail, as the API words them', async () => {
    const problems = await problemsOf(db);
    const events = await db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
    const recorded = new Map(events.filter((event) => event.event_title.startsWith('Recorded ')).map((event) => [(event.details as { problem_id: number }).problem_id, event]));
    expect(recorded.size).toBe(problems.length);
    for (const problem of problems) {
      const event = recorded.get(problem.id)!;
      const where = problem.sub_gridbox_id === null ? 'box' : 'a plant of box';
      expect(event.event_title).toBe(`Recorded ${problem.problem_type} (severity ${problem.severity}) on ${where} ${problem.box.custom_name}`);
      expect([event.user_id, event.grid_box_id, event.room_id]).toEqual([problem.user_id, problem.grid_box_id, problem.room_id]);
      expect(new Date(event.created_at).getTime()).toBe(new Date(problem.observed_at).getTime());
    }
    const acts = events.filter((event) => /^(Resolved|Dismissed as a false alarm|Marked treated) \d+ problem\(s\)/.test(event.event_title));
    const actedOn = new Map<number, Array<(typeof acts)[number]>>();
    for (const event of acts) for (const id of (event.details as { problem_ids: number[] }).problem_ids) actedOn.set(id, [...(actedOn.get(id) ?? []), event]);
    const verbs = { resolved: 'Resolved', dismissed: 'Dismissed as a false alarm', treated: 'Marked treated' } as Record<string, string>;
    for (const problem of problems.filter((candidate) => candidate.status !== 'unresolved')) {
      const last = actedOn.get(problem.id)!.at(-1)!;
      expect(last.event_title.startsWith(verbs[problem.status]!)).toBe(true);
      expect([last.user_id, new Date(last.created_at).getTime()]).toEqual([problem.status_by, new Date(problem.status_at!).getTime()]);
    }
    expect(acts.some((event) => / of type \S.* in grid /.test(event.event_title))).toBe(true);
    expect(acts.some((event) => / of type \S.* in room /.test(event.event_title))).toBe(true);
    expect(acts.some((event) => /^Resolved \d+ problem\(s\) in grid /.test(event.event_title))).toBe(true);
    expect(acts.some((event) => / on box \d+$/.test(event.event_title))).toBe(true);
  });

  it('has colours for its common problems, spray products with their intervals, and treatments of several types', async () => {
    const problems = await problemsOf(db);
    const mappings = await db.selectFrom('problem_color_mappings').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    expect(mappings.length).toBeGreaterThanOrEqual(4);
    expect(mappings.length).toBeLessThanOrEqual(6);
    const types = new Set(problems.map((problem) => problem.problem_type));
    for (const mapping of mappings) {
      expect(types.has(mapping.problem), mapping.problem).toBe(true);
      expect(mapping.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(mapping.abbreviation).toMatch(/^[A-Z]{2,3}$/);
    }
    expect(new Set(mappings.map((mapping) => mapping.color)).size).toBe(mappings.length);
    expect(new Set(mappings.map((mapping) => mapping.abbreviation)).size).toBe(mappings.length);

    const products = await db.selectFrom('spray_products').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    expect(products.length).toBeGreaterThanOrEqual(2);
    expect(products.length).toBeLessThanOrEqual(4);
    for (const product of products) {
      expect(product.active_ingredient).toBeTruthy();
      expect(product.rate).toBeGreaterThan(0);
      expect(product.rate_unit).toMatch(/^(g|mL)\/L$/);
      expect(product.reentry_hours).toBeGreaterThan(0);
      expect(product.preharvest_days).not.toBeNull();
    }
    expect(products.some((product) => /Beauveria bassiana/.test(product.active_ingredient!))).toBe(true);
    const treatments = await db.selectFrom('treatments').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    expect(new Set(treatments.map((treatment) => treatment.treatment_type))).toEqual(new Set(['biological', 'chemical', 'cultural']));
    for (const product of products) expect(treatments.some((treatment) => treatment.product_id === product.id)).toBe(true);
    for (const treatment of treatments) {
      expect(treatment.removed_at).toBeNull();
      expect((treatment.data as { notes?: string }).notes).toBeTruthy();
    }
  });

  it('has sprays on the boxes where problems were, one with its re-entry interval still running and a flowering batch inside a pre-harvest interval', async () => {
    const problems = await problemsOf(db);
    const boxes = await boxesOf(db);
    const products = new Map((await db.selectFrom('spray_products').selectAll().where('company_id', '=', companyId).execute()).map((product) => [product.id, product]));
    const sprays = await db.selectFrom('spray_applications').selectAll().where('company_id', '=', companyId).orderBy('application_date').execute();
    expect(sprays.length).toBeGreaterThanOrEqual(4);
    for (const spray of sprays) {
      const product = products.get(spray.product_id!)!;
      expect(spray.product_name).toBe(product.name);
      expect(spray.quantity_used).toBeGreaterThan(0);
      expect(spray.grid_box_ids.length).toBeGreaterThan(0);
      const applied = new Date(spray.application_date).getTime();
      expect(applied).toBeLessThan(Date.now());
      expect(new Date(spray.created_at).getTime()).toBe(applied);
      expect(new Date(spray.reentry_until!).getTime()).toBe(applied + product.reentry_hours! * HOUR_MS);
      expect(new Date(spray.preharvest_until!).getTime()).toBe(applied + product.preharvest_days! * DAY_MS);
      // Each box sprayed had a problem seen on it before, still open then.
      for (const boxId of spray.grid_box_ids) {
        const openThen = problems.filter(
          (problem) => problem.grid_box_id === boxId && new Date(problem.observed_at).getTime() < applied && (isOpen(problem.status) || new Date(problem.status_at!).getTime() > applied),
        );
        expect(openThen.length, `box ${boxId}`).toBeGreaterThan(0);
      }
      const audited = await db.selectFrom('audit_events').select(['grid_box_id', 'event_title', 'created_at']).where('company_id', '=', companyId).where(sql`details->>'application_id'`, '=', String(spray.id)).execute();
      expect(audited.map((event) => event.grid_box_id).sort()).toEqual([...spray.grid_box_ids].sort());
      for (const event of audited) expect(event.event_title).toBe(`Sprayed ${spray.product_name} (${spray.quantity_used} ${spray.quantity_unit})`);
    }
    expect(new Set(sprays.map((spray) => boxes.get(spray.grid_box_ids[0]!)!.room)).size).toBeGreaterThanOrEqual(2);

    const running = sprays.filter((spray) => new Date(spray.reentry_until!).getTime() > Date.now());
    expect(running.length).toBe(1);
    // The tablet marks a box from its sprays' ends: hours of re-entry left for whoever opens the demo now.
    expect(new Date(running[0]!.reentry_until!).getTime() - Date.now()).toBeGreaterThan(HOUR_MS);
    const flowering = await db
      .selectFrom('batches')
      .innerJoin('batch_grid_boxes', 'batch_grid_boxes.batch_id', 'batches.id')
      .select(['batches.batch_number', 'batch_grid_boxes.grid_box_id'])
      .where('batches.company_id', '=', companyId)
      .where('batches.batch_status', '=', 'Flowering')
      .execute();
    const held = sprays.filter((spray) => new Date(spray.preharvest_until!).getTime() > Date.now());
    const heldBatches = new Set(flowering.filter((link) => held.some((spray) => spray.grid_box_ids.includes(link.grid_box_id))).map((link) => link.batch_number));
    expect([...heldBatches]).toEqual(['NL-035']);
  });

  it('signs its Admin and grower in over HTTP, who read the rooms and pull the demo as tablets do', async () => {
    const admin = await signIn(server, DEMO_ADMIN_EMAIL, passwordOf(printed ?? '', DEMO_ADMIN_EMAIL));
    expect(admin.user_role).toBe('Admin');
    const grower = await signIn(server, DEMO_GROWER_EMAIL, passwordOf(printed ?? '', DEMO_GROWER_EMAIL));
    expect(grower.user_role).toBe('Regular');

    const floor = await server.request<{ rooms: Array<{ Name: string; grids: Array<{ Name: string; boxes: Array<{ CustomName: string | null }> }> }> }>('GET', '/load_room_grids_boxes', {
      token: admin.access_token,
      query: { company_id: companyId },
    });
    expect(floor.status).toBe(200);
    expect(floor.body.rooms.map((room) => room.Name)).toEqual(['Propagation / Mother room', 'Veg room', 'Flower room 1']);
    const boxes = floor.body.rooms.flatMap((room) => room.grids.flatMap((grid) => grid.boxes));
    expect(boxes.length).toBe((await boxesOf(db)).size);
    expect(boxes.every((box) => box.CustomName)).toBe(true);

    const responses = await serverDocuments(server, grower.access_token, 'form_responses');
    const stored = await db.selectFrom('form_responses').select('id').where('company_id', '=', companyId).execute();
    expect(responses.size).toBe(stored.length);
    const batches = await serverDocuments(server, grower.access_token, 'batches');
    expect(batches.size).toBe(9);

    const problems = await serverDocuments(server, grower.access_token, 'plant_problems');
    const storedProblems = await problemsOf(db);
    expect(problems.size).toBe(storedProblems.length);
    expect([...problems.values()].filter((problem) => isOpen(problem.status as string)).length).toBe(storedProblems.filter((problem) => isOpen(problem.status)).length);
    const operations = [...(await serverDocuments(server, grower.access_token, 'operations')).values()];
    const kinds = (kind: string) => operations.filter((document) => document.kind === kind).length;
    const count = async (table: 'spray_products' | 'treatments' | 'spray_applications') =>
      (await db.selectFrom(table).select('id').where('company_id', '=', companyId).where('deleted_at', 'is', null).execute()).length;
    expect([kinds('spray_product'), kinds('treatment'), kinds('spray_application')]).toEqual([await count('spray_products'), await count('treatments'), await count('spray_applications')]);
    const colors = await server.request<{ mappings: Array<{ Problem: string }> }>('GET', '/get_problem_color_mappings', { token: grower.access_token, query: { company_id: companyId } });
    expect(colors.body.mappings.length).toBeGreaterThanOrEqual(4);
    const room = await db.selectFrom('rooms').select('id').where('company_id', '=', companyId).where('name', '=', 'Flower room 1').executeTakeFirstOrThrow();
    const map = await server.request<{ total: number; counts: Array<{ problem_type: string }> }>('GET', '/get_unresolved_problems_for_room', { token: admin.access_token, query: { room_id: room.id } });
    expect(map.status).toBe(200);
    expect(map.body.total).toBe(storedProblems.filter((problem) => problem.box.room === 'Flower room 1' && isOpen(problem.status)).length);
    expect(map.body.counts.length).toBeGreaterThanOrEqual(3);
  });

  it('does nothing on a database that has a company', async () => {
    const before = await db.selectFrom('form_responses').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(await seedDemoIfEmpty(db, server.config.dataDir, server.config.publicUrl)).toBeNull();
    const after = await db.selectFrom('form_responses').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);
    expect(await db.selectFrom('companies').select('id').execute()).toHaveLength(1);
    expect(readFileSync(join(server.config.dataDir, 'demo-sign-in.txt'), 'utf8')).toBe(printed);
  });
});

/** What two demos must share: everything but their dates and ids. */
async function storyOf(database: Kysely<DB>) {
  const boxes = await boxesOf(database);
  // Ids differ between databases (a PostgreSQL sequence keeps what a rolled-back start took): users by email.
  const emails = new Map((await database.selectFrom('users').select(['id', 'email']).execute()).map((user) => [user.id, user.email]));
  const batches = await database.selectFrom('batches').select(['batch_number', 'strain_name', 'batch_status', 'number_of_plants', 'color']).orderBy('id').execute();
  const plants = await database.selectFrom('sub_gridboxes').select(['plant_id', 'subx', 'suby']).orderBy('id').execute();
  const responses = (await responsesOf(database)).map((response) => ({
    form: response.template_name,
    box: response.box?.custom_name ?? null,
    grid: response.box?.grid ?? null,
    room: response.room,
    by: emails.get(response.submitted_by!),
    answers: response.answerRows.map((row) => [row.field_name, row.input_data]),
  }));
  const problems = (await problemsOf(database)).map((problem) => [problem.box.custom_name, problem.problem_type, problem.severity, problem.status, emails.get(problem.user_id!), problem.notes]);
  const sprays = await database.selectFrom('spray_applications').select(['product_name', 'quantity_used', 'grid_box_ids']).orderBy('application_date').execute();
  const audit = await database.selectFrom('audit_events').select('event_title').orderBy('id').execute();
  return {
    problems,
    sprays: sprays.map((spray) => [spray.product_name, spray.quantity_used, spray.grid_box_ids.map((id) => boxes.get(id)?.custom_name)]),
    boxes: [...boxes.values()].map((box) => [box.room, box.grid, box.x, box.y, box.custom_name, box.culled]),
    batches,
    plants,
    responses,
    audit: audit.map((event) => event.event_title.replace(/\d+$/, '#')),
  };
}

describe('instances starting at once on one empty database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-demo-'));
  const opened: Database[] = [];
  let postgres: Awaited<ReturnType<typeof freshPostgres>> | null = null;
  afterAll(async () => {
    for (const database of opened) await database.close();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('make exactly one demo, the same story as any other first start but for its dates', async () => {
    // Two instances are two connection pools on PostgreSQL; PGlite is one process's own, so its two starts share it.
    if (databaseKind === 'postgres') {
      postgres = await freshPostgres('grow_demo');
      opened.push(await openDatabase({ databaseUrl: postgres.url, dataDir }), await openDatabase({ databaseUrl: postgres.url, dataDir }));
    } else {
      opened.push(await openDatabase({ dataDir: 'memory://' }));
    }
    const first = opened[0]!.db;
    await migrate(first as never);
    const instances = opened.length === 2 ? opened.map((database) => database.db) : [first, first];
    const results = await Promise.all(instances.map((instance) => seedDemoIfEmpty(instance, dataDir, 'http://grow.test')));
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await first.selectFrom('companies').select('id').execute()).toHaveLength(1);
    expect(await first.selectFrom('users').select('id').execute()).toHaveLength(2);
    expect(statSync(join(dataDir, 'demo-sign-in.txt')).mode & 0o777).toBe(0o600);

    expect(await storyOf(first)).toEqual(await storyOf(db));
  }, 120_000);
});
