/**
 * `npm run bench`: requests per second and latency of the real server under load, printed as a table.
 * The server runs as `npm start` runs it (its own process, PGlite in a fresh data directory; with
 * BENCH_DATABASE_URL=postgres://… also on a fresh database created on that server and dropped after),
 * and a bare Fastify route is measured in the same run as the baseline. Figures depend on the machine; nothing here asserts them.
 *
 * Settings: BENCH_SECONDS (default 10 per target), BENCH_CONNECTIONS (default 50).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

interface Row {
  target: string;
  database: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function start(script: string, env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  const child = spawn(tsx, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function load(target: string, database: string, options: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections, duration: seconds, ...options });
  return {
    target,
    database,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function measureServer(database: string, databaseUrl: string | undefined): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-bench-'));
  const port = await freePort();
  const server = await start(
    'server/main.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_ROOT: join(dataDir, 'no-web-app'),
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '100000000',
      SEED_DEMO: '1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    'Grow Room is running',
  );
  try {
    const demo = readFileSync(join(dataDir, 'demo-sign-in.txt'), 'utf8');
    const [, email = '', password = ''] = /Admin:\s+(\S+)\s+password: (\S+)/.exec(demo) ?? [];
    const base = `http://127.0.0.1:${port}/api`;
    const form = new URLSearchParams({ email, password }).toString();
    const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const session = (await login.json()) as { access_token: string; company_id: number };
    return [
      await load('GET /api/get_company_grid_order', database, {
        url: `${base}/get_company_grid_order?company_id=${session.company_id}`,
        headers: { authorization: `Bearer ${session.access_token}` },
      }),
      await load('POST /api/login (argon2id)', database, {
        url: `${base}/login`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      }),
    ];
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
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
  const header = ['target', 'database', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const lines = rows.map((row) => [row.target, row.database, String(row.requestsPerSecond), String(row.p50), String(row.p99), String(row.errors)]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(`\n${connections} concurrent connections, ${seconds} s per target\n`);
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

async function withFreshPostgres<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `grow_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const rows: Row[] = [await measureBare(), ...(await measureServer('pglite', undefined))];
const postgresUrl = process.env.BENCH_DATABASE_URL;
if (postgresUrl) rows.push(...(await withFreshPostgres(postgresUrl, (url) => measureServer('postgres', url))));
print(rows);
