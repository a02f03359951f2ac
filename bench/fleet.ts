/**
 * `BENCH_ONLY=fleet npm run bench`: several server instances on one PostgreSQL database behind a real
 * load balancer (issue 12, "More than one machine"). Two instances run as `npm start` runs them (their
 * own processes, ports and data directories, DATA_DIR/uploads on one shared directory as README
 * "Running several instances" asks), HAProxy in front (tests/support/haproxy.ts, installed from
 * Debian's packages when missing), then simulated tablets (plain HTTP, no RxDB) each sign in and loop
 * for the run's length: push a few changes (culls of the tablet's own plants, an audit event and now and
 * then a room, each named by a client id) through POST /api/sync/push, sending the same entries again
 * after any network error until the server answers them, as a tablet's outbox does; then pull one
 * collection from the tablet's checkpoint. A share of the pushes lose their answer on purpose (the
 * request is cut while the server works on it), so repeats are exercised, not just possible.
 *
 * Every write the server acknowledged is kept in a ledger and checked on the database after: every
 * create there exactly once (by client id, under its author), every cull recorded once (its audit row,
 * by the entry's Idempotency-Key) and every plant in the state its tablet set last. Also measured: how
 * long a change made through one instance takes to be announced on the change stream of a browser
 * connected to the other (a second company, so the load's own announcements do not count), and whether
 * a file uploaded through one instance is read through the other.
 *
 * The tablets belong to several farms (companies), as on a shared deployment: each tablet pulls what
 * the others of its farm write, so one farm of 200 would measure 200 × 200 documents pulled per round
 * rather than the instances.
 *
 * Settings: BENCH_FLEET_SECONDS (default 120), BENCH_FLEET_TABLETS (default 200), BENCH_FLEET_FARMS
 * (default 10), BENCH_FLEET_PAUSE_MS (a tablet's mean pause between rounds, default 1000),
 * BENCH_FLEET_CUT (share of pushes whose answer is cut, default 0.02). Correctness failures (errors,
 * lost, duplicated, an announcement that never came, a file not read) make the run exit non-zero; the
 * figures themselves are not asserted.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { newClientId } from '../common/client-ids';
import { httpMessages } from '../common/messages/http';
import { openDatabase, type Database } from '../server/db/database';
import { createTenant, createUser, type SignedInUser, type Tenant } from '../tests/support/factories';
import { type Balancer, changedCollections, type ChangeStream, ensureHaproxy, openChangeStream, SERVED_BY, startHaproxy } from '../tests/support/haproxy';
import { freePort, startScript, stopScript } from '../tests/support/process';
import { requester } from '../tests/support/server';
import { percentile, withFreshPostgres } from './support';
import { againstGoal } from './sync';

const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 120);
const TABLETS = Number(process.env.BENCH_FLEET_TABLETS ?? 200);
const PAUSE_MS = Number(process.env.BENCH_FLEET_PAUSE_MS ?? 1000);
const CUT_SHARE = Number(process.env.BENCH_FLEET_CUT ?? 0.02);
/** The tablets are spread over this many companies (farms): each tablet pulls what its farm's others write. */
const FARMS = Number(process.env.BENCH_FLEET_FARMS ?? 10);
const INSTANCES = ['a', 'b'] as const;
/** Plants each tablet culls and un-culls: its own, so the state it set last is the one to find. */
const BOXES_PER_TABLET = 5;
const CULLS_PER_ROUND = 2;
/** Every this many rounds a tablet also creates a room. */
const ROOM_EVERY = 5;
/** Collections the tablets pull, one per round in turn; at most PULL_PAGES pages a round. */
const PULLED = ['grid_boxes', 'audit_events', 'rooms'] as const;
const PULL_PAGES = 3;
/** After the run, how long a tablet may go on retrying what it has not had answered. */
const DRAIN_MS = 60_000;
/** How often the change stream across instances is probed during the load. */
const PROBE_EVERY_MS = 5_000;

interface Instance {
  name: (typeof INSTANCES)[number];
  url: string;
  child: ChildProcess;
}

