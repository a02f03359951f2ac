import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMessages } from '../../common/messages/audit';
import { gridMessages } from '../../common/messages/grids';
import { httpMessages } from '../../common/messages/http';
import { roomMessages } from '../../common/messages/rooms';
import { PUSH_ENTRIES_MAX, syncMessages as m } from '../../common/messages/sync';
import type { PushAnswer, SyncDocument } from '../../common/schemas/sync';
import { isNewerPosition } from '../../common/sync-position';
import { clientIdOf, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { databaseKind, startServer, type TestServer } from '../support/server';
import { pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

type Body = { kind: 'json'; data: unknown } | { kind: 'none' } | { kind: 'multipart'; parts: Array<{ name: string; value: string }> };

/** An outbox entry as the sync engine pushes it. */
interface Entry {
  id: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: Body;
  actedAt?: string;
}

const entry = (method: Entry['method'], path: string, body: Body = { kind: 'none' }, query?: Entry['query']): Entry => ({
  id: randomUUID(),
  method,
  path,
  body,
  ...(query ? { query } : {}),
});
const json = (data: unknown): Body => ({ kind: 'json', data });
const multipart = (fields: Record<string, string | number>): Body => ({ kind: 'multipart', parts: Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })) });

const createRoomEntry = (companyId: number, name: string) => entry('POST', '/create_room', json({ name, description: `${name} by push` }), { company_id: companyId });
const cullEntry = (boxId: number, userId: number, culled = 1) => entry('POST', '/update_culling_status', json({ GridBoxID: boxId, user_id: userId, culled }));
const eventEntry = (title: string) => entry('POST', '/add_audit_event', json({ EventTitle: title }));

const push = (token: string | undefined, entries: unknown) => server.request<PushAnswer>('POST', '/sync/push', { ...(token ? { token } : {}), json: { entries } });

/** The entry sent as its own call, with its own key, as the sync engine sends an entry alone. */
function sendAlone(token: string, sent: Entry) {
  const body = sent.body ?? { kind: 'none' };
  return server.request(sent.method, sent.path, {
    token,
    ...(sent.query ? { query: sent.query } : {}),
    ...(body.kind === 'json' ? { json: body.data } : {}),
    ...(body.kind === 'multipart' ? { form: Object.fromEntries(body.parts.map((part) => [part.name, part.value])) } : {}),
    headers: { 'Idempotency-Key': sent.id, ...(sent.actedAt ? { 'X-Acted-At': sent.actedAt } : {}) },
  });
}

