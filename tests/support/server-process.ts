/**
 * The server as `npm start` runs it, for the browser tests: its own process (`tsx server/main.ts`,
 * after the build the harness made) on a fresh data directory. Its database is a fresh one on this
 * machine's PostgreSQL server, because the embedded database admits one process and the test opens the
 * same database to set up companies and to check what the screens wrote. Without a reachable
 * PostgreSQL server this answers null, and the harness runs the app in-process instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db/database';
import { type CaughtMail, freshPostgres, mailWaiter, requester, startMailCatcher, type TestServer } from './server';

/** What the browser tests use of a server, whichever way it runs. */
export type E2EServer = Pick<TestServer, 'url' | 'database' | 'mail' | 'mailTo' | 'request' | 'close'>;

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
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

function waitForStart(child: ChildProcess, text: string, timeoutMs: number): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
}

export async function startServerProcess(options: { webRoot: string }): Promise<E2EServer | null> {
  if (!(await postgresReachable(POSTGRES_URL))) return null;
  const postgres = await freshPostgres('grow_e2e', POSTGRES_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-e2e-'));
  const mail: CaughtMail[] = [];
  const catcher = await startMailCatcher(mail);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_ROOT: options.webRoot,
      DATABASE_URL: postgres.url,
      SMTP_URL: `smtp://127.0.0.1:${catcher.port}`,
      PUBLIC_URL: url,
      SEED_DEMO: '0',
      LOGIN_RATE_LIMIT: '100000',
      RESET_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await waitForStart(child, 'Grow Room is running', 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    await catcher.close();
    await postgres.drop();
    throw error;
  }
  child.removeAllListeners('exit');
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir });
  return {
    url,
    database,
    mail,
    mailTo: mailWaiter(mail),
    request: requester(url),
    async close() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await database.close();
      await postgres.drop();
      await catcher.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
