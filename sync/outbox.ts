/**
 * The outbox: the grower's changes waiting to reach the server, in a small Dexie database of its own
 * (they are not entities). It replaces the spec's `createRoomQueue`, `offlineFormResponses` and
 * `offlineFieldResponses` tables (spec part 1 §3, part 2 §3) with one ordered queue of API calls.
 *
 * Writes ahead: an entry is stored before its optimistic effects reach the local store, and the
 * engine re-applies the effects of every stored entry when it starts. The two live in separate
 * IndexedDB databases, so this order is what makes "either both or neither" hold after a crash.
 *
 * Entries name records by client id (sync/types.ts `ClientId`), the same before and after the server
 * has answered: nothing in the queue or the local store is rewritten when a create reaches the server.
 *
 * One owner: the sync worker (or, in tests, the engine in-process) is the only code that opens an
 * Outbox while a page of the app is open; the page records through it. So the index of pending
 * effects below, kept in memory, is the queue's own. The one other opener is the service worker, which
 * only sends (and only while no page is open: sync/background-replay.ts); what it sent leaves the
 * index at the next replay (`forgetSentElsewhere`).
 */
import { Dexie, type Table } from 'dexie';
import { clientIdsIn } from '../common/client-ids';
import { upgradeToClientIds } from './outbox-upgrade';
import type { ClientId, EntryBody, Effect, OutboxEntry } from './types';

/** What a caller supplies for a new entry; the outbox adds the id, order and bookkeeping. */
export interface EntryDraft {
  method: OutboxEntry['method'];
  path: string;
  query?: OutboxEntry['query'];
  body?: EntryBody;
  /** The records it makes (their client ids, chosen by the caller). */
  creates?: ClientId[];
  effects?: Effect[];
  label: string;
  userId?: number | null;
  /** When the grower did it (default: now). */
  actedAt?: string;
  fallbackMessage?: string;
}

class OutboxDatabase extends Dexie {
  entries!: Table<OutboxEntry, string>;

  constructor(name: string) {
    // IndexedDB as it is when the outbox opens (Dexie would otherwise take the one present when it loaded).
    super(name, { indexedDB: globalThis.indexedDB, IDBKeyRange: globalThis.IDBKeyRange });
    this.version(1).stores({ entries: 'id, &seq, state', idMap: 'tempId, mappedAt' });
    // The entries that use a temporary id are found by it, not by reading every later entry (a day of
    // offline forms is a thousand creates, each mapped once).
    // The sync status counts by index too: it is refreshed at every recorded change.
    this.version(2).stores({ entries: 'id, &seq, state, userId, *tempIds', idMap: 'tempId, mappedAt' });
    // Client ids: records made on the tablet keep one name for life, so there is no id map to keep;
    // entries stored by the previous version are renamed (outbox-upgrade.ts).
    this.version(3)
      .stores({ entries: 'id, &seq, state, userId, *clientIds', idMap: null })
      .upgrade(async (transaction) => {
        const entries = (await transaction.table('entries').orderBy('seq').toArray()) as unknown[];
        await transaction.table('entries').bulkPut(upgradeToClientIds(entries));
      });
  }
}

/**
 * The effects of the entries still waiting, by document, in queue order: the pull lays them over what
 * it brings (a pending edit never flickers back) and screens ask whether a document has any. Kept in
 * step by every outbox method that adds, rewrites or removes entries, so it is never stale: an entry
 * that completed stops overlaying at once, without re-reading the queue.
 */
export class PendingEffects {
  private readonly byDocument = new Map<string, Array<{ seq: number; entryId: string; effect: Effect }>>();
  /** Records whose create is still waiting. */
  private readonly unsent = new Set<ClientId>();
  /** The entries indexed, by id (see Outbox.forgetSentElsewhere). */
  private readonly entries = new Map<string, Pick<OutboxEntry, 'id' | 'effects' | 'creates'>>();

  static key(collection: string, id: string) {
    return `${collection}\u0000${id}`;
  }

  add(entries: readonly OutboxEntry[]) {
    for (const entry of entries) {
      this.entries.set(entry.id, entry);
      for (const clientId of entry.creates) this.unsent.add(clientId);
      for (const effect of entry.effects) {
        const key = PendingEffects.key(effect.collection, effect.id);
        const list = this.byDocument.get(key) ?? [];
        list.push({ seq: entry.seq, entryId: entry.id, effect });
        this.byDocument.set(key, list);
      }
    }
  }

  remove(entries: readonly Pick<OutboxEntry, 'id' | 'effects' | 'creates'>[]) {
    for (const entry of entries) {
      this.entries.delete(entry.id);
      for (const clientId of entry.creates) this.unsent.delete(clientId);
      for (const effect of entry.effects) {
        const key = PendingEffects.key(effect.collection, effect.id);
        const list = this.byDocument.get(key)?.filter((item) => item.entryId !== entry.id);
        if (list && list.length > 0) this.byDocument.set(key, list);
        else this.byDocument.delete(key);
      }
    }
  }

  /** The ids of the entries indexed. */
  entryIds(): string[] {
    return [...this.entries.keys()];
  }

  /** The indexed entries among `ids`. */
  entriesOf(ids: Iterable<string>): Array<Pick<OutboxEntry, 'id' | 'effects' | 'creates'>> {
    return [...ids].flatMap((id) => this.entries.get(id) ?? []);
  }

  /** Whether the create of one of these records still waits (the server does not know it yet). */
  awaitsCreate(clientIds: readonly ClientId[]): boolean {
    return clientIds.some((clientId) => this.unsent.has(clientId));
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
   * Drops from the index the entries that left the queue without this instance: the service worker
   * sends the queue while no page of the app is open (sync/background-replay.ts), and a page opened
   * meanwhile may have read entries it then completed. Race-free: an entry is stored before it is
   * indexed, so an indexed entry missing from the database has left it for good.
   */
  async forgetSentElsewhere(): Promise<void> {
    if (!this.pendingIndex) return;
    const index = await this.pendingIndex;
    const indexed = index.entryIds();
    const stored = new Set(await this.db.entries.toCollection().primaryKeys());
    index.remove(index.entriesOf(indexed.filter((id) => !stored.has(id))));
  }

  /** Stores new entries last in line, in order, in one transaction: all of them or none. */
  async enqueueAll(drafts: readonly EntryDraft[]): Promise<OutboxEntry[]> {
    const entries = await this.db.transaction('rw', this.db.entries, async () => {
      const added: OutboxEntry[] = [];
      for (const draft of drafts) added.push(await this.add(draft));
      return added;
    });
    await this.indexed((index) => index.add(entries));
    return entries;
  }

  private async add(draft: EntryDraft): Promise<OutboxEntry> {
    const last = await this.db.entries.orderBy('seq').last();
    const query = draft.query ?? {};
    const body: EntryBody = draft.body ?? { kind: 'none' };
    const entry: OutboxEntry = {
      id: crypto.randomUUID(),
      seq: (last?.seq ?? 0) + 1,
      method: draft.method,
      path: draft.path,
      query,
      body,
      clientIds: [...clientIdsIn([draft.path, query, body])],
      creates: draft.creates ?? [],
      effects: draft.effects ?? [],
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

  /** Entries reached the server: they leave the queue in one transaction. */
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

  close(): void {
    this.db.close();
  }

  async delete(): Promise<void> {
    await this.db.delete();
  }
}
