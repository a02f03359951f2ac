/**
 * The sync protocol's server side (ARCHITECTURE.md "Sync protocol").
 *
 * Pull order and the checkpoint: rows are handed out ordered by (change_xid, change_seq) and only when
 * their transaction id is below the oldest transaction still in flight
 * (`pg_snapshot_xmin(pg_current_snapshot())`). Every transaction that commits later has an id at or
 * above that bound, so no row can ever appear behind a checkpoint already handed out: a row
 * committed late with a lower change_seq is held back until it is visible, never skipped. Ordering by
 * change_seq alone would skip it. The checkpoint is the pair `<xid>:<seq>` of the last row sent.
 * `held_back: true` says committed rows are waiting behind such a transaction: pull again shortly.
 * On PostgreSQL the bound is cluster-wide, so a long transaction in any database of the server
 * delays (never loses) pulls; keep transactions short.
 *
 * Every document carries `syncPosition` (common/sync-position.ts): its row's (change_xid, change_seq)
 * as one string in checkpoint order, added here where rows become documents (`documentsOf`) for the
 * pull, the read-back and the push (push.ts), so a tablet keeps the newest state of a document
 * whichever way it arrived.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { syncMessages as m } from '../../../common/messages/sync';
import { isClientId } from '../../../common/client-ids';
import { MAX_RECORD_ID } from '../../../common/schemas/fields';
import { CHECKPOINT_PATTERN, type DocumentNaming, documentsAnswer, type SyncDocument, documentsQuery, pullAnswer, pullQuery, streamQuery } from '../../../common/schemas/sync';
import { syncPosition } from '../../../common/sync-position';
import type { DB } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { actingCompany, assertCompanyAccess, caller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { consultantQueries } from '../consultants/queries';
import { companyDocumentsFor } from '../consultants/team';
import { CLIENT_ID_HOLDERS, idsOfClientIds, namedForTablets } from './client-naming';
import { COLLECTIONS, collectionNamed } from './collections';
import type { SyncCollection, SyncSource } from './sync-collection';
import { pushHandler, pushOptions } from './push';

const pullSchema = { querystring: pullQuery, response: { 200: pullAnswer } };
const documentsSchema = { querystring: documentsQuery, response: { 200: documentsAnswer } };
const streamSchema = { querystring: streamQuery };
const HEARTBEAT_MS = 25_000;
/** Changes arriving within this window go out as one event. */
const COALESCE_MS = 50;

/** The rows of a source changed after `after` (`visible`: committed and visible to every snapshot; else those held back behind an open one). */
function changedSince(source: SyncSource, companyId: number, after: { xid: string; seq: string }, visible: boolean) {
  return sql`row.${sql.ref(source.companyColumn)} = ${companyId}
        AND (row.change_xid, row.change_seq) > (${after.xid}::xid8, ${after.seq}::bigint)
        AND row.change_xid ${visible ? sql`<` : sql`>=`} pg_snapshot_xmin(pg_current_snapshot())
        ${source.windowDays ? sql`AND (row.updated_at > now() - make_interval(days => ${source.windowDays})${source.keepBeyondWindow ? sql` OR ${source.keepBeyondWindow(companyId)}` : sql``})` : sql``}`;
}

/** One statement over every source: each row's source, id and position, in checkpoint order. */
function changedRows(collection: SyncCollection, companyId: number, after: { xid: string; seq: string }, visible: boolean) {
  const parts = collection.sources.map(
    (source, index) => sql`
      SELECT ${index}::integer AS source, row.id, row.change_xid, row.change_seq FROM ${sql.table(source.table).as('row')}
      WHERE ${changedSince(source, companyId, after, visible)}`,
  );
  return sql.join(parts, sql` UNION ALL `);
}

/**
 * A page of a collection's changed rows, in checkpoint order: for a collection of one source (most,
 * and the large ones: boxes), the rows themselves in one statement; for several, their sources' ids
 * and positions in one, then each source's rows. A row changed again between the two is sent in its
 * newer state (and its newer syncPosition), and once more later: harmless, never a gap.
 */
