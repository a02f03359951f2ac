/**
 * The sync engine: replays the outbox, pulls the server's changes and reports its state. It runs in
 * the sync worker (workers/sync.worker.ts) in the browser and in-process in tests; it knows nothing of
 * React or the DOM. One engine per page; only the tab holding the replay lock sends entries.
 */
import { ChangeStream } from './events';
import type { EntryDraft, Outbox } from './outbox';
import type { LocalDocument } from './store';
import { PullReplications, type PullTarget } from './pull';
import { recordChanges } from './record';
import { type ApiTransport, Replayer, type TouchedDocument } from './replay';
import { applyEffects, type LocalStore } from './store';
import type { ClientId, OutboxEntry, SyncStatus } from './types';
import { Rounds } from './rounds';

/**
 * How the page records changes: through the engine, the outbox's one owner (in the browser, over
 * comlink to the sync worker). Domain functions reach it as `ApiContext.recorder`.
 */
export interface Recorder {
  /** Stores the entries and makes their optimistic changes (sync/record.ts), then sends them. */
  record(drafts: readonly EntryDraft[]): Promise<OutboxEntry[]>;
  /** Whether an entry still waiting changes this document. */
  hasPendingEffects(collection: string, id: string): Promise<boolean>;
  /** Whether the create of one of these records still waits: the server does not know it yet. */
  awaitsCreate(clientIds: ClientId[]): Promise<boolean>;
}

export interface SyncEngineOptions {
  outbox: Outbox;
  store: LocalStore;
  transport: ApiTransport;
  pullTargets: PullTarget[];
  /** Names this device's pull checkpoints (one set per server and company). */
  replicationIdentifier: string;
  /**
   * Runs the replay while holding an exclusive lock across tabs (Web Locks in the browser), so two tabs
   * never send the same entry. Without one (tests, one process), replays are serialised in-process.
   */
  withReplayLock?: (task: () => Promise<void>) => Promise<void>;
  /** The network as the platform sees it; the engine also learns from every request it makes. */
  isOnline?: () => boolean;
  /** The user at the screen, for the status's count of other users' changes. */
  currentUserId?: () => Promise<number | null>;
  /** Whether this tablet has pulled this company's data before (else the status tells the first pull's progress). */
  pulledBefore?: boolean;
  /** How long a failed pull waits before trying again (default 5 s; the browser's `online` event cuts it short). */
  pullRetryMs?: number;
}

type Listener = (status: SyncStatus) => void;

const withoutPosition = ({ syncPosition: _position, ...document }: LocalDocument): LocalDocument => document;

/** How long a change the server announces during a replay may wait for its pull (see pullChanged). */
const PULL_DURING_REPLAY_MS = 5_000;