/** One outbox entry as the push takes it (common/schemas/sync.ts pushEntry). */
interface Entry {
  id: string;
  method: 'POST';
  path: string;
  query?: Record<string, string | number>;
  body: { kind: 'multipart'; parts: Array<{ name: string; value: string }> };
  actedAt: string;
}

/** What an acknowledged entry wrote, to find on the database. */
type Cull = { kind: 'cull'; entryId: string; boxId: number; culled: boolean };
type Create = { kind: 'event' | 'room'; entryId: string; clientId: string; userId: number };
type Write = Cull | Create;

interface Tablet {
  index: number;
  user: SignedInUser;
  boxes: number[];
  /** Each own box's state as last set (not yet necessarily acknowledged). */
  culled: Map<number, boolean>;
  checkpoints: Map<string, string>;
  round: number;
}

class Figures {
  pushLatencies: number[] = [];
  pullLatencies: number[] = [];
  requests = 0;
  pushes = 0;
  entries = 0;
  pulls = 0;
  pulledDocuments = 0;
  servedBy = new Map<string, number>();
  /** Pushes whose answer was cut on purpose, and entries sent again because of it or of a network error. */
  cut = 0;
  resent = 0;
  /** "Still being processed" answers to a repeat of a push whose answer was lost: expected, retried. */
  inFlight = 0;
  /** Unexpected: a non-2xx answer, a refused entry, a network error nobody caused, an entry never answered. */
  errors: string[] = [];
  /** Acknowledged writes, in the order their tablet had them answered. */
  ledger: Write[] = [];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const parts = (values: Record<string, string | number>) => ({ kind: 'multipart' as const, parts: Object.entries(values).map(([name, value]) => ({ name, value: String(value) })) });

/** The entries of a tablet's round: culls of its own plants, an audit event, now and then a room. */
function roundOf(tablet: Tablet): { entries: Entry[]; writes: Map<string, Write> } {
  const entries: Entry[] = [];
  const writes = new Map<string, Write>();
  const actedAt = new Date().toISOString();
  const add = (entry: Omit<Entry, 'id' | 'method' | 'actedAt'>, write: (id: string) => Write) => {
    const id = newClientId();
    entries.push({ id, method: 'POST', actedAt, ...entry });
    writes.set(id, write(id));
  };
  const { user } = tablet;
  for (let cull = 0; cull < CULLS_PER_ROUND; cull += 1) {
    const boxId = tablet.boxes[(tablet.round * CULLS_PER_ROUND + cull) % tablet.boxes.length] as number;
    const culled = !tablet.culled.get(boxId);
    tablet.culled.set(boxId, culled);
    add({ path: '/update_culling_status', body: parts({ GridBoxID: boxId, user_id: user.id, culled: culled ? 1 : 0 }) }, (entryId) => ({ kind: 'cull', entryId, boxId, culled }));
  }
  const eventId = newClientId();
  add({ path: '/add_audit_event', body: parts({ UserID: user.id, EventTitle: `Fleet tablet ${tablet.index} round ${tablet.round}`, client_id: eventId }) }, (entryId) => ({ kind: 'event', entryId, clientId: eventId, userId: user.id }));
  if (tablet.round % ROOM_EVERY === 0) {
    const roomId = newClientId();
    add(
      { path: '/create_room', query: { company_id: user.companyId }, body: parts({ name: `Fleet tablet ${tablet.index} room ${tablet.round}`, description: 'BENCH_ONLY=fleet', client_id: roomId }) },
      (entryId) => ({ kind: 'room', entryId, clientId: roomId, userId: user.id }),
    );
  }
  return { entries, writes };
}

/** Answers whose push is sent again from that entry on (push.ts `stopsTheRun`). */
const retryable = (status: number, body: unknown) =>
  status >= 500 || status === 408 || status === 429 || status === 401 || (status === 409 && (body as { message?: unknown } | null)?.message === httpMessages.idempotencyInFlight);

/**
 * Pushes `entries` through the balancer until every one is answered: the same entries (same ids) again
 * after a network error, a cut answer or a retryable answer, from the first not yet answered.
 */
async function push(balancer: string, tablet: Tablet, entries: Entry[], writes: Map<string, Write>, figures: Figures, giveUpAt: number) {
  let pending = entries;
  let repeat = false;
  let backoff = 50;
  while (pending.length > 0) {
    if (performance.now() > giveUpAt) {
      figures.errors.push(`tablet ${tablet.index}: ${pending.length} entries never answered`);
      return;
    }
    if (repeat) figures.resent += pending.length;
    const controller = new AbortController();
    const cut = Math.random() < CUT_SHARE;
    // Cut while the request travels or the server works on it: the tablet never hears the answer.
    const timer = cut ? setTimeout(() => controller.abort(), Math.random() * 40) : undefined;
    const started = performance.now();
    let status: number;
    let text: string;
    let servedBy: string | null;
    try {
      const response = await fetch(`${balancer}/api/sync/push?naming=client`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tablet.user.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entries: pending }),
        signal: controller.signal,
      });
      text = await response.text();
      status = response.status;
      servedBy = response.headers.get(SERVED_BY);
    } catch (error) {
      clearTimeout(timer);
      if (cut) figures.cut += 1;
      else figures.errors.push(`tablet ${tablet.index}: push failed on the network: ${error instanceof Error ? error.message : String(error)}`);
      repeat = true;
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 2_000);
      continue;
    }
    clearTimeout(timer);
    figures.requests += 1;
    figures.pushes += 1;
    figures.pushLatencies.push(performance.now() - started);
    if (servedBy) figures.servedBy.set(servedBy, (figures.servedBy.get(servedBy) ?? 0) + 1);
    let answer: { status?: string; message?: string; results?: Array<{ id: string; status: number; body: unknown }> } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // Not the server's envelope (the balancer's own error page): answered as its status says.
    }
    if (status !== 200) {
      // A repeat may meet its first attempt still running, on this instance or the other: expected after a cut.
      if (status === 409 && answer.message === httpMessages.idempotencyInFlight && repeat) figures.inFlight += 1;
      else figures.errors.push(`tablet ${tablet.index}: push answered ${status}: ${text.slice(0, 200)}`);
      if (!retryable(status, answer)) return;
      repeat = true;
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 2_000);
      continue;
    }
    let answered = 0;
    for (const result of answer.results ?? []) {
      const entry = pending[answered];
      if (!entry || entry.id !== result.id) {
        figures.errors.push(`tablet ${tablet.index}: push answered entry ${result.id} out of order`);
        return;
      }
      if (result.status >= 200 && result.status < 300) {
        const write = writes.get(entry.id);
        if (write) figures.ledger.push(write);
        figures.entries += 1;
      } else if (retryable(result.status, result.body)) {
        if (result.status === 409 && repeat) figures.inFlight += 1;
        else figures.errors.push(`tablet ${tablet.index}: ${entry.path} answered ${result.status} in a push: ${JSON.stringify(result.body).slice(0, 200)}`);
        break;
      } else {
        // Refused: the tablet marks it failed and goes on (nothing of it is in the ledger).
        figures.errors.push(`tablet ${tablet.index}: ${entry.path} refused with ${result.status}: ${JSON.stringify(result.body).slice(0, 200)}`);
      }
      answered += 1;
    }
    pending = pending.slice(answered);
    if (pending.length > 0) {
      repeat = true;
      await sleep(backoff);
      backoff = Math.min(backoff * 2, 2_000);
    }
  }
}

