/**
 * A real server for a test file: the app over HTTP on 127.0.0.1, on a fresh database (PGlite in memory,
 * or a new PostgreSQL database when TEST_DATABASE_URL is set), with mail caught by an SMTP server on
 * loopback. No part of it is mocked.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../../server/app';
import type { App } from '../../server/http/route';
import { loadConfig, type ServerConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrations';
import { startSmtp } from './mail';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string | number | Blob>;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  config: ServerConfig;
  mail: CaughtMail[];
  /** Waits until a mail to `to` has arrived (mail goes out after the request's commit). */
  mailTo(to: string, timeoutMs?: number): Promise<CaughtMail>;
  request<T = Record<string, unknown>>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Stops the HTTP server as a shutdown does (requests in flight finish; new connections are refused); the database stays. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and database. */
  resume(): Promise<void>;
  /** Closes the database under the running server, as losing it would (the server then closes without it). */
  loseDatabase(): Promise<void>;
  close(): Promise<void>;
}

/** The database the suite runs on, for tests that depend on it (e.g. concurrent transactions). */
export const databaseKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/** A new, empty database on the suite's PostgreSQL server (TEST_DATABASE_URL), and how to drop it. */
export async function freshPostgres(prefix = 'grow_test', adminUrl = process.env.TEST_DATABASE_URL as string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startMailCatcher(mail: CaughtMail[]) {
  const smtp = await startSmtp(({ recipients, raw }) => {
    const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
    const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
    // nodemailer may wrap long lines (quoted-printable); unwrap soft breaks to read links whole.
    const text = rest.join('\n\n').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    for (const to of recipients) mail.push({ to, subject, text });
  });
  return { port: Number(new URL(smtp.url).port), close: smtp.close };
}

/** Calls the API of the server at `url` as the tests do: JSON or multipart bodies, a bearer token, the parsed answer. */
export function requester(url: string) {
  return async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const target = new URL(`${url}/api${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      const form = new FormData();
      for (const [key, value] of Object.entries(options.form)) form.append(key, value instanceof Blob ? value : String(value));
      body = form;
    }
    const response = await fetch(target, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (an image, a page): the text is the body.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}

/** Waits until a mail to `to` has arrived (mail goes out after the request's commit). */
export function mailWaiter(mail: CaughtMail[]) {
  return async (to: string, timeoutMs = 5000): Promise<CaughtMail> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mail.findLast((message) => message.to === to);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

export async function startServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-test-'));
  const mail: CaughtMail[] = [];
  const catcher = await startMailCatcher(mail);
  const postgres = process.env.TEST_DATABASE_URL ? await freshPostgres() : null;
  const config: ServerConfig = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: postgres?.url,
    smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
    publicUrl: 'http://grow.test',
    corsOrigins: ['http://grow.test'],
    seedDemo: false,
    loginRateLimitPerMinute: 10_000,
    resetRateLimitPerMinute: 10_000,
    webRoot: join(dataDir, 'no-web-app'),
    checkAnswers: true,
    // No test reaches the internet: weather goes nowhere (port 9, discard) unless a test starts the
    // Open-Meteo stand-in (tests/support/open-meteo.ts) and points these at it.
    openMeteoForecastUrl: 'http://127.0.0.1:9',
    openMeteoArchiveUrl: 'http://127.0.0.1:9',
    openMeteoGeocodingUrl: 'http://127.0.0.1:9',
    // A test that photographs every few seconds sets CAMERA_MIN_INTERVAL_SECONDS before it starts its
    // server (the end-to-end server, its own process, reads it from the environment as well).
    ...(process.env.CAMERA_MIN_INTERVAL_SECONDS ? { cameraMinIntervalSeconds: Number(process.env.CAMERA_MIN_INTERVAL_SECONDS) } : {}),
    ...overrides,
  };
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: postgres ? dataDir : 'memory://' });
  await migrate(database.db as never);
  let app = await buildApp(config, database, false);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  let running = true;
  let databaseLost = false;

  const request = requester(url);

  return {
    url,
    get app() {
      return app;
    },
    database,
    config,
    mail,
    request,
    mailTo: mailWaiter(mail),
    async stop() {
      running = false;
      await app.close();
    },
    async resume() {
      app = await buildApp(config, database, false);
      await app.listen({ port, host: '127.0.0.1' });
      running = true;
    },
    async loseDatabase() {
      databaseLost = true;
      await database.close();
    },
    async close() {
      // A server whose database was closed under it fails to let go of what it held there: expected.
      if (running) await app.close().catch((error: unknown) => (databaseLost ? undefined : Promise.reject(error)));
      if (!databaseLost) await database.close();
      await postgres?.drop();
      await catcher.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