async function box(id: number) {
  return server.database.db.selectFrom('grid_boxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function eventsTitled(title: string) {
  return server.database.db.selectFrom('audit_events').selectAll().where('event_title', '=', title).execute();
}
async function roomsNamed(name: string) {
  return server.database.db.selectFrom('rooms').selectAll().where('name', '=', name).execute();
}

const POSITION = /^\d{20}:\d{20}$/;

describe('POST /api/sync/push', () => {
  it('applies several entries in order, each answered as the same call alone answers it', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 2);
    const [named, culledA, culledB] = grid.boxIds as [number, number, number, number];
    const roomName = `Pushed room ${randomUUID()}`;
    const entries = [
      createRoomEntry(farm.companyId, roomName),
      entry('POST', '/update_grid_box_name', multipart({ GridBoxID: named, custom_name: 'Mother plant' })),
      entry('POST', '/Create_grid', json({ ncompany_id: farm.companyId, nroom_id: roomId, ngrid_name: 'Pushed grid', nx: 3, ny: 2 })),
      cullEntry(culledA, farm.regular.id),
      cullEntry(culledB, farm.regular.id),
      entry('PUT', '/update_room_scroll', { kind: 'none' }, { company_id: farm.companyId, room_id: roomId, setValue: 120 }),
    ];

    const response = await push(farm.regular.token, entries);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    const { results } = response.body;
    expect(results.map((result) => result.id)).toEqual(entries.map((sent) => sent.id));
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results[0]?.body).toMatchObject({ status: 'success', message: roomMessages.created, room: { Name: roomName } });
    expect(results[1]?.body).toMatchObject({ status: 'success', message: gridMessages.nameUpdated, grid_box: { CustomName: 'Mother plant' } });
    expect(results[2]?.body).toMatchObject({ status: 'success', message: gridMessages.gridCreated });
    expect(results[3]?.body).toMatchObject({ status: 'success', message: gridMessages.cullingUpdated });
    expect(results[5]?.body).toEqual({ status: 'success', message: roomMessages.scrollUpdated, StartScroll: 120 });

    expect(await roomsNamed(roomName)).toHaveLength(1);
    expect((await box(named)).custom_name).toBe('Mother plant');
    expect((await box(culledA)).culled).toBe(true);
    expect((await box(culledB)).culled).toBe(true);
    const grids = await server.database.db.selectFrom('grids').select('id').where('room_id', '=', roomId).where('name', '=', 'Pushed grid').execute();
    expect(grids).toHaveLength(1);

    // The same call alone, under the same key, is the very same request: its stored answer comes back.
    for (const [index, sent] of entries.entries()) {
      const alone = await sendAlone(farm.regular.token, sent);
      expect(alone.headers.get('idempotent-replayed')).toBe('true');
      expect(alone.status).toBe(results[index]?.status);
      expect(alone.body).toEqual(results[index]?.body);
    }
  });

  it('answers a refused entry (400, 403, 404) with its envelope, as alone, and still applies the entries after it', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const title = `After refusals ${randomUUID()}`;
    const entries = [
      entry('POST', '/create_room', json({ description: 'No name' }), { company_id: farm.companyId }),
      eventEntry(`${title} 1`),
      entry('DELETE', '/delete_room', { kind: 'none' }, { room_id: roomId }),
      eventEntry(`${title} 2`),
      entry('POST', '/update_grid_box_name', json({ GridBoxID: 999_999, custom_name: 'Nobody' })),
      eventEntry(`${title} 3`),
    ];
    const response = await push(farm.regular.token, entries);
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.map((result) => result.status)).toEqual([400, 200, 403, 200, 404, 200]);
    expect(results[0]?.body).toEqual({ status: 'error', message: roomMessages.nameRequired });
    expect(results[2]?.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
    expect(results[4]?.body).toEqual({ status: 'error', message: httpMessages.recordNotFound('grid_box 999999') });
    expect(results[1]?.body).toMatchObject({ status: 'success', message: auditMessages.added });
    for (const suffix of [1, 2, 3]) expect(await eventsTitled(`${title} ${suffix}`)).toHaveLength(1);
    expect(await server.database.db.selectFrom('rooms').select('deleted_at').where('id', '=', roomId).executeTakeFirstOrThrow()).toEqual({ deleted_at: null });

    // A refusal stores nothing: alone, under the same key, it runs again and answers the same.
    for (const index of [0, 2, 4]) {
      const alone = await sendAlone(farm.regular.token, entries[index] as Entry);
      expect(alone.headers.get('idempotent-replayed')).toBeNull();
      expect(alone.status).toBe(results[index]?.status);
      expect(alone.body).toEqual(results[index]?.body);
    }
  });

  it('answers 403 for an entry naming another company’s record, for that entry only', async () => {
    const theirs = await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1);
    const mine = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const response = await push(farm.regular.token, [cullEntry(theirs.boxIds[0] as number, farm.regular.id), cullEntry(mine.boxIds[0] as number, farm.regular.id)]);
    expect(response.status).toBe(200);
    expect(response.body.results.map((result) => result.status)).toEqual([403, 200]);
    expect(response.body.results[0]?.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await box(theirs.boxIds[0] as number)).culled).toBe(false);
    expect((await box(mine.boxIds[0] as number)).culled).toBe(true);
    // Nothing of the other company comes back among the documents.
    expect((response.body.documents.grid_boxes ?? []).map((document) => document.id)).toEqual([String(mine.boxIds[0])]);
  });

  it('an entry naming a record an earlier entry of the same push deleted answers 404, as alone', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    // The first cull finds the box live; the grid's deletion tombstones it before the second.
    const entries = [cullEntry(boxId, farm.admin.id), entry('PUT', '/delete_grid', { kind: 'none' }, { grid_id: grid.id }), cullEntry(boxId, farm.admin.id, 0)];
    const response = await push(farm.admin.token, entries);
    expect(response.body.results.map((result) => result.status)).toEqual([200, 200, 404]);
    expect(response.body.results[2]?.body).toEqual({ status: 'error', message: httpMessages.recordNotFound(`grid_box ${boxId}`) });
    expect(await box(boxId)).toMatchObject({ culled: true, deleted_at: expect.any(Date) as Date });
  });

  it('applies nothing twice when the same entries are pushed again: the same answers, no new rows, no documents', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const roomName = `Pushed twice ${randomUUID()}`;
    const title = `Event pushed twice ${randomUUID()}`;
    const entries = [createRoomEntry(farm.companyId, roomName), cullEntry(grid.boxIds[0] as number, farm.regular.id), eventEntry(title)];
    const first = await push(farm.regular.token, entries);
    expect(first.body.results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(Object.keys(first.body.documents).sort()).toEqual(['audit_events', 'grid_boxes', 'rooms']);
    const culledAt = (await box(grid.boxIds[0] as number)).culled_at;

    const second = await push(farm.regular.token, entries);
    expect(second.status).toBe(200);
    expect(second.body.results).toEqual(first.body.results);
    expect(second.body.documents).toEqual({});
    expect(await roomsNamed(roomName)).toHaveLength(1);
    expect(await eventsTitled(title)).toHaveLength(1);
    expect(await eventsTitled(`Created room ${roomName}`)).toHaveLength(1);
    expect((await box(grid.boxIds[0] as number)).culled_at).toEqual(culledAt);
  });

  it('stops at a retryable answer (a key still being processed): that entry is answered, the later ones are not attempted', async () => {
    const title = `Retry stop ${randomUUID()}`;
    const busy = eventEntry(`${title} busy`);
    // A first attempt of this entry that is still running: its key is claimed, with no answer yet.
    await server.database.db
      .insertInto('idempotency_keys')
      .values({ scope: `user:${farm.regular.id}`, key: busy.id, fingerprint: 'POST /api/add_audit_event' })
      .execute();
    const entries = [eventEntry(`${title} before`), busy, eventEntry(`${title} after`)];
    const response = await push(farm.regular.token, entries);
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.map((result) => [result.id, result.status])).toEqual([
      [entries[0]?.id, 200],
      [busy.id, 409],
    ]);
    expect(results[1]?.body).toEqual({ status: 'error', message: httpMessages.idempotencyInFlight });
    expect(await eventsTitled(`${title} before`)).toHaveLength(1);
    expect(await eventsTitled(`${title} after`)).toHaveLength(0);
    expect((response.body.documents.audit_events ?? []).map((document) => document.EventTitle)).toEqual([`${title} before`]);

    // Once the first attempt is gone (it failed: nothing stored), the client retries from there, in order.
    await server.database.db.deleteFrom('idempotency_keys').where('key', '=', busy.id).execute();
    const retry = await push(farm.regular.token, entries.slice(1));
    expect(retry.body.results.map((result) => result.status)).toEqual([200, 200]);
    expect(await eventsTitled(`${title} busy`)).toHaveLength(1);
    expect(await eventsTitled(`${title} after`)).toHaveLength(1);
  });

  it('answers 401 without a valid token, and applies nothing', async () => {
    const title = `Unsigned ${randomUUID()}`;
    const unsigned = await push(undefined, [eventEntry(title)]);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
    const badToken = await push('not-a-token', [eventEntry(title)]);
    expect(badToken.status).toBe(401);
    expect(badToken.body).toEqual({ status: 'error', message: httpMessages.invalidToken });
    expect(await eventsTitled(title)).toHaveLength(0);
  });

  describe('a malformed push answers 400 with the message and applies nothing', () => {
    const valid = () => eventEntry(`Never applied ${randomUUID()}`);
    it.each([
      ['no entries field', () => undefined, m.entriesInvalid],
      ['no entries', () => [], m.entriesInvalid],
      [`${PUSH_ENTRIES_MAX + 1} entries`, () => Array.from({ length: PUSH_ENTRIES_MAX + 1 }, valid), m.entriesInvalid],
      ['a path with ..', () => [valid(), { ...valid(), path: '/../sync/push' }], m.entryPathInvalid],
      ['an encoded dot segment', () => [valid(), { ...valid(), path: '/add_audit_event/%2e%2e/sync/push' }], m.entryPathInvalid],
      ['a push inside the push', () => [valid(), { ...valid(), path: '/sync/push' }], m.entryPathInvalid],
      ['a query in the path', () => [valid(), { ...valid(), path: '/create_room?company_id=1' }], m.entryPathInvalid],
      ['a path outside /api', () => [valid(), { ...valid(), path: 'create_room' }], m.entryPathInvalid],
      ['a GET', () => [valid(), { ...valid(), method: 'GET' }], m.entryMethodInvalid],
      ['a short id', () => [valid(), { ...valid(), id: 'short' }], m.entryIdInvalid],
      ['a file part', () => [valid(), { ...valid(), body: { kind: 'multipart', parts: [{ name: 'image', blob: {}, fileName: 'a.jpg' }] } }], m.entryBodyInvalid],
      ['an unknown body kind', () => [valid(), { ...valid(), body: { kind: 'xml' } }], m.entryBodyInvalid],
    ])('%s', async (_name, entries, message) => {
      const sent = entries();
      const response = await push(farm.regular.token, sent);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ status: 'error', message });
      const first = Array.isArray(sent) ? (sent[0] as Entry | undefined) : undefined;
      const title = first?.body?.kind === 'json' ? (first.body.data as { EventTitle: string }).EventTitle : undefined;
      if (title) expect(await eventsTitled(title)).toHaveLength(0);
    });
  });
});

