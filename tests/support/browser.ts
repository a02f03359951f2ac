/**
 * The end-to-end harness: the production build of the web app, served by the real server (startServer
 * with `webRoot`), in Debian's Chromium driven by playwright-core (ARCHITECTURE.md "Tests").
 *
 * The build is content-addressed: its directory (in the system's temp directory) is named by a hash of
 * everything the bundle can be made of (every file of the checkout except node_modules, the server,
 * the tests, benches, the spec and Markdown, plus the installed packages' lock file and the VITE_*
 * environment). A test therefore never runs against a stale build, and a run whose sources did not
 * change since the last one reuses it (a build of sources edited while it ran is used once, not kept).
 * Test files running side by side wait for one build (a lock file naming its builder's pid). Builds
 * unused for a day are removed. `dist/` is never read or written.
 *
 * Without /usr/bin/chromium the e2e suites are skipped with a message (`describe.skipIf(skipBrowser)`),
 * except in CI (CI=true), where a missing Chromium fails them: .ci/run installs it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer } from './server';
import { type E2EServer, startServerProcess, type StripeSettings } from './server-process';

const run = promisify(execFile);

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** The flags of ARCHITECTURE.md "Tests". */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

const inCi = Boolean(process.env.CI) && !['false', '0'].includes(String(process.env.CI).toLowerCase());

/** True when the e2e suites must be skipped: no Chromium on a developer machine. In CI they run (and fail without it). */
export const skipBrowser = !existsSync(CHROMIUM_PATH) && !inCi;
if (skipBrowser) {
  console.warn(`End-to-end tests skipped: no Chromium at ${CHROMIUM_PATH}. Install it with: apt-get install -y --no-install-recommends chromium`);
}

const ROOT = join(import.meta.dirname, '..', '..');
/** Never part of the browser bundle (lint keeps src/ from importing server/), or not source at all. */
const NOT_BUNDLE_INPUTS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-output', 'server', 'tests', 'bench', 'spec', '.ci']);

function bundleInputs(directory: string, found: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (directory === ROOT && NOT_BUNDLE_INPUTS.has(entry.name)) continue;
    if (entry.isDirectory()) bundleInputs(path, found);
    else if (entry.isFile() && !entry.name.endsWith('.md') && !entry.name.endsWith('.log')) found.push(path);
  }
  return found;
}

/** A hash of what the build is made of (see the header); the installed packages stand in by their lock files. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const files = [...bundleInputs(ROOT), join(ROOT, 'node_modules', '.package-lock.json')].filter((path) => existsSync(path)).sort();
  for (const path of files) {
    hash.update(relative(ROOT, path).split(sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(path));
    hash.update('\0');
  }
  const viteEnv = Object.entries(process.env).filter(([name]) => name.startsWith('VITE_')).sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(viteEnv));
  return hash.digest('hex').slice(0, 20);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the build lock, or returns false while another live process holds it. */
async function tryLock(lock: string): Promise<boolean> {
  try {
    const handle = await open(lock, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
    // An empty lock is being written right now, unless it has stayed empty for a while.
    const age = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0);
    if ((holder > 0 && processAlive(holder)) || (!(holder > 0) && age < 10_000)) return false;
    await unlink(lock).catch(() => undefined);
    return tryLock(lock);
  }
}

/** The environment of the build: a production build, whatever the test runner set (vitest sets NODE_ENV=test). */
function buildEnvironment(): NodeJS.ProcessEnv {
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'));
  return { ...environment, NODE_ENV: 'production' };
}

async function build(outDir: string) {
  const environment = buildEnvironment();
  const options = { cwd: ROOT, env: environment, maxBuffer: 64 * 1024 * 1024 };
  try {
    await run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], options);
    await run(process.execPath, [join(ROOT, 'scripts', 'build-service-worker.mjs'), outDir], options);
    await run(process.execPath, [join(ROOT, 'scripts', 'compress-assets.mjs'), outDir], options);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`Building the web app for the end-to-end tests failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

let built: Promise<string> | undefined;

/**
 * The production build of the current sources (vite build + the service worker), built if no run has
 * built these sources yet. Returns its directory, for startServer's `webRoot`.
 */
export function webAppBuild(): Promise<string> {
  built ??= (async () => {
    const cache = join(tmpdir(), 'growroom-e2e-web');
    await mkdir(cache, { recursive: true });
    const key = sourceHash();
    const target = join(cache, key);
    const lock = `${target}.lock`;
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      if (existsSync(join(target, 'sw.js'))) return reused(target);
      if (await tryLock(lock)) break;
      if (Date.now() > deadline) throw new Error(`Waited 5 minutes for another process to build the web app (${lock})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      if (existsSync(join(target, 'sw.js'))) return reused(target);
      const partial = `${target}.partial-${process.pid}`;
      await rm(partial, { recursive: true, force: true });
      await build(partial);
      // Sources edited during the build: this run uses what was built, but nothing is kept under a name it does not match.
      if (sourceHash() !== key) return partial;
      await rm(target, { recursive: true, force: true });
      await rename(partial, target);
      await pruneOldBuilds(cache, target);
      return target;
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  })();
  return built;
}

