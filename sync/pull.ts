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
import type { ApiTransport } from './replay';
import { applyEffect, type LocalDocument } from './store';
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
  readonly pulled = new Subject<string>();

  constructor(
    private readonly targets: PullTarget[],
    private readonly transport: ApiTransport,
    private readonly outbox: Outbox,
    private readonly identifier: string,
  ) {}

  start() {
    for (const target of this.targets) {
      const stream = new Subject<RxReplicationPullStreamItem<LocalDocument, PullCheckpoint>>();
      this.streams.set(target.name, stream);
      const state = replicateRxCollection<LocalDocument, PullCheckpoint>({
        collection: target.collection,
        replicationIdentifier: `${this.identifier}-${target.name}`,
        live: true,
        retryTime: 5_000,
        // One replicating instance per browser: the tab holding the leadership.
        waitForLeadership: true,
        autoStart: true,
        pull: {
          batchSize: PULL_BATCH_SIZE,
          stream$: stream.asObservable(),
          handler: async (checkpoint, batchSize) => {
            const pending = await pendingEffects(this.outbox);
            const answer = await this.transport.send({ method: 'GET', path: '/sync/pull', query: { collection: target.name, checkpoint: checkpoint?.position ?? '', limit: batchSize } });
            if (answer.status !== 200) throw new Error(`Pull of ${target.name} answered ${answer.status}`);
            const page = answer.data as PulledPage;
            if (page.held_back) this.resyncLater(target.name);
            this.pulled.next(target.name);
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

  /** Resolves when every collection has pulled all it can see now. */
  async awaitInSync() {
    await Promise.all(this.states.map((state) => state.awaitInSync()));
  }

  async stop() {
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.states.map((state) => state.cancel()));
    for (const stream of this.streams.values()) stream.complete();
  }
}
