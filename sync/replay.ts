/**
 * Replays the outbox against the server (ARCHITECTURE.md "One write, end to end", steps 3 and 5).
 *
 * - In order, each entry under `Idempotency-Key: <entry id>`, so an entry whose answer was lost is
 *   answered from the server's record on the next attempt instead of being applied twice.
 * - No answer (network), 5xx, 429, or the server still working on an earlier attempt: the entry keeps
 *   its place and everything waits, with backoff from 1 s to 5 min; retried until it passes.
 * - 401 after the transport's one refresh: the session is over; entries stay for the next sign-in.
 * - Any other 4xx: the entry is marked failed with the server's message and kept for the grower to
 *   retry or discard. Entries that name a record it (or another waiting entry) was to create wait
 *   with it; the others go on.
 * - Records are named by client id before and after the server knows them: an answer changes no
 *   entry and no local document's key.
 */
import { httpMessages } from '../common/messages/http';
import type { Outbox } from './outbox';
import type { LocalDocument } from './store';
import type { ClientId, EntryBody, OutboxEntry, ResumableUpload } from './types';

export interface ApiAnswer {
  status: number;
  data: unknown;
}

export interface ApiCall {
  method: 'GET' | OutboxEntry['method'];
  path: string;
  query?: OutboxEntry['query'];
  body?: EntryBody;
  idempotencyKey?: string;
  /** When the act was done (an outbox entry's `actedAt`), sent as `X-Acted-At`. */
  actedAt?: string;
  /** Gives up waiting for the answer (the network came back: a request hung on the dead connection must not hold the queue). */
  signal?: AbortSignal;
}

export interface ApiTransport {
  /**
   * Sends one call with the access token of `userId`'s session (the signed-in user's when null or not
   * given), refreshing that session once on 401/403. Resolves with every HTTP answer; rejects only
   * when no answer came.
   *
   * WARNING: a call is only ever sent with its author's own session. A transport must never fall back
   * to another user's token (on a shared kiosk that would apply one grower's change as another's).
   */
  send(call: ApiCall, userId?: number | null): Promise<ApiAnswer>;
  /** Whether this tablet holds a session for `userId` (null: whether anyone is signed in). */
  hasSession(userId: number | null): Promise<boolean>;
  /** Opens the server-sent event stream (`/sync/stream`) with the signed-in user's access token. */
  openStream(signal: AbortSignal): Promise<{ status: number; body: ReadableStream<Uint8Array> | null }>;
}

/** A local document an applied entry changed: read back from the server after the replay. */
export interface TouchedDocument {
  collection: string;
  id: string;
}

/** Server documents by collection, as the pull, the read-back and the push answer give them. */
export type ServerDocuments = Record<string, Array<LocalDocument & { _deleted: boolean }>>;

export type ReplayOutcome = { sent: number; touched: TouchedDocument[]; documents: ServerDocuments[] } & (
  | { state: 'idle' }
  | { state: 'waiting'; until: number; error: string; network: boolean }
);

/** How many entries one push carries at most (the server takes 200; a smaller batch answers sooner on a weak signal). */
export const PUSH_BATCH = 100;

const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** 1 s, 2 s, 4 s, … up to 5 min, with ±20 % jitter so a farm of tablets does not retry in step. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** Math.min(attempts, 20));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The server's message from an answer body, else the call's own fallback, else a generic one with the status. */
export function messageOf(answer: ApiAnswer, fallback?: string | null): string {
  const data = answer.data as { message?: unknown } | null;
  if (data && typeof data === 'object' && typeof data.message === 'string' && data.message) return data.message;
  return fallback ?? `The server answered ${answer.status}.`;
}

const isRetryable = (answer: ApiAnswer) =>
  answer.status >= 500 || answer.status === 429 || answer.status === 408 || (answer.status === 409 && messageOf(answer) === httpMessages.idempotencyInFlight);

/** An entry that carries a file: sent on its own, as the spec's call (or a resumable upload), since a push carries text only. */
const carriesFile = (entry: OutboxEntry) => (entry.body.kind === 'multipart' && entry.body.parts.some((part) => 'blob' in part)) || entry.body.kind === 'upload';

/** Why a resumable upload waits when the server kept answering its chunks without taking them. */
const UPLOAD_STALLED = 'The server did not take the upload’s chunks; it is tried again later.';