async function changedPage(db: Kysely<DB>, collection: SyncCollection, companyId: number, after: { xid: string; seq: string }, limit: number) {
  const [only] = collection.sources;
  if (collection.sources.length === 1 && only) {
    const { rows } = await sql<SourceRow>`
      ${sourceRows(only)} WHERE ${changedSince(only, companyId, after, true)}
      ORDER BY row.change_xid, row.change_seq LIMIT ${limit}`.execute(db);
    return { positions: rows, rowsBySource: [rows] };
  }
  const { rows: positions } = await sql<{ source: number; id: number; change_xid: string; change_seq: number }>`
    SELECT * FROM (${changedRows(collection, companyId, after, true)}) AS changed
    ORDER BY change_xid, change_seq LIMIT ${limit}`.execute(db);
  const rowsBySource: SourceRow[][] = [];
  for (const [index, source] of collection.sources.entries()) {
    rowsBySource.push(await rowsOf(db, source, positions.filter((row) => row.source === index).map((row) => row.id)));
  }
  return { positions, rowsBySource };
}

async function pull(request: RequestOf<typeof pullSchema>) {
  const collection = collectionNamed(request.query.collection);
  if (!collection) throw badRequest(m.collectionUnknown(request.query.collection));
  const companyId = actingCompany(request, request.query.company_id);
  const [, xid = '0', seq = '0'] = CHECKPOINT_PATTERN.exec(request.query.checkpoint ?? '') ?? [];
  const { limit } = request.query;
  const { positions, rowsBySource } = await changedPage(request.db, collection, companyId, { xid, seq }, limit);
  const documents: SyncDocument[] = [];
  for (const [index, source] of collection.sources.entries()) documents.push(...(await documentsOf(request.db, source, rowsBySource[index] ?? [], request.query.naming, request.server.deps.config.checkAnswers)));
  // In change order: a document's syncPosition is its row's place in it (fixed-width, so text order is that order).
  sortByPosition(documents);
  const shown = companyDocumentsFor(request, collection.name, documents);

  const last = positions.at(-1);
  const checkpoint = last ? { xid: last.change_xid, seq: String(last.change_seq) } : { xid, seq };
  const hasMore = positions.length === limit;
  // Committed rows waiting behind an older open transaction: their change was already announced on
  // the stream, so the client must pull again soon rather than wait for another announcement.
  const heldBack =
    !hasMore &&
    (await sql<{ held: boolean }>`SELECT EXISTS (${changedRows(collection, companyId, checkpoint, false)}) AS held`.execute(request.db)).rows[0]?.held === true;
  return success({
    documents: shown,
    checkpoint: `${checkpoint.xid}:${checkpoint.seq}`,
    has_more: hasMore,
    held_back: heldBack,
  });
}

/**
 * The current state of named documents, whatever the checkpoint: after the client's change is applied,
 * it reads back the documents it touched, so what the server made of them (ids, plant ids, computed
 * fields) replaces the optimistic version even when a pull already went past them. Ids are named as
 * `naming` says (client ids, or the server's). Tombstoned ones come with `_deleted: true`.
 *
 * Tenancy (README "Tenancy"): a document of another company answers 403, as any record a request
 * names. The guard cannot read these ids from the parameter's name (which kind of record an id names
 * depends on the collection and its prefix), so the rows are read whatever their company and each is
 * checked here with the guard's rule (`assertCompanyAccess`). A missing id is left out, not answered
 * 404: the read-back follows the tablet's own writes, and a record one of them names may never have
 * been made (its create was refused: the outbox shows that entry failed); one such id must not fail
 * the read-back of the others (sync/pull.ts `refresh` stops at any answer but 200). A deleted record
 * keeps its row, so it comes back as its tombstone and the tablet removes it. A SuperAdmin reads the
 * documents of the company it acts for: another company's ids are not found there (left out).
 */
