/**
 * `BENCH_ONLY=notifications npm run bench`: how fast the job queue delivers notifications to a local
 * receiver, and how long a notification takes from the commit of the change that triggers it to its
 * arrival, on PGlite and (BENCH_DATABASE_URL, or this machine's default address) on PostgreSQL.
 *
 * The server's parts run in this process, as `npm start` builds them (buildApp: the job queue and its
 * delivery worker, on a fresh data directory or database): a delivery is written in the triggering
 * transaction (enqueueDelivery), which for the embedded database only its owning process can do.
 * The receiver is a local HTTPS server in a Node process of its own (a certificate made for the run
 * with openssl, trusted through WEBHOOK_CA_FILE; ALLOW_PRIVATE_WEBHOOKS lets the server call
 * 127.0.0.1), answering 200 at once, as Slack does. Each delivery is a connection of its own (the
 * outbound check pins each call to its checked address), so a TLS handshake each.
 *
 * Two measurements per database:
 * - the delay, at a steady BENCH_NOTIFY_RATE (default 50 a second, one transaction each) for
 *   BENCH_NOTIFY_SECONDS (default 10): from each commit to the message's arrival, p50 and p95;
 * - the rate, a burst of BENCH_NOTIFY_BURST (default 3,000) committed at once (100 per transaction):
 *   how many arrive per second, from the first commit to the last arrival.
 * Goals (issue 16): at least 200 a second and a p95 delay of at most 2 s, on PostgreSQL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { createCompanyWithAdmin } from '../server/companies';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrations';
import { enqueueDelivery } from '../server/notifications/delivery';
import { benchPostgresUrl, percentile, withFreshPostgres } from './support';

const RATE = Number(process.env.BENCH_NOTIFY_RATE ?? 50);
const STEADY_SECONDS = Number(process.env.BENCH_NOTIFY_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_NOTIFY_BURST ?? 3_000);
const PER_TRANSACTION = 100;
const GOAL = { perSecond: 200, p95Ms: 2_000 };

interface Figures {
  database: 'pglite' | 'postgres';
  perSecond: number;
  delayP50: number;
  delayP95: number;
  delivered: number;
  expected: number;
}

/**
 * The receiver, run by Node in a process of its own (as a real receiver is elsewhere: the TLS
 * handshakes of both ends on one thread would halve the figures). It notes when each path arrived
 * (its clock is this machine's) and sends the notes over IPC every 20 ms.
 */
const RECEIVER = `
const https = require('node:https');
const fs = require('node:fs');
let arrived = [];
const server = https.createServer({ key: fs.readFileSync(process.env.KEY_FILE), cert: fs.readFileSync(process.env.CERT_FILE) }, (request, response) => {
  request.resume();
  request.on('end', () => {
    arrived.push([request.url, Date.now()]);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
setInterval(() => { if (arrived.length > 0) { process.send(arrived); arrived = []; } }, 20);
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => process.exit(0));
`;

