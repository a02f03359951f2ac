import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { ACTED_AT_MAX_AGE_DAYS, clampActedAt } from '../../server/http/acted-at';
import { createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
});
afterAll(() => server.close());

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// Answers are read loosely: each test names the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

/** A call as the farm's Regular user, sent with `X-Acted-At: actedAt` when one is given. */
const call = (method: string, path: string, actedAt: string | undefined, options: Omit<RequestOptions, 'token' | 'headers'> = {}) =>
  server.request<Body>(method, path, { token: farm.regular.token, ...options, ...(actedAt === undefined ? {} : { headers: { 'X-Acted-At': actedAt } }) });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE_MS);
const ms = (value: Date | string | null | undefined) => (value === null || value === undefined ? NaN : new Date(value).getTime());

let rooms = 0;
const createRoomAt = (actedAt: string | undefined) =>
  call('POST', '/create_room', actedAt, { query: { company_id: farm.companyId }, form: { name: `Acted room ${(rooms += 1)}`, description: 'For acted-at tests' } });

/** The audit events of a room (or a batch), newest first, as the API answers them. */
async function auditEvents(filter: { room_id?: number; batch_id?: number }): Promise<Array<{ EventTitle: string; CreatedAt: string }>> {
  const response = await server.request<Body>('GET', '/get_audit_events', { token: farm.admin.token, query: { company_id: farm.companyId, ...filter } });
  expect(response.status).toBe(200);
  return response.body.events;
}

/** Runs `act` and answers it with the server-clock window it ran in (the server's now lies inside). */
async function timed<T>(act: () => Promise<T>): Promise<{ result: T; before: number; after: number }> {
  const before = Date.now();
  const result = await act();
  return { result, before, after: Date.now() };
}

