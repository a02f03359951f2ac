/**
 * Answers that are large, read by every tablet and changed far less often than read (the floor plan:
 * a company's rooms, grids and thousands of boxes, load_room_grids_boxes; a room's open plant
 * problems, get_unresolved_problems_for_room), kept by each server
 * instance as the text it sent, so that the next read of the same answer costs no query and no
 * serialization: one room of 1,000 boxes is ~100 kB of JSON, a company of 10,000 boxes ~1.5 MB.
 *
 * What may change an answer drops every answer of that company (whichever answer it changed; writes
 * are rare beside reads):
 * - on the instance that wrote it, at the commit of any write of that company (transactions.ts), so
 *   a tablet reads its own change at once;
 * - on every instance, through the change hub (the track_change trigger's NOTIFY, delivered after
 *   the commit) when a row of one of the answers' tables changes.
 * A read that started before a drop does not store what it read (a generation per company), so a
 * change is never hidden by a read that raced it; reads of an answer that is being made wait for it
 * rather than make it again (twenty tablets opening a room whose answer was just dropped run one
 * query, not twenty), unless a drop came since it was begun; entries also expire after TTL_MS, which bounds how
 * long an instance could serve an answer whose notification it missed. The oldest entries go first
 * when the texts kept pass MAX_CHARS.
 */
import type { ChangeHub } from '../domains/replication/changes';

const TTL_MS = 60_000;
/** Characters of answer text kept per instance (~2 bytes each in memory): some fifty companies' floors of 10,000 boxes. */
const MAX_CHARS = 64 * 1024 * 1024;

export interface AnswerCache {
  /**
   * The answer `key` of the company, as text: kept, or made by `produce` (and kept, unless the
   * company's data changed while it was made).
   */
  through(companyId: number, key: string, produce: () => Promise<string>): Promise<string>;
  /** Forgets every answer of the company (a write of it committed); no company: every answer. */
  drop(companyId?: number): void;
  close(): void;
}

interface Entry {
  companyId: number;
  key: string;
  text: string;
  until: number;
}

/** An answer cache dropping a company's answers whenever a row of `tables` of that company changes. */
export function createAnswerCache(changes: ChangeHub, tables: readonly string[], now: () => number = Date.now): AnswerCache {
  // Insertion order is age: a stored entry is deleted and set again, so the first key is the oldest.
  const entries = new Map<string, Entry>();
  const keysOf = new Map<number, Set<string>>();
  const generations = new Map<number, number>();
  /** Answers being made, with the company's generation when they were begun. */
  const making = new Map<string, { generation: number; text: Promise<string> }>();
  let chars = 0;

  const entryKey = (companyId: number, key: string) => `${companyId}\u0000${key}`;
  const remove = (fullKey: string) => {
    const entry = entries.get(fullKey);
    if (!entry) return;
    entries.delete(fullKey);
    chars -= entry.text.length;
    keysOf.get(entry.companyId)?.delete(entry.key);
  };
  const drop = (companyId?: number) => {
    if (companyId === undefined) {
      entries.clear();
      keysOf.clear();
      chars = 0;
      for (const company of generations.keys()) generations.set(company, (generations.get(company) ?? 0) + 1);
      return;
    }
    generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
    for (const key of [...(keysOf.get(companyId) ?? [])]) remove(entryKey(companyId, key));
    keysOf.delete(companyId);
  };
  const keep = (companyId: number, key: string, text: string) => {
    const fullKey = entryKey(companyId, key);
    remove(fullKey);
    while (chars + text.length > MAX_CHARS) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      remove(oldest);
    }
    entries.set(fullKey, { companyId, key, text, until: now() + TTL_MS });
    chars += text.length;
    const keys = keysOf.get(companyId) ?? new Set<string>();
    keys.add(key);
    keysOf.set(companyId, keys);
  };
  const stops = tables.map((table) => changes.onTableChange(table, drop));

  return {
    through(companyId, key, produce) {
      const fullKey = entryKey(companyId, key);
      const kept = entries.get(fullKey);
      if (kept && kept.until > now()) return Promise.resolve(kept.text);
      const generation = generations.get(companyId) ?? 0;
      const begun = making.get(fullKey);
      if (begun?.generation === generation) return begun.text;
      const text = produce().then((made) => {
        if ((generations.get(companyId) ?? 0) === generation && made.length <= MAX_CHARS) keep(companyId, key, made);
        return made;
      });
      making.set(fullKey, { generation, text });
      const forget = () => {
        if (making.get(fullKey)?.text === text) making.delete(fullKey);
      };
      text.then(forget, forget);
      return text;
    },
    drop,
    close: () => {
      for (const stop of stops) stop();
    },
  };
}