/** Pulls one collection from the tablet's checkpoint, up to PULL_PAGES pages. */
async function pull(balancer: string, tablet: Tablet, collection: string, figures: Figures) {
  for (let page = 0; page < PULL_PAGES; page += 1) {
    const url = new URL(`${balancer}/api/sync/pull`);
    url.searchParams.set('collection', collection);
    url.searchParams.set('naming', 'client');
    url.searchParams.set('checkpoint', tablet.checkpoints.get(collection) ?? '');
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${tablet.user.token}`, 'accept-encoding': 'br, gzip' } });
      text = await response.text();
    } catch (error) {
      figures.errors.push(`tablet ${tablet.index}: pull failed on the network: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    figures.requests += 1;
    figures.pulls += 1;
    figures.pullLatencies.push(performance.now() - started);
    const servedBy = response.headers.get(SERVED_BY);
    if (servedBy) figures.servedBy.set(servedBy, (figures.servedBy.get(servedBy) ?? 0) + 1);
    if (response.status !== 200) {
      figures.errors.push(`tablet ${tablet.index}: pull of ${collection} answered ${response.status}: ${text.slice(0, 200)}`);
      return;
    }
    const answer = JSON.parse(text) as { documents: unknown[]; checkpoint: string; has_more: boolean };
    figures.pulledDocuments += answer.documents.length;
    tablet.checkpoints.set(collection, answer.checkpoint);
    if (!answer.has_more) return;
  }
}