export class SyncEngine implements Recorder {
  private readonly replayer: Replayer;
  private readonly pulls: PullReplications;
  private readonly stream: ChangeStream;
  private readonly listeners = new Set<Listener>();
  private status: SyncStatus = { online: true, pending: 0, otherUsers: 0, users: [], failed: [], initialPull: null, lastSyncedAt: null, lastError: null };
  /** Replay runs, one at a time (see kick). */
  private readonly replays = new Rounds(() => this.replayRound(), () => !this.stopped);
  /** Counts of the outbox, one at a time (see refreshCounts). */
  private readonly counts = new Rounds(() => this.countOnce());
  private ignoreBackoff = false;
  /** Documents to read back from the server (see readBackStale), by collection and id. */
  private readonly stale = new Map<string, TouchedDocument>();
  /** Read-backs, one at a time: documents made stale while one runs are read in one more round (see readBackStale). */
  private readonly readBacks = new Rounds(() => this.readBackOnce(), () => !this.stopped);
  /** Collections the server said changed during a replay, pulled when it ends (see pullChanged). */
  private readonly changedDuringReplay = new Set<string>();
  private pullTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether this tablet is sending (a replay run under the lock; waiting for another tab's lock is not). */
  private sending = false;
  /** Aborts the running replay's request (see syncNow). */
  private inFlight: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private started = false;
  private stopped = false;
  /** Whether the first replay round has dropped what the service worker sent (see replayOnce). */
  private forgotSentElsewhere = false;

  constructor(private readonly options: SyncEngineOptions) {
    this.replayer = new Replayer(options.outbox, options.transport);
    this.pulls = new PullReplications(options.pullTargets, options.transport, options.outbox, options.replicationIdentifier, options.pullRetryMs);
    if (!options.pulledBefore) {
      this.status.initialPull = { done: 0, total: options.pullTargets.length, documents: 0 };
      this.pulls.onInitialPull = (initialPull) => this.setStatus({ initialPull });
    }
    this.stream = new ChangeStream(options.transport, {
      onConnected: () => {
        this.setStatus({ online: true });
        this.pulls.resync();
        void this.kick();
      },
      onChange: (collections) => this.pullChanged(collections),
      onDisconnected: (reason) => this.setStatus({ online: false, lastError: reason }),
      // Refused (an outside consultant's access ended): still online, and the reason is said.
      onRefused: (reason) => this.setStatus({ lastError: reason }),
    });
    this.pulls.errors.subscribe((message) => this.setStatus({ lastError: message }));
    this.pulls.overlaidLate.subscribe((document) => {
      this.stale.set(`${document.collection}\u0000${document.id}`, document);
      void this.readBackStale();
    });
  }

  /**
   * Resumes after a reload or a crash: re-applies the stored entries' effects (the write-ahead rule of
   * sync/record.ts), then starts pulling, listening and replaying.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const entry of await this.options.outbox.all()) await applyEffects(this.options.store, entry.effects);
    await this.refreshCounts();
    this.pulls.start();
    this.stream.start();
    void this.kick();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.status);
    return () => this.listeners.delete(listener);
  }

  current(): SyncStatus {
    return this.status;
  }

  /** Replays now and pulls every collection again (the page's "sync now", the browser's `online` event). */
  syncNow(): Promise<void> {
    this.stream.reconnect();
    this.pulls.resync();
    // A request sent before the network dropped can hang until its timeout (60 s) on the dead
    // connection; give up on it so the queue goes at once. It is sent again under the same key.
    this.inFlight?.abort();
    return this.kick({ now: true });
  }

  async record(drafts: readonly EntryDraft[]): Promise<OutboxEntry[]> {
    const entries = await recordChanges(this.options.outbox, this.options.store, drafts);
    // Counted at once: a send hanging on a weak signal must not keep the new change out of the count.
    void this.refreshCounts();
    void this.kick();
    return entries;
  }

  async hasPendingEffects(collection: string, id: string): Promise<boolean> {
    return (await this.options.outbox.pending()).on(collection, id) !== undefined;
  }

  async awaitsCreate(clientIds: ClientId[]): Promise<boolean> {
    return clientIds.length > 0 && (await this.options.outbox.pending()).awaitsCreate(clientIds);
  }

  /** The sessions on this tablet changed (a sign-in, a user switch): entries waiting for a session may go. */
  sessionsChanged(): Promise<void> {
    void this.refreshCounts();
    return this.kick({ now: true });
  }

  async retry(id: string): Promise<void> {
    await this.options.outbox.retry(id);
    await this.kick({ now: true });
  }

  /**
   * Gives up a failed entry and, with it, the entries that name a record it was to create (they could
   * never be applied). Their optimistic effects are undone, latest first; pending effects of other
   * entries on the same documents are applied again. Returns how many entries were discarded.
   */
  async discard(id: string): Promise<number> {
    const all = await this.options.outbox.all();
    const first = all.find((entry) => entry.id === id);
    if (!first) return 0;
    const dropped: OutboxEntry[] = [first];
    const orphaned = new Set<ClientId>(first.creates);
    for (const entry of all) {
      if (entry.seq <= first.seq || !entry.clientIds.some((clientId) => orphaned.has(clientId))) continue;
      dropped.push(entry);
      for (const clientId of entry.creates) orphaned.add(clientId);
    }
    for (const entry of dropped) await this.options.outbox.discard(entry.id);
    // Records whose create still waits: the server does not know them yet, so there is nothing to read back.
    const remaining = await this.options.outbox.all();
    const unsent = new Set(remaining.flatMap((entry) => entry.creates));
    const touched = new Set<string>();
    for (const entry of [...dropped].reverse()) {
      for (const effect of [...entry.effects].reverse()) {
        touched.add(`${effect.collection}\u0000${effect.id}`);
        // A record whose create was discarded is gone for good.
        if (orphaned.has(effect.id)) {
          await this.options.store.remove(effect.collection, effect.id);
          continue;
        }
        // The state before the change, as it was then: older than any server state pulled since, so
        // it carries no position, and the document is read back from the server below.
        if (effect.before) await this.options.store.upsert(effect.collection, withoutPosition(effect.before));
        else if (effect.before === null) await this.options.store.remove(effect.collection, effect.id);
        if (effect.before !== null && !unsent.has(effect.id)) this.stale.set(`${effect.collection}\u0000${effect.id}`, { collection: effect.collection, id: effect.id });
      }
    }
    for (const entry of remaining) {
      await applyEffects(
        this.options.store,
        entry.effects.filter((effect) => touched.has(`${effect.collection}\u0000${effect.id}`)),
      );
    }
    await this.refreshCounts();
    await this.readBackStale();
    return dropped.length;
  }

  /**
   * Reads back documents whose local state may be older than the server's and that the pull will not
   * bring again (its checkpoint went past them): a discarded change's documents, and those an applied
   * entry changed when reading them back failed. Kept until a read-back succeeds.
   *
   * One read-back at a time: asked while one runs, it goes round once more when that one ends, for
   * what became stale meanwhile. (The pull reports each overlaid document that lands late on its own:
   * a replay of thousands of changes to a hundred boxes made as many concurrent read-backs of the
   * same hundred, which held the server's one embedded connection for half a minute.)
   */
  private readBackStale(): Promise<void> {
    if (!this.readBacks.current && this.stale.size === 0) return Promise.resolve();
    return this.readBacks.run();
  }

  private async readBackOnce(): Promise<'stop' | void> {
    const documents = [...this.stale.values()];
    if (documents.length === 0) return;
    try {
      await this.pulls.refresh(documents, this.options.store);
    } catch (error) {
      this.setStatus({ lastError: error instanceof Error ? error.message : String(error) });
      return 'stop';
    }
    // Not one marked stale again meanwhile (that mark may be newer than what was read).
    for (const document of documents) {
      const key = `${document.collection}\u0000${document.id}`;
      if (this.stale.get(key) === document) this.stale.delete(key);
    }
  }

  /** Resolves once the outbox has sent what it can and every collection has pulled what the server shows. */
  async settle(): Promise<void> {
    await this.kick({ now: true });
    await this.pulls.caughtUp();
    await this.readBacks.current;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pullTimer) clearTimeout(this.pullTimer);
    this.stream.stop();
    await this.replays.current;
    await this.pulls.stop();
  }

