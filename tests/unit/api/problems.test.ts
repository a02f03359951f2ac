/**
 * The plant-problem domain functions against the real server through the proxy: recorded offline, each
 * change shows at once under its client id, reaches the server once online, and the server's copy
 * replaces the optimistic one; the optimistic status rules are the server's (table-tested).
 */
import { describe, expect, it } from 'vitest';
import { isClientId, newClientId } from '../../../common/client-ids';
import { applyProblemAction, PROBLEM_ACTION_NAMES, PROBLEM_STATUSES, type ProblemAction, type ProblemStatus, problemMessages as m } from '../../../common/messages/problems';
import { catalogueProblemNamed } from '../../../common/plant-problems';
import type { CustomSolutionRecord } from '../../../common/schemas/problems';
import { ApiError } from '../../../src/api/context';
import {
  addCustomSolution,
  deleteProblemColorMapping,
  loadPlantProblem,
  manageProblem,
  manageProblemsByType,
  mapProblemColor,
  problemClientMessages,
  recordProblem,
  updateUnresolvedProblems,
} from '../../../src/api/problems';
import type { Tablet } from '../../support/client';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const { tablet } = fleet;
const db = () => fleet.server.database.db;

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
const png = () => new Blob([PNG], { type: 'image/png' });

const SPIDER_MITES = catalogueProblemNamed('Two-spotted spider mite')!;

async function reconnect(device: Tablet) {
  await fleet.reconnect(device);
  expect(await device.outbox.count()).toBe(0);
}

const local = async (device: Tablet, id: string) => (await device.database.plant_problems.findOne(id).exec())?.toMutableJSON() ?? null;
const rowsOf = (clientIds: string[]) => db().selectFrom('plant_problems').selectAll().where('client_id', 'in', clientIds).execute();

/** A problem recorded on the server (as another tablet would), by the farm's Admin: its integer id. */
async function serverProblem(gridBoxId: number, problemType: string, status: ProblemStatus = 'unresolved') {
  const { admin } = fleet.farm;
  const created = await fleet.server.request<{ problem_id: number }>('POST', '/create_gridbox_problem', { token: admin.token, json: { GridBoxID: gridBoxId, problem_type: problemType, severity: 2, user_id: admin.id } });
  expect(created.status).toBe(200);
  const id = created.body.problem_id;
  const path: Record<ProblemStatus, ProblemAction[]> = { unresolved: [], treated: ['treat'], resolved: ['resolve'], dismissed: ['dismiss'] };
  for (const action of path[status]) {
    const managed = await fleet.server.request('POST', '/manage_problem', { token: admin.token, json: { problemID: id, action, userID: admin.id } });
    expect(managed.status).toBe(200);
  }
  return id;
}

