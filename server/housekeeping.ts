/** Periodic clean-up of what only needs keeping for a while. Runs at start and then hourly. */
import type { Kysely } from 'kysely';
import type { DB } from './db/schema';
import { IDEMPOTENCY_RETENTION_DAYS } from './http/transactions';

export async function cleanUp(db: Kysely<DB>): Promise<void> {
  const before = (days: number) => new Date(Date.now() - days * 86_400_000);
  // Keys live as long as a refresh token, so a tablet offline for weeks still replays safely.
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before(IDEMPOTENCY_RETENTION_DAYS)).execute();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', before(1)).execute();
  await db.deleteFrom('password_resets').where('expires_at', '<', before(1)).execute();
}

export function scheduleCleanUp(db: Kysely<DB>, onError: (error: unknown) => void): () => void {
  const run = () => cleanUp(db).catch(onError);
  void run();
  const timer = setInterval(() => void run(), 60 * 60 * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