describe('document positions', () => {
  /** The box's latest document once it satisfies `after` (or after 5 s), pulled as a tablet pulls. */
  async function pulledBox(boxId: number, after: (document: SyncDocument) => boolean = () => true) {
    const id = String(boxId);
    const documents = await pullUntil<SyncDocument>(server, farm.regular.token, 'grid_boxes', (pulled) => {
      const found = pulled.get(id);
      return found !== undefined && after(found);
    });
    return documents.get(id);
  }

  it('the push answers the documents it changed, with syncPosition, and read-back and pull give the same state', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    const roomName = `Room with documents ${randomUUID()}`;
    const response = await push(farm.regular.token, [createRoomEntry(farm.companyId, roomName), cullEntry(boxId, farm.regular.id)]);
    expect(response.status).toBe(200);
    const roomId = (response.body.results[0]?.body as { RoomID: number }).RoomID;
    const { documents } = response.body;

    expect(documents.rooms).toEqual([expect.objectContaining({ id: String(roomId), Name: roomName, _deleted: false, syncPosition: expect.stringMatching(POSITION) })]);
    const pushedBox = documents.grid_boxes?.find((document) => document.id === String(boxId));
    expect(pushedBox).toMatchObject({ _deleted: false, syncPosition: expect.stringMatching(POSITION) });
    const titles = (documents.audit_events ?? []).map((document) => document.EventTitle);
    expect(titles).toEqual(expect.arrayContaining([`Created room ${roomName}`, 'Culled plant']));
    for (const list of Object.values(documents)) {
      const positions = list.map((document) => document.syncPosition);
      expect(positions).toEqual([...positions].sort());
    }

    const readBack = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'grid_boxes', ids: String(boxId) } });
    expect(readBack.body.documents).toEqual([pushedBox]);
    const pulled = await pulledBox(boxId, (document) => document.syncPosition === pushedBox?.syncPosition);
    expect(pulled).toEqual(pushedBox);
  });

  it('with naming=client, the answer names the documents as tablets do: by client id, an entry naming records by client id too', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const [gridId, boxId] = [await clientIdOf(server, 'grids', grid.id), await clientIdOf(server, 'grid_boxes', grid.boxIds[0] as number)];
    const response = await server.request<PushAnswer>('POST', '/sync/push', { token: farm.regular.token, query: { naming: 'client' }, json: { entries: [entry('POST', '/update_culling_status', json({ GridBoxID: boxId, user_id: farm.regular.id, culled: 1 }))] } });
    expect(response.body.results.map((result) => result.status)).toEqual([200]);
    expect(response.body.documents.grid_boxes).toEqual([expect.objectContaining({ id: boxId, serverId: grid.boxIds[0], GridID: gridId, culled: true, syncPosition: expect.stringMatching(POSITION) })]);
  });

  it('a document’s syncPosition grows with each change, in the pull as in the push answer', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    const before = await pulledBox(boxId);
    expect(before?.syncPosition).toMatch(POSITION);

    const culled = await push(farm.regular.token, [cullEntry(boxId, farm.regular.id)]);
    const afterCull = culled.body.documents.grid_boxes?.[0];
    expect(isNewerPosition(afterCull?.syncPosition, before?.syncPosition)).toBe(true);

    // A change sent alone, then pulled.
    const renamed = await server.request('POST', '/update_grid_box_name', { token: farm.regular.token, json: { GridBoxID: boxId, custom_name: 'Renamed alone' } });
    expect(renamed.status).toBe(200);
    const afterRename = await pulledBox(boxId, (document) => document.CustomName === 'Renamed alone');
    expect(afterRename?.CustomName).toBe('Renamed alone');
    expect(isNewerPosition(afterRename?.syncPosition, afterCull?.syncPosition)).toBe(true);
    expect(isNewerPosition(afterCull?.syncPosition, afterRename?.syncPosition)).toBe(false);
  });
});