describe('an act sent later keeps the time it was done (X-Acted-At)', () => {
  it('a room created 10 minutes ago is recorded then, and so is its audit event; updated_at stays the server’s', async () => {
    const actedAt = minutesAgo(10);
    const { result: response, before } = await timed(() => createRoomAt(actedAt.toISOString()));
    expect(response.status).toBe(200);
    const roomId = response.body.RoomID as number;
    expect(ms(response.body.room.CreatedDateTime)).toBe(actedAt.getTime());

    const row = await server.database.db.selectFrom('rooms').select(['created_at', 'updated_at']).where('id', '=', roomId).executeTakeFirstOrThrow();
    expect(ms(row.created_at)).toBe(actedAt.getTime());
    expect(ms(row.updated_at)).toBeGreaterThanOrEqual(before);

    const events = await auditEvents({ room_id: roomId });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ EventTitle: expect.stringContaining('Created room') });
    expect(ms(events[0]?.CreatedAt)).toBe(actedAt.getTime());
  });

  it('a grid created 15 minutes ago (with its boxes) and scanned 10 minutes ago, and a room scanned then', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const createdAt = minutesAgo(15);
    const created = await call('POST', '/Create_grid', createdAt.toISOString(), { form: { nx: 2, ny: 1, ngrid_name: 'Acted grid', ncompany_id: farm.companyId, nroom_id: roomId } });
    expect(created.status).toBe(200);
    const gridId = created.body.GridID as number;
    expect(ms(created.body.grid.CreatedDateTime)).toBe(createdAt.getTime());
    const boxes = await server.database.db.selectFrom('grid_boxes').select('created_at').where('grid_id', '=', gridId).execute();
    expect(boxes.map((box) => ms(box.created_at))).toEqual([createdAt.getTime(), createdAt.getTime()]);

    const scannedAt = minutesAgo(10);
    const scanned = await call('POST', '/mark_grid_scanned', scannedAt.toISOString(), { query: { grid_id: gridId, user_id: farm.regular.id } });
    expect(scanned.status).toBe(200);
    expect(ms(scanned.body.grid.ScannedDateTime)).toBe(scannedAt.getTime());
    const details = await call('GET', '/get_grid_scan_details', undefined, { query: { grid_id: gridId } });
    expect(ms(details.body.ScannedDateTime)).toBe(scannedAt.getTime());

    const roomScanned = await call('POST', '/mark_room_scanned', scannedAt.toISOString(), { query: { room_id: roomId, user_id: farm.regular.id } });
    expect(ms(roomScanned.body.room.ScannedDateTime)).toBe(scannedAt.getTime());

    const events = await auditEvents({ room_id: roomId });
    expect(events.map((event) => [event.EventTitle, ms(event.CreatedAt)])).toEqual(
      expect.arrayContaining([
        ['Created grid Acted grid (2 × 1)', createdAt.getTime()],
        ['Marked grid Acted grid scanned', scannedAt.getTime()],
        [expect.stringMatching(/^Marked room .* scanned$/), scannedAt.getTime()],
      ]),
    );
  });

  it('a box culled 10 minutes ago', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const [boxId] = (await createGrid(server, farm.companyId, roomId, 1, 1)).boxIds;
    const culledAt = minutesAgo(10);
    const response = await call('POST', '/update_culling_status', culledAt.toISOString(), { form: { GridBoxID: boxId as number, user_id: farm.regular.id, culled: 1 } });
    expect(response.status).toBe(200);
    expect(response.body.grid_box).toMatchObject({ culled: true, CulledBy: farm.regular.id });
    expect(ms(response.body.grid_box.CulledDateTime)).toBe(culledAt.getTime());
    const [event] = await auditEvents({ room_id: roomId });
    expect(event).toMatchObject({ EventTitle: 'Culled plant' });
    expect(ms(event?.CreatedAt)).toBe(culledAt.getTime());
  });

  it('a batch created, linked to a box and given a problem, each at its own time', async () => {
    const createdAt = minutesAgo(30);
    const created = await call('POST', '/create_batch', createdAt.toISOString(), {
      form: { BatchNumber: `ACT-${Date.now().toString(36)}`, NumberOfPlants: 12, company_id: farm.companyId },
    });
    expect(created.status).toBe(200);
    const batchId = created.body.BatchID as number;
    expect(ms(created.body.batch.CreatedDateTime)).toBe(createdAt.getTime());
    expect(created.body.batch.history).toHaveLength(1);
    expect(created.body.batch.history[0]).toMatchObject({ kind: 'created' });
    expect(ms(created.body.batch.history[0].created_at)).toBe(createdAt.getTime());

    const roomId = await createRoom(server, farm.companyId);
    const [boxId] = (await createGrid(server, farm.companyId, roomId, 1, 1)).boxIds;
    const linkedAt = minutesAgo(20);
    const linked = await call('POST', '/link_gridbox_batch', linkedAt.toISOString(), { json: { batch_id: batchId, grid_box_ids: [boxId] } });
    expect(linked.status).toBe(200);
    const links = await call('GET', '/get_linked_gridboxes_batches', undefined, { query: { batch_id: batchId } });
    expect(links.body.links).toHaveLength(1);
    expect(ms(links.body.links[0].linked_at)).toBe(linkedAt.getTime());

    const reportedAt = minutesAgo(10);
    const problem = await call('POST', '/grid/create_batch_problem', reportedAt.toISOString(), {
      json: { batch_id: batchId, problem_type: 'Powdery mildew', severity: 2, company_id: farm.companyId, user_id: farm.regular.id },
    });
    expect(problem.status).toBe(200);
    expect(ms(problem.body.problem.created_at)).toBe(reportedAt.getTime());

    const events = await auditEvents({ batch_id: batchId });
    expect(events.map((event) => [event.EventTitle, ms(event.CreatedAt)])).toEqual([
      ['Reported Powdery mildew (severity 2) on batch ' + created.body.batch.BatchNumber, reportedAt.getTime()],
      ['Linked plant to batch ' + created.body.batch.BatchNumber, linkedAt.getTime()],
      ['Created batch ' + created.body.batch.BatchNumber, createdAt.getTime()],
    ]);
  });

  it('sub-gridboxes, a plant move and a tray keep their times', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const [from, to] = (await createGrid(server, farm.companyId, roomId, 2, 1)).boxIds as [number, number];
    const dividedAt = minutesAgo(12);
    const divided = await call('POST', '/create_sub_gridboxes', dividedAt.toISOString(), { query: { parent_gridbox_id: from, user_id: farm.regular.id, nx: 1, ny: 1 } });
    expect(divided.status).toBe(200);
    const [sub] = divided.body.sub_gridboxes;
    expect(ms(sub.CreatedDateTime)).toBe(dividedAt.getTime());

    const movedAt = minutesAgo(6);
    const moved = await call('POST', '/move_plant', movedAt.toISOString(), { json: { plant_uid: sub.PlantID, target_parent_gridbox_id: to, user_id: farm.regular.id } });
    expect(moved.status).toBe(200);
    expect(ms(moved.body.movement.moved_at)).toBe(movedAt.getTime());

    const trayAt = minutesAgo(3);
    const tray = await call('POST', '/create_tray', trayAt.toISOString(), { json: { tray_name: 'Acted tray', company_id: farm.companyId, user_id: farm.regular.id, number_of_plants: 8 } });
    expect(tray.status).toBe(200);
    expect(ms(tray.body.tray.created_at)).toBe(trayAt.getTime());
  });

  it('reads a time with an offset as the instant it names', async () => {
    const actedAt = new Date(Math.floor(minutesAgo(10).getTime() / 1000) * 1000);
    // The same instant, written two hours east of UTC.
    const east = new Date(actedAt.getTime() + 2 * 3_600_000).toISOString().replace('.000Z', '+02:00');
    const response = await createRoomAt(east);
    expect(response.status).toBe(200);
    expect(ms(response.body.room.CreatedDateTime)).toBe(actedAt.getTime());
  });

  it('a form response without submittedAt is filed at the acted-at time', async () => {
    const saved = await server.request<Body>('POST', '/save_form_template', {
      token: farm.admin.token,
      json: { templateName: 'Acted form', companyID: farm.companyId, formCategory: 'Scouting', fields: [{ fieldName: 'Note', fieldType: 'Text', isRequired: 0 }] },
    });
    expect(saved.status).toBe(200);
    const roomId = await createRoom(server, farm.companyId);
    const filledAt = minutesAgo(10);
    const submitted = await call('POST', '/submit_form_room', filledAt.toISOString(), {
      json: { submittedBy: farm.regular.id, roomID: roomId, fieldResponses: [{ fieldID: saved.body.field_ids[0], inputData: 'Seen aphids' }] },
    });
    expect(submitted.status).toBe(200);
    const row = await server.database.db.selectFrom('form_responses').select(['submitted_at', 'created_at']).where('id', '=', submitted.body.response_id).executeTakeFirstOrThrow();
    expect(ms(row.submitted_at)).toBe(filledAt.getTime());
    expect(ms(row.created_at)).toBe(filledAt.getTime());
  });
});