async function runTablet(balancer: string, tablet: Tablet, figures: Figures, endAt: number) {
  // Tablets start spread over a pause, not all in the same millisecond.
  await sleep(Math.random() * PAUSE_MS);
  while (performance.now() < endAt) {
    const { entries, writes } = roundOf(tablet);
    await push(balancer, tablet, entries, writes, figures, endAt + DRAIN_MS);
    await pull(balancer, tablet, PULLED[tablet.round % PULLED.length] as string, figures);
    tablet.round += 1;
    await sleep(PAUSE_MS * (0.5 + Math.random()));
  }
}

/** Runs `task` for each index below `count`, at most `limit` at a time; answers the results in order. */
async function inBatches<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

interface Verdict {
  lost: string[];
  duplicated: string[];
  acknowledged: { culls: number; events: number; rooms: number };
}

/** Every acknowledged write checked on the database: there once, under its author, culls in their last state. */
async function verify(database: Database, companyIds: number[], ledger: Write[]): Promise<Verdict> {
  const lost: string[] = [];
  const duplicated: string[] = [];
  const db = database.db;
  const culls = ledger.filter((write): write is Cull => write.kind === 'cull');
  const creates = ledger.filter((write): write is Create => write.kind !== 'cull');

  // Each cull wrote one audit row under its entry's Idempotency-Key; none other may carry a fleet key.
  const trail = await db
    .selectFrom('audit_events')
    .select(['idempotency_key', 'grid_box_id', sql<number>`count(*)::int`.as('count')])
    .where('company_id', 'in', companyIds)
    .where('event_title', 'in', ['Culled plant', 'Un-culled plant'])
    .groupBy(['idempotency_key', 'grid_box_id'])
    .execute();
  const trailOf = new Map(trail.map((row) => [row.idempotency_key, row]));
  const cullIds = new Set(culls.map((write) => write.entryId));
  for (const write of culls) {
    const row = trailOf.get(write.entryId);
    if (!row) lost.push(`cull ${write.entryId} of box ${write.boxId}: no audit row`);
    else if (row.count > 1) duplicated.push(`cull ${write.entryId} of box ${write.boxId}: ${row.count} audit rows`);
    else if (row.grid_box_id !== write.boxId) lost.push(`cull ${write.entryId}: recorded on box ${row.grid_box_id}, not ${write.boxId}`);
  }
  for (const row of trail) if (!cullIds.has(row.idempotency_key ?? '')) duplicated.push(`a cull of box ${row.grid_box_id} recorded (key ${row.idempotency_key}) but never acknowledged`);

  // Every plant in the state its tablet set last.
  const last = new Map<number, boolean>();
  for (const write of culls) last.set(write.boxId, write.culled);
  const boxes = last.size ? await db.selectFrom('grid_boxes').select(['id', 'culled']).where('id', 'in', [...last.keys()]).execute() : [];
  for (const box of boxes) if (box.culled !== last.get(box.id)) lost.push(`box ${box.id}: culled ${box.culled}, its tablet set ${String(last.get(box.id))} last`);

  // Creates: by client id, once, under their author; and no fleet record that was never acknowledged.
  const events = await db.selectFrom('audit_events').select(['client_id', 'user_id']).where('company_id', 'in', companyIds).where('event_title', 'like', 'Fleet tablet %').execute();
  const rooms = await db.selectFrom('rooms').select(['client_id', 'created_by as user_id']).where('company_id', 'in', companyIds).where('name', 'like', 'Fleet tablet %').execute();
  for (const [kind, rows] of [
    ['event', events],
    ['room', rooms],
  ] as const) {
    const authors = new Map<string, Array<number | null>>();
    for (const row of rows) authors.set(row.client_id, [...(authors.get(row.client_id) ?? []), row.user_id]);
    const acknowledged = creates.filter((write) => write.kind === kind);
    for (const write of acknowledged) {
      const found = authors.get(write.clientId) ?? [];
      if (found.length === 0) lost.push(`${kind} ${write.clientId}: not in the database`);
      else if (found.length > 1) duplicated.push(`${kind} ${write.clientId}: ${found.length} rows`);
      else if (found[0] !== write.userId) lost.push(`${kind} ${write.clientId}: recorded under user ${found[0]}, not ${write.userId}`);
    }
    const expected = new Set(acknowledged.map((write) => write.clientId));
    for (const clientId of authors.keys()) if (!expected.has(clientId)) duplicated.push(`${kind} ${clientId}: in the database, never acknowledged`);
  }
  return { lost, duplicated, acknowledged: { culls: culls.length, events: creates.filter((write) => write.kind === 'event').length, rooms: creates.filter((write) => write.kind === 'room').length } };
}

