/**
 * Tells open `/api/sync/stream` connections which collections of their company changed. The source is
 * the `sync_changes` NOTIFY of the track_change trigger, which PostgreSQL delivers to every server
 * instance (and PGlite to its one process), only after the writing transaction commits.
 */
import type { Database } from '../../db/database';
import { collectionsOfTable } from './collections';

export type ChangeListener = (collections: string[]) => void;

export interface ChangeHub {
  subscribe(companyId: number, listener: ChangeListener): () => void;
  /** Every committed change of `table`, on any instance, by the company it belongs to (caches drop what it changed). */
  onTableChange(table: string, listener: (companyId: number) => void): () => void;
  /** Companies with listeners, for the stream's shutdown. */
  readonly size: number;
  close(): Promise<void>;
}

export async function createChangeHub(database: Database): Promise<ChangeHub> {
  const byCompany = new Map<number, Set<ChangeListener>>();
  const byTable = new Map<string, Set<(companyId: number) => void>>();
  const stop = await database.listen('sync_changes', (payload) => {
    let change: { table?: string; company_id?: number | null };
    try {
      change = JSON.parse(payload) as typeof change;
    } catch {
      return;
    }
    if (typeof change.company_id !== 'number' || !change.table) return;
    for (const listener of byTable.get(change.table) ?? []) listener(change.company_id);
    const collections = collectionsOfTable(change.table);
    if (collections.length === 0) return;
    for (const listener of byCompany.get(change.company_id) ?? []) listener(collections);
  });
  return {
    subscribe(companyId, listener) {
      const listeners = byCompany.get(companyId) ?? new Set();
      listeners.add(listener);
      byCompany.set(companyId, listeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) byCompany.delete(companyId);
      };
    },
    onTableChange(table, listener) {
      const listeners = byTable.get(table) ?? new Set();
      listeners.add(listener);
      byTable.set(table, listeners);
      return () => listeners.delete(listener);
    },
    get size() {
      return byCompany.size;
    },
    close: () => stop(),
  };
}
