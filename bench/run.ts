/**
 * `npm run bench`: requests per second and latency of the real server under load, printed as a table.
 * The server runs as `npm start` runs it (its own process, PGlite in a fresh data directory; with
 * BENCH_DATABASE_URL=postgres://… also on a fresh database created on that server and dropped after),
 * and a bare Fastify route is measured in the same run as the baseline. Figures depend on the machine; nothing here asserts them.
 *
 * Settings: BENCH_SECONDS (default 10 per target), BENCH_CONNECTIONS (default 50), BENCH_ONLY: one part
 * alone, of
 * - `server`: the table above and the server's goals;
 * - `sync`: the sync engine, form responses and the pest-pressure map (bench/sync.ts, bench/forms.ts, bench/pest-pressure.ts);
 * - `fleet`: two server instances on one PostgreSQL database behind HAProxy, 200 simulated tablets
 *   pushing and pulling through it, every write checked on the database after (bench/fleet.ts; its
 *   settings are there). Not part of the default run (server, sync, notifications, then vision): it installs a Debian package
 *   when HAProxy is missing, needs a PostgreSQL server, and takes over two minutes;
 * - `reports`: the trend calls at a real company's size (10,000 boxes, a year of 500,000 form responses
 *   and 100,000 problems), p50 and p95 beside the goal (bench/reports.ts). Not part of the default run
 *   either: seeding the company takes 1 to 1.5 minutes on PostgreSQL and 2 to 4 on PGlite, and the
 *   whole part about ten;
 * - `notifications`: how many notifications a second the job queue delivers to a local receiver, and
 *   the delay from the triggering commit to arrival, p50 and p95, beside the goals (bench/notifications.ts);
 * - `vision`: the sticky-trap counter on one 12-megapixel trap photo on Node, median of 5 (bench/vision.ts;
 *   the tablet's figure is bench/browser.ts's).
 * The load_room_grids_boxes and get_unresolved_problems_for_room targets always use LOAD_CONNECTIONS: a
 * company's tablets opening the floor plan at once, not a flood of small calls; they accept compressed
 * answers, as every browser does.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { TSX, freePort, startScript as start, stopScript as stop } from '../tests/support/process';
import { measureFleet } from './fleet';
import { measureFormResponses } from './forms';
import { measurePestPressureMap } from './pest-pressure';
import { PRESSURE_ROOM, seedPressureRoom } from './problems';
import { measureNotifications } from './notifications';
import { measureReports } from './reports';
import { measureVision } from './vision';
import { benchPostgresUrl, withFreshPostgres } from './support';
import { type Call, measureSync } from './sync';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** The floor plan loaded by the load_room_grids_boxes targets: rooms × grids per room × (nx × ny) boxes. */
const FLOOR = { rooms: 10, gridsPerRoom: 10, nx: 10, ny: 10 };
const LOAD_CONNECTIONS = 20;