describe('recordProblem (create_gridbox_problem)', () => {
  it('checks the fields with the server’s messages, before anything is queued', async () => {
    const device = await tablet();
    const { boxKeys } = await fleet.pulledGrid(device, 1);
    const input = { gridBoxId: boxKeys[0]!, problemType: 'Spider mites', severity: 3, userId: fleet.farm.regular.id };
    await rejects(recordProblem(device.context, { ...input, gridBoxId: undefined as never }), m.createFieldsMissing);
    await rejects(recordProblem(device.context, { ...input, problemType: '  ' }), m.createFieldsMissing);
    await rejects(recordProblem(device.context, { ...input, severity: '' }), m.createFieldsMissing);
    await rejects(recordProblem(device.context, { ...input, severity: 0 }), m.severityRange);
    await rejects(recordProblem(device.context, { ...input, severity: 6 }), m.severityRange);
    await rejects(recordProblem(device.context, { ...input, userId: undefined as never }), m.createFieldsMissing);
    await rejects(recordProblem(device.context, { ...input, problemSlug: 'no-such-problem' }), m.unknownSlug('no-such-problem'));
    await rejects(recordProblem(device.context, { ...input, subGridboxId: newClientId() }), m.subGridboxNotInBox);
    expect(await device.outbox.count()).toBe(0);
  });

  it('shows at once offline, reaches the server once online with the act’s time, and the server’s copy replaces it under the same client id', async () => {
    const device = await tablet();
    const { roomKey, gridKey, boxIds, boxKeys } = await fleet.pulledGrid(device, 1);
    fleet.proxy.setOnline(false);
    const { problem_id } = await recordProblem(device.context, { gridBoxId: boxKeys[0]!, problemType: ' two-spotted SPIDER mite ', severity: '3', notes: 'Under the leaves', userId: fleet.farm.regular.id });
    expect(isClientId(problem_id)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/create_gridbox_problem',
      creates: [problem_id],
      fallbackMessage: m.recordFailed,
      // The catalogue entry the type names is found on the tablet, as the server finds it.
      body: { kind: 'json', data: { GridBoxID: boxKeys[0], problem_type: 'two-spotted SPIDER mite', problem_slug: SPIDER_MITES.slug, severity: 3, notes: 'Under the leaves', user_id: fleet.farm.regular.id, client_id: problem_id } },
    });
    const offline = await local(device, problem_id);
    expect(offline).toMatchObject({ problem_id, room_id: roomKey, grid_id: gridKey, grid_box_id: boxKeys[0], roomId: roomKey, gridId: gridKey, gridBoxId: boxKeys[0], status: 'unresolved', severity: 3, source: 'manual' });
    expect(offline).not.toHaveProperty('serverId');

    await reconnect(device);
    const rows = await rowsOf([problem_id]);
    expect(rows.map((row) => [row.grid_box_id, row.problem_type, row.problem_slug, row.severity, row.user_id, row.status])).toEqual([[boxIds[0], 'two-spotted SPIDER mite', SPIDER_MITES.slug, 3, fleet.farm.regular.id, 'unresolved']]);
    // The moment the grower recorded it, not the moment it was sent.
    expect(new Date(rows[0]!.observed_at).toISOString()).toBe(entry?.actedAt);
    expect(await local(device, problem_id)).toMatchObject({ problem_id, serverId: rows[0]!.id, grid_box_id: boxKeys[0], status: 'unresolved', observed_at: entry?.actedAt });
    expect(await fleet.notFromServer(device)).toEqual([]);
  });

  it('sends a photo recorded offline with the problem, which shows as pending until the server names the file', async () => {
    const device = await tablet();
    const { boxKeys } = await fleet.pulledGrid(device, 1);
    fleet.proxy.setOnline(false);
    const { problem_id } = await recordProblem(device.context, { gridBoxId: boxKeys[0]!, problemType: 'Our own leaf curl', severity: 1, photo: png(), userId: fleet.farm.regular.id });
    const [entry] = await device.outbox.all();
    expect(entry?.body?.kind).toBe('multipart');
    const parts = entry?.body?.kind === 'multipart' ? entry.body.parts : [];
    expect(parts.find((part) => part.name === 'image')).toMatchObject({ fileName: 'problem.jpg' });
    expect(parts.find((part) => part.name === 'problem_slug')).toBeUndefined();
    expect(await local(device, problem_id)).toMatchObject({ image: null, photo_pending: true, problem_slug: null });

    await reconnect(device);
    const [row] = await rowsOf([problem_id]);
    expect(row?.image_name).toEqual(expect.any(String));
    const synced = await local(device, problem_id);
    expect(synced).toMatchObject({ serverId: row?.id, image: expect.stringContaining('/api/files/') });
    expect(synced?.photo_pending ?? null).toBeNull();
  });
});