/** The checkpoint after every document of `collection` so far: a full pull, as a tablet's first sync. */
async function headOf(balancer: string, user: SignedInUser, collection: string): Promise<string> {
  let checkpoint = '';
  for (;;) {
    const url = `${balancer}/api/sync/pull?collection=${collection}&limit=5000&checkpoint=${encodeURIComponent(checkpoint)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${user.token}` } });
    if (response.status !== 200) throw new Error(`the first pull of ${collection} answered ${response.status}`);
    const answer = (await response.json()) as { checkpoint: string; has_more: boolean; held_back: boolean };
    checkpoint = answer.checkpoint;
    if (!answer.has_more && !answer.held_back) return checkpoint;
  }
}

/** A fresh pull of every grid box through the balancer agrees with the database (the pull path of both instances). */
async function pulledBoxesAgree(balancer: string, user: SignedInUser, database: Database): Promise<string | null> {
  const pulled = new Map<number, boolean>();
  let checkpoint = '';
  for (;;) {
    const url = `${balancer}/api/sync/pull?collection=grid_boxes&naming=server&limit=5000&checkpoint=${encodeURIComponent(checkpoint)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${user.token}` } });
    if (response.status !== 200) return `the pull answered ${response.status}`;
    const answer = (await response.json()) as { documents: Array<{ id: string; culled: boolean }>; checkpoint: string; has_more: boolean; held_back: boolean };
    for (const document of answer.documents) pulled.set(Number(document.id), document.culled);
    checkpoint = answer.checkpoint;
    if (!answer.has_more && !answer.held_back) break;
  }
  const rows = await database.db.selectFrom('grid_boxes').select(['id', 'culled']).where('company_id', '=', user.companyId).where('deleted_at', 'is', null).execute();
  const differ = rows.filter((row) => pulled.get(row.id) !== row.culled);
  return rows.length === pulled.size && differ.length === 0 ? null : `${differ.length} of ${rows.length} boxes differ (pulled ${pulled.size})`;
}

/**
 * The change stream across instances: a change of `probe`'s company made straight on one instance,
 * timed until the stream open on the other announces it. Answers the milliseconds, or null when it
 * never came (10 s).
 */
async function announcedAcross(probe: Tenant, write: Instance, stream: ChangeStream): Promise<number | null> {
  const request = requester(write.url);
  const started = performance.now();
  const added = await request('POST', '/add_audit_event', { token: probe.regular.token, json: { UserID: probe.regular.id, EventTitle: 'Probe', client_id: newClientId() } });
  if (added.status !== 200) return null;
  try {
    const event = await stream.next((event) => event.at >= started && changedCollections(event).includes('audit_events'), 10_000);
    return Math.round(event.at - started);
  } catch {
    return null;
  }
}