interface Row {
  target: string;
  database: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * autocannon stops on time, but the server still works through the requests that were in flight; on a
 * slow target (load_room_grids_boxes under PGlite: seconds of backlog) that would be charged to the next
 * target. Waiting about one loaded latency, then for one more request of the same kind, lets the next
 * target start on an idle server.
 */
async function settle(options: autocannon.Options, p99: number) {
  await new Promise((resolve) => setTimeout(resolve, Math.min(p99, 10_000)));
  const headers = options.headers as Record<string, string> | undefined;
  const body = options.body as string | undefined;
  await fetch(options.url, { method: options.method ?? 'GET', headers, body })
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
}

async function load(target: string, database: string, options: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections, duration: seconds, ...options });
  await settle(options, result.latency.p99);
  return {
    target,
    database,
    connections: options.connections ?? connections,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

interface Session {
  access_token: string;
  company_id: number;
}

/** A call to the running server that must succeed; answers its JSON. */
async function call<T>(base: string, session: Session, method: string, path: string, query: Record<string, string | number>, body?: object): Promise<T> {
  const url = new URL(`${base}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${session.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Seeds FLOOR through the real API, as a grower's tablet would; answers the room ids. */
async function seedFloor(base: string, session: Session): Promise<number[]> {
  const company = { company_id: session.company_id };
  const roomIds: number[] = [];
  for (let r = 1; r <= FLOOR.rooms; r += 1) {
    const room = await call<{ RoomID: number }>(base, session, 'POST', '/create_room', company, { name: `Bench room ${r}`, description: 'Seeded by npm run bench' });
    roomIds.push(room.RoomID);
    for (let g = 1; g <= FLOOR.gridsPerRoom; g += 1) {
      await call(base, session, 'POST', '/Create_grid', {}, { ncompany_id: session.company_id, nroom_id: room.RoomID, ngrid_name: `Bench grid ${r}.${g}`, nx: FLOOR.nx, ny: FLOOR.ny });
    }
  }
  // Measure only a complete answer: every box must come back.
  const loaded = await call<{ rooms: Array<{ grids: Array<{ boxes: unknown[] }> }> }>(base, session, 'GET', '/load_room_grids_boxes', company);
  const boxes = loaded.rooms.flatMap((room) => room.grids).reduce((sum, grid) => sum + grid.boxes.length, 0);
  const expected = FLOOR.rooms * FLOOR.gridsPerRoom * FLOOR.nx * FLOOR.ny;
  if (boxes !== expected) throw new Error(`load_room_grids_boxes answered ${boxes} boxes, expected ${expected}`);
  return roomIds;
}

interface SignedIn extends Session {
  refresh_token: string;
  user_id: number;
  user_role: string;
}

/**
 * Runs `run` against the server started as `npm start` starts it, on a fresh database, signed in as
 * the Admin of a company of the bench's own (made by `npm run cli -- create-company`, as an operator
 * would): the demo company's rooms and eight weeks of observations would weigh on every figure.
 */
async function withServer<T>(databaseUrl: string | undefined, run: (base: string, session: SignedIn, form: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-bench-'));
  const port = await freePort();
  const database = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  const email = 'admin@bench.growroom.local';
  const password = randomBytes(12).toString('base64url');
  const made = spawnSync(TSX, ['server/cli.ts', 'create-company', '--name', 'Bench Farm', '--admin-email', email, '--admin-password', password], { env: { ...process.env, ...database, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`npm run cli -- create-company failed:\n${made.stdout}\n${made.stderr}`);
  const server = await start(
    'server/main.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_ROOT: join(dataDir, 'no-web-app'),
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '100000000',
      SEED_DEMO: '0',
      ...database,
    },
    'Grow Room is running',
  );
  try {
    const base = `http://127.0.0.1:${port}/api`;
    const form = new URLSearchParams({ email, password }).toString();
    const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    return await run(base, (await login.json()) as SignedIn, form);
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function measureServer(database: string, databaseUrl: string | undefined): Promise<Row[]> {
  return withServer(databaseUrl, async (base, session, form) => {
    const authorization = { authorization: `Bearer ${session.access_token}` };
    // The floor plan and a room's problems as a tablet's browser asks for them: compressed answers accepted.
    const asBrowser = { ...authorization, 'accept-encoding': 'gzip, deflate, br, zstd' };
    const roomIds = await seedFloor(base, session);
    const floor = `${FLOOR.gridsPerRoom} grids × ${FLOOR.nx * FLOOR.ny} boxes`;
    const pressureRoom = await seedPressureRoom((method, path, query, body) => call(base, session, method, path, query, body), session);
    const pressureBoxes = PRESSURE_ROOM.grids * PRESSURE_ROOM.nx * PRESSURE_ROOM.ny;
    return [
      await load(`GET /api/get_unresolved_problems_for_room, ${pressureBoxes.toLocaleString('en')} boxes, ${PRESSURE_ROOM.problems.toLocaleString('en')} problems`, database, {
        url: `${base}/get_unresolved_problems_for_room?room_id=${pressureRoom}`,
        headers: asBrowser,
        connections: LOAD_CONNECTIONS,
      }),
      await load('GET /api/get_company_grid_order', database, {
        url: `${base}/get_company_grid_order?company_id=${session.company_id}`,
        headers: authorization,
      }),
      await load(`GET /api/load_room_grids_boxes, all ${FLOOR.rooms} rooms × ${floor}`, database, {
        url: `${base}/load_room_grids_boxes?company_id=${session.company_id}`,
        headers: asBrowser,
        connections: LOAD_CONNECTIONS,
      }),
      await load(`GET /api/load_room_grids_boxes, one room (room_id) × ${floor}`, database, {
        url: `${base}/load_room_grids_boxes?company_id=${session.company_id}&room_id=${roomIds[0]}`,
        headers: asBrowser,
        connections: LOAD_CONNECTIONS,
      }),
      await load('POST /api/login (argon2id)', database, {
        url: `${base}/login`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      }),
    ];
  });
}

async function measureBare(): Promise<Row> {
  const port = await freePort();
  const bare = await start('bench/bare-server.ts', { PORT: String(port) }, 'ready');
  try {
    return await load('GET bare Fastify route', '-', { url: `http://127.0.0.1:${port}/bare` });
  } finally {
    await stop(bare);
  }
}

function print(rows: Row[]) {
  const header = ['target', 'database', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const lines = rows.map((row) => [row.target, row.database, String(row.connections), String(row.requestsPerSecond), String(row.p50), String(row.p99), String(row.errors)]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(`\n${seconds} s per target; conns = concurrent connections\n`);
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

/** The server's goals (issues 12 and 14), each figure beside its goal: a settings read against a bare route, loading the floor, a room's open problems. */
function printGoals(rows: Row[]) {
  const bare = rows.find((row) => row.database === '-');
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  console.log('');
  for (const database of ['pglite', 'postgres']) {
    const of = (prefix: string) => rows.find((row) => row.database === database && row.target.startsWith(prefix));
    const order = of('GET /api/get_company_grid_order');
    if (bare && order) {
      const ratio = order.requestsPerSecond / bare.requestsPerSecond;
      console.log(`${database}: get_company_grid_order at ${ratio.toFixed(2)} of the bare route (goal: at least 0.25; ${verdict(ratio >= 0.25)})`);
    }
    const room = of('GET /api/load_room_grids_boxes, one room');
    if (room) console.log(`${database}: load_room_grids_boxes, one room of 1,000 boxes: p99 ${room.p99} ms at ${room.connections} connections (goal on PostgreSQL: at most 30 ms; ${verdict(room.p99 <= 30)})`);
    const company = of('GET /api/load_room_grids_boxes, all');
    if (company) console.log(`${database}: load_room_grids_boxes, the company's 10,000 boxes: p99 ${company.p99} ms (goal on PostgreSQL: at most 300 ms; ${verdict(company.p99 <= 300)})`);
    const pressure = of('GET /api/get_unresolved_problems_for_room');
    if (pressure) console.log(`${database}: get_unresolved_problems_for_room, a room of 2,000 boxes with 20,000 problems: p99 ${pressure.p99} ms at ${pressure.connections} connections (goal: at most 50 ms; ${verdict(pressure.p99 <= 50)})`);
  }
}

// BENCH_ONLY=server, sync, fleet, reports, notifications or vision runs one part; without it, server, sync, notifications, then vision.
const PARTS = ['server', 'sync', 'fleet', 'reports', 'notifications', 'vision'] as const;
const only = process.env.BENCH_ONLY;
if (only !== undefined && !(PARTS as readonly string[]).includes(only)) {
  console.error(`BENCH_ONLY=${only}: not a part of the bench (${PARTS.join(', ')})`);
  process.exit(2);
}
const runs = (part: (typeof PARTS)[number]) => (only === undefined ? part !== 'fleet' && part !== 'reports' : only === part);
if (runs('server')) {
  const rows: Row[] = [await measureBare(), ...(await measureServer('pglite', undefined))];
  // On PostgreSQL too: BENCH_DATABASE_URL, or a server at this machine's default address.
  const postgresUrl = await benchPostgresUrl();
  if (postgresUrl) rows.push(...(await withFreshPostgres(postgresUrl, (url) => measureServer('postgres', url))));
  print(rows);
  printGoals(rows);
}
if (runs('sync')) {
  // The sync engine in Node against the real server (bench/sync.ts, bench/forms.ts), on PGlite and, with
  // BENCH_DATABASE_URL or a PostgreSQL server on this machine's default address, on PostgreSQL.
  const measure = (database: 'pglite' | 'postgres') => async (base: string, session: SignedIn) => {
    console.log(`\nSync engine (Node, RxDB memory storage, outbox on fake-indexeddb; server on ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'})\n`);
    const send: Call = (method, path, query, body) => call(base, session, method, path, query, body);
    const report = (line: string) => console.log(line);
    await measureFormResponses(base, session, send, report);
    await measurePestPressureMap(base, session, report);
    await measureSync(base, session, send, report, database);
  };
  await withServer(undefined, measure('pglite'));
  const postgresUrl = await benchPostgresUrl();
  if (postgresUrl) await withFreshPostgres(postgresUrl, (url) => withServer(url, measure('postgres')));
  else console.log('\n(No PostgreSQL server: set BENCH_DATABASE_URL for the sync figures on PostgreSQL.)');
}
if (runs('fleet')) {
  // Several instances need a PostgreSQL server (the embedded database admits one process).
  const postgresUrl = await benchPostgresUrl();
  if (postgresUrl) await measureFleet(postgresUrl);
  else {
    console.error('BENCH_ONLY=fleet needs a PostgreSQL server: set BENCH_DATABASE_URL (none answers at this machine\'s default address).');
    process.exitCode = 1;
  }
}
if (runs('reports')) await measureReports();
if (runs('notifications')) await measureNotifications();
if (runs('vision')) await measureVision();