describe('the actions', () => {
  it('checks the fields with the server’s messages', async () => {
    const device = await tablet();
    const userId = fleet.farm.regular.id;
    await rejects(manageProblem(device.context, { problemId: undefined as never, action: 'resolve', userId }), m.manageFieldsMissing);
    await rejects(manageProblem(device.context, { problemId: newClientId(), action: '', userId }), m.manageFieldsMissing);
    await rejects(manageProblem(device.context, { problemId: newClientId(), action: 'burn', userId }), m.unknownAction);
    await rejects(manageProblemsByType(device.context, { roomId: undefined as never }, { problemType: 'Thrips', action: 'resolve', userId }), m.byTypeRoomFieldsMissing);
    await rejects(manageProblemsByType(device.context, { gridId: newClientId() }, { problemType: ' ', action: 'resolve', userId }), m.byTypeGridFieldsMissing);
    await rejects(updateUnresolvedProblems(device.context, { roomId: newClientId() }, { action: 'resolve', userId: undefined as never }), m.roomActionFieldsMissing);
    await rejects(updateUnresolvedProblems(device.context, { gridId: newClientId() }, { action: 'nothing', userId }), m.unknownAction);
    expect(await device.outbox.count()).toBe(0);
  });

  it('change each status offline exactly as the server then does (every action from every status)', async () => {
    const device = await tablet();
    const { boxIds } = await fleet.pulledGrid(device, 1);
    const cases = PROBLEM_ACTION_NAMES.flatMap((action) => PROBLEM_STATUSES.map((status) => ({ action, status })));
    const problems = [];
    for (const { action, status } of cases) problems.push({ action, status, id: await serverProblem(boxIds[0]!, `Case ${action} ${status}`, status) });
    await device.engine.syncNow();
    await device.engine.settle();
    const byServerId = new Map((await device.database.plant_problems.find().exec()).map((document) => [document.get('serverId') as number, document.primary]));

    fleet.proxy.setOnline(false);
    const userId = fleet.farm.regular.id;
    const optimistic: Array<{ action: ProblemAction; from: ProblemStatus; to: unknown; changed: boolean }> = [];
    for (const { action, status, id } of problems) {
      const key = byServerId.get(id)!;
      const before = await local(device, key);
      expect(before?.status).toBe(status);
      await manageProblem(device.context, { problemId: key, action: action.toUpperCase(), userId });
      const after = await local(device, key);
      optimistic.push({ action, from: status, to: after?.status, changed: after?.status_by === userId });
    }
    await reconnect(device);
    const rows = await db().selectFrom('plant_problems').select(['id', 'status', 'status_by']).where('id', 'in', problems.map((problem) => problem.id)).execute();
    const onServer = problems.map(({ action, status, id }) => {
      const row = rows.find((each) => each.id === id)!;
      return { action, from: status, to: row.status, changed: row.status_by === userId };
    });
    expect(optimistic).toEqual(onServer);
    // The pure rule the tablet applies, for the record of what the server did.
    for (const { action, from, to, changed } of onServer) {
      const problem = { status: from, status_at: null, status_by: null, updated_at: '2025-01-01T00:00:00.000Z' };
      const applied = applyProblemAction(problem, action, '2025-02-01T00:00:00.000Z', userId);
      expect([applied.status, applied !== problem]).toEqual([to, changed]);
    }
  });

  it('act by type in a room (without case) and on all of a grid, offline then once on the server', async () => {
    const device = await tablet();
    const first = await fleet.pulledGrid(device, 2);
    const thrips = await serverProblem(first.boxIds[0]!, 'Thrips');
    const thripsToo = await serverProblem(first.boxIds[1]!, 'THRIPS');
    const mites = await serverProblem(first.boxIds[1]!, 'Spider mites');
    const resolved = await serverProblem(first.boxIds[0]!, 'Thrips', 'resolved');
    await device.engine.syncNow();
    await device.engine.settle();
    const statuses = async () =>
      Object.fromEntries((await device.database.plant_problems.find({ selector: { roomId: first.roomKey } }).exec()).map((document) => [document.get('serverId') as number, document.get('status') as string]));
    const userId = fleet.farm.regular.id;

    fleet.proxy.setOnline(false);
    await manageProblemsByType(device.context, { roomId: first.roomKey }, { problemType: 'thrips', action: 'treat', userId });
    expect(await statuses()).toEqual({ [thrips]: 'treated', [thripsToo]: 'treated', [mites]: 'unresolved', [resolved]: 'resolved' });
    await updateUnresolvedProblems(device.context, { gridId: first.gridKey }, { action: 'resolve', userId });
    expect(await statuses()).toEqual({ [thrips]: 'resolved', [thripsToo]: 'resolved', [mites]: 'resolved', [resolved]: 'resolved' });
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.body])).toEqual([
      ['/manage_problems_by_type_room', { kind: 'json', data: { roomID: first.roomKey, problemType: 'thrips', action: 'treat', userID: userId } }],
      ['/update_unresolved_problems_for_grid', { kind: 'json', data: { gridID: first.gridKey, action: 'resolve', userID: userId } }],
    ]);

    await reconnect(device);
    const rows = await db().selectFrom('plant_problems').select(['id', 'status']).where('id', 'in', [thrips, thripsToo, mites, resolved]).execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual(await statuses());
    const audits = await db().selectFrom('audit_events').select('event_title').where('company_id', '=', fleet.farm.companyId).where('event_title', 'like', 'Marked treated 2 problem(s) of type thrips%').execute();
    expect(audits).toHaveLength(1);
  });
});

