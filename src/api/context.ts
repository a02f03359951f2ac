/**
 * What every domain function works with: the HTTP client for reads that need the server, the local
 * store for reads that work offline, and `record` for every change (sync/record.ts: outbox entry
 * first, then the optimistic local write; then the sync worker is told).
 */
import axios from 'axios';
import type { z } from 'zod';
import type { EntryDraft, Outbox } from '../../sync/outbox';
import { recordChange } from '../../sync/record';
import type { LocalStore } from '../../sync/store';
import { isTempId, type OutboxEntry } from '../../sync/types';
import type { GrowDatabase } from '../db/database';
import type { LocalDocument } from '../db/schemas';
import type { ApiClient } from './client';

export interface ApiContext {
  client: ApiClient;
  outbox: Outbox;
  store: LocalStore;
  /** The local database itself, for queries the store cannot answer (the grids of a room, offline lists). */
  database: GrowDatabase;
  /** Tells the sync engine an entry is waiting (the worker's `changed`). */
  notify(): void;
}

/** Records a change as the signed-in user's (see OutboxEntry.userId). */
export async function record(context: ApiContext, draft: EntryDraft): Promise<OutboxEntry> {
  const session = await context.client.session.get();
  const entry = await recordChange(context.outbox, context.store, { ...draft, userId: session?.user_id ?? null });
  context.notify();
  return entry;
}

/** A rule of the spec's client side failed: the message is the spec's own (spec part 1 §5, part 2 §5). */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
}

/** Stands in for a temporary id while checking: a record made offline is a valid reference. */
const TEMP_ID_STAND_IN = Number.MAX_SAFE_INTEGER;
const standIns = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, isTempId(value) ? TEMP_ID_STAND_IN : Array.isArray(value) ? value.map((item) => (isTempId(item) ? TEMP_ID_STAND_IN : item)) : value]));

/**
 * Checks input with the schema the server uses (common/schemas), so both sides give the same message;
 * throws the first rule's message. Returns the checked values, with temporary ids kept as they were.
 */
export function check<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(standIns(values));
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'Invalid input.');
  const output = parsed.data as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    if (isTempId(value)) output[key] = value;
    else if (Array.isArray(value) && value.some(isTempId)) output[key] = value;
  }
  return output as z.output<S>;
}

/** Documents of a local collection matching a selector, as plain data (no RxDB meta fields). */
export async function findLocal(context: Pick<ApiContext, 'database'>, collection: keyof GrowDatabase['collections'], selector: Record<string, unknown> = {}): Promise<LocalDocument[]> {
  const documents = await context.database.collections[collection].find({ selector }).exec();
  return documents.map((document) => document.toMutableJSON() as LocalDocument);
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

/** A call the server refused or that could not reach it: the server's message, or the spec's fallback (spec §8). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The server's message from a failed call, if it sent one. */
export function serverMessage(error: unknown): string | null {
  if (!axios.isAxiosError(error)) return null;
  const data = error.response?.data as { message?: unknown } | undefined;
  return typeof data?.message === 'string' && data.message ? data.message : null;
}

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
