/**
 * Replays the outbox against the server (ARCHITECTURE.md "One write, end to end", steps 3 and 5).
 *
 * - In order, each entry under `Idempotency-Key: <entry id>`, so an entry whose answer was lost is
 *   answered from the server's record on the next attempt instead of being applied twice.
 * - No answer (network), 5xx, 429, or the server still working on an earlier attempt: the entry keeps
 *   its place and everything waits, with backoff from 1 s to 5 min; retried until it passes.
 * - 401 after the transport's one refresh: the session is over; entries stay for the next sign-in.
 * - Any other 4xx: the entry is marked failed with the server's message and kept for the grower to
 *   retry or discard. Entries that use a temporary id it (or another waiting entry) was to create wait
 *   with it; the others go on.
 * - A create's answer gives server ids for its temporary ids: the outbox rewrites later entries and
 *   the local store moves the documents (`LocalStore.replaceId`).
 */
import { httpMessages } from '../common/messages/http';
import { type Outbox, replaceTempIds, tempIdsIn } from './outbox';
import type { LocalStore } from './store';
import type { EntryBody, IdSource, OutboxEntry, TempId } from './types';

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
}

export interface ApiTransport {
  /**
   * Sends one call with the current access token (refreshing it once on 401/403). Resolves with every
   * HTTP answer; rejects only when no answer came.
   */
  send(call: ApiCall): Promise<ApiAnswer>;
  /** Opens the server-sent event stream (`/sync/stream`) with the current access token. */
  openStream(signal: AbortSignal): Promise<{ status: number; body: ReadableStream<Uint8Array> | null }>;
}

/** A local document an applied entry changed: read back from the server after the replay. */
export interface TouchedDocument {
  collection: string;
  id: string;
}

export type ReplayOutcome = { sent: number; touched: TouchedDocument[] } & (
  | { state: 'idle' }
  | { state: 'waiting'; until: number; error: string; network: boolean }
  | { state: 'signed-out' }
);

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

/** The server id an answer gives for one temporary id, following `source.path` (and `match` in arrays). */
export function serverIdFrom(data: unknown, source: IdSource): number | null {
  let value: unknown = data;
  for (const key of source.path) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[key];
  }
  if (source.match) {
    if (!Array.isArray(value)) return null;
    const wanted = Object.entries(source.match);
    value = value.find((item) => item && typeof item === 'object' && wanted.every(([key, expected]) => (item as Record<string, unknown>)[key] === expected));
  }
  if (source.field !== undefined) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[source.field] : undefined;
  const id = typeof value === 'string' ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

export class Replayer {
  constructor(
    private readonly outbox: Outbox,
    private readonly transport: ApiTransport,
    private readonly store: LocalStore,
    /** The signed-in user: only their entries are sent (an entry without a user goes with anyone's). */
    private readonly currentUserId: () => Promise<number | null> = async () => null,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sends what can be sent now, in order; tells why it stopped. `ignoreBackoff`: the network is known
   * to be back (the browser's `online` event, the grower's "sync now"): try at once.
   */
  async runOnce(options: { ignoreBackoff?: boolean } = {}): Promise<ReplayOutcome> {
    let sent = 0;
    const touched: TouchedDocument[] = [];
    const userId = await this.currentUserId();
    let queue = await this.outbox.all();
    for (let index = 0; index < queue.length; index += 1) {
      const entry = queue[index] as OutboxEntry;
      const own = new Set(entry.creates.map((source) => source.tempId));
      const needs = entry.tempIds.filter((tempId) => !own.has(tempId));
      // Failed, or using a record whose create has not reached the server (it failed or waits): skip.
      // Its dependents skip too, since they use its temporary ids, which stay unmapped.
      if (entry.state === 'failed' || needs.length > 0) continue;
      // Another user's change on a shared tablet: it waits for them (their next session sends it).
      if (entry.userId !== null && userId !== null && entry.userId !== userId) continue;
      if (!options.ignoreBackoff && entry.nextAttemptAt > this.now()) return { state: 'waiting', sent, touched, until: entry.nextAttemptAt, error: entry.error ?? '', network: false };

      let answer: ApiAnswer;
      try {
        answer = await this.transport.send({ method: entry.method, path: entry.path, query: entry.query, body: entry.body, idempotencyKey: entry.id });
      } catch (error) {
        const message = error instanceof Error && error.message ? error.message : 'No connection to the server.';
        const until = this.now() + backoffMs(entry.attempts);
        await this.outbox.postpone(entry, message, until);
        return { state: 'waiting', sent, touched, until, error: message, network: true };
      }

      if (answer.status >= 200 && answer.status < 300) {
        const acknowledged = await this.acknowledge(entry, answer.data);
        touched.push(...acknowledged.touched);
        sent += 1;
        // Later entries that used this create's temporary ids now carry its server ids. (Entries recorded
        // during this run wait for the next one, which the engine starts when it was told of them.)
        if (acknowledged.rewritten.length > 0) {
          const rewritten = new Map(acknowledged.rewritten.map((other) => [other.id, other]));
          queue = queue.map((other) => rewritten.get(other.id) ?? other);
        }
      } else if (isRetryable(answer)) {
        const until = this.now() + backoffMs(entry.attempts);
        await this.outbox.postpone(entry, messageOf(answer), until);
        return { state: 'waiting', sent, touched, until, error: messageOf(answer), network: false };
      } else if (answer.status === 401) {
        return { state: 'signed-out', sent, touched };
      } else {
        await this.outbox.fail(entry, messageOf(answer, entry.fallbackMessage));
      }
    }
    return { state: 'idle', sent, touched };
  }

  private async acknowledge(entry: OutboxEntry, data: unknown): Promise<{ touched: TouchedDocument[]; rewritten: OutboxEntry[] }> {
    const created = new Map<TempId, number>();
    for (const source of entry.creates) {
      const serverId = serverIdFrom(data, source);
      // The server said yes but its answer lacks the id: a programming error, kept visible rather than guessed.
      if (serverId === null) throw new Error(`The answer to ${entry.path} has no id for ${source.path.join('.')}`);
      created.set(source.tempId, serverId);
    }
    const rewritten = await this.outbox.complete(entry, created);
    for (const source of entry.creates) await this.store.replaceId(source.collection, source.tempId, created.get(source.tempId) as number, source.documentId);
    // The documents it changed, under their server ids (still-temporary ids cannot be read back).
    const touched = entry.effects
      .map((effect) => ({ collection: effect.collection, id: String(replaceTempIds(effect.id, created)) }))
      .filter((document) => tempIdsIn(document.id).size === 0);
    return { touched, rewritten };
  }
}
