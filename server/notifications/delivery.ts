/**
 * Notification deliveries: the outbox and the log (table `notification_deliveries`, migration 0014).
 * The rules (server/domains/automations: which change notifies whom) call this module; the worker
 * that sends is delivery-worker.ts.
 *
 * Contract:
 * - `enqueueDelivery(db, {companyId, notificationId, triggerKey, actedAt, message})` writes the
 *   delivery and its job through `db`, the caller's transaction (a request's `request.db`, a pushed
 *   entry's savepoint, a scheduled job's own transaction; given the root database it opens one): the
 *   delivery exists if and only if the triggering write commits, and nothing waits for a hook after
 *   the commit. A second enqueue with the same company, rule and trigger key (the change replayed, the
 *   rule fired twice for it) writes nothing and answers null, so a change notifies once per rule.
 *   It throws only when the database does: a message with nowhere to go (no recipient) is logged as
 *   failed instead, so a rule's mistake never fails the grower's write that triggered it.
 *   Trigger keys are the caller's: e.g. `response:<id>` for a submitted response, or `weekly:<company
 *   week>` for a weekly report; `actedAt` is when the triggering change was made (its act time).
 * - The worker tries at once, then after each wait of DELIVERY_RETRY_SECONDS (30 s, 2 min, 10 min,
 *   1 h, 6 h) while the failure may pass (network errors, 5xx, 429, SMTP 4xx); a refusal that cannot
 *   pass (a 3xx or other 4xx answer, a webhook address refused by server/http/outbound.ts, SMTP 5xx)
 *   fails at once. The row says each time: status, attempts, last_error (kept once sent, so the log
 *   shows why a try failed), next_try_at.
 * - `sendTest(db, companyId, message, notificationId?)`: the "send a test" button, a delivery with a
 *   trigger key of its own.
 * - `deliveriesOf(db, companyId, {notificationId?, limit})`: the log, newest first, without bodies;
 *   a webhook's address is shown as its origin only (the rest of a Slack or Teams webhook URL is
 *   its secret).
 * Delivery is at least once: a webhook that received a message but whose answer was lost (a crash,
 * a shutdown mid-call) gets it again on the next try.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DB, DeliveryMethod, DeliveryStatus, NotificationDeliveriesTable } from '../db/schema';
import { jobIsLive, sendJob } from '../jobs/queue';

/** The pg-boss queue whose jobs each make one try of one delivery: `{deliveryId}`. */
export const DELIVERY_QUEUE = 'notification-delivery';

export interface DeliveryJob {
  deliveryId: number;
}

export interface MessageAttachment {
  filename: string;
  content: string;
  contentType: string;
}

export interface MessageLink {
  url: string;
  label: string;
}

/** What a message says, whatever carries it. `html` and `attachment` are e-mail's only. */
export interface MessageContent {
  subject: string;
  text: string;
  html?: string | undefined;
  attachment?: MessageAttachment | undefined;
  link?: MessageLink | undefined;
}

export type OutgoingMessage = MessageContent & ({ method: 'email'; recipients: string[] } | { method: 'Slack' | 'Microsoft Teams'; webhookUrl: string });

export interface EnqueueInput {
  companyId: number;
  /** The rule that fired; null for a delivery no rule made (a test without one). */
  notificationId: number | null;
  triggerKey: string;
  /** When the triggering change was made. */
  actedAt: Date;
  message: OutgoingMessage;
}

export type DeliveryRow = Selectable<NotificationDeliveriesTable>;

/** A delivery as the log shows it. */
export interface DeliveryLogEntry {
  id: number;
  notificationId: number | null;
  triggerKey: string;
  method: DeliveryMethod;
  /** The e-mail addresses joined by ';', or the webhook's origin (`https://hooks.slack.com/…`). */
  recipient: string;
  subject: string;
  attachmentName: string | null;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  nextTryAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
  actedAt: Date;
}

/** The message a stored delivery carries (the worker's reading of a row). */
export function messageOf(row: DeliveryRow): OutgoingMessage {
  const content: MessageContent = { subject: row.subject, text: row.body, html: row.html ?? undefined, attachment: row.attachment ?? undefined, link: row.link ?? undefined };
  return row.method === 'email' ? { ...content, method: 'email', recipients: row.recipient.split(';') } : { ...content, method: row.method, webhookUrl: row.recipient };
}

/** The row's recipient, and why the message cannot go out at all (no address), if so. */
function recipientOf(message: OutgoingMessage): { recipient: string; problem: string | null } {
  if (message.method !== 'email') {
    const url = message.webhookUrl.trim();
    return { recipient: url, problem: url === '' ? `The ${message.method} webhook address is empty.` : null };
  }
  const recipients = message.recipients.map((address) => address.trim()).filter(Boolean);
  return { recipient: recipients.join(';'), problem: recipients.length === 0 ? 'The e-mail has no recipient.' : null };
}

