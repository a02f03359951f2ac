/**
 * Several server instances on one PostgreSQL database behind a real load balancer (HAProxy, README
 * "Running several instances"): no instance keeps what another needs. A change made through one
 * reaches browsers connected to the other by the change stream; a session and an Idempotency-Key
 * answered by one hold on the other; requests through HAProxy alternate and all succeed; a file
 * uploaded through one is read through the other when DATA_DIR/uploads is one shared directory.
 *
 * Needs a PostgreSQL server (TEST_DATABASE_URL, else this machine's at 127.0.0.1:5432) and HAProxy,
 * installed from Debian's packages when missing and this runs as root; without either it is skipped,
 * saying why. Both instances run in this process, each with its own data directory and app.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { createRoom, createTenant, signIn, type Tenant } from '../support/factories';
import { type Balancer, changedCollections, ensureHaproxy, openChangeStream, SERVED_BY, startHaproxy } from '../support/haproxy';
import { freshPostgres, requester, startServer, type TestServer } from '../support/server';
import { postgresReachable } from '../support/server-process';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function whyNot(): Promise<string | null> {
  if (!(await postgresReachable(POSTGRES_URL))) return `no PostgreSQL server answers at ${POSTGRES_URL} (set TEST_DATABASE_URL)`;
  const haproxy = await ensureHaproxy();
  return haproxy.ok ? null : haproxy.reason;
}
const skipped = await whyNot();
if (skipped) console.warn(`tests/server/fleet.test.ts skipped (several instances behind HAProxy): ${skipped}`);

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

describe.skipIf(skipped !== null)('several instances on one database behind HAProxy', () => {
  let postgres: Awaited<ReturnType<typeof freshPostgres>>;
  let a: TestServer;
  let b: TestServer;
  let balancer: Balancer;
  let farm: Tenant;
  const dirs: string[] = [];
  const byName = () => ({ a, b });
  const viaBalancer = () => requester(balancer.url);

  beforeAll(async () => {
    postgres = await freshPostgres('grow_fleet', POSTGRES_URL);
    // Each instance has a data directory of its own, with DATA_DIR/uploads on one shared directory
    // (in production: a shared volume mounted there).
    const uploads = mkdtempSync(join(tmpdir(), 'grow-fleet-uploads-'));
    dirs.push(uploads);
    const dataDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'grow-fleet-'));
      dirs.push(dir);
      mkdirSync(dir, { recursive: true });
      symlinkSync(uploads, join(dir, 'uploads'));
      return dir;
    };
    a = await startServer({ databaseUrl: postgres.url, dataDir: dataDir() });
    b = await startServer({ databaseUrl: postgres.url, dataDir: dataDir() });
    balancer = await startHaproxy([
      { name: 'a', url: a.url },
      { name: 'b', url: b.url },
    ]);
    // Made in the database and signed in through instance A.
    farm = await createTenant(a);
  });
  afterAll(async () => {
    await balancer?.close();
    await b?.close();
    await a?.close();
    await postgres?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const addEvent = (server: Pick<TestServer, 'request'>, title: string, clientId = newClientId()) =>
    server.request('POST', '/add_audit_event', { token: farm.regular.token, json: { UserID: farm.regular.id, EventTitle: title, client_id: clientId } });
  const eventsWithClientId = async (clientId: string) =>
    (await a.database.db.selectFrom('audit_events').select('id').where('company_id', '=', farm.companyId).where('client_id', '=', clientId).execute()).length;

  it('a change made through one instance is announced on the change stream of a browser connected to the other', async () => {
    for (const [writer, reader] of [
      [a, b],
      [b, a],
    ] as const) {
      const stream = await openChangeStream(reader.url, farm.regular.token);
      try {
        expect((await addEvent(writer, 'Across instances')).status).toBe(200);
        const announced = await stream.next((event) => changedCollections(event).includes('audit_events'));
        expect(announced.event).toBe('change');
      } finally {
        stream.close();
      }
    }

    // Through HAProxy: the stream passes unbuffered, and hears of a change made on the other instance.
    const stream = await openChangeStream(balancer.url, farm.regular.token);
    try {
      expect(['a', 'b']).toContain(stream.servedBy);
      const other = stream.servedBy === 'a' ? b : a;
      expect((await addEvent(other, 'Through the balancer')).status).toBe(200);
      expect(changedCollections(await stream.next((event) => changedCollections(event).includes('audit_events')))).toContain('audit_events');
    } finally {
      stream.close();
    }
  });

  it('a session opened through one instance works on the other, and so does its refresh', async () => {
    const session = await signIn(a, farm.regular.email, farm.regular.password);
    const pulled = await b.request('GET', '/sync/pull', { token: session.access_token, query: { collection: 'rooms' } });
    expect(pulled.status).toBe(200);
    const refreshed = await b.request<{ access_token: string; refresh_token: string }>('POST', '/refresh_token', { token: session.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await a.request('GET', '/sync/pull', { token: refreshed.body.access_token, query: { collection: 'rooms' } })).status).toBe(200);
    // Refresh tokens live in the database: the one B issued is refreshed by A.
    expect((await a.request('POST', '/refresh_token', { token: refreshed.body.refresh_token })).status).toBe(200);
  });

  it('a change sent again through the other instance gets the first answer and is not applied twice', async () => {
    // As a push entry (the tablet's replay path).
    const clientId = newClientId();
    const entry = { id: newClientId(), method: 'POST', path: '/add_audit_event', body: { kind: 'json', data: { UserID: farm.regular.id, EventTitle: 'Pushed once', client_id: clientId } } };
    type Pushed = { results: Array<{ id: string; status: number; body: unknown }> };
    const first = await a.request<Pushed>('POST', '/sync/push', { token: farm.regular.token, json: { entries: [entry] } });
    const again = await b.request<Pushed>('POST', '/sync/push', { token: farm.regular.token, json: { entries: [entry] } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(first.body.results[0]?.status).toBe(200);
    expect(again.body.results).toEqual(first.body.results);
    expect(await eventsWithClientId(clientId)).toBe(1);

    // As a call of its own with an Idempotency-Key.
    const roomClientId = newClientId();
    const key = newClientId();
    const create = (server: TestServer) =>
      server.request('POST', '/create_room', {
        token: farm.regular.token,
        query: { company_id: farm.companyId },
        json: { name: 'Once', description: 'Sent through both instances', client_id: roomClientId },
        headers: { 'idempotency-key': key },
      });
    const created = await create(a);
    const replayed = await create(b);
    expect(created.status).toBe(200);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(created.body);
    const rooms = await a.database.db.selectFrom('rooms').select('id').where('company_id', '=', farm.companyId).where('client_id', '=', roomClientId).execute();
    expect(rooms).toHaveLength(1);
  });

  it('requests through HAProxy alternate between the instances and all succeed', async () => {
    const request = viaBalancer();
    const servedBy: Array<string | null> = [];
    for (let index = 0; index < 10; index += 1) {
      const pulled = await request('GET', '/sync/pull', { token: farm.regular.token, query: { collection: 'audit_events' } });
      expect(pulled.status).toBe(200);
      servedBy.push(pulled.headers.get(SERVED_BY));
    }
    const clientIds = Array.from({ length: 10 }, () => newClientId());
    for (const clientId of clientIds) {
      const added = await addEvent({ request }, 'Through the balancer', clientId);
      expect(added.status).toBe(200);
      servedBy.push(added.headers.get(SERVED_BY));
    }
    // Round robin: every answer from the instance the previous one did not come from.
    expect(servedBy.every((name, index) => (name === 'a' || name === 'b') && name !== servedBy[index - 1])).toBe(true);
    for (const clientId of clientIds) expect(await eventsWithClientId(clientId)).toBe(1);
  });

  it('a file uploaded through one instance is read through the other (DATA_DIR/uploads shared)', async () => {
    for (const [writer, reader] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const room = await createRoom(a, farm.companyId);
      const form = { room_id: room, imageFile: new Blob([PNG], { type: 'image/png' }) };
      const uploaded = await byName()[writer].request<{ WhiteboardImage: string }>('POST', '/upload_whiteboard_image', { token: farm.regular.token, form });
      expect(uploaded.status).toBe(200);
      const read = await fetch(`${byName()[reader].url}${uploaded.body.WhiteboardImage}`, { headers: { authorization: `Bearer ${farm.regular.token}` } });
      expect(read.status).toBe(200);
      expect(new Uint8Array(await read.arrayBuffer())).toEqual(PNG);
    }
  });
});
