/**
 * The sync engine's vocabulary: outbox entries, the optimistic effects they carry, and what the
 * engine tells the page. Plain data only: entries live in IndexedDB and cross the worker boundary.
 */

import type { ClientId } from '../common/client-ids';

/**
 * A record's permanent name on every tablet (common/client-ids.ts): its local document's key from the
 * moment it is made, before and after the server knows it, and what later entries name it by.
 */
export type { ClientId };

/** One part of a multipart body: text, or a file kept as a Blob (IndexedDB stores Blobs as they are). */
export type MultipartPart = { name: string; value: string } | { name: string; blob: Blob; fileName: string };

export type EntryBody = { kind: 'json'; data: unknown } | { kind: 'multipart'; parts: MultipartPart[] } | { kind: 'none' } | ResumableUpload;

/**
 * A file too large for one request (a video: src/api/videos.ts), sent in chunks that resume where the
 * server stopped, then the entry's own call, which makes the record of what the server received
 * (server/domains/videos/routes.ts). The replay (replay.ts `sendUpload`), under the entry's author and
 * with its time:
 * 1. `POST startPath` with `fields` (JSON): starts the upload, or answers how much of it the server
 *    has (`upload.received_bytes`; `upload.finished` once the record is made);
 * 2. `POST chunkPath?client_id=<uploadId>&offset=<n>`, the file's bytes from n on (at most `chunkBytes`)
 *    as the multipart file `chunk`: answers `upload.received_bytes`; a 409 with `received_bytes` says
 *    where to go on from;
 * 3. the entry's method, path and query (no body), under its Idempotency-Key.
 * Each run begins at step 1, so after a cut connection, a reload or a 5xx nothing the server has is
 * sent again. The Blob stays in the outbox (IndexedDB) until step 3 is answered.
 */
export interface ResumableUpload {
  kind: 'upload';
  blob: Blob;
  /** The upload's name on the server: the client id of the record it makes. */
  uploadId: ClientId;
  startPath: string;
  chunkPath: string;
  fields: Record<string, string | number | boolean | null>;
  chunkBytes: number;
}

/**
 * The optimistic change an entry made to the local store, kept so it can be re-applied: after a crash
 * between writing the entry and the store (the entry is written first), and over every pulled server
 * document while the entry is still pending (so a pending edit never flickers back).
 */
export type Effect = (
  | { op: 'upsert'; collection: string; id: string; data: Record<string, unknown> }
  | { op: 'patch'; collection: string; id: string; data: Record<string, unknown> }
  | { op: 'remove'; collection: string; id: string }
) & {
  /** The document as it was before the effect (null: there was none), to undo it on discard. */
  before?: (Record<string, unknown> & { id: string }) | null;
};

export type EntryState = 'pending' | 'failed';

export interface OutboxEntry {
  /** uuid; also the Idempotency-Key, so a replay after a lost answer has no second effect. */
  id: string;
  /** Order of replay: strictly increasing in the order entries were made. */
  seq: number;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The API path under /api, e.g. `/create_room`. */
  path: string;
  query: Record<string, string | number | boolean>;
  body: EntryBody;
  /**
   * The client ids its call names (path, query, body), found when it is stored: an entry that names a
   * record another waiting entry makes is sent after it, and waits while that one has failed.
   */
  clientIds: ClientId[];
  /** The records it makes, by client id (their local documents are keyed so). */
  creates: ClientId[];
  effects: Effect[];
  /** What the grower sees in the pending list, e.g. "Create room Flower 1". */
  label: string;
  /**
   * Who made the change. Only that user's session sends it: on a shared tablet, the next person to
   * sign in must not send the previous one's changes under their own name.
   */
  userId: number | null;
  /**
   * When the grower did it (ISO 8601), sent as `X-Acted-At`: the server records it as the act's time
   * (kept within its own clock), so a change made offline keeps its moment, not the sync's.
   */
  actedAt: string;
  /** The spec's message for this call's failure (spec §8), shown when the server sends none. */
  fallbackMessage: string | null;
  attempts: number;
  state: EntryState;
  /** The server's message (or the network's) from the last failed attempt. */
  error: string | null;
  createdAt: number;
  /** Not before this time (ms), after a retryable failure. */
  nextAttemptAt: number;
}

export interface FailedEntry {
  id: string;
  label: string;
  userId: number | null;
  error: string;
  createdAt: number;
  /** The client ids of the records it was to create (a screen can mark them as refused). */
  creates: ClientId[];
}

/** One user's share of the outbox on this tablet (a kiosk holds several users' changes). */
export interface UserQueue {
  userId: number | null;
  /** Entries waiting to reach the server (failed ones included). */
  pending: number;
  failed: number;
  /** Whether the tablet holds this user's session: without it their entries wait for their next sign-in. */
  signedIn: boolean;
}

/** How far a new tablet's first pull of the company's data has come (null once it completed). */
export interface InitialPull {
  /** Collections that have pulled everything the server showed. */
  done: number;
  total: number;
  /** Documents stored so far. */
  documents: number;
}

export interface SyncStatus {
  online: boolean;
  /** Entries waiting to reach the server (failed ones included), every user's. */
  pending: number;
  /** Of those, entries another user made on this tablet: they go out under that user's own session. */
  otherUsers: number;
  /** Pending and failed entries per user. */
  users: UserQueue[];
  failed: FailedEntry[];
  /** The first pull of this company's data on this tablet, while it runs. */
  initialPull: InitialPull | null;
  lastSyncedAt: number | null;
  /** The last transient problem (network, 5xx), for the status line; null when all is well. */
  lastError: string | null;
}

