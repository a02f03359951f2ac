/**
 * Scan sessions (issue 17): create_scan, record_scan_box, get_scans, get_scan and delete_scan over HTTP
 * on a real database, and scans in the sync pull. What a box's photo makes (problems, a Sticky Trap
 * response, the summary) is read back through the API and counted in the database, so a replay that
 * stored anything twice fails.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { scanMessages as m } from '../../common/messages/scans';
import { type ScanBoxRecord, type ScanDetailRecord, type ScanDocumentRecord, type ScanSessionRecord, trapResponseClientId } from '../../common/schemas/scans';
import type { PlantProblemRecord } from '../../common/schemas/problems';
import { clientIdOf, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { type ApiResponse, startServer, type TestServer } from '../support/server';
import { pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let otherRoomId: number;
let otherGrid: { id: number; boxIds: number[] };

/** A tiny valid PNG (1 × 1). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const photo = () => new Blob([PNG], { type: 'image/png' });

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A moment `minutes` ago, to the millisecond, as the X-Acted-At header carries it. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE_MS);
const dayOf = (moment: Date) => moment.toISOString().slice(0, 10);

const MODEL = { model_key: 'custom-leaf-classifier', model_name: 'Leaf classifier', model_version: '3' };
const COUNTER = { model_key: 'sticky-trap-counter', model_name: 'Sticky-trap counter', model_version: '1.0.0' };

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  // The built-in forms, with the Sticky Trap form a trap scan fills.
  const reset = await server.request('PUT', '/reset_all_templates', { token: farm.admin.token, json: { company_id: farm.companyId } });
  expect(reset.status).toBe(200);
  otherRoomId = await createRoom(server, other.companyId);
  otherGrid = await createGrid(server, other.companyId, otherRoomId);
});
afterAll(() => server?.close());

interface Place {
  roomId: number;
  gridId: number;
  boxIds: number[];
}

/** A room with a 3 × 2 grid of the farm. */
async function freshPlace(): Promise<Place> {
  const roomId = await createRoom(server, farm.companyId);
  const grid = await createGrid(server, farm.companyId, roomId, 3, 2);
  return { roomId, gridId: grid.id, boxIds: grid.boxIds };
}

const actedAtHeader = (actedAt?: Date): Record<string, string> => (actedAt ? { 'X-Acted-At': actedAt.toISOString() } : {});

type ScanAnswer = { scan: ScanDocumentRecord; scan_id: number; client_id: string };
type BoxAnswer = { scan_box: ScanBoxRecord; problems: PlantProblemRecord[]; form_response_id: number | null; summary: ScanSessionRecord['summary'] };

function startScan(token: string, body: Record<string, unknown>, options: { actedAt?: Date; key?: string } = {}) {
  return server.request<ScanAnswer>('POST', '/create_scan', {
    token,
    json: body,
    headers: { ...actedAtHeader(options.actedAt), ...(options.key ? { 'Idempotency-Key': options.key } : {}) },
  });
}