/** A file uploaded through one instance, read through the other and through the balancer: their statuses. */
async function uploadAcross(farm: Tenant, [a, b]: Instance[], balancer: string): Promise<{ other: number; balanced: number[] }> {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const room = await requester((a as Instance).url)<{ RoomID: number }>('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Uploads', description: 'BENCH_ONLY=fleet' } });
  const uploaded = await requester((a as Instance).url)<{ WhiteboardImage: string }>('POST', '/upload_whiteboard_image', {
    token: farm.admin.token,
    form: { room_id: room.body.RoomID, imageFile: new Blob([png], { type: 'image/png' }) },
  });
  if (uploaded.status !== 200) throw new Error(`upload_whiteboard_image answered ${uploaded.status}: ${JSON.stringify(uploaded.body)}`);
  const read = async (url: string) => {
    const response = await fetch(`${url}${uploaded.body.WhiteboardImage}`, { headers: { authorization: `Bearer ${farm.admin.token}` } });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return response.status === 200 && Buffer.from(bytes).equals(Buffer.from(png)) ? 200 : response.status === 200 ? -1 : response.status;
  };
  return { other: await read((b as Instance).url), balanced: [await read(balancer), await read(balancer)] };
}

/** Instances being stopped on purpose. */
const stopping = new WeakSet<ChildProcess>();

/** Stops an instance as a deployment does (SIGTERM), without reporting its exit as a failure. */
async function stopInstance(instance: Instance) {
  stopping.add(instance.child);
  await stopScript(instance.child);
}

async function startInstances(databaseUrl: string, uploads: string, dirs: string[]): Promise<Instance[]> {
  const started = await Promise.allSettled(
    INSTANCES.map(async (name) => {
      const dataDir = mkdtempSync(join(tmpdir(), `grow-fleet-${name}-`));
      dirs.push(dataDir);
      // DATA_DIR/uploads on one shared directory, as a shared volume mounted there in production.
      symlinkSync(uploads, join(dataDir, 'uploads'));
      const port = await freePort();
      const env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_ROOT: join(dataDir, 'no-web-app'),
        DATABASE_URL: databaseUrl,
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT: '100000000',
        TRUST_PROXY: '1',
      };
      const child = await startScript('server/main.ts', env, 'Grow Room is running');
      // An instance that dies during the run is a finding of its own: said at once, with its last output.
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      child.once('exit', (code, signal) => {
        if (!stopping.has(child)) console.error(`\nInstance ${name} exited during the run (${code ?? signal}):\n${output}`);
      });
      return { name, url: `http://127.0.0.1:${port}`, child };
    }),
  );
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    for (const instance of instances) await stopInstance(instance);
    throw failed.reason;
  }
  return instances;
}

