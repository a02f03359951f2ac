/**
 * Pulls the server's documents into the local store: one RxDB pull-only replication per collection
 * against `GET /api/sync/pull` (checkpoints `<xid>:<seq>`), re-run whenever the change stream names
 * the collection.
 *
 * The server's document wins, with two rules:
 * - while an outbox entry with effects on a document is still waiting, those effects are applied over
 *   the pulled document, so a grower's pending edit never flickers back to the old value (the index of
 *   pending effects is the outbox's own, kept in step as entries complete: an applied entry stops
 *   overlaying at once);
 * - a server document never replaces a newer state of itself: every server document carries its
 *   `syncPosition` (common/sync-position.ts), and pull pages, read-backs and push answers arrive by
 *   different paths, so an older one may arrive last. Without this a tablet could keep an old state
 *   for good, since the pull's checkpoint has already gone past the newer one.
 *
 * `syncPosition` is stored in local documents without being declared in their RxDB schemas: the local
 * store runs no schema validator and nothing queries by it (declaring it would need a migration of
 * every collection on every tablet).
 */
import { Subject } from 'rxjs';
import type { RxCollection, RxReplicationPullStreamItem } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import { isNewerPosition } from '../common/sync-position';
import type { Outbox, PendingEffects } from './outbox';
import type { ApiAnswer, ApiTransport, ServerDocuments, TouchedDocument } from './replay';
import { applyEffect, type LocalDocument, type LocalStore } from './store';
import type { InitialPull } from './types';

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

/**
 * Marks a pulled document stored with pending effects laid over it. RxDB stores a pull page after its
 * handler returns, so an overlay made while an entry was in flight can land after the entry's push
 * answer was stored: the marked document is then read back (see `overlaidLate`). Stored without being
 * declared, as `syncPosition` is.
 */
export const OVERLAID = 'overlaidByPending';

/** Fields a local document holds that the server's does not: its position and the overlay mark. */
export const LOCAL_ONLY_FIELDS = ['syncPosition', OVERLAID] as const;

/** The server's document with the pending effects on it applied over it (a server deletion stands). */
export function overlay(collection: string, document: LocalDocument & { _deleted: boolean }, pending: PendingEffects) {
  if (document._deleted) return document;
  const effects = pending.on(collection, document.id);
  if (!effects) return document;
  let current: LocalDocument | null = document;
  for (const effect of effects) current = applyEffect(current, effect);
  return current ? { ...current, [OVERLAID]: true, _deleted: false } : { ...document, _deleted: true };
}

