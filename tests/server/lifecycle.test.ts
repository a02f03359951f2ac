/**
 * The real server process (`tsx server/main.ts`, what `npm start` runs) from first start to graceful
 * stop and restart, on a data directory (and a fresh PostgreSQL database when the suite runs on
 * PostgreSQL). Every wait is bounded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, freshPostgres } from '../support/server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const DEMO_ADMIN = 'admin@demo.growroom.local';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}


async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  base: string;
  output(): string;
  exit: Promise<number | null>;
  exited(): boolean;
}

const running: Running[] = [];
let dataDir: string;
let postgres: Awaited<ReturnType<typeof freshPostgres>> | null = null;

async function startMain(): Promise<Running> {
  const port = await freePort();
  const child = spawn(TSX, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_ROOT: join(dataDir, 'no-web-app'),
      DATABASE_URL: postgres?.url ?? '',
      SEED_DEMO: '1',
      LOG_LEVEL: 'info',
    },
  });
  let stdout = '';
  let stderr = '';
  let done = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      done = true;
      resolve(code);
    }),
  );
  const server: Running = { child, base: `http://127.0.0.1:${port}/api`, output: () => stdout, exit, exited: () => done };
  running.push(server);
  await until('GET /api/health', async () => {
    if (done) throw new Error(`The server exited while starting:\n${stdout}\n${stderr}`);
    const health = await fetch(`${server.base}/health`).catch(() => null);
    return health?.status === 200 ? health : undefined;
    // A first start makes the embedded database (initdb) and the demo: ~20 s on a quiet 2-core
    // machine, three times that while the rest of the suite runs beside it.
  }, 120_000);
  return server;
}

/** The exit code of a server that was told to stop (at most 20 s). */
async function exitCode(server: Running) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The server did not exit within 20 s of SIGTERM')), 20_000);
  });
  return Promise.race([server.exit, timeout]).finally(() => clearTimeout(timer));
}

/** Stops the server with SIGTERM and returns its exit code. */
async function stop(server: Running) {
  server.child.kill('SIGTERM');
  return exitCode(server);
}

const login = (server: Running, email: string, password: string) =>
  fetch(`${server.base}/login`, { method: 'POST', body: new URLSearchParams({ email, password }) });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'grow-life-'));
  if (databaseKind === 'postgres') postgres = await freshPostgres('grow_life');
});
afterAll(async () => {
  for (const server of running) {
    if (!server.exited()) {
      server.child.kill('SIGKILL');
      await server.exit;
    }
  }
  await postgres?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

let demoPassword: string;

describe('the server process', { timeout: 180_000 }, () => {
  it('on its first start prints the demo sign-in, which works', async () => {
    const server = await startMain();
    const demo = new RegExp(`Admin:\\s+${DEMO_ADMIN.replace(/\./g, '\\.')}\\s+password: (\\S+)`).exec(server.output());
    expect(demo, server.output()).not.toBeNull();
    demoPassword = demo?.[1] as string;

    const signIn = await login(server, DEMO_ADMIN, demoPassword);
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({ status: 'success', user_role: 'Admin', access_token: expect.any(String) });
    const wrong = await login(server, DEMO_ADMIN, `${demoPassword}-not`);
    expect(wrong.status).toBe(401);

    if (databaseKind === 'pglite') expect(existsSync(join(dataDir, 'db.lock'))).toBe(true);
  });

  it('on SIGTERM finishes the request in flight, exits with 0 and releases the data directory', async () => {
    const server = running.at(-1) as Running;
    const body = new URLSearchParams({ email: DEMO_ADMIN, password: demoPassword }).toString();
    const half = Math.floor(body.length / 2);
    // This request's own log line, found by the port it comes from: the first test's logins may still
    // be on their way to the log, and counting lines would take them for this one under load.
    let port: number | undefined;
    const arrived = () => port !== undefined && server.output().split('\n').some((line) => line.includes('"incoming request"') && line.includes('"/api/login"') && line.includes(`"remotePort":${port}`));

    // A client that keeps its connection open for as long as the server allows, as browsers do.
    const agent = new Agent({ keepAlive: true });
    // The request is in flight for certain: its headers and half its body are in, the rest comes after SIGTERM.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${server.base}/login`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) },
      });
      request.on('error', reject);
      request.on('socket', (socket) => socket.on('connect', () => (port = socket.localPort)));
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      });
      request.write(body.slice(0, half));
      void until('the login request to arrive', () => (arrived() ? true : undefined), 10_000)
        .then(async () => {
          server.child.kill('SIGTERM');
          await until('the server to begin shutting down', () => (server.output().includes('"shutting down"') ? true : undefined), 10_000);
          request.end(body.slice(half));
        })
        .catch(reject);
    });

    const response = await answer;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ status: 'success', access_token: expect.any(String) });
    // The kept-alive connection does not hold the stopping server open.
    expect(await exitCode(server).finally(() => agent.destroy())).toBe(0);
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(false);
  });

  it('starts again on the same data: the same Admin signs in and no second demo is made', async () => {
    const server = await startMain();
    expect(server.output()).not.toContain(DEMO_ADMIN);
    const signIn = await login(server, DEMO_ADMIN, demoPassword);
    expect(signIn.status).toBe(200);
    expect(await stop(server)).toBe(0);
  });
});
