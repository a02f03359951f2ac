/**
 * The command bar's reading and running (issue 18), on a tablet against the real server: a command is
 * parsed by the tablet's own parser, resolved against the local store (names, box numbers in the
 * company's numbering) and run through the screens' domain functions, then kept with save_command. Run
 * offline, its changes and the command reach the server once, also when an answer is lost on the way.
 */
import { describe, expect, it } from 'vitest';
import type { CommandAction } from '../../../common/commands/actions';
import { parseCommand } from '../../../common/commands/parse';
import { saveCommand } from '../../../src/api/commands';
import { readCommandPlaces, vocabularyOf } from '../../../src/features/commands/places';
import { type ActionPlan, planCommand, runnable } from '../../../src/features/commands/resolve';
import { runCommand } from '../../../src/features/commands/run';
import type { Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createBatch, createFormTemplate, createGrid, createRoom } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const { tablet } = fleet;

// Names without digits, so a grid's name never reads as a box number.
const WORDS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet', 'Kilo', 'Lima', 'Mike', 'November', 'Oscar'];
let counter = 0;
const unique = (prefix: string) => `${prefix} ${WORDS[counter % WORDS.length]!}${'x'.repeat(Math.floor(counter++ / WORDS.length))}`;

/** A room with one nx × ny grid, made on the server and pulled by the tablet: ids, client ids and names. */
async function benchOn(device: Tablet, nx: number, ny = 1) {
  const roomName = unique('Flower');
  const gridName = unique('Bench');
  const roomId = await createRoom(fleet.server, fleet.farm.companyId, roomName);
  const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, nx, ny, gridName);
  await device.engine.syncNow();
  await device.engine.settle();
  return {
    roomId,
    roomName,
    roomKey: await clientIdOf(fleet.server, 'rooms', roomId),
    gridId: grid.id,
    gridName,
    gridKey: await clientIdOf(fleet.server, 'grids', grid.id),
    boxIds: grid.boxIds,
    boxKeys: await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds),
  };
}

const user = () => ({ userId: fleet.farm.regular.id, companyId: fleet.farm.companyId });

/** Reads a command as the bar does: what the tablet holds, the parser, then the local records. */
async function read(device: Tablet, command: string, scene: { roomId: string | null; gridId: string | null } = { roomId: null, gridId: null }) {
  const places = await readCommandPlaces(device.context, fleet.farm.companyId);
  const parsed = parseCommand(command, places.language, vocabularyOf(places));
  if (!parsed.ok) throw new Error(`“${command}” was not read: ${parsed.message}`);
  return { places, plans: await planCommand(device.context, parsed.actions, scene, places) };
}

/** Plans for actions given as the parser gives them (to test resolving on its own). */
async function plan(device: Tablet, actions: CommandAction[], scene: { roomId: string | null; gridId: string | null } = { roomId: null, gridId: null }) {
  const places = await readCommandPlaces(device.context, fleet.farm.companyId);
  return planCommand(device.context, actions, scene, places);
}

function mustRun(plans: ActionPlan[]) {
  if (!runnable(plans)) throw new Error(`Not runnable: ${plans.map((each) => each.problem).join('; ')}`);
  return plans;
}

const culledOnServer = async (gridId: number) =>
  (await fleet.server.database.db.selectFrom('grid_boxes').select(['id', 'culled']).where('grid_id', '=', gridId).orderBy('id').execute()).map((box) => box.culled);

/** The company's kept commands, as the API answers them. */
async function keptCommands() {
  const response = await fleet.server.request<{ commands: Array<Record<string, unknown>> }>('GET', '/get_commands', { token: fleet.farm.admin.token, query: { company_id: fleet.farm.companyId } });
  expect(response.status).toBe(200);
  return response.body.commands;
}

describe('a command run offline', () => {
  it('culls two boxes and keeps the command, each reaching the server once though the answer was lost', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 4);
    fleet.proxy.setOnline(false);

    const command = `cull boxes 1 and 2 in ${bench.gridName}`;
    const { places, plans } = await read(device, command);
    expect(plans.map((each) => each.action)).toEqual([{ kind: 'cull', culled: true, boxes: [1, 2], grid: bench.gridName }]);
    expect(plans.map((each) => each.words)).toEqual([`Cull boxes 1 and 2 in ${bench.gridName}`]);
    const run = await runCommand(device.context, { command, language: places.language, plans: mustRun(plans), user: user() });
    expect(run.outcomes).toEqual([{ entryIds: [expect.any(String), expect.any(String)], error: null, form: null }]);
    expect(run.saved).toEqual({ entryIds: [expect.any(String)], error: null, form: null });
    expect(run.form).toBeNull();

    // Queued, in the order run, and shown at once.
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/update_culling_status', '/update_culling_status', '/save_command']);
    const local = await device.database.grid_boxes.findByIds(bench.boxKeys).exec();
    expect(bench.boxKeys.map((key) => local.get(key)?.get('culled'))).toEqual([true, true, false, false]);
    expect(await keptCommands()).toEqual([]);

    // Back online; the answer to the push carrying the command is lost after the server committed.
    const lost = fleet.proxy.loseAnswerOnce((call) => call.url.startsWith('/api/save_command'));
    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await lost;
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    expect(fleet.proxy.sent.filter((call) => call.url.startsWith('/api/save_command')).length).toBeGreaterThanOrEqual(2);

    expect(await culledOnServer(bench.gridId)).toEqual([true, true, false, false]);
    const kept = await keptCommands();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ command, user_id: fleet.farm.regular.id, language: 'en', parsed: [{ kind: 'cull', culled: true, boxes: [1, 2], grid: bench.gridName }] });
  });
});

