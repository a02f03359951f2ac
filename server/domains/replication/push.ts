/**
 * `POST /api/sync/push`: many outbox entries in one request (ARCHITECTURE.md "One write, end to end",
 * steps 3–5), so a tablet drains its outbox without one round trip, read-back and pull per entry.
 *
 * - Each entry is applied exactly as if it had been sent alone: the app itself answers it
 *   (`app.inject`), so validation, guards, tenancy, the transaction wrapper and the Idempotency-Key are
 *   the same code as for a direct call. The push runs in one transaction and each entry in a savepoint
 *   of it (server/http/transactions.ts `inPushTransaction`): applied or refused whole, as alone, but
 *   committed (and flushed to disk) once per push. It goes under the push's own `Authorization`, with
 *   `Idempotency-Key: <entry id>`, `X-Acted-At: <actedAt>` when given, and its body as JSON, nothing or
 *   multipart/form-data (text parts only: an entry carrying a file is sent as its own call). The one
 *   shortcut: the records the entries name are looked up for the tenancy guard once, for the whole push,
 *   when it begins (guards.ts `ownedAhead`); what that does not find, each entry's guard looks up alone.
 * - In order, one at a time, each answered separately (`results`, in entry order, with the status and
 *   envelope the call alone would have had). A refusal (4xx) does not stop the entries after it: the
 *   client only puts in one push entries that do not depend on each other's outcome. A retryable answer
 *   stops the run there: 5xx, 408, 429, 409 "still being processed", and 401 (the session ended during
 *   the push: every later entry would get the same). That entry's result is given; the ones after it
 *   were not attempted and are not in `results`, so the client retries from there, in order.
 * - `documents`: by collection, the current state of every synced document of the caller's company
 *   that the applied entries changed (rows whose change_xid is the push's transaction id), read after
 *   the commit. A replayed entry (its stored answer) changed nothing and brings none.
 *
 * WARNING: the route itself runs outside the transaction wrapper (`config.transaction: false`): its
 * transaction is `inPushTransaction`'s. Nothing here may write through `request.db`.
 */
import type { FastifyRequest, InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { httpMessages } from '../../../common/messages/http';
import { type DocumentNaming, type PushEntry, type PushResult, pushAnswer, type SyncDocument, pushBody, pushQuery } from '../../../common/schemas/sync';
import type { DB } from '../../db/schema';
import { ACTED_AT_HEADER } from '../../http/acted-at';
import { clientIdsAhead, withClientIdsResolved } from '../../http/client-ids';
import { caller, ownedAhead } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { inPushTransaction } from '../../http/transactions';

/**
 * The push's own body limit: 200 entries exceed the default (BODY_LIMIT_BYTES, 1 MB). Each entry is
 * still held to the default as the request of its own that it becomes.
 */
export const PUSH_BODY_LIMIT_BYTES = 8 * 1024 * 1024;


const pushSchema = { body: pushBody, querystring: pushQuery, response: { 200: pushAnswer } };

export const pushOptions = {
  schema: pushSchema,
  bodyLimit: PUSH_BODY_LIMIT_BYTES,
  config: { access: 'member' as const, transaction: false, carriesRequests: true },
};

/** The current documents, by collection, of a company's rows that the transactions `xids` wrote (routes.ts). */
export type DocumentsWrittenBy = (db: Kysely<DB>, companyId: number, xids: string[], naming: DocumentNaming, prove: boolean) => Promise<Record<string, SyncDocument[]>>;

/** The entry as the request it would have been alone. */
function injectionOf(request: FastifyRequest, entry: PushEntry, pushHeaders: Record<string, string>): InjectOptions {
  const headers: Record<string, string> = {
    authorization: request.headers.authorization ?? '',
    'idempotency-key': entry.id,
    ...pushHeaders,
    ...(entry.actedAt === undefined ? {} : { [ACTED_AT_HEADER]: entry.actedAt }),
  };
  const body = entry.body ?? { kind: 'none' };
  let payload: string | Buffer | undefined;
  if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.data ?? null);
  } else if (body.kind === 'multipart') {
    // Text parts only (an entry with a file is sent alone): the same fields as a urlencoded form, which
    // the routes read alike (@fastify/formbody and @fastify/multipart's keyValues) and which costs a
    // fraction of encoding and parsing multipart; the Idempotency-Key's fingerprint is the method and URL.
    const form = new URLSearchParams();
    for (const part of body.parts) form.append(part.name, part.value);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = form.toString();
  }
  return {
    method: entry.method,
    url: `/api${entry.path}`,
    query: Object.fromEntries(Object.entries(entry.query ?? {}).map(([name, value]) => [name, String(value)])),
    headers,
    payload,
    // Rate limits and logs see the tablet, not the server itself.
    remoteAddress: request.ip,
  };
}

/** The parameters an entry names records by, as its route will read them: its query and its body's fields. */
function parametersOf(entry: PushEntry): unknown[] {
  const body = entry.body ?? { kind: 'none' };
  if (body.kind === 'json') return [entry.query, body.data];
  if (body.kind === 'multipart') return [entry.query, Object.fromEntries(body.parts.map((part) => [part.name, part.value]))];
  return [entry.query];
}

/** An answer's body: its JSON, else its text (null when empty). */
function bodyOf(payload: string): unknown {
  if (payload === '') return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}

/** Answers after which the entries behind it wait: the client retries from this one, in order. */
function stopsTheRun(status: number, body: unknown): boolean {
  if (status >= 500 || status === 408 || status === 429 || status === 401) return true;
  return status === 409 && (body as { message?: unknown } | null)?.message === httpMessages.idempotencyInFlight;
}

export function pushHandler(app: App, documentsWrittenBy: DocumentsWrittenBy) {
  return async function push(request: RequestOf<typeof pushSchema>) {
    const claims = caller(request);
    const { company_id: companyId, user_id: userId } = claims;
    const { entries } = request.body;
    const { value: results, xid } = await inPushTransaction(
      request.db,
      {
        userId,
        keys: entries.map((entry) => entry.id),
        // Client ids first: the ownership proofs are of the integer ids they name.
        ahead: async (trx) => {
          const sources = entries.flatMap(parametersOf);
          const clientIds = await clientIdsAhead(trx, claims, sources);
          return { clientIds, owned: await ownedAhead(trx, claims, withClientIdsResolved(sources, clientIds)) };
        },
      },
      async (pushHeaders) => {
        const answered: PushResult[] = [];
        for (const entry of entries) {
          const answer = await app.inject(injectionOf(request, entry, pushHeaders));
          const body = bodyOf(answer.payload);
          answered.push({ id: entry.id, status: answer.statusCode, body });
          if (stopsTheRun(answer.statusCode, body)) break;
        }
        return answered;
      },
      (error) => request.log.error({ err: error }, 'after-commit task failed'),
    );
    const xids = xid === null ? [] : [xid];
    return success({ results, documents: await documentsWrittenBy(request.db, companyId, xids, request.query.naming, request.server.deps.config.checkAnswers) });
  };
}