function report(figures: Figures, verdict: Verdict, seconds: number, extra: { boxes: string | null; probes: Array<number | null>; upload: { other: number; balanced: number[] } }) {
  const perSecond = (count: number) => Math.round(count / seconds).toLocaleString('en');
  const { lost, duplicated } = verdict;
  const announced = extra.probes.filter((ms): ms is number => ms !== null);
  const served = [...figures.servedBy.entries()].sort().map(([name, count]) => `${name} ${count.toLocaleString('en')}`).join(', ');
  console.log('');
  console.log(`requests: ${figures.requests.toLocaleString('en')} by the tablets through the balancer, ${perSecond(figures.requests)}/s (answered by instance ${served})`);
  console.log(`pushes: ${figures.pushes.toLocaleString('en')}, ${perSecond(figures.pushes)}/s; entries applied: ${figures.entries.toLocaleString('en')}, ${perSecond(figures.entries)}/s (culls ${verdict.acknowledged.culls.toLocaleString('en')}, audit events ${verdict.acknowledged.events.toLocaleString('en')}, rooms ${verdict.acknowledged.rooms.toLocaleString('en')})`);
  console.log(`pulls: ${figures.pulls.toLocaleString('en')}, ${perSecond(figures.pulls)}/s, ${figures.pulledDocuments.toLocaleString('en')} documents`);
  console.log(`push latency: p50 ${percentile(figures.pushLatencies, 50)} ms, p99 ${percentile(figures.pushLatencies, 99)} ms`);
  console.log(`pull latency: p50 ${percentile(figures.pullLatencies, 50)} ms, p99 ${percentile(figures.pullLatencies, 99)} ms`);
  console.log(`answers cut on purpose: ${figures.cut.toLocaleString('en')}; entries sent again: ${figures.resent.toLocaleString('en')}; repeats met their first attempt still running (409, retried): ${figures.inFlight.toLocaleString('en')}`);
  console.log(againstGoal(figures.errors.length, 0, 'errors', 'at most'));
  console.log(againstGoal(lost.length, 0, 'lost', 'at most'));
  console.log(againstGoal(duplicated.length, 0, 'duplicated', 'at most'));
  console.log(`a fresh pull of every grid box through the balancer agrees with the database: ${extra.boxes === null ? 'yes (goal: yes; met)' : `no, ${extra.boxes} (goal: yes; NOT MET)`}`);
  console.log(
    `change stream across instances (a change through one, announced on the other's stream): ${announced.length} of ${extra.probes.length} announced (goal: all; ${announced.length === extra.probes.length ? 'met' : 'NOT MET'}), ` +
      `p50 ${percentile(announced, 50)} ms, max ${announced.length ? Math.max(...announced) : 0} ms`,
  );
  const { other, balanced } = extra.upload;
  const uploadMet = other === 200 && balanced.every((status) => status === 200);
  console.log(`a file uploaded through instance a, read through b: ${other}, through the balancer: ${balanced.join(', ')} (goal: 200; ${uploadMet ? 'met' : 'NOT MET'}; DATA_DIR/uploads shared)`);
  for (const [title, list] of [
    ['errors', figures.errors],
    ['lost', lost],
    ['duplicated', duplicated],
  ] as const) {
    if (list.length) console.log(`\nFirst ${title}:\n  ${list.slice(0, 10).join('\n  ')}`);
  }
  return figures.errors.length === 0 && lost.length === 0 && duplicated.length === 0 && extra.boxes === null && announced.length === extra.probes.length && uploadMet;
}