// Two transactions in flight at once need two connections: PostgreSQL only (PGlite has one).
describe.runIf(databaseKind === 'postgres')('a row written last by the transaction that began first (PostgreSQL)', () => {
  it('its state counts as newer than the one a push answered before, though its transaction id is lower', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    const client = new pg.Client({ connectionString: server.config.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      // This transaction takes its id now, as one that has already written something would.
      await client.query('SELECT pg_current_xact_id()');
      const pushed = await push(farm.regular.token, [cullEntry(boxId, farm.regular.id)]);
      const answered = pushed.body.documents.grid_boxes?.[0];
      expect(answered?.id).toBe(String(boxId));
      await client.query(`UPDATE grid_boxes SET custom_name = 'Written last' WHERE id = $1`, [boxId]);
      await client.query('COMMIT');

      const readBack = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'grid_boxes', ids: String(boxId) } });
      const latest = readBack.body.documents[0];
      expect(latest?.CustomName).toBe('Written last');
      // Its position sorts before the pushed state's (lower transaction id), yet it is the newer state.
      expect(String(latest?.syncPosition) < String(answered?.syncPosition)).toBe(true);
      expect(isNewerPosition(latest?.syncPosition, answered?.syncPosition)).toBe(true);
      expect(isNewerPosition(answered?.syncPosition, latest?.syncPosition)).toBe(false);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });
});