async function documents(request: RequestOf<typeof documentsSchema>) {
  const collection = collectionNamed(request.query.collection);
  if (!collection) throw badRequest(m.collectionUnknown(request.query.collection));
  const companyId = actingCompany(request, request.query.company_id);
  const found: SyncDocument[] = [];
  const { naming } = request.query;
  for (const source of collection.sources) {
    const prefix = source.kind ? `${source.kind}:` : '';
    const named = naming === 'client' ? source.named : undefined;
    const ids = named
      ? await idsOfClientIds(request.db, named.kind, request.query.ids.filter(isClientId))
      : request.query.ids
          .filter((id) => SERVER_DOCUMENT_ID.test(id) && (prefix ? id.startsWith(prefix) : !id.includes(':')))
          .map((id) => Number(id.slice(prefix.length)))
          // Past what an id column holds, an id names nothing: left out, as any missing one.
          .filter((id) => id <= MAX_RECORD_ID);
    const rows = ofCompany(request, source, await rowsOf(request.db, source, ids), companyId, named !== undefined);
    found.push(...(await documentsOf(request.db, source, rows, naming, request.server.deps.config.checkAnswers)));
  }
  return success({ documents: companyDocumentsFor(request, collection.name, found) });
}

/**
 * Of rows a request named, those of the company it acts for; one of another company answers 403
 * (guards.ts `assertCompanyAccess`), or, for a SuperAdmin, who may act for any, is not of this company
 * and is left out. `byClientId`: the rows were found by client id, which is unique per company only,
 * so another company's row under a client id this company also has is not the one named.
 */
function ofCompany(request: FastifyRequest, source: SyncSource, rows: SourceRow[], companyId: number, byClientId: boolean): SourceRow[] {
  const companyOf = (row: SourceRow) => Number(row[source.companyColumn]);
  const own = rows.filter((row) => companyOf(row) === companyId);
  const ownClientIds = new Set(own.map((row) => row.client_id));
  for (const row of rows) {
    if (companyOf(row) === companyId || (byClientId && ownClientIds.has(row.client_id))) continue;
    assertCompanyAccess(request, companyOf(row));
  }
  return own;
}

type SourceRow = Record<string, unknown> & { id: number; change_xid: string; change_seq: number };

/** A source's rows as documentsOf reads them: every column, and the client id a kind keeps beside its rows (brought along: naming documents for tablets needs no second read). */
function sourceRows(source: SyncSource) {
  const holder = source.named ? CLIENT_ID_HOLDERS[source.named.kind] : undefined;
  // A subquery, not a join: evaluated for the rows a page keeps only (a join may read the whole holder first).
  return sql`
    SELECT row.* ${holder ? sql`, (SELECT holder.client_id FROM ${sql.table(holder.table).as('holder')} WHERE holder.${sql.ref(holder.idColumn)} = row.id) AS client_id` : sql``}
    FROM ${sql.table(source.table).as('row')}`;
}

/** A source's rows by id, of any company (the caller keeps its company's); none for no ids. */
async function rowsOf(db: Kysely<DB>, source: SyncSource, ids: number[]): Promise<SourceRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<SourceRow>`${sourceRows(source)} WHERE row.id = ANY(${ids}::integer[])`.execute(db);
  return rows;
}

/** A document's id under the server's naming, as read-backs name it: `12`, or `<kind>:12`. */
const SERVER_DOCUMENT_ID = /^([a-z_]+:)?\d{1,10}$/;

/** A document's id under the server's naming: `<kind>:<id>` in a collection of several kinds. */
const documentId = (source: SyncSource | undefined, id: number | string) => (source?.kind ? `${source.kind}:${id}` : String(id));

const positionOf = (document: SyncDocument) => document.syncPosition;

/** Documents in change order, by their syncPosition. */
const sortByPosition = (documents: SyncDocument[]) => documents.sort((a, b) => (positionOf(a) < positionOf(b) ? -1 : positionOf(a) > positionOf(b) ? 1 : 0));

/**
 * The one place rows become the documents a tablet stores (pull, read-back, push): the source's own
 * shape, the kind where a collection has several, `syncPosition`, the row's place in the change order,
 * and the records named as `naming` asks: by client id (client-naming.ts), or by the server's ids.
 */
async function documentsOf(db: Kysely<DB>, source: SyncSource, rows: SourceRow[], naming: DocumentNaming, prove: boolean): Promise<SyncDocument[]> {
  if (rows.length === 0) return [];
  const documents = await namedDocumentsOf(db, source, rows, naming);
  // A tombstone carries only its id (and some sources' last state): only live documents have a record's shape.
  if (prove && source.document) for (const document of documents) if (!document._deleted) source.document.parse(document);
  return documents;
}

