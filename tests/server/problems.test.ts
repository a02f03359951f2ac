import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROBLEM_COLOR, PROBLEM_ACTION_NAMES, defaultProblemAbbreviation, problemMessages as m } from '../../common/messages/problems';
import { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS } from '../../common/plant-problems';
import type { CustomSolutionRecord, PlantProblemRecord, ProblemColorMappingRecord } from '../../common/schemas/problems';
import { systemActor, writer } from '../../server/db/writes';
import { clientIdOf, createBatch, createGrid, createRoom, createSuperAdmin, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullSettled, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let gridId: number;
let boxes: number[];
let otherBoxes: number[];

/** The catalogue's content is being written: tests rely only on what its types guarantee. */
const catalogued = CATALOGUE[0]!;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  ({ id: gridId, boxIds: boxes } = await createGrid(server, farm.companyId, roomId, 3, 2));
  ({ boxIds: otherBoxes } = await createGrid(server, other.companyId, await createRoom(server, other.companyId), 2, 1));
});
afterAll(() => server.close());

type Fields = Record<string, unknown>;
/** The client sends JSON bodies; `form` and `query` check the other ways the fields may come. */
const send = (method: string, path: string, token: string, fields: Fields = {}, way: 'json' | 'form' | 'query' = 'json', headers?: Record<string, string>) => {
  const options: RequestOptions = { token, ...(headers ? { headers } : {}) };
  if (way === 'json') options.json = fields;
  else if (way === 'form') options.form = fields as Record<string, string | number | Blob>;
  else options.query = fields as Record<string, string | number>;
  return server.request(method, path, options);
};
const get = (path: string, token: string, query: Record<string, string | number> = {}) => server.request('GET', path, { token, query });

const error = (message: string) => ({ status: 'error', message });

const auditEvents = (companyId: number, title: string) =>
  server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).execute();

/** A problem as these calls answer it: named by the server's integer ids. */
type Problem = Omit<PlantProblemRecord, 'problem_id'> & { problem_id: number };
type Manage = { action: string; problem_status: string; changed_count: number; problems: Problem[] };

const problemFields = (user: SignedInUser, box: number, fields: Fields = {}) => ({ GridBoxID: box, problem_type: 'Root rot', severity: 3, user_id: user.id, ...fields });

