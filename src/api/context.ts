/**
 * What every domain function works with: the HTTP client for reads that need the server, the local
 * store for reads that work offline, and `record` for every change, made through the sync engine, the
 * outbox's one owner (sync/record.ts: outbox entry first, then the optimistic local write; in the
 * browser the engine runs in the sync worker, so the page records over comlink).
 */
import axios from 'axios';
import type { z } from 'zod';
import type { Recorder } from '../../sync/engine';
import type { EntryDraft } from '../../sync/outbox';
import type { LocalStore } from '../../sync/store';
import type { Effect, OutboxEntry } from '../../sync/types';
import { isClientId } from '../../common/client-ids';
import { MAX_RECORD_ID } from '../../common/schemas/fields';
import type { GrowDatabase } from '../db/database';
import type { ApiClient } from './client';
import { ApiError, ValidationError, serverMessage, unanswered } from './errors';

// The errors every domain function may throw, from here as from errors.ts (which stays light: the
// first page loads it without the validation code).
export { ApiError, ValidationError, serverMessage, unanswered } from './errors';

export interface ApiContext {
  client: ApiClient;
  /** Records changes (the sync engine, in the worker in the browser). */
  recorder: Recorder;
  /** The local store, for reads (writes go through `recorder`). */
  store: Pick<LocalStore, 'get'>;
  /** The local database itself, for queries the store cannot answer (the grids of a room, offline lists). */
  database: GrowDatabase;
}

/** Records a change as the signed-in user's (see OutboxEntry.userId). */
export async function record(context: ApiContext, draft: EntryDraft): Promise<OutboxEntry> {
  const [entry] = await recordAll(context, [draft]);
  return entry!;
}

/**
 * Records changes that stand or fall together (a form and its photos): all of them, or none. Each is
 * the signed-in user's, done now: the entry keeps its author and its moment for good.
 */
export async function recordAll(context: ApiContext, drafts: readonly EntryDraft[]): Promise<OutboxEntry[]> {
  const session = await context.client.session.get();
  const userId = session?.user_id ?? null;
  const actedAt = new Date().toISOString();
  const written = await watchWrites(context.database, drafts.flatMap((draft) => draft.effects ?? []));
  let entries: OutboxEntry[];
  try {
    entries = await context.recorder.record(drafts.map((draft) => ({ ...draft, userId, actedAt })));
  } catch (error) {
    written.stop();
    throw error;
  }
  await written.seen();
  return entries;
}

/** How long a record waits for the page to see its own writes; past it, the page reads what it has. */
const WRITES_SEEN_TIMEOUT_MS = 2_000;

/**
 * Read-your-writes for the page. In the browser the sync worker writes a record's optimistic effects
 * through its own RxDB instance; the page's instance learns of them from their change events, and until
 * then its cached queries still answer what was there before: the next step of a save (a form's hide
 * rules, right after the form) read its own new template as missing. `seen` resolves once the database
 * has seen a change of every document the effects will write (an upsert; a patch or removal of a
 * document it holds), or after WRITES_SEEN_TIMEOUT_MS. Watching starts before the worker writes, so
 * no event is missed; in Node the engine writes through the same instance and they come at once.
 */
async function watchWrites(database: GrowDatabase, effects: readonly Effect[]): Promise<{ seen(): Promise<void>; stop(): void }> {
  const expected = new Set<string>();
  const keyOf = (collection: string, id: string) => `${collection}\u0000${id}`;
  const byCollection = new Map<string, string[]>();
  for (const effect of effects) {
    if (effect.op === 'upsert') expected.add(keyOf(effect.collection, effect.id));
    else {
      const ids = byCollection.get(effect.collection) ?? [];
      ids.push(effect.id);
      byCollection.set(effect.collection, ids);
    }
  }
  for (const [name, ids] of byCollection) {
    const collection = database.collections[name as keyof GrowDatabase['collections']];
    if (!collection) continue;
    for (const id of (await collection.findByIds(ids).exec()).keys()) expected.add(keyOf(name, id));
  }
  if (expected.size === 0) return { seen: async () => undefined, stop: () => undefined };
  let done: () => void = () => undefined;
  const allSeen = new Promise<void>((resolve) => (done = resolve));
  const subscription = database.$.subscribe((event) => {
    expected.delete(keyOf(event.collectionName ?? '', event.documentId));
    if (expected.size === 0) done();
  });
  return {
    async seen() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([allSeen, new Promise<void>((resolve) => (timer = setTimeout(resolve, WRITES_SEEN_TIMEOUT_MS)))]);
      clearTimeout(timer);
      subscription.unsubscribe();
    },
    stop: () => subscription.unsubscribe(),
  };
}