/**
 * What the server has of a resumable upload, from a start's or a chunk's answer (a 409 says it too);
 * null for any other answer, which is then the entry's answer (settled as a single call's).
 */
function uploadStateOf(answer: ApiAnswer): { received: number; finished: boolean } | null {
  const data = answer.data as { upload?: { received_bytes?: unknown; finished?: unknown }; received_bytes?: unknown } | null;
  if (answer.status >= 200 && answer.status < 300 && typeof data?.upload?.received_bytes === 'number') return { received: data.upload.received_bytes, finished: data.upload.finished === true };
  if (answer.status === 409 && typeof data?.received_bytes === 'number') return { received: data.received_bytes, finished: false };
  return null;
}

/** What the push sends of an entry: the spec call itself, its key and its time. */
const pushed = (entry: OutboxEntry) => ({ id: entry.id, method: entry.method, path: entry.path, query: entry.query, body: entry.body, actedAt: entry.actedAt });

interface PushAnswer {
  results: Array<{ id: string; status: number; body: unknown }>;
  documents?: ServerDocuments;
}

/**
 * One replay run. Entries go out in order, each user's under that user's session: consecutive entries
 * of one author travel together in one push (up to PUSH_BATCH); a batch ends where the next entry
 * names a record an entry of the batch makes (so that, should the make be refused, the entry waits
 * with it instead of being refused for naming nothing), where the author changes, and before an entry
 * carrying a file (sent alone).
 */
class ReplayRun {
  sent = 0;
  readonly touched: TouchedDocument[] = [];
  readonly documents: ServerDocuments[] = [];
  /** Users whose entries wait: no session on this tablet, or it ended during the run. */
  private readonly waitingUsers = new Set<number | null>();
  private readonly sessions = new Map<number | null, boolean>();
  private queue: OutboxEntry[] = [];
  private batch: OutboxEntry[] = [];
  /** The entry of the queue that makes each record, until it reaches the server. */
  private readonly makers = new Map<ClientId, OutboxEntry>();

  constructor(
    private readonly outbox: Outbox,
    private readonly transport: ApiTransport,
    private readonly now: () => number,
    private readonly ignoreBackoff: boolean,
    private readonly signal: AbortSignal | undefined,
    /** Told after each request whose entries left the queue, so the pending count falls as a long replay goes. */
    private readonly onProgress: () => void,
  ) {}

  async run(): Promise<ReplayOutcome> {
    this.queue = await this.outbox.all();
    for (const entry of this.queue) for (const clientId of entry.creates) this.makers.set(clientId, entry);
    for (let index = 0; index < this.queue.length; index += 1) {
      const entry = this.queue[index] as OutboxEntry;
      if (entry.state === 'failed' || this.waitingUsers.has(entry.userId)) continue;
      if (this.needs(entry).length > 0) {
        // It names a record an entry of this batch makes: send the batch, then look again.
        if (!this.needs(entry).every((maker) => this.batch.includes(maker))) continue;
        const stop = await this.flush();
        if (stop) return stop;
        // Its maker failed or waits: it waits too (and its own dependents with it).
        if ((this.queue[index] as OutboxEntry).state === 'failed' || this.needs(entry).length > 0) continue;
      }
      if (!(await this.hasSession(entry.userId))) {
        this.waitingUsers.add(entry.userId);
        continue;
      }
      if (!this.ignoreBackoff && entry.nextAttemptAt > this.now()) {
        const stop = await this.flush();
        return stop ?? this.outcome({ state: 'waiting', until: entry.nextAttemptAt, error: entry.error ?? '', network: false });
      }
      if (this.batch.length > 0 && (this.batch[0]?.userId !== entry.userId || this.batch.length >= PUSH_BATCH || carriesFile(entry))) {
        const stop = await this.flush();
        if (stop) return stop;
        if (this.waitingUsers.has(entry.userId)) continue;
      }
      if (carriesFile(entry)) {
        const stop = await this.sendAlone(entry);
        if (stop) return stop;
      } else this.batch.push(entry);
    }
    return (await this.flush()) ?? this.outcome({ state: 'idle' });
  }

  private outcome(state: { state: 'idle' } | { state: 'waiting'; until: number; error: string; network: boolean }): ReplayOutcome {
    return { ...state, sent: this.sent, touched: this.touched, documents: this.documents };
  }