/** Marks a build as used now (pruning goes by last use). */
function reused(target: string): string {
  const now = new Date();
  utimesSync(target, now, now);
  return target;
}

/** Removes builds (and leftovers of failed builds) not used for a day: other checkouts may be using recent ones. */
async function pruneOldBuilds(cache: string, keep: string) {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path === keep || name.endsWith('.lock')) continue;
    const usedAt = await stat(path).then((info) => info.mtimeMs, () => Date.now());
    if (usedAt < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

function requireChromium() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: the end-to-end tests need Debian's chromium (apt-get install -y --no-install-recommends chromium; .ci/run does it).`);
  }
}

/** Launches Chromium with the flags above; fails with a clear message when it is missing. */
export async function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

/**
 * Launches Chromium with the flags above plus `extraArgs`, for what can only be set at launch (a fake
 * camera fed from a file: tests/support/fake-camera.ts `fakeCameraArgs`). Pages for the test server
 * come from `newTabletPage`. The caller closes the browser.
 */
export async function launchChromiumWith(extraArgs: readonly string[]): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...extraArgs], headless: true });
}

/**
 * A page as `E2E.newPage` makes one (a fresh context at the tablet's size, service workers allowed,
 * relative URLs on the test server), in a browser of the caller's (`launchChromiumWith`).
 * `permissions` are granted to the context (e.g. `['camera']`).
 */
export async function newTabletPage(browser: Browser, server: { url: string }, options: { permissions?: string[] } = {}): Promise<BrowserPage> {
  const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'allow', viewport: { width: 768, height: 1024 }, permissions: options.permissions ?? [] });
  return watched(context, await context.newPage());
}

/** A page with its uncaught errors and console errors and warnings collected, for the test to assert on. */
function watched(context: BrowserContext, page: Page): BrowserPage {
  const errors: Error[] = [];
  const messages: string[] = [];
  page.on('pageerror', (error) => errors.push(error));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') messages.push(`${message.type()}: ${message.text()}`);
  });
  return { context, page, errors, console: messages };
}

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page (not of its workers), for tests to assert there were none. */
  errors: Error[];
  /** The page's console errors and warnings, to explain a failure. */
  console: string[];
}

/**
 * A page in a fresh Chromium profile of its own (a new user data directory, not an incognito context
 * as `E2E.newPage` gives): what installing the app needs (Chromium installs nothing from incognito).
 * The caller closes the context; its profile directory goes with the temporary directory.
 */
export async function newTabletProfile(server: { url: string }): Promise<BrowserPage> {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'growroom-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true, baseURL: server.url, serviceWorkers: 'allow', viewport: { width: 768, height: 1024 } });
  context.on('close', () => {
    // Chromium may still be writing its profile as it exits: retried, and left to the system's temp cleanup if it persists.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {
      // left in the temporary directory
    }
  });
  return watched(context, context.pages()[0] ?? (await context.newPage()));
}

export interface E2E {
  server: E2EServer;
  browser: Browser;
  /**
   * A page in a fresh browser context (its own storage, service workers and IndexedDB) whose relative
   * URLs resolve on the test server.
   */
  newPage(): Promise<BrowserPage>;
  close(): Promise<void>;
}

/**
 * For a test file: builds (or reuses) the web app, starts the real server serving it and launches
 * Chromium. One browser per file; call `close` in afterAll. `openMeteoUrl`: the weather's services
 * at an Open-Meteo stand-in (tests/support/open-meteo.ts); without it weather goes nowhere. `stripe`:
 * billing set up against a Stripe stand-in (tests/support/stripe.ts); without it billing is not set up.
 * `webRoot`: serve the app from there instead of the current build (a copy a test deploys a new version into).
 */
export async function startE2E(options: { openMeteoUrl?: string; stripe?: StripeSettings; webRoot?: string } = {}): Promise<E2E> {
  requireChromium();
  const webRoot = options.webRoot ?? (await webAppBuild());
  const { openMeteoUrl, stripe } = options;
  const openMeteo = openMeteoUrl ? { openMeteoForecastUrl: openMeteoUrl, openMeteoArchiveUrl: openMeteoUrl, openMeteoGeocodingUrl: openMeteoUrl } : {};
  const inProcess = async () => {
    const started = await startServer({ webRoot, ...openMeteo, ...stripe });
    // Stripe's page returns to PUBLIC_URL (server/domains/payments/routes.ts): in-process, the address just taken.
    if (stripe) started.config.publicUrl = started.url;
    return started;
  };
  // As `npm start` runs it (its own process, a fresh data directory), where a PostgreSQL server is at
  // hand (CI, this machine); else the same app in-process on a fresh embedded database.
  const server = (await startServerProcess({ webRoot, openMeteoUrl, stripe })) ?? (await inProcess());
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await server.close();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async newPage() {
      // A portrait tablet, the size growers hold (spec: right at 768×1024 and 1280×800).
      const context = await browser.newContext({ baseURL: server.url, serviceWorkers: 'allow', viewport: { width: 768, height: 1024 } });
      contexts.push(context);
      return watched(context, await context.newPage());
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
    },
  };
}
