/**
 * The operator CLI as an operator runs it: a child process (tsx server/cli.ts) on a real database (a
 * data directory, or a fresh PostgreSQL database when the suite runs on PostgreSQL), then the app on
 * that same database. Each tsx start costs about a second, so the cases are few.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionMessages } from '../../common/messages/session';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { databaseKind, freshPostgres } from '../support/server';
import { TSX } from '../support/process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end (at most 30 s) with DATA_DIR, and DATABASE_URL when given. */
function cli(args: string[], env: { dataDir: string; databaseUrl?: string | undefined }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['server/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: env.dataDir, DATABASE_URL: env.databaseUrl ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish within 30 s\n${stdout}\n${stderr}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}


const temporaryDirs: string[] = [];
const temporaryDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'grow-cli-'));
  temporaryDirs.push(dir);
  return dir;
};

let dataDir: string;
let postgres: Awaited<ReturnType<typeof freshPostgres>> | null = null;
const target = () => ({ dataDir, databaseUrl: postgres?.url });

beforeAll(async () => {
  dataDir = temporaryDir();
  if (databaseKind === 'postgres') postgres = await freshPostgres('grow_cli');
});
afterAll(async () => {
  await postgres?.drop();
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

const admin = { email: `owner-${randomBytes(4).toString('hex')}@example.test`, password: 'correct horse battery' };
const invitee = { email: `grower-${randomBytes(4).toString('hex')}@example.test`, password: 'grower password 1' };
let created: { company_id: number; user_id: number };
let inviteToken: string;

describe('setting up a company from the command line', () => {
  it('create-company prints the company and its Admin as one JSON line', async () => {
    const run = await cli(['create-company', '--name', 'Cli Farm', '--admin-email', admin.email, '--admin-password', admin.password], target());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    created = JSON.parse(lines[0] as string) as typeof created;
    expect(created).toEqual({ company_id: expect.any(Number), user_id: expect.any(Number) });
  });

  it('invite prints an invitation token', async () => {
    // On the embedded database, a lock left by a process that has ended is taken over, and released.
    const deadPid = databaseKind === 'pglite' ? spawnSync('true').pid : undefined;
    if (deadPid) writeFileSync(join(dataDir, 'db.lock'), String(deadPid));
    const run = await cli(['invite', '--company-id', String(created.company_id), '--email', invitee.email, '--role', 'Regular'], target());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0] as string) as { invite_token: string };
    expect(printed).toEqual({ invite_token: expect.stringMatching(/^\S{20,}$/) });
    inviteToken = printed.invite_token;
    expect(existsSync(join(dataDir, 'db.lock'))).toBe(false);
  });

  it('the server on the same database signs the Admin in and signs the invited user up', async () => {
    const config = { ...loadConfig({}), dataDir, databaseUrl: postgres?.url, seedDemo: false, webRoot: join(dataDir, 'no-web-app') };
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
    const app = await buildApp(config, database, false);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
      const form = (fields: Record<string, string>) => new URLSearchParams(fields);

      const signIn = await fetch(`${base}/login`, { method: 'POST', body: form(admin) });
      expect(signIn.status).toBe(200);
      expect(await signIn.json()).toMatchObject({ status: 'success', user_id: created.user_id, company_id: created.company_id, user_role: 'Admin' });

      const signUp = await fetch(`${base}/Create_new_user`, {
        method: 'POST',
        body: form({ first_name: 'Gina', last_name: 'Grower', email: invitee.email, password: invitee.password, invite_token: inviteToken }),
      });
      expect(signUp.status).toBe(200);
      expect(await signUp.json()).toMatchObject({ status: 'success', message: sessionMessages.userCreated, company_id: created.company_id, user_role: 'Regular' });

      const grower = await fetch(`${base}/login`, { method: 'POST', body: form(invitee) });
      expect(grower.status).toBe(200);
      expect(await grower.json()).toMatchObject({ company_id: created.company_id, user_role: 'Regular' });

      // The invitation works once.
      const again = await fetch(`${base}/Create_new_user`, {
        method: 'POST',
        body: form({ first_name: 'Gina', last_name: 'Grower', email: invitee.email, password: invitee.password, invite_token: inviteToken }),
      });
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ status: 'error', message: sessionMessages.inviteUsed });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('refusals', () => {
  it('bad arguments exit non-zero with a clear message and the usage, touching nothing', async () => {
    const untouched = temporaryDir();
    const cases: Array<[string[], string]> = [
      [['create-company', '--admin-email', 'a@example.test', '--admin-password', 'long enough'], '--name is required.'],
      [['create-company', '--name', 'Farm', '--admin-email', 'a@example.test', '--admin-password', 'short'], sessionMessages.passwordTooShort],
      [['frobnicate'], 'Unknown command: frobnicate'],
      [['create-company', '--nmae', 'Farm'], "Unknown option '--nmae'"],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args, { dataDir: untouched })));
    runs.forEach((run, index) => {
      const [args, message] = cases[index] as [string[], string];
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('Usage:');
      // A clear message, not a stack trace.
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
    expect(readdirSync(untouched)).toEqual([]);
  });

  it('refuses the embedded database while another live process holds it', async () => {
    const locked = temporaryDir();
    let sleeper: ChildProcess | undefined;
    try {
      sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
      const pid = sleeper.pid as number;
      writeFileSync(join(locked, 'db.lock'), String(pid));
      const run = await cli(['create-company', '--name', 'Farm', '--admin-email', 'a@example.test', '--admin-password', 'long enough'], { dataDir: locked });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`is in use by another process (pid ${pid})`);
      // The owner keeps its lock, and the database was never opened.
      expect(readFileSync(join(locked, 'db.lock'), 'utf8')).toBe(String(pid));
      expect(readdirSync(locked)).toEqual(['db.lock']);
    } finally {
      if (sleeper && sleeper.exitCode === null) {
        const exited = new Promise((resolve) => sleeper?.once('exit', resolve));
        sleeper.kill('SIGTERM');
        await exited;
      }
    }
  });
});