async function namedDocumentsOf(db: Kysely<DB>, source: SyncSource, rows: SourceRow[], naming: DocumentNaming): Promise<SyncDocument[]> {
  const positions = new Map(rows.map((row) => [String(row.id), syncPosition(row.change_xid, row.change_seq)]));
  const positionOfRow = (id: string) => {
    const position = positions.get(id);
    if (position === undefined) throw new Error(`${source.table}: a document ${id} of no row read`);
    return position;
  };
  const shaped = (await source.toDocuments(db, rows)).map((document) => ({
    ...document,
    ...(source.kind ? { kind: source.kind } : {}),
    syncPosition: positionOfRow(document.id),
  }));
  if (naming === 'client' && source.named) {
    const own = new Map<number, string>();
    for (const row of rows) if (typeof row.client_id === 'string') own.set(Number(row.id), row.client_id);
    return namedForTablets(db, source.named.kind, source.named.references, shaped, own);
  }
  return shaped.map((document) => ({ ...document, id: documentId(source, document.id) }));
}

/**
 * The current documents, by collection, of the company's rows that the transactions `xids` wrote
 * (a push's applied entries), each collection in change order. One statement finds them across every
 * source (by the pull's index), then each source with rows reads them.
 */
async function documentsWrittenBy(db: Kysely<DB>, companyId: number, xids: string[], naming: DocumentNaming, prove: boolean): Promise<Record<string, SyncDocument[]>> {
  if (xids.length === 0) return {};
  const sources = COLLECTIONS.flatMap((collection) => collection.sources.map((source) => ({ collection: collection.name, source })));
  const parts = sources.map(
    ({ source }, index) => sql`
      SELECT ${index}::integer AS source, id FROM ${sql.table(source.table)}
      WHERE ${sql.ref(source.companyColumn)} = ${companyId} AND change_xid = ANY(${xids}::xid8[])`,
  );
  const written = await sql<{ source: number; id: number }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  const documents: Record<string, SyncDocument[]> = {};
  for (const [index, { collection, source }] of sources.entries()) {
    const ids = written.rows.filter((row) => row.source === index).map((row) => row.id);
    if (ids.length === 0) continue;
    (documents[collection] ??= []).push(...(await documentsOf(db, source, await rowsOf(db, source, ids), naming, prove)));
  }
  for (const list of Object.values(documents)) sortByPosition(list);
  return documents;
}

export async function syncRoutes(app: App) {
  const open = new Set<ServerResponse>();

  /** Server-sent events: `event: change` with `{collections}` whenever the caller's company changed. */
  async function stream(request: RequestOf<typeof streamSchema>, reply: FastifyReply) {
    const companyId = actingCompany(request, request.query.company_id);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.write('retry: 3000\nevent: ready\ndata: {}\n\n');
    open.add(response);
    const changed = new Set<string>();
    let flushTimer: NodeJS.Timeout | undefined;
    // A consultant's stream says nothing more once their grant of the company has ended (revoked or
    // expired, server/domains/consultants): it is asked before each event, and the stream ends instead.
    const claims = caller(request);
    const send = (collections: string[]) => response.write(`event: change\ndata: ${JSON.stringify({ collections })}\n\n`);
    const flush = () => {
      flushTimer = undefined;
      const collections = [...changed];
      changed.clear();
      if (claims.user_role !== 'Consultant') return void send(collections);
      void consultantQueries.activeGrant(request.db, claims.user_id, companyId).then(
        (grant) => {
          if (response.writableEnded || response.destroyed) return;
          if (grant) send(collections);
          else response.end();
        },
        () => response.end(),
      );
    };
    const unsubscribe = app.deps.changes.subscribe(companyId, (collections) => {
      for (const name of collections) changed.add(name);
      flushTimer ??= setTimeout(flush, COALESCE_MS);
    });
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
    response.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
      unsubscribe();
      open.delete(response);
    });
  }

  // Open streams would keep the server from closing: end them first, clients reconnect elsewhere.
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
  });

  app.get('/pull', { schema: pullSchema }, pull);
  app.get('/documents', { schema: documentsSchema }, documents);
  app.get('/stream', { schema: streamSchema }, stream);
  app.post('/push', pushOptions, pushHandler(app, documentsWrittenBy));
}