  /** The entries still to reach the server that make a record this entry names. */
  private needs(entry: OutboxEntry): OutboxEntry[] {
    const makers = new Set<OutboxEntry>();
    for (const clientId of entry.clientIds) {
      const maker = this.makers.get(clientId);
      if (maker && maker !== entry) makers.add(maker);
    }
    return [...makers];
  }

  /** Entries reached the server: they leave the queue, and the records they made are on the server. */
  private async completed(done: OutboxEntry[]) {
    await this.outbox.completeAll(done);
    for (const entry of done) for (const clientId of entry.creates) this.makers.delete(clientId);
    this.sent += done.length;
  }

  private async hasSession(userId: number | null) {
    if (!this.sessions.has(userId)) this.sessions.set(userId, await this.transport.hasSession(userId));
    return this.sessions.get(userId) === true;
  }

  /** Sends the batch as one push; answers why the run stops, or null to go on. */
  private async flush(): Promise<ReplayOutcome | null> {
    return this.reporting(() => this.sendBatch());
  }

  /** Runs one request's worth of sending, then tells of progress when entries left the queue. */
  private async reporting(send: () => Promise<ReplayOutcome | null>): Promise<ReplayOutcome | null> {
    const sentBefore = this.sent;
    const stop = await send();
    if (this.sent > sentBefore) this.onProgress();
    return stop;
  }

  private async sendBatch(): Promise<ReplayOutcome | null> {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return null;
    const first = batch[0] as OutboxEntry;
    let answer: ApiAnswer;
    try {
      answer = await this.transport.send({ method: 'POST', path: '/sync/push', query: { naming: 'client' }, body: { kind: 'json', data: { entries: batch.map(pushed) } }, signal: this.signal }, first.userId);
    } catch (error) {
      return this.noAnswer(first, error);
    }
    if (answer.status === 401) return this.sessionEnded(first.userId);
    if (isRetryable(answer)) return this.postpone(first, messageOf(answer), false);
    // A server without the push (an older one behind a proxy) or one that refuses this batch whole: each entry alone.
    if (answer.status < 200 || answer.status >= 300) {
      for (const entry of batch) {
        const stop = await this.sendAlone(entry);
        if (stop) return stop;
        if (this.waitingUsers.has(entry.userId)) return null;
      }
      return null;
    }
    const data = answer.data as PushAnswer;
    if (data.documents) this.documents.push(data.documents);
    const done: OutboxEntry[] = [];
    let stop: ReplayOutcome | null = null;
    for (const result of data.results) {
      const entry = batch.find((candidate) => candidate.id === result.id);
      if (!entry) continue;
      // A 401 (the token expired during the push) or a 403 (a token older than the user's new role):
      // sent alone, the call refreshes the session once and tries again, as a single call always does.
      const outcome = result.status === 401 || result.status === 403 ? await this.sendAlone(entry) : await this.settle(entry, { status: result.status, data: result.body }, done);
      if (outcome) {
        stop = outcome;
        break;
      }
    }
    await this.completed(done);
    // An entry answered from the server's record (its first answer was lost) brings no documents, and a
    // pull may have laid its change over a newer state meanwhile: what the answer did not bring is read back.
    const returned = new Set(Object.entries(data.documents ?? {}).flatMap(([collection, documents]) => documents.map((document) => `${collection}\u0000${document.id}`)));
    for (const entry of done) {
      for (const effect of entry.effects) if (!returned.has(`${effect.collection}\u0000${effect.id}`)) this.touched.push({ collection: effect.collection, id: effect.id });
    }
    return stop;
  }

  /** Sends one entry as its own spec call (files; or a push the server would not take). */
  private sendAlone(entry: OutboxEntry): Promise<ReplayOutcome | null> {
    return this.reporting(() => this.sendOne(entry));
  }

  private async sendOne(entry: OutboxEntry): Promise<ReplayOutcome | null> {
    let answer: ApiAnswer;
    try {
      if (entry.body.kind === 'upload') {
        const sent = await this.sendUpload(entry, entry.body);
        if (!sent) return this.postpone(entry, UPLOAD_STALLED, false);
        answer = sent;
      } else answer = await this.transport.send({ method: entry.method, path: entry.path, query: entry.query, body: entry.body, idempotencyKey: entry.id, actedAt: entry.actedAt, signal: this.signal }, entry.userId);
    } catch (error) {
      return this.noAnswer(entry, error);
    }
    const done: OutboxEntry[] = [];
    const stop = await this.settle(entry, answer, done);
    await this.completed(done);
    // No documents come with a single call: read back what it changed.
    for (const applied of done) this.touched.push(...applied.effects.map((effect) => ({ collection: effect.collection, id: effect.id })));
    return stop;
  }