/**
 * Writes the delivery and its job in the caller's transaction (see the module header). Answers the
 * delivery's id, or null when this rule already delivers for this trigger key.
 */
export async function enqueueDelivery(db: Kysely<DB>, input: EnqueueInput): Promise<number | null> {
  const { message } = input;
  const { recipient, problem } = recipientOf(message);
  const values = {
    company_id: input.companyId,
    notification_id: input.notificationId,
    trigger_key: input.triggerKey,
    method: message.method,
    recipient,
    subject: message.subject,
    body: message.text,
    html: message.html ?? null,
    attachment: message.attachment ? JSON.stringify(message.attachment) : null,
    link: message.link ? JSON.stringify(message.link) : null,
    acted_at: input.actedAt,
  };
  const write = async (trx: Kysely<DB>) => {
    // The job's id is chosen here so that the row names its job from the start (the sweep below).
    const jobId = randomUUID();
    // A message with nowhere to go is logged as failed, not thrown: the triggering write (a grower's
    // observation) must not fail for a rule's mistake.
    const inserted = await trx
      .insertInto('notification_deliveries')
      .values(problem === null ? { ...values, job_id: jobId } : { ...values, status: 'failed', last_error: problem })
      // The only unique key besides the id is (company, rule, trigger key).
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return null;
    if (problem !== null) return inserted.id;
    await sendJob<DB, DeliveryJob>(trx, DELIVERY_QUEUE, { deliveryId: inserted.id }, { id: jobId });
    return inserted.id;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/** The "send a test" button: the message goes out now, under a trigger key of its own; answers the delivery's id. */
export async function sendTest(db: Kysely<DB>, companyId: number, message: OutgoingMessage, notificationId: number | null = null): Promise<number> {
  const id = await enqueueDelivery(db, { companyId, notificationId, triggerKey: `test:${randomUUID()}`, actedAt: new Date(), message });
  if (id === null) throw new Error('A test delivery collided with another: its trigger key is unique');
  return id;
}

function originOf(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '(not a valid URL)';
  }
}

/**
 * The company's deliveries, newest first: all of them, or one rule's (`notificationId`; null: those
 * of no rule). `limit` is kept between 1 and 500.
 */
export async function deliveriesOf(db: Kysely<DB>, companyId: number, options: { notificationId?: number | null; limit: number }): Promise<DeliveryLogEntry[]> {
  let query = db
    .selectFrom('notification_deliveries')
    .select(['id', 'notification_id', 'trigger_key', 'method', 'recipient', 'subject', 'attachment', 'status', 'attempts', 'last_error', 'next_try_at', 'sent_at', 'created_at', 'acted_at'])
    .where('company_id', '=', companyId);
  if (options.notificationId !== undefined) {
    const rule = options.notificationId;
    query = rule === null ? query.where('notification_id', 'is', null) : query.where('notification_id', '=', rule);
  }
  const rows = await query
    .orderBy('id', 'desc')
    .limit(Math.min(500, Math.max(1, Math.trunc(options.limit))))
    .execute();
  return rows.map((row) => ({
    id: row.id,
    notificationId: row.notification_id,
    triggerKey: row.trigger_key,
    method: row.method,
    recipient: row.method === 'email' ? row.recipient : originOf(row.recipient),
    subject: row.subject,
    attachmentName: row.attachment?.filename ?? null,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    nextTryAt: row.next_try_at,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    actedAt: row.acted_at,
  }));
}

/**
 * Gives a new job to each delivery still to try whose job is gone (its tries used up by crashes, or
 * removed from the queue), so none waits for ever; answers how many. Run at start. Rows another
 * instance is handling at the same moment are skipped (SKIP LOCKED), and a row whose job is still to
 * run is left alone, so instances starting together do not send one delivery twice.
 */
export async function requeueOrphanedDeliveries(db: Kysely<DB>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const orphans = await trx
      .selectFrom('notification_deliveries as delivery')
      .select(['delivery.id', 'delivery.next_try_at'])
      .where('delivery.status', 'in', ['queued', 'retrying'])
      .where((eb) => eb.not(jobIsLive(DELIVERY_QUEUE, eb.ref('delivery.job_id'))))
      .forUpdate()
      .skipLocked()
      .execute();
    for (const orphan of orphans) {
      const jobId = randomUUID();
      await trx.updateTable('notification_deliveries').set({ job_id: jobId }).where('id', '=', orphan.id).execute();
      await sendJob<DB, DeliveryJob>(trx, DELIVERY_QUEUE, { deliveryId: orphan.id }, { id: jobId, startAfter: orphan.next_try_at ?? new Date() });
    }
    return orphans.length;
  });
}
