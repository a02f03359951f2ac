/**
 * Sync in tests: pulling synced collections as the client does, and comparing a tablet's local store
 * with the server's documents (`compareWithServer`, `describeDifferences`). The ledger of the changes
 * tablets made, checked against the server once their outboxes drained, is in ledger.ts.
 */
import type { RxCollection } from 'rxdb';
import { LOCAL_ONLY_FIELDS } from '../../sync/pull';
import type { TestServer } from './server';

export interface PulledDocument {
  id: string;
  _deleted: boolean;
  [field: string]: unknown;
}

/** What a pull needs of a server: its API (an in-process TestServer or a server process). */
type Requester = Pick<TestServer, 'request'>;

interface PullAnswer<Document> {
  documents: Document[];
  checkpoint: string;
  has_more: boolean;
  held_back: boolean;
}

/**
 * Pulls a collection from `checkpoint` as the sync worker does: page after page, and again shortly
 * while the server holds committed rows back behind an older open transaction (on PostgreSQL, one
 * anywhere in the cluster: another test file's, too), until everything committed has arrived. Answers
 * each document's latest version, by id, and the checkpoint reached. Throws when a pull answers
 * anything but 200, or when rows are still held back after `timeoutMs`.
 */
export async function pullSettled<Document extends PulledDocument = PulledDocument>(
  server: Requester,
  token: string,
  collection: string,
  { checkpoint = '', naming = 'server', limit, timeoutMs = 20_000 }: { checkpoint?: string; naming?: 'server' | 'client'; limit?: number; timeoutMs?: number } = {},
): Promise<{ documents: Map<string, Document>; checkpoint: string }> {
  const documents = new Map<string, Document>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await server.request<PullAnswer<Document>>('GET', '/sync/pull', { token, query: { collection, checkpoint, naming, ...(limit === undefined ? {} : { limit }) } });
    if (response.status !== 200) throw new Error(`Pulling ${collection} from the server answered ${response.status}: ${JSON.stringify(response.body)}`);
    for (const document of response.body.documents) documents.set(document.id, document);
    checkpoint = response.body.checkpoint;
    if (response.body.has_more) continue;
    if (!response.body.held_back) return { documents, checkpoint };
    if (Date.now() > deadline) throw new Error(`The server still held ${collection} documents back after ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Pulls a collection from the start, settled (`pullSettled`), and then what changed since, until
 * `done` holds of the documents so far or 5 s have passed: for a change the server makes a moment
 * after the request that caused it (a job, a stream).
 */
export async function pullUntil<Document extends PulledDocument = PulledDocument>(
  server: TestServer,
  token: string,
  collection: string,
  done: (documents: Map<string, Document>) => boolean,
  /** `client`: documents named as tablets name them (by client ids). */
  naming: 'server' | 'client' = 'server',
): Promise<Map<string, Document>> {
  const documents = new Map<string, Document>();
  let checkpoint = '';
  const deadline = Date.now() + 5000;
  for (;;) {
    const round = await pullSettled<Document>(server, token, collection, { checkpoint, naming });
    for (const [id, document] of round.documents) documents.set(id, document);
    checkpoint = round.checkpoint;
    if (done(documents) || Date.now() > deadline) return documents;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Every live document of a collection as the server holds it now: pulled from the empty checkpoint,
 * page by page, as a new tablet would, until no page is left and nothing is held back behind an open
 * transaction (then it pulls again shortly). Tombstones are left out. Throws when the pull answers
 * anything but 200, or when it is still held back after `timeoutMs`.
 */
export async function serverDocuments(server: Requester, token: string, collection: string, timeoutMs = 20_000): Promise<Map<string, PulledDocument>> {
  // Named as tablets name records (by client id), since the comparison is with a tablet's store.
  const { documents } = await pullSettled(server, token, collection, { naming: 'client', limit: 500, timeoutMs });
  for (const [id, document] of documents) if (document._deleted) documents.delete(id);
  return documents;
}

/** One way a tablet's local document differs from the server's (field null: the whole document). */
export interface DocumentDifference {
  collection: string;
  id: string;
  /** The differing top-level field; null when the document is on one side only. */
  field: string | null;
  local: unknown;
  server: unknown;
}

/** RxDB's own fields, never part of a document's content. */
export const RXDB_META_FIELDS = ['_meta', '_rev', '_attachments', '_deleted'] as const;

/** A value with object keys sorted, so two documents compare equal whatever order their fields were written in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

export interface CompareOptions {
  /** Turns a server document into its local shape (the tablet adds link keys: src/db/schemas.ts `withLinkKeys`). */
  toLocal?: (collection: string, document: Record<string, unknown> & { id: string }) => Record<string, unknown>;
  /** Fields left out of the comparison besides RxDB's own and the sync's (`LOCAL_ONLY_FIELDS`). */
  ignore?: readonly string[];
}

/**
 * The differences between a collection's local documents and the server's live ones: documents on one
 * side only, and each top-level field whose values differ (deeply, whatever the key order). Local
 * tombstones are left out, as are RxDB's meta fields, the sync's local fields and `options.ignore`.
 */
export function documentDifferences(
  collection: string,
  local: ReadonlyArray<Record<string, unknown>>,
  server: ReadonlyMap<string, PulledDocument>,
  options: CompareOptions = {},
): DocumentDifference[] {
  const ignored = new Set<string>([...RXDB_META_FIELDS, ...LOCAL_ONLY_FIELDS, ...(options.ignore ?? [])]);
  const strip = (document: Record<string, unknown>) => Object.fromEntries(Object.entries(document).filter(([key, value]) => !ignored.has(key) && value !== undefined));
  const locals = new Map(local.filter((document) => document._deleted !== true).map((document) => [String(document.id), strip(document)]));
  const differences: DocumentDifference[] = [];
  for (const [id, pulled] of server) {
    const expected = strip(options.toLocal ? options.toLocal(collection, pulled) : pulled);
    const mine = locals.get(id);
    if (!mine) {
      differences.push({ collection, id, field: null, local: undefined, server: expected });
      continue;
    }
    for (const field of [...new Set([...Object.keys(expected), ...Object.keys(mine)])].sort()) {
      if (!sameValue(mine[field], expected[field])) differences.push({ collection, id, field, local: mine[field], server: expected[field] });
    }
  }
  for (const [id, mine] of locals) if (!server.has(id)) differences.push({ collection, id, field: null, local: mine, server: undefined });
  return differences;
}

/**
 * Compares a tablet's local store with the server's documents, collection by collection, pulling the
 * server's with `token`; `readLocal` answers a collection's local documents as plain data
 * (`localDocumentsOf` for an RxDB database). Answers every difference; `describeDifferences` words
 * them for a failure message.
 */
export async function compareWithServer(
  server: Requester,
  token: string,
  collections: readonly string[],
  readLocal: (collection: string) => Promise<Array<Record<string, unknown>>>,
  options: CompareOptions = {},
): Promise<DocumentDifference[]> {
  const differences: DocumentDifference[] = [];
  for (const name of collections) differences.push(...documentDifferences(name, await readLocal(name), await serverDocuments(server, token, name), options));
  return differences;
}

/** A local RxDB collection's documents as plain data (RxDB's meta fields are left to the comparison to drop). */
export function localDocumentsOf(database: { collections: Record<string, RxCollection> }) {
  return async (name: string): Promise<Array<Record<string, unknown>>> => {
    const collection = database.collections[name];
    if (!collection) throw new Error(`The tablet has no local collection ${name}.`);
    return (await collection.find().exec()).map((document) => document.toMutableJSON() as Record<string, unknown>);
  };
}

const shown = (value: unknown) => {
  if (value === undefined) return '(missing)';
  const text = JSON.stringify(canonical(value));
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/** The differences as lines: which tablet, which collection, which document and field, both values. */
export function describeDifferences(tablet: string, differences: readonly DocumentDifference[], limit = 20): string {
  const lines = differences.slice(0, limit).map((difference) => {
    if (difference.field === null) {
      return difference.server === undefined
        ? `${tablet}: ${difference.collection}/${difference.id} is on the tablet but not on the server: ${shown(difference.local)}`
        : `${tablet}: ${difference.collection}/${difference.id} is on the server but not on the tablet: ${shown(difference.server)}`;
    }
    return `${tablet}: ${difference.collection}/${difference.id} field ${difference.field}: tablet ${shown(difference.local)}, server ${shown(difference.server)}`;
  });
  if (differences.length > limit) lines.push(`${tablet}: … and ${differences.length - limit} more differences`);
  return lines.join('\n');
}
