/**
 * The worker that sends notification deliveries (delivery.ts is the outbox it reads): e-mail through
 * the server's mailer (SMTP_URL, else files in DATA_DIR/mail/), Slack and Teams through their incoming
 * webhooks, called through server/http/outbound.ts (public https addresses only, unless
 * ALLOW_PRIVATE_WEBHOOKS).
 *
 * Each pg-boss job of DELIVERY_QUEUE is one try of one delivery. A job acts only if its delivery is
 * still to send and still names it (`job_id`), so a job that runs again (its batch failed, the server
 * crashed mid-try) or a job a sweep replaced does nothing twice. A try that fails and may pass writes
 * the failure, the next try's time and that try's job in one transaction: our own schedule
 * (DELIVERY_RETRY_SECONDS), so the log's "next try" is exact. pg-boss's own retries (the queue's
 * retryLimit) are for what is not the receiver's doing: a try interrupted by a shutdown (the batch
 * throws, its untouched deliveries run again after the restart) or a database error.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config';
import type { DatabaseKind } from '../db/database';
import type { DB } from '../db/schema';
import { OutboundRefusedError, type OutboundPolicy, postJson } from '../http/outbound';
import { type Job, type JobQueue, sendJob } from '../jobs/queue';
import type { Mailer } from '../mail/mailer';
import { DELIVERY_QUEUE, type DeliveryJob, type DeliveryRow, messageOf, type OutgoingMessage, requeueOrphanedDeliveries } from './delivery';
import { slackMessage } from './slack';
import { teamsMessage } from './teams';

export interface DeliveryWorkerDeps {
  db: Kysely<DB>;
  databaseKind: DatabaseKind;
  mailer: Mailer;
  config: Pick<ServerConfig, 'allowPrivateWebhooks' | 'webhookCaFile' | 'deliveryRetrySeconds'>;
  log: FastifyBaseLogger;
}

type Outcome = { kind: 'sent' } | { kind: 'failed'; reason: string; retry: boolean; retryAfterSeconds?: number | null } | { kind: 'interrupted' };

/** Jobs per batch, and batches under way at once: a slow receiver holds up its batch, not the queue. */
const BATCH_SIZE = 50;
/** PGlite runs one statement at a time, so more loops would only wait on each other. */
const LOOPS: Record<DatabaseKind, number> = { pglite: 2, postgres: 4 };
/** An e-mail try that takes longer counts as failed (nodemailer's own timeouts run to minutes). */
const EMAIL_TIMEOUT_MS = 60_000;
/** How much of a receiver's answer the log keeps. */
const ANSWER_IN_LOG = 300;

/**
 * Creates the delivery queue (if it is new), gives a job to deliveries left without one, and starts
 * the worker. Called once per server instance at start, after the job queue started.
 */
export async function startDeliveries(jobs: JobQueue, deps: DeliveryWorkerDeps): Promise<void> {
  // pg-boss's retries are for interruptions and database errors only (see the module header): a
  // few seconds apart, doubling, for about half an hour. A job whose handler died is taken back
  // after 10 minutes, beyond any try's own time limits.
  await jobs.createQueue(DELIVERY_QUEUE, { retryLimit: 10, retryDelay: 1, retryBackoff: true, expireInSeconds: 600 });
  const requeued = await requeueOrphanedDeliveries(deps.db);
  if (requeued > 0) deps.log.warn({ requeued }, 'notification deliveries without a job were queued again');
  const policy: OutboundPolicy = {
    allowPrivate: deps.config.allowPrivateWebhooks,
    extraCa: deps.config.webhookCaFile ? readFileSync(deps.config.webhookCaFile, 'utf8') : undefined,
  };
  await jobs.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize: BATCH_SIZE, loops: LOOPS[deps.databaseKind], pollingIntervalSeconds: 0.5 }, (batch, signal) =>
    deliverBatch(batch, signal, deps, policy),
  );
}

