/**
 * Pulls the server's documents into the local store: one RxDB pull-only replication per collection
 * against `GET /api/sync/pull` (checkpoints `<xid>:<seq>`), re-run whenever the change stream names
 * the collection.
 *
 * The server's document wins, with one exception: while an outbox entry with effects on a document
 * is still waiting, those effects are applied over the pulled document, so a grower's pending edit
 * never flickers back to the old value. The outbox is read before the page is fetched: an entry that
 * leaves the outbox in between was applied by the server before the fetch, so the page holds it.
 */
import { Subject } from 'rxjs';
import type { RxCollection, RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { Outbox } from './outbox';
import type { ApiTransport, TouchedDocument } from './replay';
import { applyEffect, type LocalDocument, type LocalStore } from './store';
import type { Effect } from './types';

export interface PulledPage {
  documents: Array<LocalDocument & { _deleted: boolean }>;
  checkpoint: string;
  has_more: boolean;
  held_back: boolean;
}

export interface PullTarget {
  name: string;
  collection: RxCollection;
  /** Adds the local link keys to a server document (src/db/schemas.ts `withLinkKeys`). */
  toLocal(document: LocalDocument): LocalDocument;
}

/** Pending effects by document, per collection, in outbox order. */
async function pendingEffects(outbox: Outbox): Promise<Map<string, Effect[]>> {
  const byDocument = new Map<string, Effect[]>();
  for (const entry of await outbox.all()) {
    for (const effect of entry.effects) {
      const key = `${effect.collection}\u0000${effect.id}`;
      const list = byDocument.get(key) ?? [];
      list.push(effect);
      byDocument.set(key, list);
    }
  }
  return byDocument;
}

/** The server's document with the pending effects on it applied over it (a server deletion stands). */
export function overlay(collection: string, document: LocalDocument & { _deleted: boolean }, pending: Map<string, Effect[]>) {
  if (document._deleted) return document;
  const effects = pending.get(`${collection}\u0000${document.id}`);
  if (!effects) return document;
  let current: LocalDocument | null = document;
  for (const effect of effects) current = applyEffect(current, effect);
  return current ? { ...current, _deleted: false } : { ...document, _deleted: true };
}

export const PULL_BATCH_SIZE = 500;
const REFRESH_BATCH = 500;

/** RxDB keeps checkpoints as objects (it merges them); the server's `<xid>:<seq>` travels inside. */
export interface PullCheckpoint {
  position: string;
}
const HELD_BACK_RETRY_MS = 500;

export class PullReplications {
  private readonly streams = new Map<string, Subject<RxReplicationPullStreamItem<LocalDocument, PullCheckpoint>>>();
  private readonly states: Array<RxReplicationState<LocalDocument, PullCheckpoint>> = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  readonly errors = new Subject<string>();
  /** When each collection last pulled everything the server showed (no more pages, nothing held back). */
  private readonly caughtUpAt = new Map<string, number>();
  /** The pending effects, read once per outbox revision (pulls run often while a long queue drains). */
  private pending: { revision: number; effects: Promise<Map<string, Effect[]>> } | null = null;

  constructor(
    private readonly targets: PullTarget[],
    private readonly transport: ApiTransport,
    private readonly outbox: Outbox,
    private readonly identifier: string,
    /** How long a failed pull waits before it tries again (the browser's `online` event cuts it short). */
    private readonly retryMs = 5_000,
  ) {}

  start() {
    for (const target of this.targets) {
      const stream = new Subject<RxReplicationPullStreamItem<LocalDocument, PullCheckpoint>>();
      this.streams.set(target.name, stream);
      const state = replicateRxCollection<LocalDocument, PullCheckpoint>({
        collection: target.collection,
        replicationIdentifier: `${this.identifier}-${target.name}`,
        live: true,
        retryTime: this.retryMs,
        // One replicating instance per browser: the tab holding the leadership.
        waitForLeadership: true,
        autoStart: true,
        pull: {
          batchSize: PULL_BATCH_SIZE,
          stream$: stream.asObservable(),
          handler: async (checkpoint, batchSize) => {
            const pending = await this.pendingEffects();
            const answer = await this.transport.send({ method: 'GET', path: '/sync/pull', query: { collection: target.name, checkpoint: checkpoint?.position ?? '', limit: batchSize } });
            if (answer.status !== 200) throw new Error(`Pull of ${target.name} answered ${answer.status}`);
            const page = answer.data as PulledPage;
            if (page.held_back) this.resyncLater(target.name);
            else if (!page.has_more) this.caughtUpAt.set(target.name, Date.now());
            return {
              checkpoint: { position: page.checkpoint },
              documents: page.documents.map((document) => overlay(target.name, { ...target.toLocal(document), _deleted: document._deleted }, pending)),
            };
          },
        },
      });
      state.error$.subscribe((error) => this.errors.next(error.message));
      this.states.push(state);
    }
  }

  /**
   * Reads back documents an applied entry changed and stores the server's version (with the effects
   * still pending over it). A pull may already have gone past them while the entry was in flight,
   * with the entry's optimistic effects laid over: this is what replaces them with the server's
   * result (its ids, plant ids, computed fields).
   */
  async refresh(documents: TouchedDocument[], store: LocalStore) {
    const byCollection = new Map<string, Set<string>>();
    for (const document of documents) byCollection.set(document.collection, (byCollection.get(document.collection) ?? new Set()).add(document.id));
    for (const [name, ids] of byCollection) {
      const target = this.targets.find((candidate) => candidate.name === name);
      if (!target) continue;
      const list = [...ids];
      for (let start = 0; start < list.length; start += REFRESH_BATCH) {
        const answer = await this.transport.send({ method: 'GET', path: '/sync/documents', query: { collection: name, ids: list.slice(start, start + REFRESH_BATCH).join(',') } });
        if (answer.status !== 200) throw new Error(`Reading back ${name} answered ${answer.status}`);
        const pending = await this.pendingEffects();
        for (const document of (answer.data as { documents: PulledPage['documents'] }).documents) {
          const local = overlay(name, { ...target.toLocal(document), _deleted: document._deleted }, pending);
          const { _deleted: deleted, ...data } = local;
          if (deleted) await store.remove(name, data.id);
          else await store.upsert(name, data);
        }
      }
    }
  }

  private pendingEffects(): Promise<Map<string, Effect[]>> {
    const revision = this.outbox.revision;
    if (this.pending?.revision !== revision) this.pending = { revision, effects: pendingEffects(this.outbox) };
    return this.pending.effects;
  }

  /** Pull the named collections again from their checkpoints (the change stream named them). */
  resync(names: Iterable<string> = this.streams.keys()) {
    for (const name of names) this.streams.get(name)?.next('RESYNC');
  }

  private resyncLater(name: string) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.resync([name]);
    }, HELD_BACK_RETRY_MS);
    this.timers.add(timer);
  }

  /**
   * Resolves when every collection has pulled, after this call, all the server showed it, and stored
   * it. A collection whose pull is failing keeps it waiting (up to `timeoutMs`).
   */
  async caughtUp(timeoutMs = 60_000) {
    const since = Date.now();
    this.resync();
    const deadline = since + timeoutMs;
    while (this.targets.some((target) => (this.caughtUpAt.get(target.name) ?? 0) < since)) {
      if (Date.now() > deadline) throw new Error('The pull did not catch up in time.');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(this.states.map((state) => state.awaitInSync()));
  }

  async stop() {
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.states.map((state) => state.cancel()));
    for (const stream of this.streams.values()) stream.complete();
  }
}
