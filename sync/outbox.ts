/**
 * The outbox: the grower's changes waiting to reach the server, in a small Dexie database of its own
 * (they are not entities). It replaces the spec's `createRoomQueue`, `offlineFormResponses` and
 * `offlineFieldResponses` tables (spec part 1 §3, part 2 §3) with one ordered queue of API calls.
 *
 * Writes ahead: an entry is stored before its optimistic effects reach the local store, and the
 * engine re-applies the effects of every stored entry when it starts. The two live in separate
 * IndexedDB databases, so this order is what makes "either both or neither" hold after a crash.
 *
 * `idMap` remembers which server id each temporary id became. A remap rewrites every later entry in
 * the same transaction that removes the create, and `enqueueAll` translates known temporary ids in that
 * transaction too, so an entry made just after its create answered still reaches the server right.
 *
 * One owner: the sync worker (or, in tests, the engine in-process) is the only code that opens an
 * Outbox; the page records through it. So the index of pending effects below, kept in memory, is
 * always the queue's own: no second copy in another realm needs keeping in step.
 */
import { Dexie, type Table } from 'dexie';
import type { Effect, EntryBody, IdSource, OutboxEntry, TempId } from './types';

export interface IdMapping {
  tempId: TempId;
  serverId: number;
  collection: string;
  /** The temporary document's id, when not the temporary id itself (see IdSource.documentId). */
  documentId: string;
  mappedAt: number;
}

/** What a caller supplies for a new entry; the outbox adds the id, order and bookkeeping. */
export interface EntryDraft {
  method: OutboxEntry['method'];
  path: string;
  query?: OutboxEntry['query'];
  body?: EntryBody;
  creates?: IdSource[];
  effects?: Effect[];
  label: string;
  userId?: number | null;
  /** When the grower did it (default: now). */
  actedAt?: string;
  fallbackMessage?: string;
}

class OutboxDatabase extends Dexie {
  entries!: Table<OutboxEntry, string>;
  idMap!: Table<IdMapping, string>;

  constructor(name: string) {
    // IndexedDB as it is when the outbox opens (Dexie would otherwise take the one present when it loaded).
    super(name, { indexedDB: globalThis.indexedDB, IDBKeyRange: globalThis.IDBKeyRange });
    this.version(1).stores({ entries: 'id, &seq, state', idMap: 'tempId, mappedAt' });
    // The entries that use a temporary id are found by it, not by reading every later entry (a day of
    // offline forms is a thousand creates, each mapped once).
    // The sync status counts by index too: it is refreshed at every recorded change.
    this.version(2).stores({ entries: 'id, &seq, state, userId, *tempIds', idMap: 'tempId, mappedAt' });
  }
}

const TEMP_ID_PATTERN = /tmp-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Every temporary id in a value (query, body, effects), found by walking it. */
export function tempIdsIn(value: unknown, found = new Set<TempId>()): Set<TempId> {
  // Also inside text: comma-joined id lists ("5,tmp-…") and paths.
  if (typeof value === 'string') for (const match of value.matchAll(TEMP_ID_PATTERN)) found.add(match[0] as TempId);
  else if (Array.isArray(value)) for (const item of value) tempIdsIn(item, found);
  else if (value && typeof value === 'object' && !(value instanceof Blob)) for (const item of Object.values(value)) tempIdsIn(item, found);
  return found;
}

/**
 * A copy of `value` with each temporary id that has a server id replaced by it: a number where the
 * value stood alone, inside text where it was part of one (a comma-joined list, a path).
 */
export function replaceTempIds<T>(value: T, ids: ReadonlyMap<string, number>): T {
  if (ids.size === 0) return value;
  if (typeof value === 'string') {
    if (ids.has(value)) return ids.get(value) as T;
    if (!value.includes('tmp-')) return value;
    return value.replace(TEMP_ID_PATTERN, (tempId) => (ids.has(tempId) ? String(ids.get(tempId)) : tempId)) as T;
  }
  if (Array.isArray(value)) return value.map((item) => replaceTempIds(item, ids)) as T;
  if (value && typeof value === 'object' && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceTempIds(item, ids)])) as T;
  }
  return value;
}

/** Document ids in the local store stay strings: a server id replaces a temporary one as its text. */
const replaceInEffects = (effects: Effect[], ids: ReadonlyMap<string, number>): Effect[] =>
  effects.map((effect) => {
    const id = String(replaceTempIds(effect.id, ids));
    return effect.op === 'remove' ? { ...effect, id } : { ...effect, id, data: replaceTempIds(effect.data, ids) };
  });

/**
 * The effects of the entries still waiting, by document, in queue order: the pull lays them over what
 * it brings (a pending edit never flickers back) and screens ask whether a document has any. Kept in
 * step by every outbox method that adds, rewrites or removes entries, so it is never stale: an entry
 * that completed stops overlaying at once, without re-reading the queue.
 */
