/**
 * When an act was done (ARCHITECTURE.md "One write, end to end", step 4): a tablet queues writes
 * offline and sends them later, each with `X-Acted-At: <ISO 8601 date-time>`, the moment the grower
 * did it. Every /api request gets `request.actedAt`: that moment kept within the server's clock (never
 * ahead of it, at most `ACTED_AT_MAX_AGE_DAYS` back; clamped, never refused), or the server's now when
 * the header is absent. A header that is not a date-time with a zone answers 400.
 *
 * Routes stamp the act's time from it through their actor (`actorOfRequest` in domains/audit/record.ts,
 * which `db/writes.ts` turns into `created_at` of every row inserted) and wherever a route sets a time
 * of its own (scanned, culled, harvested, resolved). `updated_at` stays the server's bookkeeping time.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { httpMessages } from '../../common/messages/http';
import { badRequest } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** When the act was done: the request's X-Acted-At within the server's clock, else the server's now. */
    actedAt: Date;
  }
}

/**
 * How far back an act's time may go. An outbox entry older than this could not be replayed anyway:
 * its Idempotency-Key and the tablet's refresh token are kept 30 days (README "Idempotency",
 * "Sessions"), so an older time says the tablet's clock is wrong, not that the grower waited; the act
 * is then recorded 30 days back rather than refused (a grower's observation is never lost).
 */
export const ACTED_AT_MAX_AGE_DAYS = 30;
const MAX_AGE_MS = ACTED_AT_MAX_AGE_DAYS * 86_400_000;

export const ACTED_AT_HEADER = 'x-acted-at';

/** A date-time with a zone (`Z` or an offset): a local time alone would say nothing exact. */
const actedAtHeader = z.iso.datetime({ offset: true });

/** `at` kept within the server's clock: never after `now`, never more than ACTED_AT_MAX_AGE_DAYS before it. */
export function clampActedAt(at: Date, now: Date = new Date()): Date {
  return new Date(Math.min(now.getTime(), Math.max(now.getTime() - MAX_AGE_MS, at.getTime())));
}

/** The act's time a header value names (clamped), the server's now without one; throws 400 on anything else. */
export function parseActedAt(value: string | string[] | undefined, now: Date = new Date()): Date {
  if (value === undefined) return now;
  const parsed = actedAtHeader.safeParse(value);
  if (!parsed.success) throw badRequest(httpMessages.invalidActedAt);
  return clampActedAt(new Date(parsed.data), now);
}

export function registerActedAt(app: FastifyInstance) {
  // A Date is an object, which Fastify does not take as a decoration's value: it lives beside the request.
  const actedAts = new WeakMap<FastifyRequest, Date>();
  app.decorateRequest('actedAt', {
    getter(this: FastifyRequest) {
      return actedAts.get(this) ?? new Date();
    },
    setter(this: FastifyRequest, value: Date) {
      actedAts.set(this, value);
    },
  });
  // After the guards' onRequest (registered first), so an unsigned request still answers 401.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const isApi = request.routeOptions.url?.startsWith('/api/') ?? false;
    request.actedAt = request.is404 || !isApi ? new Date() : parseActedAt(request.headers[ACTED_AT_HEADER]);
  });
}
