/**
 * What the parts of `npm run bench` share: where the PostgreSQL server is, a fresh database on it for
 * each measurement (dropped after, even when the measurement fails), and percentiles of latencies.
 */
import pg from 'pg';
import { postgresReachable } from '../tests/support/server-process';

export const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The PostgreSQL server to measure on: BENCH_DATABASE_URL, else this machine's when it answers, else none. */
export async function benchPostgresUrl(): Promise<string | undefined> {
  return process.env.BENCH_DATABASE_URL ?? ((await postgresReachable(DEFAULT_POSTGRES)) ? DEFAULT_POSTGRES : undefined);
}

/** Runs `run` with the address of a new, empty database on the server at `adminUrl`, and drops it after. */
export async function withFreshPostgres<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `grow_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** The `p`th percentile (0–100) of `values` (nearest rank), rounded to the millisecond; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank] as number);
}

/** The median of `values` (the mean of the middle two for an even count): the figure beside a goal. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