export class PendingEffects {
  private readonly byDocument = new Map<string, Array<{ seq: number; entryId: string; effect: Effect }>>();

  static key(collection: string, id: string) {
    return `${collection}\u0000${id}`;
  }

  add(entries: readonly OutboxEntry[]) {
    for (const entry of entries) {
      for (const effect of entry.effects) {
        const key = PendingEffects.key(effect.collection, effect.id);
        const list = this.byDocument.get(key) ?? [];
        list.push({ seq: entry.seq, entryId: entry.id, effect });
        // Entries arrive in order, except rewritten ones put back: keep queue order.
        if (list.length > 1 && (list.at(-2)?.seq ?? 0) > entry.seq) list.sort((a, b) => a.seq - b.seq);
        this.byDocument.set(key, list);
      }
    }
  }

  remove(entries: readonly Pick<OutboxEntry, 'id' | 'effects'>[]) {
    for (const entry of entries) {
      for (const effect of entry.effects) {
        const key = PendingEffects.key(effect.collection, effect.id);
        const list = this.byDocument.get(key)?.filter((item) => item.entryId !== entry.id);
        if (list && list.length > 0) this.byDocument.set(key, list);
        else this.byDocument.delete(key);
      }
    }
  }

  /** The pending effects on one document, in queue order (undefined: none). */
  on(collection: string, id: string): Effect[] | undefined {
    return this.byDocument.get(PendingEffects.key(collection, id))?.map((item) => item.effect);
  }
}

export class Outbox {
  private readonly db: OutboxDatabase;
  private pendingIndex: Promise<PendingEffects> | null = null;

  constructor(name = 'growroom-outbox') {
    this.db = new OutboxDatabase(name);
  }

  /** The index of pending effects, read from the queue once and kept in step after that. */
  pending(): Promise<PendingEffects> {
    this.pendingIndex ??= this.all().then((entries) => {
      const index = new PendingEffects();
      index.add(entries);
      return index;
    });
    return this.pendingIndex;
  }

  /** Runs `change` on the index once it is loaded (a change before the first read is in what it reads). */
  private async indexed(change: (index: PendingEffects) => void) {
    if (this.pendingIndex) change(await this.pendingIndex);
  }

  /**
   * Stores new entries last in line, in order, in one transaction: all of them or none (temporary ids
   * already mapped are translated first).
   */
  async enqueueAll(drafts: readonly EntryDraft[]): Promise<OutboxEntry[]> {
    const entries = await this.db.transaction('rw', this.db.entries, this.db.idMap, async () => {
      const added: OutboxEntry[] = [];
      for (const draft of drafts) added.push(await this.add(draft));
      return added;
    });
    await this.indexed((index) => index.add(entries));
    return entries;
  }

  private async add(draft: EntryDraft): Promise<OutboxEntry> {
    const known = await this.knownIds(tempIdsIn([draft.path, draft.query, draft.body, draft.effects]));
    const last = await this.db.entries.orderBy('seq').last();
    const query = replaceTempIds(draft.query ?? {}, known);
    const body = replaceTempIds<EntryBody>(draft.body ?? { kind: 'none' }, known);
    const path = replaceTempIds(draft.path, known);
    const effects = replaceInEffects(draft.effects ?? [], known);
    const creates = draft.creates ?? [];
    const entry: OutboxEntry = {
      id: crypto.randomUUID(),
      seq: (last?.seq ?? 0) + 1,
      method: draft.method,
      path,
      query,
      body,
      tempIds: [...new Set([...tempIdsIn([path, query, body]), ...creates.map((source) => source.tempId)])],
      creates,
      effects,
      label: draft.label,
      userId: draft.userId ?? null,
      actedAt: draft.actedAt ?? new Date().toISOString(),
      fallbackMessage: draft.fallbackMessage ?? null,
      attempts: 0,
      state: 'pending',
      error: null,
      createdAt: Date.now(),
      nextAttemptAt: 0,
    };
    await this.db.entries.add(entry);
    return entry;
  }

  /** Every entry still to send (failed ones included), in order. */
  all(): Promise<OutboxEntry[]> {
    return this.db.entries.orderBy('seq').toArray();
  }

  count(): Promise<number> {
    return this.db.entries.count();
  }