  /** Starts a replay run, or asks the running one to go round again. */
  private kick(options: { now?: boolean } = {}): Promise<void> {
    // Entries recorded before the engine starts wait for it (start() replays them).
    if (this.stopped || !this.started) return Promise.resolve();
    if (options.now) {
      this.ignoreBackoff = true;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    return this.replays.run();
  }

  /**
   * Pulls collections the server says changed. While this tablet sends, most of those changes are
   * its own, which the push answers bring already: pulling them after every push would read each one
   * twice and, on the embedded database's one connection, slow the replay itself. So they are pulled
   * when the sending ends, or PULL_DURING_REPLAY_MS after the first one during a long replay (others'
   * changes still arrive).
   */
  private pullChanged(collections: Iterable<string>) {
    for (const collection of collections) this.changedDuringReplay.add(collection);
    if (this.changedDuringReplay.size === 0) return;
    if (this.sending) {
      this.pullTimer ??= setTimeout(() => this.pullChangedNow(), PULL_DURING_REPLAY_MS);
      return;
    }
    this.pullChangedNow();
  }

  private pullChangedNow() {
    if (this.pullTimer) clearTimeout(this.pullTimer);
    this.pullTimer = null;
    if (this.stopped || this.changedDuringReplay.size === 0) return;
    this.pulls.resync([...this.changedDuringReplay]);
    this.changedDuringReplay.clear();
  }

  /** One replay, under the lock that lets one tab of the tablet replay at a time. */
  private async replayRound(): Promise<void> {
    const lock = this.options.withReplayLock ?? ((task: () => Promise<void>) => task());
    await lock(() => this.replayOnce());
  }

  private async replayOnce(): Promise<void> {
    const ignoreBackoff = this.ignoreBackoff;
    this.ignoreBackoff = false;
    if (this.retryTimer) {
      if (!ignoreBackoff) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    // A page opened while the service worker sent (sync/background-replay.ts) may have read entries it
    // then sent; this round holds the lock it held, so it has finished. Once: it never sends while a page is open.
    if (!this.forgotSentElsewhere) {
      this.forgotSentElsewhere = true;
      await this.options.outbox.forgetSentElsewhere();
    }
    let outcome;
    const controller = new AbortController();
    this.inFlight = controller;
    this.sending = true;
    try {
      outcome = await this.replayer.runOnce({ ignoreBackoff, signal: controller.signal, onProgress: () => void this.refreshCounts() });
    } catch (error) {
      this.setStatus({ lastError: error instanceof Error ? error.message : String(error) });
      // Entries may have completed before the failure: the counts say what is left.
      await this.refreshCounts();
      return;
    } finally {
      this.inFlight = null;
      this.sending = false;
      this.pullChanged([]);
    }
    // Aborted by syncNow, which asked for another run at once.
    if (controller.signal.aborted && outcome.state === 'waiting') {
      this.ignoreBackoff = true;
      this.replays.roundAgain();
      return;
    }
    await this.refreshCounts();
    // What the server made of the applied entries (the push answers' documents, a read-back for an
    // entry sent alone) replaces the optimistic documents now; others' changes come with the pull,
    // asked for once per run (the change stream asks too, but it is best effort).
    if (outcome.sent > 0) {
      this.pulls.resync();
      try {
        for (const documents of outcome.documents) await this.pulls.store(documents, this.options.store);
      } catch (error) {
        // Not stored: the documents the run changed are read back instead.
        this.setStatus({ lastError: error instanceof Error ? error.message : String(error) });
        for (const [collection, documents] of outcome.documents.flatMap((byCollection) => Object.entries(byCollection))) {
          for (const document of documents) this.stale.set(`${collection}\u0000${document.id}`, { collection, id: document.id });
        }
      }
      for (const document of outcome.touched) this.stale.set(`${document.collection}\u0000${document.id}`, document);
    }
    await this.readBackStale();
    if (outcome.state === 'idle') {
      this.setStatus({ online: true, lastError: null, lastSyncedAt: Date.now() });
    } else {
      this.setStatus({ online: outcome.network ? false : this.status.online, lastError: outcome.error });
      this.retryTimer = setTimeout(
        () => {
          this.retryTimer = null;
          void this.kick();
        },
        Math.max(0, outcome.until - Date.now()),
      );
    }
  }

  /**
   * Counts again; calls while a count runs are folded into one more count after it (recording a
   * thousand changes in a row must not count a thousand times).
   */
  private refreshCounts(): Promise<void> {
    return this.counts.run();
  }

  private async countOnce(): Promise<void> {
    const current = (await this.options.currentUserId?.()) ?? null;
    const { pending, byUser, failed } = await this.options.outbox.counts();
    const users = [];
    for (const [userId, count] of byUser) {
      users.push({ userId, pending: count, failed: failed.filter((entry) => entry.userId === userId).length, signedIn: await this.options.transport.hasSession(userId) });
    }
    // Entries of nobody in particular (made before entries named their author) go with anyone's session.
    const otherUsers = users.filter((user) => user.userId !== null && current !== null && user.userId !== current).reduce((sum, user) => sum + user.pending, 0);
    this.setStatus({
      pending,
      otherUsers,
      users,
      failed: failed.map((entry) => ({ id: entry.id, label: entry.label, userId: entry.userId, error: entry.error ?? '', createdAt: entry.createdAt, creates: entry.creates })),
    });
  }

  private setStatus(change: Partial<SyncStatus>) {
    const online = this.options.isOnline ? this.options.isOnline() && (change.online ?? this.status.online) : (change.online ?? this.status.online);
    this.status = { ...this.status, ...change, online };
    for (const listener of this.listeners) listener(this.status);
  }
}
