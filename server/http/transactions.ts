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
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Kysely } from 'kysely';
import { httpMessages } from '../../common/messages/http';
import type { DB } from '../db/schema';
import { HttpError, conflict } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The database to use: inside a mutation, the request's transaction. */
    db: Kysely<DB>;
    /** Runs after the transaction commits; failures are logged, never undo the request. */
    afterCommit(task: () => Promise<void>): void;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;
export const IDEMPOTENCY_RETENTION_DAYS = 30;

export function registerTransactions(app: FastifyInstance, rootDb: Kysely<DB>) {
  app.decorateRequest('db', { getter: () => rootDb });
  const pending = new WeakMap<FastifyRequest, Array<() => Promise<void>>>();
  app.decorateRequest('afterCommit', function (this: FastifyRequest, task: () => Promise<void>) {
    const tasks = pending.get(this);
    if (!tasks) throw new Error('afterCommit is only available inside a mutating route');
    tasks.push(task);
  });

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => MUTATING.has(method))) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function transactional(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const tasks: Array<() => Promise<void>> = [];
      pending.set(request, tasks);
      const trx = await rootDb.startTransaction().execute();
      Object.defineProperty(request, 'db', { value: trx, configurable: true });
      let result: unknown;
      try {
        const replay = await claimKey(trx, request);
        if (replay) {
          await trx.rollback().execute();
          reply.code(replay.status_code).header('Idempotent-Replayed', 'true');
          return replay.response;
        }
        result = await handler.call(this, request, reply);
        if (request.auth && keyOf(request)) {
          await trx
            .updateTable('idempotency_keys')
            .set({ status_code: reply.statusCode, response: JSON.stringify(result ?? null) })
            .where('scope', '=', scopeOf(request))
            .where('key', '=', keyOf(request) as string)
            .execute();
        }
        await trx.commit().execute();
      } catch (error) {
        await trx.rollback().execute().catch(() => undefined);
        throw error;
      } finally {
        Object.defineProperty(request, 'db', { value: rootDb, configurable: true });
      }
      for (const task of tasks) {
        await task().catch((error: unknown) => request.log.error({ err: error }, 'after-commit task failed'));
      }
      return result;
    };
  });
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && header !== '' ? header : null;
}

/** Keys are per user: two users' devices can never collide, and nobody can read another's answer. */
function scopeOf(request: FastifyRequest): string {
  return `user:${request.auth?.user_id}`;
}

async function claimKey(trx: Kysely<DB>, request: FastifyRequest) {
  const key = keyOf(request);
  if (!key || !request.auth) return null;
  if (!KEY_PATTERN.test(key)) throw new HttpError(400, 'Idempotency-Key must be 8 to 200 letters, digits or -_.:');
  const fingerprint = `${request.method} ${request.url}`;
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ scope: scopeOf(request), key, fingerprint })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  const stored = await trx
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response'])
    .where('scope', '=', scopeOf(request))
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (stored.fingerprint !== fingerprint) throw new HttpError(422, httpMessages.idempotencyMismatch);
  if (stored.status_code === null) throw conflict(httpMessages.idempotencyInFlight);
  return { status_code: stored.status_code, response: stored.response };
}