/**
 * Client ids and the numbers that stand in for them while checking: the spec's schemas want integer
 * ids, and the server takes a client id wherever one is wanted (resolved before it checks). Each client
 * id gets its own stand-in, found at any depth (lists, answers' field ids).
 */
function standIns(values: unknown) {
  const numbers = new Map<string, number>();
  const temps = new Map<number, string>();
  const replace = (value: unknown): unknown => {
    if (isClientId(value)) {
      if (!numbers.has(value)) {
        // The largest ids a record could have (the schemas refuse larger ones); no record of a tablet's company comes near them.
        const number = MAX_RECORD_ID - numbers.size;
        numbers.set(value, number);
        temps.set(number, value);
      }
      return numbers.get(value);
    }
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replace(item)]));
    return value;
  };
  const restore = (value: unknown): unknown => {
    if (typeof value === 'number' && temps.has(value)) return temps.get(value);
    if (Array.isArray(value)) return value.map(restore);
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, restore(item)]));
    return value;
  };
  return { input: replace(values), restore };
}

/**
 * Checks input with the schema the server uses (common/schemas), so both sides give the same message;
 * throws the first rule's message. Returns the checked values, with client ids kept as they were.
 */
export function check<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const { input, restore } = standIns(values);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'Invalid input.');
  return restore(parsed.data) as z.output<S>;
}

/** The client ids a query names. */
const clientIdsOf = (query: Record<string, unknown> | undefined) => Object.values(query ?? {}).flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isClientId);

/**
 * A read that works offline: the server's answer, or, when the server gives no answer at all, what the
 * local store holds (spec part 2 §8: a network error while offline is only warned about). A read of a
 * record whose create still waits in the outbox goes to the local store at once: online, the server
 * would only answer that it knows no such record.
 */
export async function onlineOrLocal<T>(context: Pick<ApiContext, 'client' | 'recorder'>, request: Parameters<typeof online>[1], fallback: string, local: () => Promise<T>): Promise<T> {
  if (await context.recorder.awaitsCreate(clientIdsOf(request.query))) return local();
  try {
    return await online<T>(context, request, fallback);
  } catch (error) {
    if (!unanswered(error)) throw error;
    console.warn(`${request.path}: no answer from the server (${error.message}); reading the local store.`);
    return local();
  }
}

/** A multipart form for a call sent now (queued calls use `multipart`, a body the outbox can store). Undefined fields are left out. */
export function formData(fields: Record<string, string | number | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, String(value));
  return form;
}

/** A multipart body from fields (undefined ones left out). */
export function multipart(fields: Record<string, string | number | boolean | null | undefined>): EntryDraft['body'] {
  return {
    kind: 'multipart',
    parts: Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => ({ name, value: value === null ? 'null' : String(value) })),
  };
}

export const json = (data: unknown): EntryDraft['body'] => ({ kind: 'json', data });

export const now = () => new Date().toISOString();

/**
 * A call that needs the server's answer now (reads, and the session calls): the answer's data, or an
 * ApiError with the server's message, else `fallback` (the spec's default message for that call).
 */
export async function online<T>(
  context: Pick<ApiContext, 'client'>,
  request: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path: string;
    query?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, string>;
    /** 'arraybuffer' for files and images. */
    responseType?: 'json' | 'arraybuffer';
    /** Session calls (sign-in, sign-out): a 401 is their answer, not a reason to refresh. */
    skipRefresh?: boolean;
  },
  fallback: string,
): Promise<T> {
  try {
    const response = await context.client.http.request<T>({
      method: request.method ?? 'GET',
      url: request.path,
      params: request.query,
      data: request.body,
      headers: request.headers,
      responseType: request.responseType ?? 'json',
      skipRefresh: request.skipRefresh,
    });
    return response.data;
  } catch (error) {
    throw new ApiError(serverMessage(error) ?? fallback, axios.isAxiosError(error) ? (error.response?.status ?? null) : null);
  }
}
