/**
 * Every mutating route (POST, PUT, PATCH, DELETE) runs its handler inside one database transaction,
 * wrapped here once for all routes (onRoute), so handlers never open or commit transactions.
 *
 * Idempotency-Key (ARCHITECTURE.md "One write, end to end"): on a signed-in mutation the key is
 * claimed in the same transaction as the handler's writes, and the response is stored there too. A
 * repeat returns the stored response (header `Idempotent-Replayed: true`) and changes nothing; a repeat
 * that arrives while the first is still running waits for it (PostgreSQL blocks on the key's row).
 * Failed requests (4xx/5xx) roll back and store nothing, so a retry runs again.
 * Sign-in calls (public routes) never store their answers: those carry secrets and are never queued.
 *
 * Handlers return their payload and may queue work for after the commit (`request.afterCommit`),
 * such as mail, so nothing is sent for a transaction that rolled back.
 *
 * A route declared with `config: {transaction: false}` is left unwrapped: the sync push
 * (domains/replication/push.ts), whose entries each run as a request of their own.
 *
 * A push runs in one transaction (`inPushTransaction`), and each of its entries, marked with the
 * headers it hands out, in a savepoint of it instead of a transaction of its own: the entry is still
 * applied or refused whole, with its own Idempotency-Key, but a push of 100 entries commits (and
 * flushes to disk) once, and the entries see each other's rows. Its after-commit work waits for the
 * push's commit. Only the push can mark a request: the mark is a secret of this process.
 *
 * A push is the tablet's replay path, so it is where round trips to the database count: the push reads
 * its entries' keys in one query and stores their answers and their audit-trail rows in one statement
 * each before its commit, an entry's savepoint is released with the next one's opening, and the records
 * its entries name are looked up for the tenancy guard once for the whole push (`provenOwnership`). A
 * pushed cull is then 2 statements (its savepoint, its update) instead of 10 (`npm run bench`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { type ControlledTransaction, sql, type Kysely } from 'kysely';
import { httpMessages } from '../../common/messages/http';
import { IDEMPOTENCY_KEY_PATTERN } from '../../common/schemas/sync';
import type { DB } from '../db/schema';
import { collectLaterRows, insertRows, type LaterRow, tombstoneWritesSoFar } from '../db/writes';
import { HttpError, conflict } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route runs without the transaction wrapper and its Idempotency-Key (the sync push). */
    transaction?: boolean;
  }
  interface FastifyRequest {
    /** The database to use: inside a mutation, the request's transaction. */
    db: Kysely<DB>;
    /** Runs after the transaction commits; failures are logged, never undo the request. */
    afterCommit(task: () => Promise<void>): void;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const IDEMPOTENCY_RETENTION_DAYS = 30;

const PUSHED_ENTRY_HEADER = 'x-pushed-entry';
const PUSH_ID_HEADER = 'x-push-id';
/** Unguessable and never sent out: a caller cannot pass a request off as a pushed entry. */
const PUSHED_ENTRY_MARK = randomBytes(18).toString('base64url');

/** A key's record: the call it was claimed for and, once answered, the answer. */
interface StoredKey {
  fingerprint: string;
  status_code: number | null;
  response: unknown;
}

interface PushTransaction {
  trx: ControlledTransaction<DB>;
  afterCommit: Array<() => Promise<void>>;
  /** The push's caller's idempotency scope: every entry of a push is the caller's. */
  scope: string;
  /** The stored records of the push's keys, read in one query when it starts; then the answers of its applied entries. */
  keys: Map<string, StoredKey>;
  /** Answers of the applied entries, stored in one statement before the commit. */
  answered: Array<{ key: string; fingerprint: string; status_code: number; response: string }>;
  /** Rows the applied entries wrote with `insertLater` (the audit trail), inserted before the commit. */
  laterRows: LaterRow[];
  /** Whether the last entry's savepoint is still open: it is released with the next one's, in one round trip. */
  savepointOpen: boolean;
  /** Records (`<kind>:<id>`) known live and the caller's in this push (`provenOwnership`). */
  owned: Set<string>;
  /** Client ids its entries name, resolved to the caller's records when it began, by kind (`clientIdsResolvedAhead`). */
  clientIds: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** `tombstoneWritesSoFar()` when `owned` was last known good. */
  ownedAtTombstones: number;
}

/** The transactions of the pushes under way, by push id. */
const pushes = new Map<string, PushTransaction>();

/** The push transaction a request belongs to, when it is a pushed entry. */
function pushOf(request: FastifyRequest): PushTransaction | undefined {
  if (request.headers[PUSHED_ENTRY_HEADER] !== PUSHED_ENTRY_MARK) return undefined;
  return pushes.get(String(request.headers[PUSH_ID_HEADER]));
}

/** Whether the request is an entry of a push under way: its reads go through the push's transaction, from its `preHandler` on. */
export const isPushedEntry = (request: FastifyRequest): boolean => pushOf(request) !== undefined;

/**
 * Runs a push in one transaction: `run` gets the headers that make each injected entry a savepoint of
 * it. `keys` are the entries' Idempotency-Keys: their stored records are read once, here, instead of
 * once per entry. Before the commit, the applied entries' answers and their trail rows are written,
 * one statement each; a key another request stored meanwhile (a duplicate sent at the same moment)
 * rolls the whole push back as "still processing", so the client sends it again and gets the stored
 * answers. Commits when `run` resolves (then runs the entries' after-commit work), rolls back when
 * it throws. Answers `run`'s value and the transaction's id (null when nothing was written).
 */
export async function inPushTransaction<T>(
  rootDb: Kysely<DB>,
  caller: { userId: number; keys: string[]; ahead: (trx: Kysely<DB>) => Promise<{ owned: Set<string>; clientIds: ReadonlyMap<string, ReadonlyMap<string, number>> }> },
  run: (headers: Record<string, string>) => Promise<T>,
  log: (error: unknown) => void,
): Promise<{ value: T; xid: string | null }> {
  const id = randomBytes(12).toString('base64url');
  const scope = scopeOfUser(caller.userId);
  const trx = await rootDb.startTransaction().execute();
  const push: PushTransaction = { trx, afterCommit: [], scope, keys: new Map(), answered: [], laterRows: [], savepointOpen: false, owned: new Set(), clientIds: new Map(), ownedAtTombstones: tombstoneWritesSoFar() };
  pushes.set(id, push);
  let value: T;
  let xid: string | null;
  try {
    if (caller.keys.length > 0) {
      const stored = await trx.selectFrom('idempotency_keys').select(['key', 'fingerprint', 'status_code', 'response']).where('scope', '=', scope).where('key', 'in', caller.keys).execute();
      for (const row of stored) push.keys.set(row.key, row);
    }
    ({ owned: push.owned, clientIds: push.clientIds } = await caller.ahead(trx));
    value = await run({ [PUSHED_ENTRY_HEADER]: PUSHED_ENTRY_MARK, [PUSH_ID_HEADER]: id });
    await insertRows(trx, push.laterRows);
    if (push.answered.length > 0) {
      const stored = await trx
        .insertInto('idempotency_keys')
        .values(push.answered.map((answer) => ({ scope, ...answer })))
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .returning('key')
        .execute();
      if (stored.length < push.answered.length) throw conflict(httpMessages.idempotencyInFlight);
    }
    xid = (await trx.selectNoFrom(sql<string | null>`pg_current_xact_id_if_assigned()::text`.as('xid')).executeTakeFirst())?.xid ?? null;
    await trx.commit().execute();
  } catch (error) {
    await trx.rollback().execute().catch(() => undefined);
    throw error;
  } finally {
    pushes.delete(id);
  }
  for (const task of push.afterCommit) await task().catch(log);
  return { value, xid };
}

/**
 * For a pushed entry, the records its push already knows to be live and the caller's (`<kind>:<id>`:
 * looked up for all its entries at once when it began, guards.ts `ownedAhead`, and found by the guards
 * of the entries before), so the tenancy guard looks up only the others. A record never changes
 * company, so the proof lasts the push as long as nothing is tombstoned meanwhile (by this push or any
 * other request of this process): then it is dropped and each guard looks up again. Across several
 * server processes a deletion another one commits meanwhile is not seen here; the entry then acts as
 * if it had come just before that deletion (the writer's updates skip tombstoned rows).
 * Undefined outside a push.
 */
export function provenOwnership(request: FastifyRequest): Set<string> | undefined {
  const push = pushOf(request);
  if (!push) return undefined;
  const tombstones = tombstoneWritesSoFar();
  if (push.ownedAtTombstones !== tombstones) {
    push.owned.clear();
    push.ownedAtTombstones = tombstones;
  }
  return push.owned;
}

/**
 * For a pushed entry, the client ids of the caller's records its push's entries name, resolved for all
 * of them at once when it began (client-ids.ts `clientIdsAhead`): an entry resolves only the others
 * (a record an earlier entry of the push made). A client id names one record for good, so they last
 * the push. Undefined outside a push.
 */
export function clientIdsResolvedAhead(request: FastifyRequest): ReadonlyMap<string, ReadonlyMap<string, number>> | undefined {
  return pushOf(request)?.clientIds;
}

type StoredAnswer = { status_code: number; response: unknown };
const answeredRepeats = new WeakMap<FastifyRequest, StoredAnswer>();

/**
 * Whether a signed-in mutation repeats a call already answered (same user, same Idempotency-Key, same
 * call): then it gets the stored answer, before any guard runs. What changed since (the record it
 * named was deleted, the user's role) must not turn an applied change into a refusal on its retry.
 * The guards call this once they know the user (guards.ts).
 */
export async function isAnsweredRepeat(request: FastifyRequest): Promise<boolean> {
  const key = idempotencyKeyOf(request);
  if (!key || !request.auth || !MUTATING.has(request.method) || request.routeOptions.config.transaction === false) return false;
  const push = pushOf(request);
  const stored = push ? push.keys.get(key) : await storedKey(request.db, request, key);
  if (!stored || stored.status_code === null || stored.fingerprint !== fingerprintOf(request)) return false;
  answeredRepeats.set(request, { status_code: stored.status_code, response: stored.response });
  return true;
}

/** The stored answer `isAnsweredRepeat` found for this request, if any. */
export const answeredRepeatOf = (request: FastifyRequest): StoredAnswer | undefined => answeredRepeats.get(request);

/** Where a mutating request's writes go: a transaction of its own, or a savepoint of its push's. */
interface WorkUnit {
  db: Kysely<DB>;
  /** Stores the answer under the request's Idempotency-Key (claimed by `claimKey`). */
  storeAnswer(key: string, statusCode: number, response: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** After-commit work: run by the wrapper, or by the push after its commit. */
  afterCommit: Array<() => Promise<void>>;
  ownsCommit: boolean;
}

/**
 * A pushed entry's unit: a savepoint of the push's transaction (the previous entry's is released in
 * the same round trip), written through a database object of its own so that what it leaves for the
 * push's commit (its answer, its trail rows) is kept when it is applied and dropped when refused.
 */
async function pushedUnit(push: PushTransaction, request: FastifyRequest): Promise<WorkUnit> {
  await sql.raw(push.savepointOpen ? 'RELEASE SAVEPOINT entry; SAVEPOINT entry' : 'SAVEPOINT entry').execute(push.trx);
  push.savepointOpen = true;
  const db = push.trx.withoutPlugins();
  const laterRows = collectLaterRows(db);
  let answer: PushTransaction['answered'][number] | null = null;
  return {
    db,
    storeAnswer: async (key, statusCode, response) => void (answer = { key, fingerprint: fingerprintOf(request), status_code: statusCode, response }),
    commit: async () => {
      push.laterRows.push(...laterRows);
      if (answer) {
        push.answered.push(answer);
        push.keys.set(answer.key, { fingerprint: answer.fingerprint, status_code: answer.status_code, response: JSON.parse(answer.response) as unknown });
      }
    },
    rollback: async () => void (await sql.raw('ROLLBACK TO SAVEPOINT entry').execute(push.trx)),
    afterCommit: push.afterCommit,
    ownsCommit: false,
  };
}

async function beginUnit(rootDb: Kysely<DB>, request: FastifyRequest): Promise<WorkUnit> {
  const push = pushOf(request);
  if (push) return pushedUnit(push, request);
  const trx = await rootDb.startTransaction().execute();
  return {
    db: trx,
    storeAnswer: async (key, statusCode, response) =>
      void (await trx.updateTable('idempotency_keys').set({ status_code: statusCode, response }).where('scope', '=', scopeOf(request)).where('key', '=', key).execute()),
    commit: () => trx.commit().execute(),
    rollback: () => trx.rollback().execute(),
    afterCommit: [],
    ownsCommit: true,
  };
}

/**
 * `committed`: called after each mutating request's writes commit (for a pushed entry, after its
 * push's), whatever they were: what an instance keeps of a company's data (http/answer-cache.ts)
 * drops it there, so the writer reads its own change at once.
 */
export function registerTransactions(app: FastifyInstance, rootDb: Kysely<DB>, committed?: (request: FastifyRequest) => void) {
  app.decorateRequest('db', { getter: () => rootDb });
  const pending = new WeakMap<FastifyRequest, Array<() => Promise<void>>>();
  app.decorateRequest('afterCommit', function (this: FastifyRequest, task: () => Promise<void>) {
    const tasks = pending.get(this);
    if (!tasks) throw new Error('afterCommit is only available inside a mutating route');
    tasks.push(task);
  });

  // A pushed entry reads through its push's transaction from the start (the tenancy guard too): it
  // sees what the entries before it wrote, and on PGlite's one connection a read outside the open
  // push transaction would wait for it forever.
  app.addHook('onRequest', async (request) => {
    const push = pushOf(request);
    if (push) Object.defineProperty(request, 'db', { value: push.trx, configurable: true });
  });

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => MUTATING.has(method)) || route.config?.transaction === false) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function transactional(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const repeat = answeredRepeatOf(request);
      if (repeat) {
        reply.code(repeat.status_code).header('Idempotent-Replayed', 'true');
        return repeat.response;
      }
      const unit = await beginUnit(rootDb, request);
      const readsThrough = request.db;
      pending.set(request, unit.afterCommit);
      if (committed) unit.afterCommit.push(async () => committed(request));
      Object.defineProperty(request, 'db', { value: unit.db, configurable: true });
      let result: unknown;
      try {
        const replay = await claimKey(unit.db, request, pushOf(request));
        if (replay) {
          await unit.rollback();
          reply.code(replay.status_code).header('Idempotent-Replayed', 'true');
          return replay.response;
        }
        result = await handler.call(this, request, reply);
        const key = idempotencyKeyOf(request);
        if (request.auth && key) await unit.storeAnswer(key, reply.statusCode, JSON.stringify(result ?? null));
        await unit.commit();
      } catch (error) {
        await unit.rollback().catch(() => undefined);
        throw error;
      } finally {
        Object.defineProperty(request, 'db', { value: readsThrough, configurable: true });
      }
      if (unit.ownsCommit) {
        for (const task of unit.afterCommit) {
          await task().catch((error: unknown) => request.log.error({ err: error }, 'after-commit task failed'));
        }
      }
      return result;
    };
  });
}