/** A disease scan of the place's grid by the farm's Regular user, answered 200. */
async function diseaseScan(place: Place, actedAt?: Date) {
  const response = await startScan(farm.regular.token, { client_id: randomUUID(), company_id: farm.companyId, scan_type: 'disease', room_id: place.roomId, grid_id: place.gridId, ...MODEL }, { actedAt });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

function recordBox(token: string, fields: Record<string, string | number | Blob | object>, options: { actedAt?: Date; key?: string } = {}) {
  const form: Record<string, string | number | Blob> = { image: photo() };
  for (const [name, value] of Object.entries(fields)) form[name] = value instanceof Blob || typeof value !== 'object' ? value : JSON.stringify(value);
  return server.request<BoxAnswer>('POST', '/record_scan_box', {
    token,
    form,
    headers: { ...actedAtHeader(options.actedAt), ...(options.key ? { 'Idempotency-Key': options.key } : {}) },
  });
}

const ok = <T>(response: ApiResponse<T>): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const finding = (overrides: Record<string, unknown> = {}) => ({ label: 'powdery_mildew', problem_type: 'Powdery mildew', confidence: 0.91, confirmed: true, severity: 3, ...overrides });

/** What a box's photos made, counted in the database. */
async function madeFor(gridBoxId: number) {
  const db = server.database.db;
  const count = async (table: 'plant_problems' | 'scan_boxes' | 'form_responses') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('grid_box_id', '=', gridBoxId).executeTakeFirstOrThrow()).n);
  const files = Number((await db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', farm.companyId).executeTakeFirstOrThrow()).n);
  return { problems: await count('plant_problems'), boxes: await count('scan_boxes'), responses: await count('form_responses'), files };
}

const getScan = (token: string, scanId: number | string) => server.request<{ scan: ScanDetailRecord }>('GET', '/get_scan', { token, query: { scan_id: scanId } });
const getScans = (token: string, query: Record<string, string | number>) =>
  server.request<{ scans: ScanSessionRecord[]; page: number; per_page: number; total: number }>('GET', '/get_scans', { token, query: { company_id: farm.companyId, ...query } });

describe('a disease scan', () => {
  it('records each box’s photo and findings: a confirmed finding is an unresolved problem with the photo and the model, at the act’s time', async () => {
    const place = await freshPlace();
    const scannedAt = minutesAgo(30);
    const scan = await diseaseScan(place, scannedAt);
    expect(scan.scan).toMatchObject({
      scan_id: scan.scan_id,
      client_id: scan.client_id,
      scan_type: 'disease',
      room_id: place.roomId,
      grid_id: place.gridId,
      user_id: farm.regular.id,
      model_name: 'Leaf classifier',
      model_version: '3',
      scanned_at: scannedAt.toISOString(),
      summary: { boxes: 0, findings: 0, confirmed_problems: 0, insects: null },
      boxes: [],
    });
    expect(scan.scan.user_name).toContain('Regular');
    // The walk marks the grid and its room scanned, at the scan's time, by the scanner.
    const grid = ok(await server.request<Record<string, unknown>>('GET', '/get_grid_scan_details', { token: farm.regular.token, query: { grid_id: place.gridId } }));
    expect(grid).toMatchObject({ Scanned: true, ScannedDateTime: scannedAt.toISOString(), LastScannedBy: farm.regular.id });

    const problemClientId = randomUUID();
    const firstAt = minutesAgo(29);
    const first = ok(
      await recordBox(farm.regular.token, { scan_id: scan.scan_id, client_id: randomUUID(), grid_box_id: place.boxIds[0]!, findings: [finding({ problem_client_id: problemClientId })] }, { actedAt: firstAt }),
    );
    expect(first.problems).toHaveLength(1);
    const [problem] = first.problems;
    expect(problem).toMatchObject({ grid_box_id: place.boxIds[0], problem_type: 'Powdery mildew', problem_slug: 'powdery-mildew', severity: 3, source: 'scan', status: 'unresolved', image: first.scan_box.image, observed_at: firstAt.toISOString(), user_id: farm.regular.id });
    expect(problem!.notes).toContain('Leaf classifier 3');
    const problemRow = await server.database.db.selectFrom('plant_problems').select('client_id').where('id', '=', problem!.problem_id as number).executeTakeFirstOrThrow();
    expect(problemRow.client_id).toBe(problemClientId);
    expect(first.scan_box).toMatchObject({ grid_box_id: place.boxIds[0], x: 1, y: 1, captured_at: firstAt.toISOString(), counts: null, form_response_id: null, marks: [] });
    expect(first.scan_box.findings).toEqual([{ ...finding(), problem_slug: 'powdery-mildew', problem_client_id: problemClientId }]);
    // The photo is the company's, served.
    const image = await server.request('GET', first.scan_box.image.replace(/^\/api/, ''), { token: farm.admin.token });
    expect(image.status).toBe(200);
    const open = ok(await server.request<{ problems: PlantProblemRecord[] }>('GET', '/get_unresolved_problems_for_gridbox', { token: farm.admin.token, query: { gridbox_id: place.boxIds[0]! } }));
    expect(open.problems.map((entry) => entry.problem_id)).toEqual([problem!.problem_id]);

    const second = ok(
      await recordBox(farm.regular.token, { scan_id: scan.client_id, client_id: randomUUID(), grid_box_id: place.boxIds[1]!, findings: [finding({ label: 'botrytis', problem_type: 'Botrytis', confidence: 0.4, confirmed: false })] }),
    );
    expect(second.problems).toEqual([]);
    expect((await madeFor(place.boxIds[1]!)).problems).toBe(0);
    expect(second.summary).toEqual({ boxes: 2, findings: 2, confirmed_problems: 1, insects: null });

    const detail = ok(await getScan(farm.admin.token, scan.scan_id)).scan;
    expect(detail.summary).toEqual(second.summary);
    expect(detail.boxes.map((box) => [box.grid_box_id, box.x, box.y, box.box_name, box.findings.length, box.image.startsWith('/api/files/')])).toEqual([
      [place.boxIds[0], 1, 1, null, 1, true],
      [place.boxIds[1], 2, 1, null, 1, true],
    ]);
  });

  it('stores nothing twice when a box is sent again under its client id, with its key or without', async () => {
    const place = await freshPlace();
    const scan = await diseaseScan(place);
    const boxClientId = randomUUID();
    const key = randomUUID();
    const fields = { scan_id: scan.scan_id, client_id: boxClientId, grid_box_id: place.boxIds[2]!, findings: [finding(), finding({ label: 'thrips_damage', problem_type: 'Thrips', confirmed: true, severity: null })] };
    const first = ok(await recordBox(farm.regular.token, fields, { key }));
    expect(first.problems.map((problem) => [problem.problem_type, problem.severity])).toEqual([
      ['Powdery mildew', 3],
      ['Thrips', 1],
    ]);
    const made = await madeFor(place.boxIds[2]!);
    expect(made).toMatchObject({ problems: 2, boxes: 1 });

    // The same entry replayed (its Idempotency-Key kept): the stored answer.
    const replayed = await recordBox(farm.regular.token, fields, { key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first);
    // Sent again after its key was lost, or under another key: the same box and problems, nothing new.
    for (const again of [await recordBox(farm.regular.token, fields), await recordBox(farm.regular.token, fields, { key: randomUUID() })]) {
      const body = ok(again);
      expect(body.scan_box.scan_box_id).toBe(first.scan_box.scan_box_id);
      expect(body.problems.map((problem) => problem.problem_id)).toEqual(first.problems.map((problem) => problem.problem_id));
      expect(body.summary).toEqual({ boxes: 1, findings: 2, confirmed_problems: 2, insects: null });
    }
    expect(await madeFor(place.boxIds[2]!)).toEqual(made);
    // The client id names that box of that scan: naming another box with it is refused.
    const misused = await recordBox(farm.regular.token, { ...fields, grid_box_id: place.boxIds[3]! });
    expect(misused.status).toBe(409);
    expect(misused.body).toEqual({ status: 'error', message: httpMessages.clientIdTaken });

    // A create sent again under its client id answers the same scan.
    const body = { client_id: scan.client_id, company_id: farm.companyId, scan_type: 'disease', room_id: place.roomId, grid_id: place.gridId, ...MODEL };
    const again = ok(await startScan(farm.regular.token, body));
    expect(again.scan_id).toBe(scan.scan_id);
    const scans = await server.database.db.selectFrom('scans').select('id').where('client_id', '=', scan.client_id).execute();
    expect(scans).toHaveLength(1);
    expect((await startScan(farm.regular.token, { ...body, scan_type: 'sticky_trap' })).status).toBe(409);
  });
});

describe('a sticky-trap scan', () => {
  it('fills the company’s Sticky Trap form with the counts and the photo, once, at the act’s time', async () => {
    const place = await freshPlace();
    const scannedAt = minutesAgo(45);
    const scan = ok(await startScan(farm.regular.token, { company_id: farm.companyId, scan_type: 'sticky_trap', room_id: place.roomId, grid_id: place.gridId, ...COUNTER }, { actedAt: scannedAt }));
    expect(scan.scan.summary).toEqual({ boxes: 0, findings: 0, confirmed_problems: 0, insects: { thrips: 0, whitefly_aphid: 0, gnat_fly: 0 } });
    const boxClientId = randomUUID();
    const marks = [
      { id: 'm1', x: 0.1, y: 0.2, radius: 0.01, sizeClass: 'thrips' },
      { id: 'm2', x: 0.5, y: 0.5, radius: 0.02, sizeClass: 'gnat_fly' },
    ];
    const fields = { scan_id: scan.scan_id, client_id: boxClientId, grid_box_id: place.boxIds[0]!, counts: { thrips: 12, whitefly_aphid: 5, gnat_fly: 2 }, marks };
    const recorded = ok(await recordBox(farm.regular.token, fields, { actedAt: scannedAt }));
    expect(recorded.form_response_id).toEqual(expect.any(Number));
    expect(recorded.problems).toEqual([]);
    expect(recorded.summary.insects).toEqual({ thrips: 12, whitefly_aphid: 5, gnat_fly: 2 });
    expect(recorded.scan_box).toMatchObject({ counts: { thrips: 12, whitefly_aphid: 5, gnat_fly: 2 }, marks, form_response_id: recorded.form_response_id });

    const day = dayOf(scannedAt);
    const traps = ok(
      await server.request<{ responses: Array<{ ResponseID: number; FormCategory: string; SubmittedAt: string; SubmittedBy: number; fieldResponses: Array<{ FieldName: string; InputData: string | null }>; images: unknown[] }> }>(
        'GET',
        '/get_sticky_trap_responses_grid',
        { token: farm.admin.token, query: { GridID: place.gridId, start_date: day, end_date: day } },
      ),
    );
    expect(traps.responses).toHaveLength(1);
    const [response] = traps.responses;
    expect(response).toMatchObject({ ResponseID: recorded.form_response_id, FormCategory: 'Sticky Trap', SubmittedAt: scannedAt.toISOString(), SubmittedBy: farm.regular.id });
    const answers = Object.fromEntries(response!.fieldResponses.map((answer) => [answer.FieldName, answer.InputData]));
    expect(answers).toMatchObject({ Thrips: '12', Whitefly: '5', 'Fungus gnats': '2', 'Photo of the trap': recorded.scan_box.image });
    expect(response!.images).toHaveLength(1);
    const row = await server.database.db.selectFrom('form_responses').select('client_id').where('id', '=', recorded.form_response_id!).executeTakeFirstOrThrow();
    expect(row.client_id).toBe(trapResponseClientId(boxClientId));

    // Sent again: the same response, no second one, no second photo.
    const made = await madeFor(place.boxIds[0]!);
    expect(made).toMatchObject({ boxes: 1, responses: 1 });
    const again = ok(await recordBox(farm.regular.token, fields, { actedAt: scannedAt }));
    expect(again.form_response_id).toBe(recorded.form_response_id);
    expect(await madeFor(place.boxIds[0]!)).toEqual(made);
  });
});

describe('get_scans and get_scan', () => {
  it('list the company’s scans newest first, filtered by type, room, grid and day, a page at a time', async () => {
    const place = await freshPlace();
    const second = await freshPlace();
    const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS);
    const oldest = await diseaseScan(place, threeDaysAgo);
    const middle = await diseaseScan(place, minutesAgo(20));
    const trap = ok(await startScan(farm.admin.token, { company_id: farm.companyId, scan_type: 'sticky_trap', room_id: place.roomId, grid_id: place.gridId, ...COUNTER }, { actedAt: minutesAgo(10) }));
    await diseaseScan(second, minutesAgo(5));

    const ofRoom = ok(await getScans(farm.regular.token, { room_id: place.roomId }));
    expect(ofRoom.total).toBe(3);
    expect(ofRoom.scans.map((scan) => scan.scan_id)).toEqual([trap.scan_id, middle.scan_id, oldest.scan_id]);
    expect(ofRoom.scans[0]).toMatchObject({ scan_type: 'sticky_trap', user_id: farm.admin.id, model_name: 'Sticky-trap counter', grid_id: place.gridId });
    expect(ofRoom.scans[0]!.room_name).toEqual(expect.any(String));
    expect(ofRoom.scans[0]!.grid_name).toEqual(expect.any(String));

    expect(ok(await getScans(farm.regular.token, { room_id: place.roomId, scan_type: 'sticky_trap' })).scans.map((scan) => scan.scan_id)).toEqual([trap.scan_id]);
    expect(ok(await getScans(farm.regular.token, { grid_id: second.gridId })).total).toBe(1);
    const page = ok(await getScans(farm.regular.token, { room_id: place.roomId, per_page: 2, page: 2 }));
    expect(page).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect(page.scans.map((scan) => scan.scan_id)).toEqual([oldest.scan_id]);
    const byDay = ok(await getScans(farm.regular.token, { room_id: place.roomId, start_date: dayOf(threeDaysAgo), end_date: dayOf(threeDaysAgo) }));
    expect(byDay.scans.map((scan) => scan.scan_id)).toEqual([oldest.scan_id]);

    expect((await getScans(farm.regular.token, { scan_type: 'x-ray' })).body).toEqual({ status: 'error', message: m.scanTypeInvalid });
    expect((await getScans(farm.regular.token, { start_date: '2026-03-02', end_date: '2026-03-01' })).body).toEqual({ status: 'error', message: m.dateRangeInvalid });
    expect((await getScans(farm.regular.token, { page: 0 })).body).toEqual({ status: 'error', message: m.pageInvalid });
  });

  it('get_scan names a scan by its client id too', async () => {
    const place = await freshPlace();
    const scan = await diseaseScan(place);
    expect(ok(await getScan(farm.regular.token, scan.client_id)).scan.scan_id).toBe(scan.scan_id);
  });
});

describe('refusals', () => {
  it('answers what is wrong with a scan or a box', async () => {
    const place = await freshPlace();
    const elsewhere = await freshPlace();
    const base = { company_id: farm.companyId, room_id: place.roomId, ...MODEL };
    const refused = async (response: Promise<ApiResponse>, status: number, message: string) => expect(await response).toMatchObject({ status, body: { status: 'error', message } });
    await refused(startScan(farm.regular.token, { ...base, scan_type: 'disease' }), 400, m.gridRequiredForType);
    await refused(startScan(farm.regular.token, { ...base, scan_type: 'x-ray', grid_id: place.gridId }), 400, m.scanTypeInvalid);
    await refused(startScan(farm.regular.token, { ...base, scan_type: 'disease', grid_id: place.gridId, model_name: '' }), 400, m.modelNameRequired);
    expect((await startScan(farm.regular.token, { ...base, scan_type: 'disease', grid_id: elsewhere.gridId })).status).toBe(400);

    const scan = await diseaseScan(place);
    const box = { scan_id: scan.scan_id, grid_box_id: place.boxIds[0]! };
    await refused(recordBox(farm.regular.token, { ...box, findings: 'not json' }), 400, m.findingsInvalid);
    await refused(recordBox(farm.regular.token, { ...box, findings: [finding({ problem_type: null })] }), 400, m.confirmedFindingNeedsType);
    await refused(recordBox(farm.regular.token, { ...box, findings: [finding({ confidence: 2 })] }), 400, m.findingsInvalid);
    await refused(recordBox(farm.regular.token, { ...box, marks: [{ id: 'a', x: 3, y: 0, radius: 0.1, sizeClass: 'thrips' }] }), 400, m.marksInvalid);
    await refused(recordBox(farm.regular.token, { ...box, counts: { thrips: -1 } }), 400, m.countsInvalid);
    await refused(recordBox(farm.regular.token, { ...box, grid_box_id: elsewhere.boxIds[0]! }), 400, m.boxNotInScan(elsewhere.boxIds[0]!));
    // Nothing of the refused requests was stored.
    expect(await madeFor(place.boxIds[0]!)).toMatchObject({ problems: 0, boxes: 0 });
  });

  it('answers 403 for another company’s scan, room, grid or box', async () => {
    const place = await freshPlace();
    const scan = await diseaseScan(place);
    const body = { company_id: farm.companyId, scan_type: 'disease', room_id: place.roomId, grid_id: place.gridId, ...MODEL };
    expect((await startScan(other.regular.token, body)).status).toBe(403);
    expect((await startScan(other.regular.token, { ...body, company_id: other.companyId })).status).toBe(403);
    expect((await startScan(farm.regular.token, { ...body, grid_id: otherGrid.id })).status).toBe(403);
    expect((await recordBox(other.regular.token, { scan_id: scan.scan_id, grid_box_id: place.boxIds[0]! })).status).toBe(403);
    expect((await recordBox(farm.regular.token, { scan_id: scan.scan_id, grid_box_id: otherGrid.boxIds[0]! })).status).toBe(403);
    expect((await getScan(other.regular.token, scan.scan_id)).status).toBe(403);
    expect((await getScan(other.regular.token, scan.client_id)).status).toBe(403);
    expect((await getScans(other.regular.token, {})).status).toBe(403);
    expect((await server.request('DELETE', '/delete_scan', { token: other.admin.token, query: { company_id: farm.companyId, scan_id: scan.scan_id } })).status).toBe(403);
  });
});

describe('delete_scan', () => {
  it('is an Admin’s: the scan goes with its boxes, the problems it recorded stay', async () => {
    const place = await freshPlace();
    const scan = await diseaseScan(place);
    const recorded = ok(await recordBox(farm.regular.token, { scan_id: scan.scan_id, client_id: randomUUID(), grid_box_id: place.boxIds[0]!, findings: [finding()] }));
    const query = { company_id: farm.companyId, scan_id: scan.scan_id };
    expect((await server.request('DELETE', '/delete_scan', { token: farm.regular.token, query })).status).toBe(403);
    expect((await server.request('DELETE', '/delete_scan', { token: farm.admin.token, query })).body).toEqual({ status: 'success', message: m.scanDeleted });

    const box = await server.database.db.selectFrom('scan_boxes').select('deleted_at').where('id', '=', recorded.scan_box.scan_box_id as number).executeTakeFirstOrThrow();
    expect(box.deleted_at).not.toBeNull();
    expect((await getScan(farm.regular.token, scan.scan_id)).status).toBe(404);
    expect(ok(await getScans(farm.regular.token, { room_id: place.roomId })).total).toBe(0);
    const open = ok(await server.request<{ problems: PlantProblemRecord[] }>('GET', '/get_unresolved_problems_for_gridbox', { token: farm.admin.token, query: { gridbox_id: place.boxIds[0]! } }));
    expect(open.problems.map((problem) => problem.problem_id)).toEqual(recorded.problems.map((problem) => problem.problem_id));
    const events = await server.database.db.selectFrom('audit_events').select(['event_title', 'details']).where('company_id', '=', farm.companyId).where('event_title', '=', `Deleted scan ${scan.scan_id}`).execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toMatchObject({ boxes: 1 });
  });
});

describe('the operations collection', () => {
  it('carries scans with their boxes (without marks) as kind scan, named by client ids for tablets', async () => {
    const place = await freshPlace();
    const scan = ok(await startScan(farm.regular.token, { client_id: randomUUID(), company_id: farm.companyId, scan_type: 'sticky_trap', room_id: place.roomId, grid_id: place.gridId, ...COUNTER }));
    const boxClientId = randomUUID();
    const recorded = ok(
      await recordBox(farm.regular.token, {
        scan_id: scan.client_id,
        client_id: boxClientId,
        grid_box_id: await clientIdOf(server, 'grid_boxes', place.boxIds[4]!),
        counts: { thrips: 3 },
        marks: [{ id: 'm1', x: 0.3, y: 0.3, radius: 0.01, sizeClass: 'thrips' }],
      }),
    );
    expect(recorded.scan_box.grid_box_id).toBe(place.boxIds[4]);
    const pulled = await pullUntil<ScanDocumentRecord & { id: string; kind: string; serverId: number; _deleted: boolean }>(
      server,
      farm.regular.token,
      'operations',
      (documents) => (documents.get(scan.client_id)?.boxes.length ?? 0) > 0,
      'client',
    );
    const document = pulled.get(scan.client_id);
    const [roomClientId, gridClientId, boxClientIdOfGrid] = [await clientIdOf(server, 'rooms', place.roomId), await clientIdOf(server, 'grids', place.gridId), await clientIdOf(server, 'grid_boxes', place.boxIds[4]!)];
    expect(document).toMatchObject({ id: scan.client_id, kind: 'scan', serverId: scan.scan_id, scan_id: scan.client_id, room_id: roomClientId, grid_id: gridClientId, scan_type: 'sticky_trap', _deleted: false });
    expect(document!.summary.insects).toEqual({ thrips: 3, whitefly_aphid: 0, gnat_fly: 0 });
    expect(document!.boxes).toHaveLength(1);
    expect(document!.boxes[0]).toMatchObject({ scan_box_id: boxClientId, client_id: boxClientId, scan_id: scan.client_id, grid_box_id: boxClientIdOfGrid, form_response_id: trapResponseClientId(boxClientId), counts: { thrips: 3, whitefly_aphid: 0, gnat_fly: 0 } });
    expect(document!.boxes[0]).not.toHaveProperty('marks');
    // Only the company's own tablets get it.
    const elsewhere = await pullUntil(server, other.regular.token, 'operations', () => true, 'client');
    expect(elsewhere.has(scan.client_id)).toBe(false);

    // Deleted, it comes as its tombstone.
    expect((await server.request('DELETE', '/delete_scan', { token: farm.admin.token, query: { company_id: farm.companyId, scan_id: scan.scan_id } })).status).toBe(200);
    const after = await pullUntil<{ id: string; _deleted: boolean }>(server, farm.regular.token, 'operations', (documents) => documents.get(scan.client_id)?._deleted === true, 'client');
    expect(after.get(scan.client_id)).toMatchObject({ _deleted: true });
  });
});