  /**
   * What the sync status shows, read through indexes (not every entry): how many entries each user has
   * waiting (entries without a user, made before entries named their author, count as nobody's), and
   * the failed ones.
   */
  async counts(): Promise<{ pending: number; byUser: Map<number | null, number>; failed: OutboxEntry[] }> {
    return this.db.transaction('r', this.db.entries, async () => {
      const pending = await this.db.entries.count();
      const byUser = new Map<number | null, number>();
      // IndexedDB leaves entries whose userId is null out of the index: they are what the users' counts leave.
      for (const userId of (await this.db.entries.orderBy('userId').uniqueKeys()) as number[]) byUser.set(userId, await this.db.entries.where('userId').equals(userId).count());
      const named = [...byUser.values()].reduce((sum, count) => sum + count, 0);
      if (pending > named) byUser.set(null, pending - named);
      return { pending, byUser, failed: await this.db.entries.where('state').equals('failed').sortBy('seq') };
    });
  }

  get(id: string): Promise<OutboxEntry | undefined> {
    return this.db.entries.get(id);
  }

  /**
   * The entry reached the server: it leaves the queue, and the server ids its create answered replace
   * their temporary ids in every later entry, in one transaction. Answers the entries so rewritten.
   */
  async complete(entry: OutboxEntry, created: ReadonlyMap<TempId, number>): Promise<OutboxEntry[]> {
    const rewritten = await this.db.transaction('rw', this.db.entries, this.db.idMap, async () => {
      await this.db.entries.delete(entry.id);
      if (created.size === 0) return [];
      const mappedAt = Date.now();
      await this.db.idMap.bulkPut(
        entry.creates
          .filter((source) => created.has(source.tempId))
          .map((source) => ({ tempId: source.tempId, serverId: created.get(source.tempId) as number, collection: source.collection, documentId: source.documentId ?? source.tempId, mappedAt })),
      );
      const users = await this.db.entries.where('tempIds').anyOf([...created.keys()]).distinct().toArray();
      const rewritten = users
        .filter((other) => other.seq > entry.seq)
        .map((other) => ({
          ...other,
          path: replaceTempIds(other.path, created),
          query: replaceTempIds(other.query, created),
          body: replaceTempIds(other.body, created),
          effects: replaceInEffects(other.effects, created),
          tempIds: other.tempIds.filter((tempId) => !created.has(tempId)),
        }));
      await this.db.entries.bulkPut(rewritten);
      return { before: users.filter((other) => other.seq > entry.seq), after: rewritten };
    });
    if (Array.isArray(rewritten)) {
      await this.indexed((index) => index.remove([entry]));
      return [];
    }
    await this.indexed((index) => {
      index.remove([entry, ...rewritten.before]);
      index.add(rewritten.after);
    });
    return rewritten.after;
  }

  /** Several entries reached the server without creating anything: they leave the queue in one transaction. */
  async completeAll(entries: readonly OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.entries.bulkDelete(entries.map((entry) => entry.id));
    await this.indexed((index) => index.remove(entries));
  }

  /** A retryable failure (network, 5xx, 429): the entry waits until `nextAttemptAt`, keeping its place. */
  async postpone(entry: OutboxEntry, error: string, nextAttemptAt: number): Promise<void> {
    await this.db.entries.update(entry.id, { attempts: entry.attempts + 1, error, nextAttemptAt });
  }

  /** The server refused the entry: it stays, marked failed with the server's message, until retried or discarded. */
  async fail(entry: OutboxEntry, error: string): Promise<void> {
    await this.db.entries.update(entry.id, { attempts: entry.attempts + 1, error, state: 'failed' });
  }

  /** The grower asks to send a failed entry again. */
  async retry(id: string): Promise<void> {
    await this.db.entries.update(id, { state: 'pending', error: null, nextAttemptAt: 0 });
  }

  /** The grower gives up a failed entry; returns it (its effects are to be undone by the caller). */
  async discard(id: string): Promise<OutboxEntry | undefined> {
    const entry = await this.db.transaction('rw', this.db.entries, async () => {
      const found = await this.db.entries.get(id);
      if (found) await this.db.entries.delete(id);
      return found;
    });
    if (entry) await this.indexed((index) => index.remove([entry]));
    return entry;
  }

  /** Server ids of temporary ids already mapped. */
  async knownIds(tempIds: Iterable<TempId>): Promise<Map<TempId, number>> {
    const list = [...tempIds];
    if (list.length === 0) return new Map();
    const rows = await this.db.idMap.bulkGet(list);
    return new Map(rows.filter((row): row is IdMapping => row !== undefined).map((row) => [row.tempId, row.serverId]));
  }

  mappings(): Promise<IdMapping[]> {
    return this.db.idMap.toArray();
  }

  /** Forgets mappings older than `maxAgeMs` (kept a while so a screen open on a temporary id can follow it). */
  async pruneMappings(maxAgeMs: number): Promise<void> {
    await this.db.idMap.where('mappedAt').below(Date.now() - maxAgeMs).delete();
  }

  close(): void {
    this.db.close();
  }

  async delete(): Promise<void> {
    await this.db.delete();
  }
}