async function newProblem(user: SignedInUser, box: number, fields: Fields = {}, headers?: Record<string, string>) {
  const response = await send('POST', '/create_gridbox_problem', user.token, problemFields(user, box, fields), 'json', headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.problem as Problem;
}

/** A room with one grid of its own, so counts are this test's alone. */
async function freshRoom(tenant: Tenant = farm, nx = 2, ny = 2) {
  const room = await createRoom(server, tenant.companyId);
  const grid = await createGrid(server, tenant.companyId, room, nx, ny);
  return { roomId: room, gridId: grid.id, boxes: grid.boxIds };
}

const statusOf = async (id: number) => (await server.database.db.selectFrom('plant_problems').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

/** A tiny valid PNG (1 × 1). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('create_gridbox_problem', () => {
  it('records a problem on a box at the act’s time, names the catalogue entry its type names, and audits it', async () => {
    const observedAt = new Date(Date.now() - 3 * 3_600_000);
    const response = await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[0]!, { problem_type: catalogued.name.toUpperCase(), severity: '4', notes: '  under the leaves ' }), 'json', {
      'X-Acted-At': observedAt.toISOString(),
    });
    expect(response.status).toBe(200);
    const problem = response.body.problem as Problem;
    expect(response.body).toMatchObject({ status: 'success', message: m.problemRecorded, problem_id: problem.problem_id, client_id: expect.any(String) });
    expect(problem).toMatchObject({
      company_id: farm.companyId,
      room_id: roomId,
      grid_id: gridId,
      grid_box_id: boxes[0],
      sub_gridbox_id: null,
      problem_type: catalogued.name.toUpperCase(),
      problem_slug: catalogued.slug,
      severity: 4,
      notes: 'under the leaves',
      image: null,
      source: 'manual',
      user_id: farm.regular.id,
      observed_at: observedAt.toISOString(),
      status: 'unresolved',
      status_at: null,
      status_by: null,
    });
    const events = await auditEvents(farm.companyId, `Recorded ${catalogued.name.toUpperCase()} (severity 4) on box 1,1`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id, room_id: roomId, grid_box_id: boxes[0] });
  });

  it('keeps a company’s own problem type without a slug, names the box by client id and keeps the tablet’s client id', async () => {
    const clientId = randomUUID();
    const boxClientId = await clientIdOf(server, 'grid_boxes', boxes[1]!);
    const response = await send('POST', '/create_gridbox_problem', farm.regular.token, { ...problemFields(farm.regular, boxes[1]!, { problem_type: 'Leaf curl (our own)', severity: 1.5 }), GridBoxID: boxClientId, client_id: clientId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ client_id: clientId, problem: { grid_box_id: boxes[1], problem_slug: null, severity: 1.5, problem_type: 'Leaf curl (our own)' } });
  });

  it('takes a slug or a catalogue id as the slug, and refuses one the catalogue does not hold', async () => {
    expect(await newProblem(farm.regular, boxes[2]!, { problem_type: 'Mites?', problem_slug: catalogued.slug })).toMatchObject({ problem_slug: catalogued.slug });
    expect(await newProblem(farm.regular, boxes[2]!, { problem_type: 'Mites?', problem_slug: String(catalogued.id) })).toMatchObject({ problem_slug: catalogued.slug });
    const unknown = await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[2]!, { problem_slug: 'no-such-problem' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(error(m.unknownSlug('no-such-problem')));
  });

  it('takes a multipart form with a photo, and refuses a file that is not an image', async () => {
    const response = await send('POST', '/create_gridbox_problem', farm.regular.token, { ...problemFields(farm.regular, boxes[3]!), image: new Blob([PNG], { type: 'image/png' }) }, 'form');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const problem = response.body.problem as Problem;
    expect(problem.image).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    const photo = await server.request('GET', problem.image!.slice('/api'.length), { token: farm.regular.token });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    const notImage = await send('POST', '/create_gridbox_problem', farm.regular.token, { ...problemFields(farm.regular, boxes[3]!), image: new Blob(['not an image'], { type: 'image/png' }) }, 'form');
    expect(notImage.status).toBe(415);
    const withoutPhoto = await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[3]!, { severity: '2' }), 'form');
    expect(withoutPhoto.body).toMatchObject({ status: 'success', problem: { image: null, severity: 2 } });
  });

  it('records a problem on a plant of the box; a sub-gridbox of another box is refused', async () => {
    const divided = await send('POST', '/create_sub_gridboxes', farm.regular.token, { parent_gridbox_id: boxes[4]!, user_id: farm.regular.id, nx: 1, ny: 1 }, 'query');
    expect(divided.status).toBe(200);
    const sub = (divided.body.sub_gridboxes as Array<{ Sub_gridboxID: number }>)[0]!.Sub_gridboxID;
    expect(await newProblem(farm.regular, boxes[4]!, { sub_gridbox_id: sub })).toMatchObject({ grid_box_id: boxes[4], sub_gridbox_id: sub });
    expect((await auditEvents(farm.companyId, 'Recorded Root rot (severity 3) on a plant of box 2,2')).length).toBeGreaterThan(0);
    const elsewhere = await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[5]!, { sub_gridbox_id: sub }));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual(error(m.subGridboxNotInBox));
  });

  it.each([
    [{ GridBoxID: undefined }, m.createFieldsMissing],
    [{ problem_type: undefined }, m.createFieldsMissing],
    [{ problem_type: '  ' }, m.createFieldsMissing],
    [{ severity: undefined }, m.createFieldsMissing],
    [{ severity: 'high' }, m.createFieldsMissing],
    [{ user_id: undefined }, m.createFieldsMissing],
    [{ severity: 0 }, m.severityRange],
    [{ severity: 5.5 }, m.severityRange],
    [{ severity: -1 }, m.severityRange],
  ])('answers %o with "%s"', async (fields, message) => {
    const response = await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[0]!, fields));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 for another company’s box or plant, and for another user’s name; 404 for a deleted box', async () => {
    expect((await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, otherBoxes[0]!))).status).toBe(403);
    expect((await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.admin, boxes[0]!))).status).toBe(403);
    const otherSub = await send('POST', '/create_sub_gridboxes', other.regular.token, { parent_gridbox_id: otherBoxes[1]!, user_id: other.regular.id, nx: 1, ny: 1 }, 'query');
    const sub = (otherSub.body.sub_gridboxes as Array<{ Sub_gridboxID: number }>)[0]!.Sub_gridboxID;
    expect((await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, boxes[0]!, { sub_gridbox_id: sub }))).status).toBe(403);
    const place = await freshRoom();
    await writer(server.database.db, systemActor(farm.companyId)).softDeleteWhere('grid_boxes', 'grid_id', [place.gridId]);
    expect((await send('POST', '/create_gridbox_problem', farm.regular.token, problemFields(farm.regular, place.boxes[0]!))).status).toBe(404);
    const mine = await server.database.db.selectFrom('plant_problems').select('id').where('grid_box_id', 'in', [otherBoxes[0]!, place.boxes[0]!]).execute();
    expect(mine).toHaveLength(0);
  });

  it('records a repeated request (same Idempotency-Key) once and answers it the same', async () => {
    const place = await freshRoom();
    const key = randomUUID();
    const fields = problemFields(farm.regular, place.boxes[0]!);
    const first = await send('POST', '/create_gridbox_problem', farm.regular.token, fields, 'json', { 'Idempotency-Key': key });
    const second = await send('POST', '/create_gridbox_problem', farm.regular.token, fields, 'json', { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const rows = await server.database.db.selectFrom('plant_problems').select('id').where('grid_box_id', '=', place.boxes[0]!).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the readers of unresolved problems', () => {
  it('by box: the open problems (unresolved and treated), oldest first', async () => {
    const place = await freshRoom();
    const [a, b, c] = [
      await newProblem(farm.regular, place.boxes[0]!, { problem_type: 'Thrips' }, { 'X-Acted-At': new Date(Date.now() - 60_000).toISOString() }),
      await newProblem(farm.regular, place.boxes[0]!, { problem_type: 'Aphids' }),
      await newProblem(farm.regular, place.boxes[0]!, { problem_type: 'Botrytis' }),
    ];
    await send('POST', '/manage_problem', farm.regular.token, { problemID: b!.problem_id, action: 'treat', userID: farm.regular.id });
    await send('POST', '/manage_problem', farm.regular.token, { problemID: c!.problem_id, action: 'resolve', userID: farm.regular.id });
    const response = await get('/get_unresolved_problems_for_gridbox', farm.regular.token, { gridbox_id: place.boxes[0]! });
    expect(response.status).toBe(200);
    expect(response.body.GridBoxID).toBe(place.boxes[0]);
    expect((response.body.problems as Problem[]).map((problem) => [problem.problem_id, problem.status])).toEqual([
      [a!.problem_id, 'unresolved'],
      [b!.problem_id, 'treated'],
    ]);
  });

  it('by grid: the boxes with open problems (GridBoxID, X, Y, CustomName), row by row', async () => {
    const place = await freshRoom(farm, 2, 2);
    await send('POST', '/update_grid_box_name', farm.regular.token, { GridBoxID: place.boxes[3]!, custom_name: 'Mother 4' });
    await newProblem(farm.regular, place.boxes[3]!, { problem_type: 'Thrips' });
    await newProblem(farm.regular, place.boxes[3]!, { problem_type: 'Thrips' });
    await newProblem(farm.regular, place.boxes[0]!, { problem_type: 'Aphids' });
    const response = await get('/get_unresolved_problems_for_grid', farm.regular.token, { grid_id: place.gridId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', GridID: place.gridId, total: 3 });
    const found = response.body.Boxes as Array<{ GridBoxID: number; X: number; Y: number; CustomName: string | null; problems: Problem[] }>;
    expect(found.map((box) => [box.GridBoxID, box.X, box.Y, box.CustomName, box.problems.length])).toEqual([
      [place.boxes[0], 1, 1, null, 1],
      [place.boxes[3], 2, 2, 'Mother 4', 2],
    ]);
  });

  it('by room: its grids with their Boxes and the counts per type (without case)', async () => {
    const room = await createRoom(server, farm.companyId);
    const first = await createGrid(server, farm.companyId, room, 2, 1);
    const second = await createGrid(server, farm.companyId, room, 1, 1);
    await createGrid(server, farm.companyId, room, 1, 1);
    await newProblem(farm.regular, first.boxIds[0]!, { problem_type: 'Thrips' });
    await newProblem(farm.regular, first.boxIds[1]!, { problem_type: 'thrips' });
    await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'Aphids' });
    const closed = await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'Aphids' });
    await send('POST', '/manage_problem', farm.regular.token, { problemID: closed.problem_id, action: 'dismiss', userID: farm.regular.id });
    const response = await get('/get_unresolved_problems_for_room', farm.regular.token, { room_id: room });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      RoomID: room,
      total: 3,
      counts: [
        { problem_type: 'Thrips', count: 2 },
        { problem_type: 'Aphids', count: 1 },
      ],
    });
    const grids = response.body.grids as Array<{ GridID: number; Name: string; Boxes: Array<{ GridBoxID: number }> }>;
    expect(grids.map((grid) => [grid.GridID, grid.Boxes.map((box) => box.GridBoxID)])).toEqual([
      [first.id, first.boxIds],
      [second.id, second.boxIds],
    ]);
    expect(grids[0]!.Name).toEqual(expect.any(String));
  });

  it('by type: in a room or a grid (the type without case)', async () => {
    const room = await createRoom(server, farm.companyId);
    const first = await createGrid(server, farm.companyId, room, 1, 1);
    const second = await createGrid(server, farm.companyId, room, 1, 1);
    const a = await newProblem(farm.regular, first.boxIds[0]!, { problem_type: 'Fungus gnats' });
    const b = await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'FUNGUS GNATS' });
    await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'Aphids' });
    const inRoom = await get('/get_unresolved_problems_by_type', farm.regular.token, { problemType: 'fungus gnats', roomID: room });
    expect(inRoom.status).toBe(200);
    expect(inRoom.body).toMatchObject({ problemType: 'fungus gnats', RoomID: room, GridID: null, total: 2 });
    expect((inRoom.body.problems as Problem[]).map((problem) => problem.problem_id)).toEqual([a.problem_id, b.problem_id]);
    const inGrid = await get('/get_unresolved_problems_by_type', farm.regular.token, { problemType: 'Fungus gnats', gridID: second.id });
    expect(inGrid.body).toMatchObject({ RoomID: null, GridID: second.id, total: 1, problems: [{ problem_id: b.problem_id }] });
  });

  it('the grid’s circles: per box and type, the company’s colour and abbreviation, else the catalogue’s, else the defaults', async () => {
    const tenant = await createTenant(server);
    const place = await freshRoom(tenant, 2, 1);
    await newProblem(tenant.regular, place.boxes[0]!, { problem_type: 'Powdery mildew' });
    await newProblem(tenant.regular, place.boxes[0]!, { problem_type: 'powdery MILDEW' });
    await newProblem(tenant.regular, place.boxes[0]!, { problem_type: catalogued.name });
    await newProblem(tenant.regular, place.boxes[1]!, { problem_type: 'Leaf curl' });
    expect((await send('POST', '/map_problem_color', tenant.admin.token, { company_id: tenant.companyId, problem: 'POWDERY mildew', Color: '#ffffff', Abbreviation: 'PM' }, 'form')).status).toBe(200);
    const response = await get('/get_unresolved_problems_for_grid_circles', tenant.regular.token, { grid_id: place.gridId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      GridID: place.gridId,
      Boxes: [
        {
          GridBoxID: place.boxes[0],
          X: 1,
          Y: 1,
          circles: [
            { problem_type: 'Powdery mildew', count: 2, color: '#ffffff', abbreviation: 'PM' },
            { problem_type: catalogued.name, count: 1, color: DEFAULT_PROBLEM_COLOR, abbreviation: catalogued.abbreviation },
          ],
        },
        { GridBoxID: place.boxes[1], X: 2, Y: 1, circles: [{ problem_type: 'Leaf curl', count: 1, color: DEFAULT_PROBLEM_COLOR, abbreviation: defaultProblemAbbreviation('Leaf curl') }] },
      ],
    });
    expect(defaultProblemAbbreviation('Leaf curl')).toBe('LC');
  });

  it('answer the messages without their ids, 403 for another company’s, 404 for a deleted grid', async () => {
    expect((await get('/get_unresolved_problems_for_gridbox', farm.regular.token)).body).toEqual(error(m.gridboxIdRequired));
    expect((await get('/get_unresolved_problems_for_grid', farm.regular.token)).body).toEqual(error(m.gridIdRequired));
    expect((await get('/get_unresolved_problems_for_grid_circles', farm.regular.token)).body).toEqual(error(m.gridIdRequired));
    expect((await get('/get_unresolved_problems_for_room', farm.regular.token)).body).toEqual(error(m.roomIdRequired));
    expect((await get('/get_unresolved_problems_by_type', farm.regular.token, { roomID: roomId })).body).toEqual(error(m.problemTypeRequired));
    expect((await get('/get_unresolved_problems_by_type', farm.regular.token, { problemType: 'Thrips' })).body).toEqual(error(m.roomOrGridRequired));
    const theirs = await freshRoom(other);
    expect((await get('/get_unresolved_problems_for_gridbox', farm.regular.token, { gridbox_id: theirs.boxes[0]! })).status).toBe(403);
    expect((await get('/get_unresolved_problems_for_grid', farm.regular.token, { grid_id: theirs.gridId })).status).toBe(403);
    expect((await get('/get_unresolved_problems_for_grid_circles', farm.regular.token, { grid_id: theirs.gridId })).status).toBe(403);
    expect((await get('/get_unresolved_problems_for_room', farm.regular.token, { room_id: theirs.roomId })).status).toBe(403);
    expect((await get('/get_unresolved_problems_by_type', farm.regular.token, { problemType: 'Thrips', roomID: theirs.roomId })).status).toBe(403);
    expect((await get('/get_unresolved_problems_by_type', farm.regular.token, { problemType: 'Thrips', gridID: theirs.gridId })).status).toBe(403);
    const gone = await freshRoom();
    expect((await send('PUT', '/delete_grid', farm.admin.token, { grid_id: gone.gridId }, 'query')).status).toBe(200);
    expect((await get('/get_unresolved_problems_for_grid', farm.regular.token, { grid_id: gone.gridId })).status).toBe(404);
  });

  it('answers a room of 2,000 boxes with 20,000 problems over 12 weeks (most resolved) from the index of open problems', async () => {
    const tenant = await createTenant(server);
    const room = await createRoom(server, tenant.companyId);
    const grids = [];
    for (let index = 0; index < 5; index += 1) grids.push(await createGrid(server, tenant.companyId, room, 20, 20));
    const boxIds = grids.flatMap((grid) => grid.boxIds);
    const gridOfBox = new Map(grids.flatMap((grid) => grid.boxIds.map((box) => [box, grid.id] as const)));
    // Ten problems a box over 12 weeks; one in ten still open (unresolved or treated).
    const rows = boxIds.flatMap((box, boxIndex) =>
      Array.from({ length: 10 }, (_, index) => {
        const open = (boxIndex + index) % 10 === 0;
        return {
          company_id: tenant.companyId,
          room_id: room,
          grid_id: gridOfBox.get(box)!,
          grid_box_id: box,
          sub_gridbox_id: null,
          problem_type: ['Thrips', 'Aphids', 'Powdery mildew'][index % 3]!,
          problem_slug: null,
          severity: 1 + (index % 5),
          notes: null,
          image_name: null,
          form_response_id: null,
          user_id: tenant.regular.id,
          observed_at: new Date(Date.now() - (index * 8 + 1) * 86_400_000),
          status: open ? (index % 2 === 0 ? ('unresolved' as const) : ('treated' as const)) : ('resolved' as const),
          status_at: null,
          status_by: null,
        };
      }),
    );
    await writer(server.database.db, systemActor(tenant.companyId)).insertMany('plant_problems', rows);
    const open = rows.filter((row) => row.status !== 'resolved');
    const response = await get('/get_unresolved_problems_for_room', tenant.regular.token, { room_id: room });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(open.length);
    const grouped = response.body.grids as Array<{ GridID: number; Boxes: Array<{ problems: Problem[] }> }>;
    expect(grouped.map((grid) => grid.GridID)).toEqual(grids.map((grid) => grid.id));
    expect(grouped.flatMap((grid) => grid.Boxes.flatMap((box) => box.problems)).every((problem) => problem.status !== 'resolved')).toBe(true);
    const counted = (response.body.counts as Array<{ count: number }>).reduce((sum, entry) => sum + entry.count, 0);
    expect(counted).toBe(open.length);
    // The plan reads a partial index of open problems (of the room, or of its grids), not the room's 20,000 rows.
    await sql`ANALYZE plant_problems`.execute(server.database.db);
    const { rows: plan } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT * FROM plant_problems WHERE plant_problems.status IN ('unresolved', 'treated') AND deleted_at IS NULL AND room_id = ${room}`.execute(
      server.database.db,
    );
    const steps = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(steps).toMatch(/Index Scan using plant_problems_open_(room|grid)/);
    expect(steps).not.toContain('Seq Scan');
  });
});

describe('the actions on problems', () => {
  it('exports one set of actions', () => {
    expect(PROBLEM_ACTION_NAMES).toEqual(['resolve', 'dismiss', 'treat', 'reopen']);
  });

  it('manage_problem resolves one problem at the act’s time, by the caller, and audits it; again it changes nothing', async () => {
    const place = await freshRoom();
    const problem = await newProblem(farm.regular, place.boxes[0]!);
    const resolvedAt = new Date(Date.now() - 30 * 60_000);
    const response = await send('POST', '/manage_problem', farm.regular.token, { problemID: problem.problem_id, action: 'Resolve', userID: farm.regular.id }, 'form', { 'X-Acted-At': resolvedAt.toISOString() });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.problemsChanged(1, 'resolve'), action: 'resolve', problem_status: 'resolved', changed_count: 1 });
    expect((response.body as Manage).problems).toEqual([expect.objectContaining({ problem_id: problem.problem_id, status: 'resolved', status_at: resolvedAt.toISOString(), status_by: farm.regular.id })]);
    const events = await auditEvents(farm.companyId, `Resolved 1 problem(s) (Root rot) on box ${place.boxes[0]}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ room_id: place.roomId, grid_box_id: place.boxes[0] });
    const again = await send('POST', '/manage_problem', farm.regular.token, { problemID: problem.problem_id, action: 'resolve', userID: farm.regular.id });
    expect(again.body).toMatchObject({ status: 'success', changed_count: 0, problems: [] });
    expect(await auditEvents(farm.companyId, `Resolved 1 problem(s) (Root rot) on box ${place.boxes[0]}`)).toHaveLength(1);
  });

  it('manage_problem: treat keeps a problem open, dismiss closes it, reopen opens a closed one; by client id too', async () => {
    const place = await freshRoom();
    const clientId = randomUUID();
    const problem = await newProblem(farm.regular, place.boxes[0]!, { client_id: clientId });
    const act = async (action: string) => (await send('POST', '/manage_problem', farm.admin.token, { problemID: clientId, action, userID: farm.admin.id }, 'query')).body as Manage;
    expect(await act('treat')).toMatchObject({ problem_status: 'treated', changed_count: 1 });
    expect(await act('treat')).toMatchObject({ changed_count: 0 });
    expect(await act('reopen')).toMatchObject({ changed_count: 0 });
    expect(await act('dismiss')).toMatchObject({ problem_status: 'dismissed', changed_count: 1 });
    expect(await act('reopen')).toMatchObject({ problem_status: 'unresolved', changed_count: 1, problems: [{ problem_id: problem.problem_id, status: 'unresolved', status_by: farm.admin.id }] });
  });

  it('manage_problem: the messages, an unknown action, 403 for another company’s problem or user, a repeat once', async () => {
    const problem = await newProblem(farm.regular, boxes[5]!);
    const manage = (fields: Fields, token = farm.regular.token) => send('POST', '/manage_problem', token, { problemID: problem.problem_id, action: 'resolve', userID: farm.regular.id, ...fields });
    for (const missing of ['problemID', 'action', 'userID']) expect((await manage({ [missing]: undefined })).body).toEqual(error(m.manageFieldsMissing));
    const unknown = await manage({ action: 'delete' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(error(m.unknownAction));
    expect(m.unknownAction).toBe('Action must be one of: resolve, dismiss, treat, reopen.');
    const theirs = await newProblem(other.regular, otherBoxes[0]!);
    expect((await manage({ problemID: theirs.problem_id })).status).toBe(403);
    expect((await manage({ userID: farm.admin.id })).status).toBe(403);
    expect(await statusOf(theirs.problem_id)).toBe('unresolved');
    expect(await statusOf(problem.problem_id)).toBe('unresolved');
    const key = randomUUID();
    const first = await send('POST', '/manage_problem', farm.regular.token, { problemID: problem.problem_id, action: 'resolve', userID: farm.regular.id }, 'json', { 'Idempotency-Key': key });
    const second = await send('POST', '/manage_problem', farm.regular.token, { problemID: problem.problem_id, action: 'resolve', userID: farm.regular.id }, 'json', { 'Idempotency-Key': key });
    expect(first.body).toMatchObject({ changed_count: 1 });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('manage_problems_by_type_room and _grid act on one type (without case) in their room or grid only', async () => {
    const room = await createRoom(server, farm.companyId);
    const first = await createGrid(server, farm.companyId, room, 2, 1);
    const second = await createGrid(server, farm.companyId, room, 1, 1);
    const elsewhere = await freshRoom();
    const thripsA = await newProblem(farm.regular, first.boxIds[0]!, { problem_type: 'Thrips' });
    const thripsB = await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'thrips' });
    const aphids = await newProblem(farm.regular, first.boxIds[1]!, { problem_type: 'Aphids' });
    const thripsElsewhere = await newProblem(farm.regular, elsewhere.boxes[0]!, { problem_type: 'Thrips' });
    const inGrid = await send('POST', '/manage_problems_by_type_grid', farm.regular.token, { gridID: second.id, problemType: 'THRIPS', action: 'treat', userID: farm.regular.id });
    expect(inGrid.body).toMatchObject({ changed_count: 1, problems: [{ problem_id: thripsB.problem_id, status: 'treated' }] });
    const inRoom = await send('POST', '/manage_problems_by_type_room', farm.regular.token, { roomID: room, problemType: 'Thrips', action: 'resolve', userID: farm.regular.id });
    expect(inRoom.status).toBe(200);
    expect((inRoom.body as Manage).problems.map((problem) => problem.problem_id).sort()).toEqual([thripsA.problem_id, thripsB.problem_id].sort());
    expect(await statusOf(aphids.problem_id)).toBe('unresolved');
    expect(await statusOf(thripsElsewhere.problem_id)).toBe('unresolved');
    const roomName = (await server.database.db.selectFrom('rooms').select('name').where('id', '=', room).executeTakeFirstOrThrow()).name;
    expect(await auditEvents(farm.companyId, `Resolved 2 problem(s) of type Thrips in room ${roomName}`)).toHaveLength(1);
  });

  it('update_unresolved_problems_for_grid and _room act on every open problem; reopen on the closed ones', async () => {
    const room = await createRoom(server, farm.companyId);
    const first = await createGrid(server, farm.companyId, room, 2, 1);
    const second = await createGrid(server, farm.companyId, room, 1, 1);
    const a = await newProblem(farm.regular, first.boxIds[0]!, { problem_type: 'Thrips' });
    const b = await newProblem(farm.regular, first.boxIds[1]!, { problem_type: 'Aphids' });
    const c = await newProblem(farm.regular, second.boxIds[0]!, { problem_type: 'Aphids' });
    const gridAll = await send('POST', '/update_unresolved_problems_for_grid', farm.regular.token, { gridID: first.id, action: 'dismiss', userID: farm.regular.id }, 'form');
    expect(gridAll.body).toMatchObject({ problem_status: 'dismissed', changed_count: 2 });
    expect(await statusOf(c.problem_id)).toBe('unresolved');
    const roomAll = await send('POST', '/update_unresolved_problems_for_room', farm.regular.token, { roomID: room, action: 'resolve', userID: farm.regular.id });
    expect(roomAll.body).toMatchObject({ changed_count: 1, problems: [{ problem_id: c.problem_id, status: 'resolved' }] });
    const reopened = await send('POST', '/update_unresolved_problems_for_room', farm.regular.token, { roomID: room, action: 'reopen', userID: farm.regular.id });
    expect(reopened.body).toMatchObject({ changed_count: 3 });
    for (const problem of [a, b, c]) expect(await statusOf(problem.problem_id)).toBe('unresolved');
  });

  it('the bulk calls answer their messages, an unknown action, and 403 for another company’s room or grid', async () => {
    const theirs = await freshRoom(other);
    const theirProblem = await newProblem(other.regular, theirs.boxes[0]!);
    const cases: Array<[string, Fields, string]> = [
      ['/manage_problems_by_type_room', { roomID: roomId, problemType: 'Thrips' }, m.byTypeRoomFieldsMissing],
      ['/manage_problems_by_type_grid', { gridID: gridId, problemType: 'Thrips' }, m.byTypeGridFieldsMissing],
      ['/update_unresolved_problems_for_grid', { gridID: gridId }, m.gridActionFieldsMissing],
      ['/update_unresolved_problems_for_room', { roomID: roomId }, m.roomActionFieldsMissing],
    ];
    for (const [path, place, message] of cases) {
      const fields = { ...place, action: 'resolve', userID: farm.regular.id };
      for (const missing of Object.keys(fields)) expect((await send('POST', path, farm.regular.token, { ...fields, [missing]: '' })).body, `${path} without ${missing}`).toEqual(error(message));
      expect((await send('POST', path, farm.regular.token, { ...fields, action: 'fix' })).body).toEqual(error(m.unknownAction));
      const foreign = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, key === 'roomID' ? theirs.roomId : key === 'gridID' ? theirs.gridId : value]));
      expect((await send('POST', path, farm.regular.token, foreign)).status, path).toBe(403);
    }
    expect(await statusOf(theirProblem.problem_id)).toBe('unresolved');
  });
});

describe('grid/resolve_batch_problem', () => {
  it('resolves the open problems on the batch’s boxes: on boxes and on plants counted apart, narrowed by type and rooms', async () => {
    const first = await freshRoom(farm, 2, 1);
    const second = await freshRoom(farm, 1, 1);
    const batchId = await createBatch(server, farm.companyId);
    const linked = await send('POST', '/link_gridbox_batch', farm.regular.token, { batch_id: batchId, grid_box_ids: [first.boxes[0]!, second.boxes[0]!] });
    expect(linked.status).toBe(200);
    const divided = await send('POST', '/create_sub_gridboxes', farm.regular.token, { parent_gridbox_id: first.boxes[0]!, user_id: farm.regular.id, nx: 1, ny: 1 }, 'query');
    const sub = (divided.body.sub_gridboxes as Array<{ Sub_gridboxID: number }>)[0]!.Sub_gridboxID;
    const onBox = await newProblem(farm.regular, first.boxes[0]!, { problem_type: 'Botrytis' });
    const onPlant = await newProblem(farm.regular, first.boxes[0]!, { problem_type: 'botrytis', sub_gridbox_id: sub });
    const otherType = await newProblem(farm.regular, first.boxes[0]!, { problem_type: 'Aphids' });
    const unlinked = await newProblem(farm.regular, first.boxes[1]!, { problem_type: 'Botrytis' });
    const otherRoom = await newProblem(farm.regular, second.boxes[0]!, { problem_type: 'Botrytis' });
    const resolvedAt = new Date(Date.now() - 10 * 60_000);
    const response = await send('POST', '/grid/resolve_batch_problem', farm.regular.token, { batch_id: batchId, user_id: farm.regular.id, problem_type: 'BOTRYTIS', room_ids: String(first.roomId) }, 'json', {
      'X-Acted-At': resolvedAt.toISOString(),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ problems_resolved: 0, gridbox_problems_resolved: 1, plant_problems_resolved: 1, rooms_affected: [first.roomId] });
    for (const problem of [onBox, onPlant]) {
      expect(await server.database.db.selectFrom('plant_problems').select(['status', 'status_at', 'status_by']).where('id', '=', problem.problem_id).executeTakeFirstOrThrow()).toEqual({
        status: 'resolved',
        status_at: resolvedAt,
        status_by: farm.regular.id,
      });
    }
    for (const problem of [otherType, unlinked, otherRoom]) expect(await statusOf(problem.problem_id)).toBe('unresolved');
    // Without a type or rooms: every open problem on the batch's boxes.
    const all = await send('POST', '/grid/resolve_batch_problem', farm.regular.token, { batch_id: batchId, user_id: farm.regular.id });
    expect(all.body).toMatchObject({ gridbox_problems_resolved: 2, plant_problems_resolved: 0 });
    expect((all.body.rooms_affected as number[]).sort()).toEqual([first.roomId, second.roomId].sort());
    expect(await statusOf(unlinked.problem_id)).toBe('unresolved');
  });
});

describe('problem colours', () => {
  it('an Admin maps a problem (upsert without case, extras kept), everyone lists them, an Admin deletes one', async () => {
    const tenant = await createTenant(server);
    const mapped = await send('POST', '/map_problem_color', tenant.admin.token, { problem: 'Thrips', Color: '#00ff00', Abbreviation: 'TH', Note: 'western' }, 'form');
    expect(mapped.status).toBe(400);
    expect(mapped.body).toEqual(error(m.companyIdRequired));
    const created = await server.request('POST', '/map_problem_color', { token: tenant.admin.token, query: { company_id: tenant.companyId }, form: { problem: 'Thrips', Color: '#00ff00', Abbreviation: 'TH', Note: 'western' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'success', message: m.colorMapped, mapping: { CompanyID: tenant.companyId, Problem: 'Thrips', Color: '#00ff00', Abbreviation: 'TH', extras: { Note: 'western' } } });
    const updated = await server.request('POST', '/map_problem_color', { token: tenant.admin.token, query: { company_id: tenant.companyId }, json: { problem: 'THRIPS', color: 'teal', Shape: 'ring' } });
    expect(updated.body).toMatchObject({ mapping: { id: (created.body.mapping as ProblemColorMappingRecord).id, Problem: 'THRIPS', Color: 'teal', Abbreviation: 'TH', extras: { Note: 'western', Shape: 'ring' } } });
    await send('POST', '/map_problem_color', tenant.admin.token, { company_id: tenant.companyId, problem: 'Aphids', Color: '#123' });
    const listed = await get('/get_problem_color_mappings', tenant.regular.token, { company_id: tenant.companyId });
    expect(listed.status).toBe(200);
    expect((listed.body.mappings as ProblemColorMappingRecord[]).map((mapping) => [mapping.Problem, mapping.Color])).toEqual([
      ['Aphids', '#123'],
      ['THRIPS', 'teal'],
    ]);
    expect(await auditEvents(tenant.companyId, 'Set the colour of THRIPS to teal (TH)')).toHaveLength(1);
    const deleted = await server.request('DELETE', '/delete_problem_color_mapping', { token: tenant.admin.token, query: { company_id: tenant.companyId, problem: 'thrips' } });
    expect(deleted.body).toEqual({ status: 'success', message: m.colorMappingDeleted, Problem: 'THRIPS' });
    expect(await auditEvents(tenant.companyId, 'Deleted the colour of THRIPS')).toHaveLength(1);
    expect(((await get('/get_problem_color_mappings', tenant.regular.token, { company_id: tenant.companyId })).body.mappings as unknown[]).length).toBe(1);
    const again = await server.request('DELETE', '/delete_problem_color_mapping', { token: tenant.admin.token, query: { company_id: tenant.companyId, problem: 'thrips' } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error(m.mappingNotFound('thrips')));
  });

  it('answers the spec’s messages, the colour’s, 403 to a Regular user and for another company', async () => {
    const map = (fields: Fields, token = farm.admin.token) => send('POST', '/map_problem_color', token, { company_id: farm.companyId, problem: 'Thrips', ...fields });
    expect((await map({ problem: undefined })).body).toEqual(error(m.problemRequired));
    expect((await map({ problem: ' ' })).body).toEqual(error(m.problemRequired));
    expect((await map({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await map({ Color: 'rgb(1,2,3)' })).body).toEqual(error(m.colorInvalid));
    expect((await map({ Abbreviation: 'TOOLONGX' })).body).toEqual(error(m.abbreviationTooLong));
    expect((await map({}, farm.regular.token)).status).toBe(403);
    expect((await map({ company_id: other.companyId })).status).toBe(403);
    expect((await get('/get_problem_color_mappings', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_problem_color_mappings', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
    const remove = (fields: Fields, token = farm.admin.token) => send('DELETE', '/delete_problem_color_mapping', token, { company_id: farm.companyId, problem: 'Thrips', ...fields });
    expect((await remove({ problem: undefined })).body).toEqual(error(m.problemRequired));
    expect((await remove({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await remove({}, farm.regular.token)).status).toBe(403);
    expect((await remove({ company_id: other.companyId })).status).toBe(403);
  });

  it('travel in the company document, kept current', async () => {
    const tenant = await createTenant(server);
    await send('POST', '/map_problem_color', tenant.admin.token, { company_id: tenant.companyId, problem: 'Whitefly', Color: '#eeeeee', Abbreviation: 'WF' });
    const id = String(tenant.companyId);
    const mappedIn = (documents: Map<string, PulledDocument>) => (documents.get(id)?.problem_color_mappings ?? []) as ProblemColorMappingRecord[];
    const pulled = await pullUntil(server, tenant.regular.token, 'company', (documents) => mappedIn(documents).length === 1);
    expect(mappedIn(pulled)).toEqual([expect.objectContaining({ Problem: 'Whitefly', Color: '#eeeeee', Abbreviation: 'WF' })]);
    await send('DELETE', '/delete_problem_color_mapping', tenant.admin.token, { company_id: tenant.companyId, problem: 'whitefly' });
    const after = await pullUntil(server, tenant.regular.token, 'company', (documents) => mappedIn(documents).length === 0);
    expect(mappedIn(after)).toEqual([]);
  });
});

describe('the catalogue', () => {
  it('load_plant_problems lists the catalogue; with a slug (or id), one problem with the company’s own solutions', async () => {
    const list = await get('/plant_problems/load_plant_problems', farm.regular.token, { company_id: farm.companyId });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ status: 'success', problems: CATALOGUE });
    const added = await send('POST', '/plant_problems/add_custom_solution', farm.regular.token, { company_id: farm.companyId, problem_id: catalogued.slug, custom_solution: ' Raise humidity in veg. ' }, 'form');
    expect(added.status).toBe(200);
    await send('POST', '/plant_problems/add_custom_solution', other.regular.token, { company_id: other.companyId, problem_id: catalogued.id, custom_solution: 'Theirs' });
    for (const slug of [catalogued.slug, String(catalogued.id)]) {
      const one = await get('/plant_problems/load_plant_problems', farm.regular.token, { company_id: farm.companyId, slug });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ status: 'success', problem: { ...catalogued, custom_solutions: [expect.objectContaining({ problem_slug: catalogued.slug, solution: 'Raise humidity in veg.', user_id: farm.regular.id })] } });
    }
    const unknown = await get('/plant_problems/load_plant_problems', farm.regular.token, { company_id: farm.companyId, slug: 'no-such-problem' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(error(m.unknownSlug('no-such-problem')));
    expect((await get('/plant_problems/load_plant_problems', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/plant_problems/load_plant_problems', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
  });

  it('get_symptom_groups gives each group with its symptoms; get_color_symptoms the colours', async () => {
    const groups = await get('/plant_problems/get_symptom_groups', farm.regular.token);
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual({ status: 'success', symptom_groups: SYMPTOM_GROUPS.map((group) => ({ ...group, symptoms: SYMPTOMS.filter((symptom) => symptom.group === group.slug) })) });
    const colors = await get('/plant_problems/get_color_symptoms', farm.regular.token);
    expect(colors.body).toEqual({ status: 'success', color_symptoms: COLOR_SYMPTOMS });
  });

  it('filter_plant_problems narrows by symptom group, symptom and colour', async () => {
    const group = SYMPTOM_GROUPS.find((candidate) => candidate.slug === catalogued.symptom_groups[0])!;
    const symptom = SYMPTOMS.find((candidate) => candidate.slug === catalogued.symptoms[0])!;
    const color = COLOR_SYMPTOMS.find((candidate) => candidate.slug === catalogued.color_symptoms[0])!;
    const byGroup = await get('/plant_problems/filter_plant_problems', farm.regular.token, { symptom_group_id: group.id });
    expect(byGroup.status).toBe(200);
    expect(byGroup.body.problems).toContainEqual(catalogued);
    const narrowed = await get('/plant_problems/filter_plant_problems', farm.regular.token, { symptom_group_id: group.id, symptom_id: symptom.id, color_symptom_id: color.id });
    expect(narrowed.body.problems).toContainEqual(catalogued);
    expect((narrowed.body.problems as typeof CATALOGUE).every((problem) => problem.symptoms.includes(symptom.slug) && problem.color_symptoms.includes(color.slug))).toBe(true);
    expect((await get('/plant_problems/filter_plant_problems', farm.regular.token, { symptom_group_id: 999_999 })).body).toEqual({ status: 'success', problems: [] });
    expect((await get('/plant_problems/filter_plant_problems', farm.regular.token)).body).toEqual(error(m.symptomGroupRequired));
    expect((await get('/plant_problems/filter_plant_problems', farm.regular.token, { symptom_group_id: group.id, symptom_id: 'x' })).body).toEqual(error(m.symptomIdInvalid));
  });

  it('add_custom_solution: any member, audited, a repeat once; the messages, 404 for an unknown problem, 403 for another company', async () => {
    const key = randomUUID();
    const fields = { problem_id: catalogued.id, custom_solution: `Spot-treat ${key}` };
    const first = await server.request('POST', '/plant_problems/add_custom_solution', { token: farm.regular.token, query: { company_id: farm.companyId }, form: fields, headers: { 'Idempotency-Key': key } });
    const second = await server.request('POST', '/plant_problems/add_custom_solution', { token: farm.regular.token, query: { company_id: farm.companyId }, form: fields, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', message: m.solutionAdded, custom_solution: { problem_slug: catalogued.slug, solution: fields.custom_solution } });
    expect(second.body).toEqual(first.body);
    expect(await server.database.db.selectFrom('custom_solutions').select('id').where('solution', '=', fields.custom_solution).execute()).toHaveLength(1);
    expect(await auditEvents(farm.companyId, `Added a custom solution to ${catalogued.name}`)).not.toHaveLength(0);
    const add = (body: Fields) => send('POST', '/plant_problems/add_custom_solution', farm.regular.token, { company_id: farm.companyId, problem_id: catalogued.slug, custom_solution: 'x', ...body });
    expect((await add({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await add({ problem_id: undefined })).body).toEqual(error(m.catalogueProblemRequired));
    expect((await add({ custom_solution: ' ' })).body).toEqual(error(m.customSolutionRequired));
    const unknown = await add({ problem_id: 'no-such-problem' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(error(m.unknownSlug('no-such-problem')));
    expect((await add({ company_id: other.companyId })).status).toBe(403);
  });

  it('add_custom_solution: the solution travels in the company document, as load_plant_problems answers it, with the tablet’s client id', async () => {
    const tenant = await createTenant(server);
    const id = String(tenant.companyId);
    const solutionsIn = (documents: Map<string, PulledDocument>) => (documents.get(id)?.custom_solutions ?? []) as CustomSolutionRecord[];
    const pull = (checkpoint: string) => pullSettled(server, tenant.regular.token, 'company', { checkpoint });
    // The first pull has the company without solutions; a solution added after it brings the document again (it touches the company).
    const first = await pull('');
    expect(solutionsIn(first.documents)).toEqual([]);
    const clientId = randomUUID();
    const added = await send('POST', '/plant_problems/add_custom_solution', tenant.regular.token, { company_id: tenant.companyId, problem_id: catalogued.id, custom_solution: 'Sticky cards at the door', client_id: clientId });
    expect(added.status).toBe(200);
    const pulled = (await pull(first.checkpoint)).documents;
    const loaded = await get('/plant_problems/load_plant_problems', tenant.regular.token, { company_id: tenant.companyId, slug: catalogued.slug });
    const answered = (loaded.body.problem as { custom_solutions: CustomSolutionRecord[] }).custom_solutions;
    expect(solutionsIn(pulled)).toEqual(answered);
    expect(answered).toEqual([{ id: expect.any(Number), client_id: clientId, problem_slug: catalogued.slug, solution: 'Sticky cards at the door', user_id: tenant.regular.id, created_at: expect.any(String) }]);
    // Another company's solutions stay out of this one's document.
    await send('POST', '/plant_problems/add_custom_solution', other.regular.token, { company_id: other.companyId, problem_id: catalogued.slug, custom_solution: 'Not theirs to see' });
    const again = await pullUntil(server, tenant.regular.token, 'company', (documents) => documents.has(id));
    expect(solutionsIn(again).map((solution) => solution.solution)).toEqual(['Sticky cards at the door']);
  });

  it('a SuperAdmin reads any company’s solutions', async () => {
    const operator = await createSuperAdmin(server);
    const response = await get('/plant_problems/load_plant_problems', operator.token, { company_id: farm.companyId, slug: catalogued.slug });
    expect(response.status).toBe(200);
    expect((response.body.problem as { custom_solutions: unknown[] }).custom_solutions.length).toBeGreaterThan(0);
  });
});

describe('the plant_problems collection', () => {
  it('carries the company’s problems, open and closed, to its tablets only', async () => {
    const place = await freshRoom();
    const problem = await newProblem(farm.regular, place.boxes[0]!, { problem_type: 'Pythium' });
    await send('POST', '/manage_problem', farm.regular.token, { problemID: problem.problem_id, action: 'resolve', userID: farm.regular.id });
    const id = String(problem.problem_id);
    const documents = await pullUntil(server, farm.regular.token, 'plant_problems', (pulled) => pulled.get(id)?.status === 'resolved');
    expect(documents.get(id)).toMatchObject({ _deleted: false, problem_type: 'Pythium', grid_box_id: place.boxes[0], room_id: place.roomId, status: 'resolved', status_by: farm.regular.id });
    const elsewhere = await pullUntil(server, other.regular.token, 'plant_problems', () => true);
    expect(elsewhere.has(id)).toBe(false);
  });

  it('names records by client id for tablets', async () => {
    const place = await freshRoom();
    const clientId = randomUUID();
    await newProblem(farm.regular, place.boxes[0]!, { client_id: clientId });
    const boxClientId = await clientIdOf(server, 'grid_boxes', place.boxes[0]!);
    const roomClientId = await clientIdOf(server, 'rooms', place.roomId);
    const found = (await pullUntil(server, farm.regular.token, 'plant_problems', (documents) => documents.has(clientId), 'client')).get(clientId);
    expect(found).toMatchObject({ id: clientId, problem_id: clientId, grid_box_id: boxClientId, room_id: roomClientId, sub_gridbox_id: null });
  });
});
