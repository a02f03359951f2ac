/**
 * Companies' rows, kept in memory by each server instance for the calls that only read them (a
 * company's settings are read by every tablet on every screen, and change a few times a year).
 *
 * A row is dropped when it changes: on the instance that wrote it, at its commit (the writing route's
 * `afterCommit`), so the writer reads its own change at once; on every instance, through the change
 * hub (the track_change trigger's NOTIFY, delivered after the commit). A read that started before a
 * drop does not store what it read (a generation per company), so a change is never hidden by a read
 * that raced it. Entries also expire after TTL_MS, which bounds how long an instance could serve a
 * row whose notification it missed (its listening connection dropped). Writes read the database.
 */
import type { Kysely } from 'kysely';
import type { Company, DB } from '../../db/schema';
import type { ChangeHub } from '../replication/changes';
import { companyQueries } from './queries';

const TTL_MS = 60_000;
/** More companies than this are not kept (the oldest entry goes first). */
const MAX_ENTRIES = 10_000;

export interface CompanyCache {
  /** The company's row as last committed (from memory when this instance has it). */
  get(db: Kysely<DB>, companyId: number): Promise<Company>;
  /** Forgets the company's row: it changed. */
  drop(companyId: number): void;
  close(): void;
}

export function createCompanyCache(changes: ChangeHub, now: () => number = Date.now): CompanyCache {
  const rows = new Map<number, { row: Company; until: number }>();
  const generations = new Map<number, number>();
  const drop = (companyId: number) => {
    rows.delete(companyId);
    generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
  };
  const stop = changes.onTableChange('companies', drop);
  return {
    async get(db, companyId) {
      const hit = rows.get(companyId);
      if (hit && hit.until > now()) return hit.row;
      const generation = generations.get(companyId) ?? 0;
      const row = await companyQueries.existing(db, companyId);
      if ((generations.get(companyId) ?? 0) === generation) {
        rows.delete(companyId);
        if (rows.size >= MAX_ENTRIES) rows.delete(rows.keys().next().value as number);
        rows.set(companyId, { row, until: now() + TTL_MS });
      }
      return row;
    },
    drop,
    close: () => void stop(),
  };
}