  /**
   * Sends a resumable upload (types.ts `ResumableUpload`): asks how much the server has, sends the rest
   * chunk by chunk from there, then the entry's own call, whose answer it returns. A start or chunk
   * answered otherwise (a 5xx, a refusal) ends it there with that answer; no answer at all throws. Null
   * when the server kept taking chunks without moving on (it would loop): the entry waits and tries again.
   */
  private async sendUpload(entry: OutboxEntry, upload: ResumableUpload): Promise<ApiAnswer | null> {
    const send = (call: Pick<ApiCall, 'method' | 'path' | 'query' | 'body' | 'idempotencyKey'>) => this.transport.send({ ...call, actedAt: entry.actedAt, signal: this.signal }, entry.userId);
    let answer = await send({ method: 'POST', path: upload.startPath, body: { kind: 'json', data: upload.fields } });
    let state = uploadStateOf(answer);
    // Each chunk moves the server on by one; a 409 moves the tablet back to where the server is, once.
    let steps = 2 * Math.ceil(upload.blob.size / upload.chunkBytes) + 2;
    while (state && !state.finished && state.received < upload.blob.size) {
      if ((steps -= 1) < 0) return null;
      const from = state.received;
      const chunk = upload.blob.slice(from, from + upload.chunkBytes);
      answer = await send({ method: 'POST', path: upload.chunkPath, query: { client_id: upload.uploadId, offset: from }, body: { kind: 'multipart', parts: [{ name: 'chunk', blob: chunk, fileName: 'chunk' }] } });
      state = uploadStateOf(answer);
    }
    if (!state) return answer;
    return send({ method: entry.method, path: entry.path, query: entry.query, body: { kind: 'none' }, idempotencyKey: entry.id });
  }

  /**
   * What one answer means for its entry: applied (collected in `done`), retryable (the run stops), the
   * session over (that user's entries wait), or refused (marked failed; the run goes on).
   */
  private async settle(entry: OutboxEntry, answer: ApiAnswer, done: OutboxEntry[]): Promise<ReplayOutcome | null> {
    if (answer.status >= 200 && answer.status < 300) {
      done.push(entry);
      return null;
    }
    if (isRetryable(answer)) return this.postpone(entry, messageOf(answer), false);
    if (answer.status === 401) return this.sessionEnded(entry.userId);
    await this.outbox.fail(entry, messageOf(answer, entry.fallbackMessage));
    const index = this.queue.findIndex((other) => other.id === entry.id);
    if (index >= 0) this.queue[index] = { ...entry, state: 'failed' };
    return null;
  }

  private sessionEnded(userId: number | null): null {
    // The transport refreshed once and the server still said no: that user signs in again to send these.
    this.waitingUsers.add(userId);
    this.sessions.set(userId, false);
    return null;
  }

  private noAnswer(entry: OutboxEntry, error: unknown) {
    const message = error instanceof Error && error.message ? error.message : 'No connection to the server.';
    return this.postpone(entry, message, true);
  }

  private async postpone(entry: OutboxEntry, message: string, network: boolean): Promise<ReplayOutcome> {
    const until = this.now() + backoffMs(entry.attempts);
    await this.outbox.postpone(entry, message, until);
    return this.outcome({ state: 'waiting', until, error: message, network });
  }
}

export class Replayer {
  constructor(
    private readonly outbox: Outbox,
    private readonly transport: ApiTransport,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sends what can be sent now, in order; tells why it stopped. `ignoreBackoff`: the network is known
   * to be back (the browser's `online` event, the grower's "sync now"): try at once.
   */
  runOnce(options: { ignoreBackoff?: boolean; signal?: AbortSignal; onProgress?: () => void } = {}): Promise<ReplayOutcome> {
    return new ReplayRun(this.outbox, this.transport, this.now, options.ignoreBackoff ?? false, options.signal, options.onProgress ?? (() => undefined)).run();
  }
}
