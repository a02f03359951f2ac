/**
 * The audit trail's one entry point: every mutating endpoint records who did what, when, and the
 * room, batch or form response it concerned where known (spec part 2 §3 "Audit event").
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { writer, type Actor } from '../../db/writes';
import { caller } from '../../http/guards';
import { idempotencyKeyOf } from '../../http/transactions';

export interface AuditEntry {
  title: string;
  roomId?: number | null;
  batchId?: number | null;
  responseId?: number | null;
  /** The plant position concerned, for its history (get_plant_history_date). */
  gridBoxId?: number | null;
  details?: Record<string, unknown>;
}

/** The audit_events row of an entry, as the actor records it. */
export function auditRow(actor: Actor, entry: AuditEntry) {
  return {
    company_id: actor.companyId,
    user_id: actor.userId,
    event_title: entry.title,
    room_id: entry.roomId ?? null,
    batch_id: entry.batchId ?? null,
    response_id: entry.responseId ?? null,
    grid_box_id: entry.gridBoxId ?? null,
    details: entry.details ? JSON.stringify(entry.details) : null,
    idempotency_key: actor.idempotencyKey ?? null,
  };
}

/**
 * Records an entry of the trail. Nobody reads its id back, so inside a push it is inserted with the
 * push's other entries' in one statement before the commit (writes.ts `insertLater`).
 */
export async function recordAudit(db: Kysely<DB>, actor: Actor, entry: AuditEntry): Promise<void> {
  await writer(db, actor).insertLater('audit_events', auditRow(actor, entry));
}

/**
 * The actor of a signed-in request, acting on `companyId` (default: the caller's company) at the
 * request's acted-at time (server/http/acted-at.ts): what a route writes and audits with, so the
 * rows it inserts and its audit event carry the moment the act was done (and the event, the change's key).
 */
export function actorOfRequest(request: FastifyRequest, companyId?: number | null): Actor {
  const auth = caller(request);
  return { userId: auth.user_id, companyId: companyId ?? auth.company_id, actedAt: request.actedAt, idempotencyKey: idempotencyKeyOf(request) };
}

/**
 * The actor of token claims alone, acting at the server's now.
 * WARNING: in a route, use `actorOfRequest`: this one drops the time a queued write was done.
 */
export const actorOf = (auth: { user_id: number; company_id: number }, companyId = auth.company_id): Actor => ({
  userId: auth.user_id,
  companyId,
});