describe.runIf(databaseKind === 'postgres')('a key stored by another request while the push runs (PostgreSQL)', () => {
  it('rolls the whole push back as still processing; sent again, the push gets that answer and applies the rest once', async () => {
    const title = `Raced ${randomUUID()}`;
    const raced = eventEntry(`${title} raced`);
    const entries = [eventEntry(`${title} first`), raced];
    const client = new pg.Client({ connectionString: server.config.databaseUrl });
    await client.connect();
    try {
      // The same entry sent alone a moment earlier, its transaction not committed yet.
      await client.query('BEGIN');
      await client.query(`INSERT INTO idempotency_keys (scope, key, fingerprint, status_code, response) VALUES ($1, $2, 'POST /api/add_audit_event', 200, '{"status":"success","message":"sent alone"}')`, [
        `user:${farm.regular.id}`,
        raced.id,
      ]);
      const pushed = push(farm.regular.token, entries);
      // The push applies its entries, then waits on that key's row to store its answers.
      await expect.poll(async () => (await server.database.db.selectFrom(sql`pg_stat_activity`.as('activity')).select(sql<string>`wait_event_type`.as('wait')).where(sql`wait_event_type`, '=', 'Lock').execute()).length, { timeout: 10_000 }).toBeGreaterThan(0);
      await client.query('COMMIT');
      const refused = await pushed;
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ status: 'error', message: httpMessages.idempotencyInFlight });
      expect(await eventsTitled(`${title} first`)).toHaveLength(0);

      const again = await push(farm.regular.token, entries);
      expect(again.body.results.map((result) => result.status)).toEqual([200, 200]);
      expect(again.body.results[1]?.body).toEqual({ status: 'success', message: 'sent alone' });
      expect(await eventsTitled(`${title} first`)).toHaveLength(1);
      expect(await eventsTitled(`${title} raced`)).toHaveLength(0);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });
});

describe('an entry’s actedAt', () => {
  it('reaches the call as X-Acted-At: the rows it writes carry the time the act was done', async () => {
    const title = `Done two hours ago ${randomUUID()}`;
    const actedAt = new Date(Date.now() - 2 * 3_600_000);
    const response = await push(farm.regular.token, [{ ...eventEntry(title), actedAt: actedAt.toISOString() }]);
    expect(response.body.results[0]?.status).toBe(200);
    const [event] = await eventsTitled(title);
    expect(Math.abs(new Date(event?.created_at as Date).getTime() - actedAt.getTime())).toBeLessThan(1000);
  });
});