/** The fleet part of the bench, on a fresh database of the PostgreSQL server at `adminUrl`. Sets a non-zero exit code when a check fails. */
export async function measureFleet(adminUrl: string): Promise<void> {
  const haproxy = await ensureHaproxy();
  if (!haproxy.ok) {
    console.error(`BENCH_ONLY=fleet needs HAProxy: ${haproxy.reason}`);
    process.exitCode = 1;
    return;
  }
  console.log(`\nFleet: ${INSTANCES.length} instances (npm start) on one PostgreSQL database behind ${haproxy.version.split(' - ')[0]}, ${TABLETS} tablets in ${FARMS} farms, ${SECONDS} s`);
  console.log(`(each round: ${CULLS_PER_ROUND} culls and an audit event, a room every ${ROOM_EVERY}, in one push; then a pull; ~${PAUSE_MS} ms pause; ${Math.round(CUT_SHARE * 100)}% of push answers cut on purpose)`);
  const ok = await withFreshPostgres(adminUrl, async (databaseUrl) => {
    const dirs: string[] = [];
    const uploads = mkdtempSync(join(tmpdir(), 'grow-fleet-uploads-'));
    dirs.push(uploads);
    let instances: Instance[] = [];
    let balancer: Balancer | undefined;
    let database: Database | undefined;
    const streams: ChangeStream[] = [];
    try {
      instances = await startInstances(databaseUrl, uploads, dirs);
      balancer = await startHaproxy(instances.map(({ name, url }) => ({ name, url })));
      const lb = balancer.url;
      database = await openDatabase({ databaseUrl, dataDir: tmpdir() });
      // Users are made in the database as the CLI makes them; everyone signs in through the balancer.
      const server = { database, request: requester(lb) };
      const farms: Tenant[] = [];
      for (let farm = 0; farm < FARMS; farm += 1) farms.push(await createTenant(server, `Fleet farm ${farm}`));
      const probe = await createTenant(server, 'Fleet probe');
      const farmOf = (tablet: number) => farms[tablet % FARMS] as Tenant;

      // Each farm's floor: a plant of its own for each tablet, in grids of 10 × 10 made through the API.
      const admin = requester(lb);
      const boxesOf = new Map<Tenant, number[]>();
      for (const [index, farm] of farms.entries()) {
        const needed = Math.ceil((TABLETS - index) / FARMS) * BOXES_PER_TABLET;
        const boxIds: number[] = [];
        boxesOf.set(farm, boxIds);
        const room = await admin<{ RoomID: number }>('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Floor', description: 'BENCH_ONLY=fleet' } });
        for (let grid = 0; boxIds.length < needed; grid += 1) {
          const made = await admin<{ grid: { boxes: Array<{ id: number }> } }>('POST', '/Create_grid', {
            token: farm.admin.token,
            json: { ncompany_id: farm.companyId, nroom_id: room.body.RoomID, ngrid_name: `Grid ${grid}`, nx: 10, ny: 10 },
          });
          if (made.status !== 200) throw new Error(`Create_grid answered ${made.status}: ${JSON.stringify(made.body)}`);
          boxIds.push(...made.body.grid.boxes.map((box) => box.id));
        }
      }
      const signInStarted = performance.now();
      const users = await inBatches(TABLETS, 8, (index) => createUser(server, farmOf(index).companyId, 'Regular'));
      console.log(`${TABLETS} growers made and signed in through the balancer in ${((performance.now() - signInStarted) / 1000).toFixed(1)} s`);
      // Each tablet has made its first full sync already: the load is the day's work, not 200 first pulls.
      const synced = new Map<Tenant, Map<string, string>>();
      for (const farm of farms) {
        const heads = new Map<string, string>();
        for (const collection of PULLED) heads.set(collection, await headOf(lb, farm.admin, collection));
        synced.set(farm, heads);
      }
      const tablets: Tablet[] = users.map((user, index) => {
        const farm = farmOf(index);
        const slot = Math.floor(index / FARMS);
        return {
          index,
          user,
          boxes: (boxesOf.get(farm) ?? []).slice(slot * BOXES_PER_TABLET, (slot + 1) * BOXES_PER_TABLET),
          culled: new Map(),
          checkpoints: new Map(synced.get(farm)),
          round: 0,
        };
      });

      const upload = await uploadAcross(farms[0] as Tenant, instances, lb);
      // The probe company's browsers: one on each instance, straight (not through the balancer).
      for (const instance of instances) streams.push(await openChangeStream(instance.url, probe.regular.token));
      const probes: Array<number | null> = [];
      const probeOnce = async () => {
        const [from, to] = probes.length % 2 === 0 ? [0, 1] : [1, 0];
        probes.push(await announcedAcross(probe, instances[from] as Instance, streams[to] as ChangeStream));
      };
      await probeOnce();
      console.log(`idle: a change through instance a announced on b's stream after ${probes[0] ?? 'never (10 s)'} ms`);

      const figures = new Figures();
      const started = performance.now();
      const endAt = started + SECONDS * 1000;
      let probing = true;
      const prober = (async () => {
        while (probing) {
          await sleep(PROBE_EVERY_MS);
          if (probing) await probeOnce();
        }
      })();
      await Promise.all(tablets.map((tablet) => runTablet(lb, tablet, figures, endAt)));
      const elapsed = (performance.now() - started) / 1000;
      probing = false;
      await prober;
      const verdict = await verify(database, farms.map((farm) => farm.companyId), figures.ledger);
      const disagreements: string[] = [];
      for (const farm of farms) {
        const differs = await pulledBoxesAgree(lb, farm.admin, database);
        if (differs) disagreements.push(`farm ${farm.companyId}: ${differs}`);
      }
      const boxes = disagreements.length ? disagreements.join('; ') : null;
      return report(figures, verdict, elapsed, { boxes, probes, upload });
    } finally {
      for (const stream of streams) stream.close();
      await database?.close();
      await balancer?.close();
      for (const instance of instances) await stopInstance(instance);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
  if (!ok) process.exitCode = 1;
}
