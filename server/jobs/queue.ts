/**
 * The job queue: pg-boss 10 on the server's own database, so a job is a row and survives a restart,
 * and of several server instances sharing one database exactly one takes each job (pg-boss fetches
 * with FOR UPDATE SKIP LOCKED).
 *
 * On PostgreSQL pg-boss talks through a small pool of its own, made from DATABASE_URL. On the embedded
 * PGlite (one connection, one process) it talks through the server's own Kysely connection, by
 * pg-boss's documented `db` adapter (`{ executeSql(text, values) }`): the single-connection pool
 * serializes its statements with the requests' transactions, so pg-boss never sees half of one.
 *
 * Contract for callers:
 * - `sendJob(db, queue, data, options)` writes a job through `db`, which may be the caller's
 *   transaction: the job then exists if and only if that transaction commits. It needs no started
 *   queue in this process, only a queue created once on this database (`JobQueue.createQueue`, which
 *   the module owning the queue calls at start).
 * - `JobQueue.work` runs handlers on batches of jobs. A handler that resolves completes its batch;
 *   one that throws fails it, and pg-boss tries the batch's jobs again after the queue's retry delay,
 *   so handlers must be idempotent per job (a job may also run again after a crash mid-handler, once
 *   its `expireInSeconds` has passed). Handlers get an AbortSignal that fires when the server stops:
 *   a handler interrupted by it throws, and its jobs run again after the restart.
 * - `JobQueue.schedule` runs cron schedules (pg-boss's timekeeper; one instance sends each tick).
 *
 * WARNING: on PGlite, a handler holding a transaction must pass that transaction to `sendJob`; a send
 * through the root database would wait for the one connection the transaction holds, for ever.
 */