describe('problem colours', () => {
  it('checks the colour and abbreviation; maps, updates and deletes offline, then once on the server', async () => {
    const device = await tablet(fleet.farm.admin);
    const { companyId } = fleet.farm;
    await rejects(mapProblemColor(device.context, { companyId, problem: 'Thrips', color: 'not a colour!' }), m.colorInvalid);
    await rejects(mapProblemColor(device.context, { companyId, problem: 'Thrips', abbreviation: 'TOOLONG' }), m.abbreviationTooLong);
    await rejects(mapProblemColor(device.context, { companyId, problem: ' ' }), m.problemRequired);
    await rejects(deleteProblemColorMapping(device.context, { companyId, problem: 'Never mapped' }), m.mappingNotFound('Never mapped'));
    expect(await device.outbox.count()).toBe(0);
    const mappings = async () => ((await device.database.company.findOne(String(companyId)).exec())?.toMutableJSON().problem_color_mappings ?? []) as Array<Record<string, unknown>>;

    fleet.proxy.setOnline(false);
    await mapProblemColor(device.context, { companyId, problem: 'Thrips', color: '#ff8800', abbreviation: 'TH' });
    await mapProblemColor(device.context, { companyId, problem: 'THRIPS', color: 'purple' });
    await mapProblemColor(device.context, { companyId, problem: 'Root rot', color: '#333' });
    await deleteProblemColorMapping(device.context, { companyId, problem: 'root ROT' });
    expect((await mappings()).map((mapping) => [mapping.Problem, mapping.Color, mapping.Abbreviation])).toEqual([['THRIPS', 'purple', 'TH']]);

    await reconnect(device);
    const rows = await db().selectFrom('problem_color_mappings').select(['problem', 'color', 'abbreviation', 'deleted_at']).where('company_id', '=', companyId).orderBy('id').execute();
    expect(rows.map((row) => [row.problem, row.color, row.abbreviation, row.deleted_at !== null])).toEqual([
      ['THRIPS', 'purple', 'TH', false],
      ['Root rot', '#333', null, true],
    ]);
    expect((await mappings()).map((mapping) => [mapping.Problem, mapping.Color, mapping.Abbreviation])).toEqual([['THRIPS', 'purple', 'TH']]);
  });
});

