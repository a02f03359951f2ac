/**
 * The cameras' background work, on the job queue (server/jobs/queue.ts, pg-boss on the server's own
 * database):
 *
 * - The scheduler: every instance looks for due IP cameras every few seconds (`tickMs`: a quarter of
 *   the shortest interval, at most 15 s). It claims them in one statement that moves each one's
 *   `next_capture_at` on by its interval, and queues one fetch job per claimed camera in the same
 *   transaction (`claimDueCameras`). A camera row is claimed by one transaction only (row locks, and
 *   the second claimer sees it no longer due), so two instances never fetch the same slot twice, and a
 *   claim whose transaction fails queues nothing and leaves the camera due. A server that was down
 *   fetches once when it is back, not once per missed slot. (pg-boss's cron ticks once a minute at
 *   best: too coarse for a camera's own interval, and for tests.)
 * - The fetch job (CAMERA_FETCH_QUEUE, `{cameraId}`): GETs the snapshot address through the outbound
 *   policy (snapshot.ts: ALLOW_PRIVATE_WEBHOOKS and WEBHOOK_CA_FILE, as webhooks), checks the bytes are
 *   an image, and records it (images.ts). A failure is written to the camera (last_error, failures in
 *   a row, state); one that may pass (no answer, 5xx, 429) makes the job fail, so pg-boss tries again
 *   with backoff; one that cannot (the address refused, a redirect, another 4xx, not an image, too
 *   large) marks the camera failing at once and is not retried.
 * - The image job (images.ts, CAMERA_IMAGE_QUEUE): thumbnail and analysis of each image.
 * - Retention (retention.ts): hourly, one instance per tick (a pg-boss cron schedule).
 *
 * Log lines name cameras by id, never by address: an address may hold a password.
 */
import { readFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { CAMERA_FAILURES_BEFORE_FAILING, fetchProblems } from '../../../common/messages/cameras';
import type { ServerConfig } from '../../config';
import type { DatabaseKind } from '../../db/database';
import type { DB } from '../../db/schema';
import { OutboundRefusedError, type OutboundPolicy } from '../../http/outbound';
import { type Job, type JobQueue, sendJob } from '../../jobs/queue';
import { type FileStore, sniffImageType } from '../files/storage';
import { CAMERA_IMAGE_QUEUE, type CameraImageJob, processCameraImage, recordCameraImage } from './images';
import { cameraQueries } from './queries';
import { removeExpiredCameraImages } from './retention';
import { fetchSnapshot, SNAPSHOT_MAX_BYTES } from './snapshot';

/** The pg-boss queue of fetches: one job, one try to photograph one IP camera. */
export const CAMERA_FETCH_QUEUE = 'camera-fetch';
/** The hourly removal of images past their retention. */
export const CAMERA_RETENTION_QUEUE = 'camera-retention';

export interface CameraFetchJob {
  cameraId: number;
  /** The due time the scheduler claimed (null: "capture now"), for the log. */
  slot: string | null;
}

/** Cameras claimed per statement: a server back after a long stop does not queue thousands at once. */
const CLAIM_SLICE = 200;
/** Fetches under way at once per instance: PGlite runs one statement at a time, so more only wait. */
const FETCH_LOOPS: Record<DatabaseKind, number> = { pglite: 2, postgres: 4 };

export interface CameraJobDeps {
  db: Kysely<DB>;
  databaseKind: DatabaseKind;
  files: FileStore;
  config: Pick<ServerConfig, 'allowPrivateWebhooks' | 'webhookCaFile' | 'cameraMinIntervalSeconds' | 'cameraRetentionDays' | 'dataDir'>;
  log: FastifyBaseLogger;
}

/**
 * Claims the IP cameras due at the database's now and queues a fetch for each, in one transaction
 * (see the module header); answers how many. Called by each instance's scheduler, and by tests.
 */
export async function claimDueCameras(db: Kysely<DB>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: number; slot: Date }>`
      WITH due AS (
        SELECT id, next_capture_at FROM cameras
        WHERE deleted_at IS NULL AND enabled AND kind = 'ip' AND next_capture_at <= now()
        ORDER BY next_capture_at
        LIMIT ${CLAIM_SLICE}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE cameras SET next_capture_at = CASE
          WHEN due.next_capture_at + make_interval(secs => cameras.interval_seconds) > now() THEN due.next_capture_at + make_interval(secs => cameras.interval_seconds)
          ELSE now() + make_interval(secs => cameras.interval_seconds)
        END
      FROM due WHERE cameras.id = due.id
      RETURNING cameras.id, due.next_capture_at AS slot`.execute(trx);
    for (const row of rows) await sendJob<DB, CameraFetchJob>(trx, CAMERA_FETCH_QUEUE, { cameraId: row.id, slot: new Date(row.slot).toISOString() });
    return rows.length;
  });
}

/** A fetch that did not give an image: why, whether trying again may help, and whether the camera is failing at once. */
interface FetchProblem {
  reason: string;
  retry: boolean;
}

/** Writes a failed fetch to the camera: the reason, one more failure in a row, and `failing` when it is time. */
async function recordFailure(db: Kysely<DB>, cameraId: number, problem: FetchProblem): Promise<void> {
  const failingNow = problem.retry ? sql<boolean>`failures + 1 >= ${CAMERA_FAILURES_BEFORE_FAILING}` : sql<boolean>`true`;
  await db
    .updateTable('cameras')
    .set({
      failures: sql`failures + 1`,
      last_error: problem.reason,
      state: sql`CASE WHEN ${failingNow} THEN 'failing' ELSE state END`,
    })
    .where('id', '=', cameraId)
    .execute();
}

