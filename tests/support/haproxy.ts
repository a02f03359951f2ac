/**
 * Several server instances behind a real load balancer: HAProxy from Debian's packages, for the fleet
 * test (tests/server/fleet.test.ts) and the fleet bench (bench/fleet.ts, `BENCH_ONLY=fleet`). Installs
 * HAProxy when it is missing and this user may, writes its configuration (the one README "Running
 * several instances" shows: round robin, a health check on /api/health, timeouts that suit the change
 * stream) and runs it in the foreground as a child process. It adds `X-Served-By: <instance>` to every
 * answer, so a caller can tell which instance answered.
 *
 * Also here: the change stream (`GET /api/sync/stream`) as a browser reads it, through the balancer or
 * straight from one instance.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEvents } from '../../sync/events';
import { freePort } from './process';

/** The header HAProxy adds to every answer: the name of the instance that gave it. */
export const SERVED_BY = 'x-served-by';

export type HaproxyAvailability = { ok: true; version: string } | { ok: false; reason: string };

/** Runs `command` to its end; answers its exit code and output (stdout and stderr together). */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => resolve({ code: -1, output: error.message }));
    child.once('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** HAProxy's version line, or null when `haproxy` is not on PATH. */
async function installedVersion(): Promise<string | null> {
  const { code, output } = await run('haproxy', ['-v']);
  return code === 0 ? (output.split('\n')[0] ?? '').trim() : null;
}

const lastLines = (text: string, count = 5) => text.trim().split('\n').slice(-count).join('\n');

/**
 * Whether HAProxy can be run, installing Debian's package when it is missing and this process runs as
 * root (as CI and the bench machine do): `apt-get install -y --no-install-recommends haproxy`, after an
 * `apt-get update` only when the package lists do not know it yet. Never throws: a failure is a reason.
 */
export async function ensureHaproxy(): Promise<HaproxyAvailability> {
  const found = await installedVersion();
  if (found) return { ok: true, version: found };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'haproxy is not installed and this user may not install packages (as root: apt-get install haproxy)' };
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get (another engineer's, CI's chromium) may hold the lock for a while: wait for it.
  const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=120', 'haproxy'], env);
  let installed = await install();
  if (installed.code !== 0) {
    const update = await run('apt-get', ['update', '-o', 'DPkg::Lock::Timeout=120'], env);
    if (update.code !== 0) return { ok: false, reason: `apt-get update failed:\n${lastLines(update.output)}` };
    installed = await install();
  }
  if (installed.code !== 0) return { ok: false, reason: `apt-get install haproxy failed:\n${lastLines(installed.output)}` };
  const version = await installedVersion();
  return version ? { ok: true, version } : { ok: false, reason: 'apt-get installed haproxy, but `haproxy -v` does not run' };
}

export interface Backend {
  /** The instance's name in the configuration and in `X-Served-By`. */
  name: string;
  /** Its address, `http://host:port`. */
  url: string;
}

/**
 * HAProxy's configuration for the instances `backends`, listening on `bind` (README "Running several
 * instances" shows it). The change stream is one long answer that carries a heartbeat every 25 s
 * (replication/routes.ts HEARTBEAT_MS): `timeout client` and `timeout server` must stay above that,
 * and `timeout tunnel` covers connections HAProxy treats as tunnels. They also let a photo at the
 * upload limit arrive on a weak signal (REQUEST_TIMEOUT_MS, 2 minutes).
 *
 * WARNING: HAProxy passes on the instance's `Keep-Alive: timeout=72` (Node's keep-alive, as Fastify
 * sets it), so clients keep an idle connection for up to 72 s and send on it again. `timeout
 * http-keep-alive` must be longer: at HAProxy's usual 10 s, it closes connections that clients still
 * count on, and a request sent on one just as it closes fails on the network (seen in the fleet bench
 * as EPIPE on sign-ins).
 */
