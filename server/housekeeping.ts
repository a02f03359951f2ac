/**
 * Periodic upkeep, at start and then hourly: clean-up of what only needs keeping for a while, and, on
 * the embedded database, fresh planner statistics.
 */
import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from './db/database';
import type { DB } from './db/schema';
import { IDEMPOTENCY_RETENTION_DAYS } from './http/transactions';

export async function cleanUp(db: Kysely<DB>): Promise<void> {
  const before = (days: number) => new Date(Date.now() - days * 86_400_000);
  // Keys live as long as a refresh token, so a tablet offline for weeks still replays safely.
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before(IDEMPOTENCY_RETENTION_DAYS)).execute();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', before(1)).execute();
  await db.deleteFrom('password_resets').where('expires_at', '<', before(1)).execute();
}

/**
 * PGlite runs no autovacuum, so without this its planner never has statistics: at a real company's
 * size (a year of responses) a report then compares tens of thousands of rows one by one for minutes
 * (bench/reports.ts found it). ANALYZE samples each table (about a second for a million rows), so it
 * runs hourly with the clean-up, not on every write. PostgreSQL's autovacuum does this itself.
 */
export async function refreshStatistics(db: Kysely<DB>): Promise<void> {
  await sql`ANALYZE`.execute(db);
}

export function scheduleCleanUp(db: Kysely<DB>, kind: DatabaseKind, onError: (error: unknown) => void): () => void {
  const run = async () => {
    await cleanUp(db).catch(onError);
    if (kind === 'pglite') await refreshStatistics(db).catch(onError);
  };
  void run();
  const timer = setInterval(() => void run(), 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