describe('the company’s own solutions (addCustomSolution, in the company document)', () => {
  it('checks the fields as the server does, before anything is queued', async () => {
    const device = await tablet();
    const { companyId } = fleet.farm;
    await rejects(addCustomSolution(device.context, { companyId, problemId: SPIDER_MITES.slug, solution: '  ' }), m.customSolutionRequired);
    await rejects(addCustomSolution(device.context, { companyId, problemId: '', solution: 'Anything' }), m.catalogueProblemRequired);
    await rejects(addCustomSolution(device.context, { companyId, problemId: 'no-such-problem', solution: 'Anything' }), m.unknownSlug('no-such-problem'));
    expect(await device.outbox.count()).toBe(0);
  });

  it('added offline, shows in the local company document at once; once online it reaches the server once, even when its answer is lost', async () => {
    const device = await tablet();
    const { companyId } = fleet.farm;
    const solutions = async (on: Tablet = device) => ((await on.database.company.findOne(String(companyId)).exec())?.toMutableJSON().custom_solutions ?? []) as CustomSolutionRecord[];

    fleet.proxy.setOnline(false);
    const text = `Raise the humidity at night ${newClientId()}`;
    // By the catalogue's id: filed under its slug on both sides.
    const { custom_solution: added } = await addCustomSolution(device.context, { companyId, problemId: SPIDER_MITES.id, solution: ` ${text} ` });
    expect(added).toEqual({ id: added.client_id, client_id: expect.any(String), problem_slug: SPIDER_MITES.slug, solution: text, user_id: fleet.farm.regular.id, created_at: expect.any(String) });
    expect(isClientId(added.client_id)).toBe(true);
    expect((await solutions()).filter((solution) => solution.client_id === added.client_id)).toEqual([added]);
    expect(await device.outbox.count()).toBe(1);

    const lost = fleet.proxy.loseAnswerOnce((call) => call.url.split('?')[0] === '/api/plant_problems/add_custom_solution');
    fleet.proxy.setOnline(true);
    void device.engine.syncNow();
    await lost;
    await reconnect(device);
    const rows = await db().selectFrom('custom_solutions').select(['id', 'client_id', 'problem_slug', 'solution', 'user_id']).where('company_id', '=', companyId).where('solution', '=', text).execute();
    expect(rows).toEqual([{ id: expect.any(Number), client_id: added.client_id, problem_slug: SPIDER_MITES.slug, solution: text, user_id: fleet.farm.regular.id }]);
    // The server's record has replaced the optimistic one: one copy, under the server's integer id.
    expect((await solutions()).filter((solution) => solution.client_id === added.client_id)).toEqual([{ ...added, id: rows[0]!.id, created_at: expect.any(String) }]);

    // Another tablet of the company pulls it, and has it offline (only the company collection: RxDB's per-process limit).
    const other = await tablet(fleet.farm.admin, { collections: ['company'] });
    fleet.proxy.setOnline(false);
    expect((await solutions(other)).map((solution) => solution.solution)).toContain(text);
  });
});

describe('the catalogue call that needs the server', () => {
  it('loads a catalogue entry with the company’s own solutions; offline it fails with a clear message', async () => {
    const device = await tablet();
    const { companyId } = fleet.farm;
    await addCustomSolution(device.context, { companyId, problemId: SPIDER_MITES.slug, solution: 'Mist the aisles' });
    await device.engine.settle();
    const entry = await loadPlantProblem(device.context, { companyId, slug: SPIDER_MITES.slug });
    expect(entry).toMatchObject({ slug: SPIDER_MITES.slug, name: SPIDER_MITES.name });
    expect(entry.custom_solutions.map((solution) => solution.solution)).toContain('Mist the aisles');
    await rejects(loadPlantProblem(device.context, { companyId, slug: 'no-such-problem' }), m.unknownSlug('no-such-problem'), ApiError);

    fleet.proxy.setOnline(false);
    await rejects(loadPlantProblem(device.context, { companyId, slug: SPIDER_MITES.slug }), problemClientMessages.catalogueEntryOffline, ApiError);
  });
});