describe('reading a command against the tablet’s records', () => {
  it('a command naming no grid means the grid on screen, and is kept with its name', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 3);
    const plans = await plan(device, [{ kind: 'cull', culled: true, boxes: [3], grid: null }], { roomId: bench.roomKey, gridId: bench.gridKey });
    expect(plans).toMatchObject([{ action: { kind: 'cull', culled: true, boxes: [3], grid: bench.gridName }, words: `Cull box 3 in ${bench.gridName}`, problem: null }]);
    expect(plans[0]?.resolved).toMatchObject({ kind: 'cull', boxes: [{ id: bench.boxKeys[2], number: 3 }] });
  });

  it('without a grid on screen or named, it asks which grid, with an example', async () => {
    const device = await tablet();
    await benchOn(device, 2);
    const [only] = await plan(device, [{ kind: 'cull', culled: true, boxes: [1], grid: null }]);
    expect(only?.resolved).toBeNull();
    expect(only?.problem).toMatch(/^Which grid\? Name it, for example “cull box 12 in .+”\.$/);
  });

  it('a box beyond the grid is said before anything runs', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 4);
    const plans = await plan(device, [
      { kind: 'cull', culled: true, boxes: [2], grid: bench.gridName },
      { kind: 'cull', culled: true, boxes: [4, 5, 9], grid: bench.gridName },
    ]);
    expect(plans.map((each) => each.problem)).toEqual([null, `${bench.gridName} has 4 boxes: there are no boxes 5 and 9.`]);
    expect(runnable(plans)).toBe(false);
  });

  it('numbers boxes by the company’s grid order', async () => {
    const device = await tablet();
    const setOrder = (grid_order: string) => fleet.server.request('POST', '/set_company_grid_order', { token: fleet.farm.admin.token, query: { company_id: fleet.farm.companyId }, form: { grid_order } });
    expect((await setOrder('column')).status).toBe(200);
    try {
      const bench = await benchOn(device, 2, 2);
      // Column by column: box 2 is the first column's second row (the server's boxes go row by row).
      const [cull] = await plan(device, [{ kind: 'cull', culled: true, boxes: [2], grid: bench.gridName }]);
      expect(cull?.resolved).toMatchObject({ boxes: [{ id: bench.boxKeys[2], number: 2 }] });
    } finally {
      expect((await setOrder('row')).status).toBe(200);
    }
  });

  it('names what it cannot find: a grid, a room, a batch, a status, a form', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 2);
    const plans = await plan(device, [
      { kind: 'cull', culled: true, boxes: [1], grid: 'Nowhere' },
      { kind: 'mark-scanned', target: 'room', name: 'Attic' },
      { kind: 'harvest', batch: 'Z-999' },
      { kind: 'batch-status', batch: 'Z-999', status: 'Flowering' },
      { kind: 'fill-form', form: 'No such form', boxes: [1], grid: bench.gridName },
      { kind: 'mark-scanned', target: 'room', name: null },
    ]);
    expect(plans.map((each) => each.problem)).toEqual([
      'There is no grid named Nowhere on this tablet.',
      'There is no room named Attic on this tablet.',
      'There is no batch Z-999 on this tablet.',
      'There is no batch Z-999 on this tablet.',
      'There is no form named No such form on this tablet.',
      expect.stringMatching(/^Which room\? Name it, for example “mark .+ scanned”\.$/),
    ]);
  });
});