const fingerprintOf = (request: FastifyRequest) => `${request.method} ${request.url}`;

/** The request's Idempotency-Key header, if it has one. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && header !== '' ? header : null;
}

/** Keys are per user: two users' devices can never collide, and nobody can read another's answer. */
function scopeOf(request: FastifyRequest): string {
  return scopeOfUser(request.auth?.user_id);
}

const scopeOfUser = (userId: number | undefined) => `user:${userId}`;

/** A key's record for the request's user: the call it was claimed for and, once answered, the answer. */
const storedKey = (db: Kysely<DB>, request: FastifyRequest, key: string) =>
  db.selectFrom('idempotency_keys').select(['fingerprint', 'status_code', 'response']).where('scope', '=', scopeOf(request)).where('key', '=', key).executeTakeFirst();

/**
 * Claims the request's key in its transaction, or answers the stored answer of an earlier call. A
 * pushed entry's key was read with the push's (`inPushTransaction`) and is stored at its commit.
 */
async function claimKey(trx: Kysely<DB>, request: FastifyRequest, push: PushTransaction | undefined) {
  const key = idempotencyKeyOf(request);
  if (!key || !request.auth) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new HttpError(400, 'Idempotency-Key must be 8 to 200 letters, digits or -_.:');
  const fingerprint = fingerprintOf(request);
  if (push) {
    const stored = push.keys.get(key);
    if (!stored) return null;
    if (stored.fingerprint !== fingerprint) throw new HttpError(422, httpMessages.idempotencyMismatch);
    if (stored.status_code === null) throw conflict(httpMessages.idempotencyInFlight);
    return { status_code: stored.status_code, response: stored.response };
  }
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ scope: scopeOf(request), key, fingerprint })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  const stored = await storedKey(trx, request, key);
  if (!stored) throw new Error(`Idempotency-Key ${key} was claimed but is not stored`);
  if (stored.fingerprint !== fingerprint) throw new HttpError(422, httpMessages.idempotencyMismatch);
  if (stored.status_code === null) throw conflict(httpMessages.idempotencyInFlight);
  return { status_code: stored.status_code, response: stored.response };
}