/** An HTTPS receiver on 127.0.0.1 with a certificate made for the run; `arrivals`: when each path arrived. */
async function startReceiver(dir: string) {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  const arrivals = new Map<string, number>();
  const child = spawn(process.execPath, ['-e', RECEIVER], { env: { ...process.env, KEY_FILE: keyFile, CERT_FILE: certFile }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
    child.on('message', (message: { port: number } | Array<[string, number]>) => {
      if (Array.isArray(message)) for (const [path, at] of message) arrivals.set(path, at);
      else resolve(message.port);
    });
  });
  return {
    certFile,
    base: `https://127.0.0.1:${port}`,
    arrivals,
    close: async () => {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

async function measure(database: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grow-bench-notify-'));
  const receiver = await startReceiver(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ALLOW_PRIVATE_WEBHOOKS: '1',
    WEBHOOK_CA_FILE: receiver.certFile,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
  });
  const opened = await openDatabase(config);
  await migrate(opened.db as never);
  const app = await buildApp(config, opened, false);
  try {
    const { company_id: companyId } = await createCompanyWithAdmin(opened.db, { name: 'Bench Farm', adminEmail: 'admin@bench.growroom.local', adminPassword: 'bench-password-1' });
    const message = (path: string) => ({ method: 'Slack' as const, webhookUrl: `${receiver.base}${path}`, subject: 'Aphids recorded in Flower 1', text: 'Severity 4 on box A3.' });

    // The delay at a steady rate: one triggering transaction every 1/RATE s.
    const committed = new Map<string, number>();
    const steady = Math.round(RATE * STEADY_SECONDS);
    const started = Date.now();
    for (let n = 0; n < steady; n += 1) {
      const path = `/steady/${n}`;
      await opened.db.transaction().execute((trx) => enqueueDelivery(trx, { companyId, notificationId: 1, triggerKey: path, actedAt: new Date(), message: message(path) }));
      committed.set(path, Date.now());
      const next = started + ((n + 1) * 1000) / RATE;
      if (next > Date.now()) await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
    }
    await until(() => [...committed.keys()].every((path) => receiver.arrivals.has(path)), 60_000);
    const delays = [...committed].flatMap(([path, at]) => {
      const arrived = receiver.arrivals.get(path);
      return arrived === undefined ? [] : [arrived - at];
    });

    // The rate: a burst committed at once.
    const burstPaths: string[] = [];
    let firstCommit = 0;
    for (let from = 0; from < BURST; from += PER_TRANSACTION) {
      await opened.db.transaction().execute(async (trx) => {
        for (let n = from; n < Math.min(BURST, from + PER_TRANSACTION); n += 1) {
          const path = `/burst/${n}`;
          burstPaths.push(path);
          await enqueueDelivery(trx, { companyId, notificationId: 2, triggerKey: path, actedAt: new Date(), message: message(path) });
        }
      });
      if (firstCommit === 0) firstCommit = Date.now();
    }
    await until(() => burstPaths.every((path) => receiver.arrivals.has(path)), 300_000);
    const burstArrivals = burstPaths.flatMap((path) => receiver.arrivals.get(path) ?? []);
    const last = Math.max(...burstArrivals);
    return {
      database,
      perSecond: Math.round(burstArrivals.length / ((last - firstCommit) / 1000)),
      delayP50: percentile(delays, 50),
      delayP95: percentile(delays, 95),
      delivered: delays.length + burstArrivals.length,
      expected: steady + BURST,
    };
  } finally {
    await app.close();
    await opened.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: Figures[]) {
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  console.log(`\nNotifications through the job queue to a local HTTPS receiver (delay: ${RATE}/s for ${STEADY_SECONDS} s; rate: a burst of ${BURST.toLocaleString('en')})\n`);
  for (const row of rows) {
    const goalNote = row.database === 'postgres' ? '' : ' (the goal is PostgreSQL\'s)';
    console.log(`${row.database}: ${row.perSecond} notifications/s delivered (goal: at least ${GOAL.perSecond}${goalNote}; ${verdict(row.perSecond >= GOAL.perSecond)})`);
    console.log(`${row.database}: commit to arrival p50 ${row.delayP50} ms, p95 ${row.delayP95} ms (goal: p95 at most ${GOAL.p95Ms} ms${goalNote}; ${verdict(row.delayP95 <= GOAL.p95Ms)})`);
    if (row.delivered !== row.expected) console.log(`${row.database}: ${row.expected - row.delivered} of ${row.expected} notifications did not arrive`);
  }
}

export async function measureNotifications(): Promise<void> {
  const rows = [await measure('pglite', undefined)];
  const postgresUrl = await benchPostgresUrl();
  if (postgresUrl) rows.push(await withFreshPostgres(postgresUrl, (url) => measure('postgres', url)));
  else console.log('\n(No PostgreSQL server: set BENCH_DATABASE_URL for the notification figures on PostgreSQL.)');
  print(rows);
}