const reasonOf = (error: unknown) => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return `${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}`;
};

/** One fetch of one camera (the fetch job). Throws to have the queue try again (a failure that may pass, or the server stopping). */
export async function fetchCamera(deps: Pick<CameraJobDeps, 'db' | 'files' | 'log'>, policy: OutboundPolicy, cameraId: number, signal: AbortSignal): Promise<void> {
  const camera = await cameraQueries.live(deps.db, cameraId);
  // Deleted, or made a phone camera, since the job was queued.
  if (!camera || camera.kind !== 'ip' || camera.snapshot_url === null) return;
  let problem: FetchProblem;
  try {
    const answer = await fetchSnapshot(camera.snapshot_url, policy, signal);
    const type = sniffImageType(answer.bytes);
    if (answer.status >= 300 && answer.status < 400) problem = { reason: fetchProblems.redirect(answer.status), retry: false };
    else if (answer.status < 200 || answer.status >= 300) problem = { reason: fetchProblems.status(answer.status), retry: answer.status >= 500 || answer.status === 429 || answer.status === 408 };
    else if (answer.tooLarge) problem = { reason: fetchProblems.tooLarge(SNAPSHOT_MAX_BYTES / 1024 / 1024), retry: false };
    else if (!type) problem = { reason: fetchProblems.notImage(answer.contentType), retry: false };
    else {
      await deps.db.transaction().execute((trx) => recordCameraImage(trx, deps.files, { camera, bytes: answer.bytes, type, capturedAt: new Date(), source: 'fetch' }));
      return;
    }
  } catch (error) {
    // Interrupted by a shutdown: the job runs again after the restart.
    if (signal.aborted) throw error;
    problem = error instanceof OutboundRefusedError ? { reason: error.message, retry: false } : { reason: fetchProblems.failed(reasonOf(error)), retry: true };
  }
  deps.log.warn({ camera: camera.id, retry: problem.retry, reason: problem.reason }, 'a camera fetch failed');
  await recordFailure(deps.db, camera.id, problem);
  if (problem.retry) throw new Error(problem.reason);
}

const lastTryOf = (job: Job<unknown>) => job.retryCount >= job.retryLimit;

export interface CameraCaptures {
  /** Stops the scheduler (waiting for a claim under way); the queue's workers stop with the queue. */
  stop(): Promise<void>;
}

/**
 * Creates the queues (if new), starts the workers, the retention schedule and this instance's
 * scheduler. Called once per server instance at start, after the job queue started.
 */
export async function startCameraCaptures(jobs: JobQueue, deps: CameraJobDeps): Promise<CameraCaptures> {
  const { config, log } = deps;
  // pg-boss's retries are the fetch's own (see the module header): 10 s, 20 s, then the next slot.
  await jobs.createQueue(CAMERA_FETCH_QUEUE, { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 120 });
  await jobs.createQueue(CAMERA_IMAGE_QUEUE, { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 600 });
  await jobs.createQueue(CAMERA_RETENTION_QUEUE, { retryLimit: 0, expireInSeconds: 3600 });
  const policy: OutboundPolicy = {
    allowPrivate: config.allowPrivateWebhooks,
    extraCa: config.webhookCaFile ? readFileSync(config.webhookCaFile, 'utf8') : undefined,
    maxResponseBytes: SNAPSHOT_MAX_BYTES,
  };
  await jobs.work<CameraFetchJob>(CAMERA_FETCH_QUEUE, { batchSize: 1, loops: FETCH_LOOPS[deps.databaseKind], pollingIntervalSeconds: 1 }, async (batch, signal) => {
    for (const job of batch) await fetchCamera(deps, policy, job.data.cameraId, signal);
  });
  await jobs.work<CameraImageJob>(CAMERA_IMAGE_QUEUE, { batchSize: 1, loops: 1, pollingIntervalSeconds: 1 }, async (batch) => {
    for (const job of batch) await processCameraImage(deps, job.data.imageId, lastTryOf(job));
  });
  // The uploads' folder of app.ts's file store (localFileStore under DATA_DIR/uploads), whose interface has no removal yet.
  const uploads = join(config.dataDir, 'uploads');
  const removeBytes = (key: string) => unlink(join(uploads, ...key.split('/'))).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  await jobs.work(CAMERA_RETENTION_QUEUE, { batchSize: 1, loops: 1, pollingIntervalSeconds: 30 }, async () => {
    const removed = await removeExpiredCameraImages(deps.db, removeBytes, config.cameraRetentionDays);
    if (removed > 0) log.info({ removed, days: config.cameraRetentionDays }, 'camera images past their retention removed');
  });
  if (config.cameraRetentionDays > 0) await jobs.schedule(CAMERA_RETENTION_QUEUE, '23 * * * *');
  else await jobs.unschedule(CAMERA_RETENTION_QUEUE);

  const tickMs = Math.min(15_000, Math.max(500, config.cameraMinIntervalSeconds * 250));
  let claiming: Promise<void> | null = null;
  const tick = () => {
    if (claiming) return;
    claiming = claimDueCameras(deps.db)
      .then(
        () => undefined,
        (error: unknown) => log.warn({ err: error }, 'due cameras could not be claimed; trying again at the next tick'),
      )
      .finally(() => {
        claiming = null;
      });
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await claiming;
    },
  };
}
