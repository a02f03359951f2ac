/**
 * The server as `npm start` runs it, for the browser tests: its own process (`tsx server/main.ts`,
 * after the build the harness made) on a fresh data directory. Its database is a fresh one on this
 * machine's PostgreSQL server, because the embedded database admits one process and the test opens the
 * same database to set up companies and to check what the screens wrote. Without a reachable
 * PostgreSQL server this answers null, and the harness runs the app in-process instead.
 *
 * The sync chaos test (tests/chaos) runs it too, and crashes it: `kill` (SIGKILL) and `restart` (on the
 * same port, database and data directory).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { freePort, killScript, startScript, stopScript } from './process';
import { type CaughtMail, freshPostgres, mailWaiter, requester, startMailCatcher, type TestServer } from './server';

/** The server's Stripe settings, as a test passes them (tests/support/stripe.ts `settings()`). */
export type StripeSettings = Pick<ServerConfig, 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripePriceMonthly' | 'stripePriceYearly' | 'stripeApiUrl'>;

/** What the browser tests use of a server, whichever way it runs. */
export type E2EServer = Pick<TestServer, 'url' | 'database' | 'mail' | 'mailTo' | 'request' | 'close'>;

/** The server as its own process, which a test may crash and start again. */
export interface ServerProcess extends E2EServer {
  /** SIGKILL: the process dies at once, as in a crash (the database stays). */
  kill(): Promise<void>;
  /** Starts the process again on the same port, database and data directory (after `kill`, or while running: kills it first). */
  restart(): Promise<void>;
}

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.E2E_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether a PostgreSQL server answers at `url` (the browser tests and the bench fall back without one). */
export async function postgresReachable(url: string): Promise<boolean> {
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

export async function startServerProcess(options: {
  webRoot: string;
  databasePrefix?: string;
  /**
   * The base address of an Open-Meteo stand-in (tests/support/open-meteo.ts) for its three services.
   * Without it weather goes nowhere (port 9, discard), as with startServer: no test reaches the internet.
   */
  openMeteoUrl?: string;
  /** Stripe's settings pointing at a stand-in (tests/support/stripe.ts `settings()`); without them billing is not set up. */
  stripe?: StripeSettings;
}): Promise<ServerProcess | null> {
  if (!(await postgresReachable(POSTGRES_URL))) return null;
  const postgres = await freshPostgres(options.databasePrefix ?? 'grow_e2e', POSTGRES_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-e2e-'));
  const mail: CaughtMail[] = [];
  const catcher = await startMailCatcher(mail);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
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
    CHECK_ANSWERS: '1',
    OPEN_METEO_FORECAST_URL: options.openMeteoUrl ?? 'http://127.0.0.1:9',
    OPEN_METEO_ARCHIVE_URL: options.openMeteoUrl ?? 'http://127.0.0.1:9',
    OPEN_METEO_GEOCODING_URL: options.openMeteoUrl ?? 'http://127.0.0.1:9',
    ...(options.stripe
      ? {
          STRIPE_SECRET_KEY: options.stripe.stripeSecretKey ?? '',
          STRIPE_WEBHOOK_SECRET: options.stripe.stripeWebhookSecret ?? '',
          STRIPE_PRICE_MONTHLY: options.stripe.stripePriceMonthly ?? '',
          STRIPE_PRICE_YEARLY: options.stripe.stripePriceYearly ?? '',
          STRIPE_API_URL: options.stripe.stripeApiUrl,
        }
      : {}),
  };
  const start = () => startScript('server/main.ts', env, 'Grow Room is running');
  let child: ChildProcess;
  try {
    child = await start();
  } catch (error) {
    await catcher.close();
    await postgres.drop();
    throw error;
  }
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir });
  return {
    url,
    database,
    mail,
    mailTo: mailWaiter(mail),
    request: requester(url),
    async kill() {
      await killScript(child);
    },
    async restart() {
      await killScript(child);
      child = await start();
    },
    async close() {
      // A killed process has exited already (its exit code stays null: it ended by a signal).
      if (child.signalCode === null) await stopScript(child);
      await database.close();
      await postgres.drop();
      await catcher.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