/** The server answers at most 5,000 documents a page; fewer, larger pages make a first pull faster. */
export const PULL_BATCH_SIZE = 2500;
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
  /**
   * Documents a pull stored with the effects of entries that have since reached the server laid over
   * them: their server state is to be read back (the push answer that replaced them came first).
   */
  readonly overlaidLate = new Subject<TouchedDocument>();
  private readonly subscriptions: Array<{ unsubscribe(): void }> = [];
  /** The checks of stored overlaid documents against the outbox, in the order they were stored. */
  private overlayChecks: Promise<void> = Promise.resolve();
  /** When each collection last pulled everything the server showed (no more pages, nothing held back). */
  private readonly caughtUpAt = new Map<string, number>();
  /** Documents stored by the first pull so far (progress for a new tablet's loading screen). */
  private pulledDocuments = 0;
  /** During the first pull, each collection's last page's live document ids: the first pull is done once they are stored. */
  private readonly lastPages = new Map<string, { collection: RxCollection; ids: string[] }>();
  /** Told of the first pull's progress until every collection has caught up once. */
  onInitialPull: ((progress: InitialPull | null) => void) | null = null;

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
      let ahead: { position: string; limit: number; answer: Promise<ApiAnswer> } | null = null;
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
            const position = checkpoint?.position ?? '';
            const fetchPage = (from: string) => this.transport.send({ method: 'GET', path: '/sync/pull', query: { collection: target.name, checkpoint: from, limit: batchSize, naming: 'client' } });
            const answer = await (ahead?.position === position && ahead.limit === batchSize ? ahead.answer : fetchPage(position));
            ahead = null;
            if (answer.status !== 200) throw new Error(`Pull of ${target.name} answered ${answer.status}`);
            const page = answer.data as PulledPage;
            if (page.has_more) {
              // The next page is asked for now, while this one is stored: a new tablet's first pull
              // overlaps the server's reading with its own writing. The checkpoint is the server's, so
              // a page fetched ahead is exactly the one asked for next (else it is not used).
              const next = fetchPage(page.checkpoint);
              next.catch(() => undefined);
              ahead = { position: page.checkpoint, limit: batchSize, answer: next };
            }
            const documents = await this.newestOf(target, page.documents);
            if (page.held_back) this.resyncLater(target.name);
            else if (!page.has_more) this.caughtUpAt.set(target.name, Date.now());
            if (this.onInitialPull) this.lastPages.set(target.name, { collection: target.collection, ids: documents.filter((document) => !document._deleted).map((document) => document.id) });
            this.reportInitialPull(documents.length);
            return { checkpoint: { position: page.checkpoint }, documents };
          },
        },
      });
      state.error$.subscribe((error) => this.errors.next(error.message));
      this.subscriptions.push(
        target.collection.$.subscribe((event) => {
          if (event.operation === 'DELETE' || (event.documentData as Record<string, unknown> | undefined)?.[OVERLAID] !== true) return;
          this.overlayChecks = this.overlayChecks
            .then(() => this.outbox.pending())
            .then((pending) => {
              if (!pending.on(target.name, event.documentId)) this.overlaidLate.next({ collection: target.name, id: event.documentId });
            })
            .catch((error: unknown) => this.errors.next(error instanceof Error ? error.message : String(error)));
        }),
      );
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
      if (!this.targets.some((candidate) => candidate.name === name)) continue;
      const list = [...ids];
      for (let start = 0; start < list.length; start += REFRESH_BATCH) {
        const asked = list.slice(start, start + REFRESH_BATCH);
        // Which of them an entry was still to create when the question left: read before asking, since
        // an entry in flight may be applied (and leave the outbox) while the question is on its way.
        const pendingWhenAsked = await this.outbox.pending();
        const answer = await this.transport.send({ method: 'GET', path: '/sync/documents', query: { collection: name, ids: asked.join(','), naming: 'client' } });
        if (answer.status !== 200) throw new Error(`Reading back ${name} answered ${answer.status}`);
        const documents = (answer.data as { documents: PulledPage['documents'] }).documents;
        await this.store({ [name]: documents }, store);
        // The server leaves out a record it never made (its create was refused and discarded; a deleted
        // one comes as its tombstone). Unless an entry was still to create it, the tablet's copy is a
        // leftover: a refused change restored by discarding another one that had deleted it.
        const answered = new Set(documents.map((document) => document.id));
        const pendingNow = await this.outbox.pending();
        for (const id of asked) {
          if (answered.has(id) || pendingWhenAsked.awaitsCreate([id]) || pendingNow.awaitsCreate([id])) continue;
          await store.remove(name, id);
        }
      }
    }
  }

  /** Stores server documents that came outside the pull (a push's answer, a read-back), newest state only. */
  async store(byCollection: ServerDocuments, store: LocalStore) {
    for (const [name, documents] of Object.entries(byCollection)) {
      const target = this.targets.find((candidate) => candidate.name === name);
      if (!target) continue;
      const live: LocalDocument[] = [];
      for (const local of await this.newestOf(target, documents)) {
        const { _deleted: deleted, ...data } = local;
        if (deleted) await store.remove(name, data.id);
        else live.push(target.toLocal(data));
      }
      // One write for the lot (a push answers up to a hundred documents).
      if (live.length > 0) await target.collection.bulkUpsert(live);
    }
  }

  /**
   * Server documents ready to store: the pending effects laid over each, and where the local store
   * already holds a newer state of a document (a push answer overtook this page), that state instead.
   */
  private async newestOf(target: PullTarget, documents: PulledPage['documents']): Promise<Array<LocalDocument & { _deleted: boolean }>> {
    const pending = await this.outbox.pending();
    // Tombstones too (RxDB's queries skip them): a deletion pulled already must not be undone by an
    // older live state arriving late.
    const stored = new Map(
      documents.length > 0 ? (await target.collection.storageInstance.findDocumentsById(documents.map((document) => document.id), true)).map((local) => [local.id, local as unknown as LocalDocument & { _deleted: boolean }]) : [],
    );
    return documents.map((document) => {
      const local = stored.get(document.id);
      if (local && isNewerPosition(local.syncPosition as string | undefined, document.syncPosition as string | undefined)) {
        const { _meta: _m, _rev: _r, _attachments: _a, ...kept } = local as LocalDocument & { _deleted: boolean; _meta?: unknown; _rev?: unknown; _attachments?: unknown };
        return kept;
      }
      return overlay(target.name, { ...target.toLocal(document), _deleted: document._deleted }, pending);
    });
  }

  private reportInitialPull(stored: number) {
    if (!this.onInitialPull) return;
    this.pulledDocuments += stored;
    const done = this.targets.filter((target) => this.caughtUpAt.has(target.name)).length;
    if (done === this.targets.length) {
      const report = this.onInitialPull;
      this.onInitialPull = null;
      // RxDB stores a page after its handler returns: the loading screen ends once the last pages are
      // stored, so no screen shows a collection empty in between ("No rooms yet" while rooms arrive).
      const stored = () => report(null);
      void this.lastPagesStored().then(stored, stored);
    } else this.onInitialPull({ done, total: this.targets.length, documents: this.pulledDocuments });
  }

  /**
   * Resolves once every collection's last page of the first pull is in the local store (checked every
   * 20 ms), or after 10 s whatever it finds: the loading screen must never wait forever.
   */
  private async lastPagesStored() {
    const deadline = Date.now() + 10_000;
    const pages = [...this.lastPages.values()];
    this.lastPages.clear();
    for (const page of pages) {
      while (page.ids.length > 0 && (await page.collection.findByIds(page.ids).exec()).size < page.ids.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
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
    await this.overlayChecks;
  }

  async stop() {
    for (const timer of this.timers) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await Promise.all(this.states.map((state) => state.cancel()));
    for (const stream of this.streams.values()) stream.complete();
  }
}
