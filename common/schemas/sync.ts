import { z } from 'zod';
import { PUSH_ENTRIES_MAX, syncMessages as m } from '../messages/sync';
import { answer } from './answers';
import { optionalId } from './fields';

/** A pull checkpoint: the last document's transaction id and change sequence, `<xid>:<seq>`. */
export const CHECKPOINT_PATTERN = /^(\d{1,20}):(\d{1,20})$/;

/**
 * How the documents name records (server/domains/replication/client-naming.ts): `client`, by client
 * id, as tablets name them for good; `server` (the default), by the spec's integer ids, as tablets of
 * the previous version expect until they update.
 */
export const documentNaming = z.enum(['server', 'client'], { error: m.namingInvalid }).default('server');
export type DocumentNaming = z.output<typeof documentNaming>;

export const pullQuery = z.object({
  collection: z.string({ error: m.collectionUnknown('') }).min(1, { error: m.collectionUnknown('') }),
  naming: documentNaming,
  checkpoint: z.string().regex(CHECKPOINT_PATTERN, { error: m.checkpointInvalid }).or(z.literal('')).optional(),
  limit: z.coerce.number({ error: m.limitInvalid }).int({ error: m.limitInvalid }).min(1, { error: m.limitInvalid }).max(5000, { error: m.limitInvalid }).default(200),
  company_id: optionalId(),
});

export const streamQuery = z.object({ company_id: optionalId() });

/**
 * Document ids as the pull gives them, comma-joined: client ids with `naming=client` (the company's
 * document: its integer id); else `12`, or `<kind>:12` in a collection of several kinds.
 */
export const documentsQuery = z.object({
  collection: z.string({ error: m.collectionUnknown('') }).min(1, { error: m.collectionUnknown('') }),
  naming: documentNaming,
  ids: z
    .string({ error: m.idsInvalid })
    .transform((value) => value.split(',').map((id) => id.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.union([z.uuid(), z.string().regex(/^([a-z_]+:)?\d{1,10}$/)], { error: m.idsInvalid }), { error: m.idsInvalid })
        .min(1, { error: m.idsInvalid })
        .max(1000, { error: m.idsInvalid }),
    ),
  company_id: optionalId(),
});

/**
 * An Idempotency-Key (server/http/transactions.ts): 8 to 200 letters, digits or `-_.:`. An outbox
 * entry's id is its key, so the push checks ids by the same rule.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;

/**
 * Whether `path` names an API call a push may carry: under /api as it stands (a URL would keep it as
 * written: no dot segments, encoded or not, no backslashes, spaces or empty segments), not a /sync call (a push never
 * carries a push), the query apart.
 */
export function isPushablePath(path: string): boolean {
  if (!/^\/[^?#]*$/.test(path) || path.includes('..') || path.includes('//')) return false;
  let normalized: string;
  try {
    normalized = new URL(`/api${path}`, 'http://localhost').pathname;
  } catch {
    return false;
  }
  return normalized === `/api${path}` && !/^\/api\/sync(\/|$)/i.test(normalized);
}

const entryBody = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('json'), data: z.unknown() }),
    z.object({ kind: z.literal('none') }),
    // Text parts only: an entry carrying a file (a photo) is sent as its own call.
    z.object({
      kind: z.literal('multipart'),
      parts: z.array(
        z.object({ name: z.string({ error: m.entryBodyInvalid }).min(1, { error: m.entryBodyInvalid }).max(200, { error: m.entryBodyInvalid }), value: z.string({ error: m.entryBodyInvalid }) }, { error: m.entryBodyInvalid }),
        { error: m.entryBodyInvalid },
      ),
    }),
  ],
  { error: m.entryBodyInvalid },
);

/** One outbox entry: a spec call (method, path under /api, query, body), its id and when it was done. */
export const pushEntry = z.object(
  {
    id: z.string({ error: m.entryIdInvalid }).regex(IDEMPOTENCY_KEY_PATTERN, { error: m.entryIdInvalid }),
    method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE'], { error: m.entryMethodInvalid }),
    path: z.string({ error: m.entryPathInvalid }).max(500, { error: m.entryPathInvalid }).refine(isPushablePath, { error: m.entryPathInvalid }),
    query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: m.entryQueryInvalid }).optional(),
    body: entryBody.optional(),
    // Forwarded as X-Acted-At; the server's own check of that header answers the entry if it is no date-time.
    actedAt: z.string({ error: m.entryActedAtInvalid }).regex(/^[\x20-\x7e]{1,64}$/, { error: m.entryActedAtInvalid }).optional(),
  },
  { error: m.entriesInvalid },
);

/** `POST /api/sync/push?naming=`: how the answer's documents name records. */
export const pushQuery = z.object({ naming: documentNaming });

/** `POST /api/sync/push`: outbox entries, applied in order, each as its own call. */
export const pushBody = z.object(
  { entries: z.array(pushEntry, { error: m.entriesInvalid }).min(1, { error: m.entriesInvalid }).max(PUSH_ENTRIES_MAX, { error: m.entriesInvalid }) },
  { error: m.entriesInvalid },
);

export type PushEntry = z.output<typeof pushEntry>;

/** A synced document as the pull, the read-back and the push answer give it. */
export const syncDocument = z.looseObject({
  id: z.string(),
  _deleted: z.boolean(),
  /** Where this state stands in the server's change order (common/sync-position.ts): the newer wins. */
  syncPosition: z.string(),
});

/** One entry's answer: the HTTP status and envelope it would have had as its own call. */
export const pushResult = z.object({ id: z.string(), status: z.number().int(), body: z.unknown() });

/**
 * The push's answer. `results` follow the entries' order and end early after a retryable answer (5xx,
 * 408, 429, 401, or 409 "still being processed"): the entries after it were not attempted. `documents`
 * are, by collection, the current state of the synced documents the applied entries changed.
 */
export const pushAnswer = answer({
  results: z.array(pushResult),
  documents: z.record(z.string(), z.array(syncDocument)),
});

/**
 * A page of a collection's changes, in change order, and the checkpoint to ask from next. `has_more`:
 * the page was full; `held_back`: rows committed behind an older open transaction are still to come,
 * so pull again soon even without an announcement. Each document is its collection's record schema
 * (server: the source's `document`).
 */
export const pullAnswer = answer({ documents: z.array(syncDocument), checkpoint: z.string(), has_more: z.boolean(), held_back: z.boolean() });

/** The current documents of the ids asked for (read-back); a missing one is left out. */
export const documentsAnswer = answer({ documents: z.array(syncDocument) });

export type SyncDocument = z.output<typeof syncDocument>;
export type PushResult = z.output<typeof pushResult>;
export type PushAnswer = z.output<typeof pushAnswer>;