import { CompiledQuery, type Expression, type Kysely, sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';

/** The schema pg-boss keeps its tables in (its default). */
export const JOBS_SCHEMA = 'pgboss';

/** What a job may carry besides its data: a chosen id, a start time (retries), and so on. */
export type JobOptions = Pick<PgBoss.SendOptions, 'id' | 'startAfter' | 'priority' | 'singletonKey' | 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'>;

/** A queue's defaults for its jobs (kept by pg-boss in its queue table). */
export type QueueOptions = Omit<PgBoss.Queue, 'name'>;

export type Job<T> = PgBoss.JobWithMetadata<T>;

/** Runs a batch of jobs; `signal` aborts when the server stops. */
export type JobHandler<T> = (jobs: Array<Job<T>>, signal: AbortSignal) => Promise<void>;

export interface WorkOptions {
  /** Jobs fetched at once and handed to one call of the handler. */
  batchSize: number;
  /** Fetch loops running side by side, so one slow batch does not hold up the queue. */
  loops: number;
  /** How often an idle loop looks for jobs (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds: number;
}

export interface JobQueue {
  /** Creates the queue with its defaults when it does not exist yet (several instances may race: harmless). */
  createQueue(name: string, options: QueueOptions): Promise<void>;
  /** Sends a job in a statement of its own (see `sendJob` to send it with a transaction). */
  send<T extends object>(queue: string, data: T, options?: JobOptions): Promise<string>;
  work<T>(queue: string, options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /** Sends `data` to the queue `name` on each tick of `cron` (one instance sends each tick). */
  schedule(name: string, cron: string, data?: object, options?: PgBoss.ScheduleOptions): Promise<void>;
  unschedule(name: string): Promise<void>;
  /** Stops fetching, aborts the handlers under way and waits for them; their jobs run again after a restart. */
  stop(): Promise<void>;
}

interface Log {
  error(object: object, message: string): void;
  warn(object: object, message: string): void;
}

type SqlResult = { rows: unknown[] };

/** pg-boss's `db` adapter over a Kysely handle (the root database or a transaction). */
function adapterOf<Schema>(db: Kysely<Schema>): PgBoss.Db {
  return { executeSql: (text, values) => db.executeQuery(CompiledQuery.raw(text, values ?? [])) as Promise<SqlResult> };
}

/**
 * Builds job rows for `sendJob` and writes them through the `db` each send passes; it is never started
 * and has no connection of its own (its default `db` refuses).
 */
const jobWriter = new PgBoss({
  db: { executeSql: () => Promise.reject(new Error('sendJob writes jobs through the database it is given')) },
  schema: JOBS_SCHEMA,
  migrate: false,
  supervise: false,
  schedule: false,
});

/**
 * Writes a job through `db`: with a transaction, the job exists if and only if the transaction commits.
 * Answers the job's id.
 */
export async function sendJob<Schema, T extends object>(db: Kysely<Schema>, queue: string, data: T, options: JobOptions = {}): Promise<string> {
  const id = await jobWriter.send(queue, data, { ...options, db: adapterOf(db) });
  // Only the singleton and throttling policies, which no queue here uses, answer no id.
  if (id === null) throw new Error(`pg-boss did not write the job to ${queue}`);
  return id;
}

/**
 * SQL that is true when the job `jobId` of `queue` is still to run or running (created, retry, active):
 * for a module that keeps its own rows beside its jobs (an outbox) and looks for rows whose job is gone.
 */
export function jobIsLive(queue: string, jobId: Expression<string | null>) {
  return sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(`${JOBS_SCHEMA}.job`)} AS job WHERE job.name = ${queue} AND job.id = ${jobId} AND job.state < 'completed')`;
}

/**
 * Starts pg-boss on the server's database: creates or upgrades its schema (under an advisory lock, so
 * instances starting together take turns), then its maintenance (expiring jobs whose handler died,
 * archiving) and its cron timekeeper. `connectionString`: PostgreSQL; without it, the Kysely `db`.
 */
export async function startJobQueue<Schema>(options: { db: Kysely<Schema>; connectionString: string | undefined; log: Log }): Promise<JobQueue> {
  const { log } = options;
  const pool = options.connectionString ? new pg.Pool({ connectionString: options.connectionString, max: 4, application_name: 'growroom-jobs' }) : null;
  pool?.on('error', (error) => log.warn({ err: error }, 'job queue: database connection lost'));
  const direct: PgBoss.Db = pool ? { executeSql: (text, values) => pool.query(text, values) } : adapterOf(options.db);

  // After stop, pg-boss may still settle a batch it fetched just before (it completes or fails jobs
  // without waiting): those statements run while the database is open and are dropped once it is
  // closed, instead of failing as unhandled rejections. The jobs concerned expire and run again.
  let stopped = false;
  const db: PgBoss.Db = {
    executeSql: async (text, values) => {
      if (!stopped) return direct.executeSql(text, values);
      return direct.executeSql(text, values).catch(() => ({ rows: [] }));
    },
  };
  const boss = new PgBoss({ db, schema: JOBS_SCHEMA, migrate: true, supervise: true, schedule: true });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  try {
    await boss.start();
  } catch (error) {
    await pool?.end();
    throw error;
  }

  const stopping = new AbortController();
  const running = new Set<Promise<void>>();

  return {
    createQueue: (name, queueOptions) => boss.createQueue(name, { name, ...queueOptions }),
    async send(queue, data, sendOptions = {}) {
      const id = await boss.send(queue, data, sendOptions);
      if (id === null) throw new Error(`pg-boss did not write the job to ${queue}`);
      return id;
    },
    async work<T>(queue: string, workOptions: WorkOptions, handler: JobHandler<T>) {
      for (let loop = 0; loop < workOptions.loops; loop += 1) {
        let workerId = '';
        const onBatch = async (jobs: Array<Job<T>>) => {
          // A batch fetched while the server stops goes back to the queue at once.
          if (stopping.signal.aborted) throw new Error('The server is stopping');
          const run = handler(jobs, stopping.signal);
          running.add(run);
          try {
            await run;
          } finally {
            running.delete(run);
          }
          // A full batch: more are likely waiting, so fetch again now instead of after the polling interval.
          if (jobs.length === workOptions.batchSize && !stopping.signal.aborted) boss.notifyWorker(workerId);
        };
        workerId = await boss.work<T>(
          queue,
          { batchSize: workOptions.batchSize, pollingIntervalSeconds: workOptions.pollingIntervalSeconds, includeMetadata: true },
          onBatch,
        );
      }
    },
    schedule: (name, cron, data, scheduleOptions) => boss.schedule(name, cron, data, scheduleOptions),
    unschedule: (name) => boss.unschedule(name),
    async stop() {
      if (stopping.signal.aborted) return;
      stopping.abort();
      // Handlers see the abort and end quickly; pg-boss waits for them (then fails what is still
      // running, so it is tried again) before it lets go.
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await Promise.allSettled([...running]);
      stopped = true;
      await pool?.end();
    },
  };
}