async function deliverBatch(batch: Array<Job<DeliveryJob>>, signal: AbortSignal, deps: DeliveryWorkerDeps, policy: OutboundPolicy): Promise<void> {
  const rows = await deps.db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('id', 'in', batch.map((job) => job.data.deliveryId))
    .where('status', 'in', ['queued', 'retrying'])
    .execute();
  const rowById = new Map(rows.map((row) => [row.id, row]));
  let interrupted = false;
  const results = await Promise.allSettled(
    batch.map(async (job) => {
      const row = rowById.get(job.data.deliveryId);
      // Sent or failed for good already, or another job now makes its next try.
      if (!row || row.job_id !== job.id) return;
      const outcome = await attempt(row, signal, deps, policy);
      if (outcome.kind === 'interrupted') interrupted = true;
      else await record(row, job.id, outcome, deps);
    }),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  if (interrupted) throw new Error('The server stopped during a delivery; it is tried again when the server runs');
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The text of an e-mail: with the link at its end when the text does not already hold it. */
function emailText(message: OutgoingMessage): string {
  const { link } = message;
  return link && !message.text.includes(link.url) ? `${message.text}\n\n${link.label}: ${link.url}` : message.text;
}

/** One try of one delivery; never throws for the receiver's failures, which are its outcome. */
async function attempt(row: DeliveryRow, signal: AbortSignal, deps: DeliveryWorkerDeps, policy: OutboundPolicy): Promise<Outcome> {
  const message = messageOf(row);
  try {
    if (message.method === 'email') {
      // Not cut short by a shutdown: an SMTP exchange under way is let finish, so the mail goes once.
      await withTimeout(
        deps.mailer.send({
          to: message.recipients.join(', '),
          subject: message.subject,
          text: emailText(message),
          html: message.html,
          attachments: message.attachment ? [message.attachment] : undefined,
        }),
        EMAIL_TIMEOUT_MS,
        `The mail server did not answer within ${EMAIL_TIMEOUT_MS / 1000} s`,
      );
      return { kind: 'sent' };
    }
    const payload = message.method === 'Slack' ? slackMessage(message) : teamsMessage(message);
    const response = await postJson(message.webhookUrl, payload, policy, signal);
    const { status } = response;
    if (status >= 200 && status < 300) return { kind: 'sent' };
    const answer = response.body.trim().slice(0, ANSWER_IN_LOG);
    const answered = `${message.method} answered ${status}${answer ? `: ${answer}` : ''}`;
    if (status === 429) return { kind: 'failed', reason: answered, retry: true, retryAfterSeconds: response.retryAfterSeconds };
    if (status >= 300 && status < 400) return { kind: 'failed', reason: `${message.method} answered ${status}, a redirect; redirects are not followed.`, retry: false };
    // Any other 4xx: the webhook is gone, the address is wrong or the message refused; trying again cannot help.
    return { kind: 'failed', reason: answered, retry: !(status >= 400 && status < 500) };
  } catch (error) {
    if (signal.aborted && message.method !== 'email') return { kind: 'interrupted' };
    if (error instanceof OutboundRefusedError) return { kind: 'failed', reason: error.message, retry: false };
    const smtpCode = (error as { responseCode?: unknown }).responseCode;
    // SMTP 5xx is the mail server's final word (no such mailbox, refused); 4xx and no answer may pass.
    if (typeof smtpCode === 'number' && smtpCode >= 500) return { kind: 'failed', reason: `The mail server refused the message: ${(error as Error).message}`, retry: false };
    const code = (error as NodeJS.ErrnoException).code;
    const reason = error instanceof Error ? `${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}` : String(error);
    return { kind: 'failed', reason: message.method === 'email' ? `Sending the e-mail failed: ${reason}` : `Calling the ${message.method} webhook failed: ${reason}`, retry: true };
  }
}

/** Writes a try's outcome; a retry's job is written in the same transaction. Does nothing if another job took the delivery over. */
async function record(row: DeliveryRow, jobId: string, outcome: Exclude<Outcome, { kind: 'interrupted' }>, deps: DeliveryWorkerDeps): Promise<void> {
  const attempts = row.attempts + 1;
  if (outcome.kind === 'sent') {
    await deps.db.updateTable('notification_deliveries').set({ status: 'sent', attempts, sent_at: new Date(), next_try_at: null }).where('id', '=', row.id).where('job_id', '=', jobId).execute();
    return;
  }
  const delays = deps.config.deliveryRetrySeconds;
  const wait = delays[attempts - 1];
  deps.log.warn({ delivery: row.id, method: row.method, attempts, retry: outcome.retry && wait !== undefined, reason: outcome.reason }, 'notification delivery failed');
  if (!outcome.retry || wait === undefined) {
    await deps.db.updateTable('notification_deliveries').set({ status: 'failed', attempts, last_error: outcome.reason, next_try_at: null }).where('id', '=', row.id).where('job_id', '=', jobId).execute();
    return;
  }
  // A receiver asking for more time (429 Retry-After) gets it, up to the longest wait.
  const seconds = Math.min(Math.max(wait, outcome.retryAfterSeconds ?? 0), Math.max(...delays));
  const nextTry = new Date(Date.now() + seconds * 1000);
  const nextJob = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('notification_deliveries')
      .set({ status: 'retrying', attempts, last_error: outcome.reason, next_try_at: nextTry, job_id: nextJob })
      .where('id', '=', row.id)
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return;
    await sendJob<DB, DeliveryJob>(trx, DELIVERY_QUEUE, { deliveryId: row.id }, { id: nextJob, startAfter: nextTry });
  });
}