describe('each action runs through the screens’ domain functions', () => {
  it('problems on boxes, a batch status, a harvest, a room and a grid marked scanned: on the server once', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 6);
    const statusBatch = unique('B');
    const harvestedBatch = unique('H');
    const statusBatchId = await createBatch(fleet.server, fleet.farm.companyId, statusBatch);
    const harvestedBatchId = await createBatch(fleet.server, fleet.farm.companyId, harvestedBatch);
    await device.engine.syncNow();
    await device.engine.settle();
    fleet.proxy.setOnline(false);

    const actions: CommandAction[] = [
      { kind: 'problem', problem: 'Two-spotted spider mite', severity: 3, notes: null, boxes: [4, 5, 6], grid: bench.gridName },
      { kind: 'batch-status', batch: statusBatch.toLowerCase(), status: 'flowering' },
      { kind: 'harvest', batch: harvestedBatch },
      { kind: 'mark-scanned', target: 'room', name: null },
      { kind: 'mark-scanned', target: 'grid', name: bench.gridName },
    ];
    const plans = mustRun(await plan(device, actions, { roomId: bench.roomKey, gridId: null }));
    expect(plans.map((each) => each.words)).toEqual([
      `Record Two-spotted spider mite (severity 3) on boxes 4 to 6 in ${bench.gridName}`,
      // Names as the company writes them, whatever the case said.
      `Move batch ${statusBatch} to Flowering`,
      `Harvest batch ${harvestedBatch}`,
      `Mark room ${bench.roomName} scanned`,
      `Mark grid ${bench.gridName} scanned`,
    ]);
    const command = 'spider mites and the rest';
    const run = await runCommand(device.context, { command, language: 'en', plans, user: user() });
    expect(run.outcomes.map((outcome) => [outcome.entryIds.length, outcome.error])).toEqual([[3, null], [1, null], [1, null], [1, null], [1, null]]);

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const db = fleet.server.database.db;
    const problems = await db.selectFrom('plant_problems').select(['grid_box_id', 'problem_type', 'severity']).where('grid_id', '=', bench.gridId).orderBy('grid_box_id').execute();
    expect(problems).toEqual(bench.boxIds.slice(3).map((grid_box_id) => ({ grid_box_id, problem_type: 'Two-spotted spider mite', severity: 3 })));
    const batches = await db.selectFrom('batches').select(['id', 'batch_status', 'harvested_at']).where('id', 'in', [statusBatchId, harvestedBatchId]).orderBy('id').execute();
    expect(batches.map((batch) => batch.batch_status)).toEqual(['Flowering', 'Harvested']);
    expect(batches[1]?.harvested_at).not.toBeNull();
    expect((await db.selectFrom('rooms').select('scanned').where('id', '=', bench.roomId).executeTakeFirstOrThrow()).scanned).toBe(true);
    expect((await db.selectFrom('grids').select('scanned').where('id', '=', bench.gridId).executeTakeFirstOrThrow()).scanned).toBe(true);
    const kept = (await keptCommands()).filter((each) => each.command === command);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.parsed).toEqual(plans.map((each) => each.action));
    // The room on screen is kept by its name.
    expect(kept[0]?.parsed).toContainEqual({ kind: 'mark-scanned', target: 'room', name: bench.roomName });
  });

  it('a harvested batch is said before running; a form to fill opens for the boxes, after the rest', async () => {
    const device = await tablet();
    const bench = await benchOn(device, 3);
    const batch = unique('H');
    await createBatch(fleet.server, fleet.farm.companyId, batch);
    const form = unique('Weekly scouting');
    await createFormTemplate(fleet.server, fleet.farm.admin, fleet.farm.companyId, { name: form, category: 'Scouting', fields: [{ name: 'Pests seen', type: 'Text' }] });
    await device.engine.syncNow();
    await device.engine.settle();
    const harvest: CommandAction = { kind: 'harvest', batch };
    await runCommand(device.context, { command: `harvest ${batch}`, language: 'en', plans: mustRun(await plan(device, [harvest])), user: user() });
    const [again] = await plan(device, [harvest]);
    expect(again?.problem).toBe(`Batch ${batch} is harvested already.`);

    const plans = mustRun(await plan(device, [{ kind: 'fill-form', form: form.toUpperCase(), boxes: [1, 3], grid: null }], { roomId: bench.roomKey, gridId: bench.gridKey }));
    const run = await runCommand(device.context, { command: `fill ${form} for boxes 1 and 3`, language: 'en', plans, user: user() });
    const template = (await device.database.form_templates.find({ selector: { TemplateName: form } }).exec())[0];
    expect(run.form).toEqual({ templateId: String(template?.get('TemplateID')), templateName: form, search: { boxes: `${bench.boxKeys[0]},${bench.boxKeys[2]}`, room: bench.roomKey } });
    expect(run.outcomes).toEqual([{ entryIds: [], error: null, form: run.form }]);
    // A second form in the same command waits for the next one.
    const two = await plan(device, [
      { kind: 'fill-form', form, boxes: [1], grid: bench.gridName },
      { kind: 'fill-form', form, boxes: [2], grid: bench.gridName },
    ]);
    expect(two.map((each) => each.problem)).toEqual([null, 'One form at a time: fill the first, then say this one again.']);
  });
});

describe('save_command', () => {
  it("checks the command as the server does: 'command and user_id are required.'", async () => {
    const device = await tablet();
    await rejects(saveCommand(device.context, { userId: fleet.farm.regular.id, command: '   ', parsed: [], language: 'en' }), 'command and user_id are required.');
    expect(await device.outbox.count()).toBe(0);
  });
});