export function haproxyConfig(bind: string, backends: Backend[]): string {
  const servers = backends.map(({ name, url }) => `  server ${name} ${new URL(url).host} check inter 2s fall 3 rise 2`);
  return `global
  maxconn 4096

defaults
  mode http
  option http-keep-alive
  timeout connect 5s
  timeout client 2m
  timeout server 2m
  timeout http-request 2m
  timeout http-keep-alive 75s
  timeout tunnel 1h
  timeout client-fin 5s
  # A busy instance answers its health check late, not never: out of the pool only after 3 checks of 10 s.
  timeout check 10s
  # A request that could not connect goes to the other instance.
  retries 2
  option redispatch

frontend growroom
  bind ${bind}
  # The client's address, for rate limits and logs (TRUST_PROXY=1): set, never appended to what the client sent.
  http-request set-header X-Forwarded-For %[src]
  default_backend instances

backend instances
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/health
  http-check expect status 200
  http-response set-header X-Served-By %s
${servers.join('\n')}
`;
}

export interface Balancer {
  /** The balancer's address, `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts HAProxy in front of `backends` on a free port of 127.0.0.1 and waits until every instance has
 * answered a health check through it. Call `ensureHaproxy` first. The process is killed when this one
 * exits, should `close` never run.
 */
export async function startHaproxy(backends: Backend[], timeoutMs = 20_000): Promise<Balancer> {
  const dir = mkdtempSync(join(tmpdir(), 'grow-haproxy-'));
  const port = await freePort();
  const configPath = join(dir, 'haproxy.cfg');
  writeFileSync(configPath, haproxyConfig(`127.0.0.1:${port}`, backends));
  // -db: in the foreground, not as a daemon; its warnings and errors go to stderr.
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const seen = new Set<string>();
    const deadline = Date.now() + timeoutMs;
    while (seen.size < backends.length) {
      if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`haproxy did not reach every instance within ${timeoutMs / 1000} s (reached: ${[...seen].join(', ') || 'none'}):\n${output}`);
      const served = await fetch(`${url}/api/health`)
        .then(async (response) => {
          await response.arrayBuffer();
          return response.ok ? response.headers.get(SERVED_BY) : null;
        })
        .catch(() => null);
      if (served) seen.add(served);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}

export interface ServerSentEvent {
  event: string;
  data: string;
  /** When it arrived (performance.now()). */
  at: number;
}

export interface ChangeStream {
  /** The instance that serves the stream (`X-Served-By`), when it came through the balancer. */
  servedBy: string | null;
  /**
   * The first event received so far or within `timeoutMs` that `matches`, taken off the stream's
   * queue; the events before it are dropped. Heartbeats are not events.
   */
  next(matches?: (event: ServerSentEvent) => boolean, timeoutMs?: number): Promise<ServerSentEvent>;
  close(): void;
}

/**
 * Opens `GET <url>/api/sync/stream` with `token`, as the browser's sync engine does (sync/events.ts:
 * over fetch, since EventSource cannot send the bearer token), and waits for its `ready` event. Events
 * are read as they come, each stamped with its arrival, until `close`.
 */
export async function openChangeStream(url: string, token: string, timeoutMs = 10_000): Promise<ChangeStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/sync/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (response.status !== 200 || !response.body) {
    controller.abort();
    throw new Error(`GET ${url}/api/sync/stream answered ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const queued: ServerSentEvent[] = [];
  let ended: string | null = null;
  let wake: () => void = () => undefined;
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        const parsed = parseEvents(buffer + decoder.decode(chunk.value, { stream: true }));
        buffer = parsed.rest;
        const at = performance.now();
        queued.push(...parsed.events.map((event) => ({ ...event, at })));
        wake();
      }
      ended = 'The change stream ended';
    } catch (error) {
      ended = `The change stream failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    wake();
  })();
  const stream: ChangeStream = {
    servedBy: response.headers.get(SERVED_BY),
    async next(matches = () => true, waitMs = timeoutMs) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const index = queued.findIndex(matches);
        if (index >= 0) return queued.splice(0, index + 1)[index] as ServerSentEvent;
        queued.length = 0;
        if (ended) throw new Error(ended);
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`No matching event on the change stream within ${waitMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, remaining);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close: () => controller.abort(),
  };
  await stream.next((event) => event.event === 'ready');
  return stream;
}

/** The collections a `change` event names (none for any other event). */
export function changedCollections(event: ServerSentEvent): string[] {
  if (event.event !== 'change') return [];
  try {
    return (JSON.parse(event.data) as { collections?: string[] }).collections ?? [];
  } catch {
    return [];
  }
}