describe('the acted-at time is kept within the server’s clock', () => {
  it('a time in the future is recorded as now', async () => {
    const { result: response, before, after } = await timed(() => createRoomAt(new Date(Date.now() + 2 * DAY_MS).toISOString()));
    expect(response.status).toBe(200);
    const createdAt = ms(response.body.room.CreatedDateTime);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
    const [event] = await auditEvents({ room_id: response.body.RoomID });
    expect(ms(event?.CreatedAt)).toBe(createdAt);
  });

  it(`a time 40 days back is recorded ${ACTED_AT_MAX_AGE_DAYS} days back`, async () => {
    const { result: response, before, after } = await timed(() => createRoomAt(new Date(Date.now() - 40 * DAY_MS).toISOString()));
    expect(response.status).toBe(200);
    const createdAt = ms(response.body.room.CreatedDateTime);
    expect(createdAt).toBeGreaterThanOrEqual(before - 30 * DAY_MS);
    expect(createdAt).toBeLessThanOrEqual(after - 30 * DAY_MS);
  });

  it('a time 29 days back is kept as sent', async () => {
    const actedAt = new Date(Date.now() - 29 * DAY_MS);
    const response = await createRoomAt(actedAt.toISOString());
    expect(ms(response.body.room.CreatedDateTime)).toBe(actedAt.getTime());
  });

  it('without the header, the act’s time is the server’s now', async () => {
    const { result: response, before, after } = await timed(() => createRoomAt(undefined));
    expect(response.status).toBe(200);
    const createdAt = ms(response.body.room.CreatedDateTime);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
    const [event] = await auditEvents({ room_id: response.body.RoomID });
    expect(ms(event?.CreatedAt)).toBe(createdAt);
  });

  it('clampActedAt keeps a time inside [now − 30 days, now]', () => {
    const now = new Date('2026-11-23T20:16:55.123Z');
    expect(clampActedAt(new Date('2026-11-23T20:06:55.123Z'), now)).toEqual(new Date('2026-11-23T20:06:55.123Z'));
    expect(clampActedAt(new Date('2026-11-24T00:00:00Z'), now)).toEqual(now);
    expect(clampActedAt(new Date('2026-10-14T20:16:55.123Z'), now)).toEqual(new Date('2026-10-24T20:16:55.123Z'));
  });
});

describe('a header that is not a date-time', () => {
  it.each([['yesterday'], ['2026-11-23'], ['2026-11-23T20:16:55'], ['2026-02-30T10:00:00Z'], ['1795465015123'], ['']])('answers 400 for %j and records nothing', async (value) => {
    const before = await server.database.db.selectFrom('rooms').select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    const response = await createRoomAt(value);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidActedAt });
    const after = await server.database.db.selectFrom('rooms').select(({ fn }) => fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  it('is checked on reads too, and after the sign-in check', async () => {
    const read = await call('GET', '/get_audit_events', 'soon', { query: { company_id: farm.companyId } });
    expect(read.status).toBe(400);
    expect(read.body).toEqual({ status: 'error', message: httpMessages.invalidActedAt });
    const unsigned = await server.request('POST', '/create_room', { query: { company_id: farm.companyId }, headers: { 'X-Acted-At': 'soon' } });
    expect(unsigned.status).toBe(401);
  });
});
