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
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { syncMessages as m } from '../../../common/messages/sync';
import { CHECKPOINT_PATTERN, documentsQuery, pullQuery, streamQuery } from '../../../common/schemas/sync';
import type { App } from '../../app';
import { badRequest } from '../../http/errors';
import { actingCompany } from '../../http/guards';
import { type RequestOf, success } from '../../http/route';
import { type SyncCollection, type SyncDocument, collectionNamed } from './collections';

const pullSchema = { querystring: pullQuery };
const documentsSchema = { querystring: documentsQuery };
const streamSchema = { querystring: streamQuery };
const HEARTBEAT_MS = 25_000;
/** Changes arriving within this window go out as one event. */
const COALESCE_MS = 50;

/** One statement over every source: each row's source, id and position, in checkpoint order. */
function changedRows(collection: SyncCollection, companyId: number, after: { xid: string; seq: string }, visible: boolean) {
  const parts = collection.sources.map(
    (source, index) => sql`
      SELECT ${index}::integer AS source, id, change_xid, change_seq FROM ${sql.table(source.table)}
      WHERE ${sql.ref(source.companyColumn)} = ${companyId}
        AND (change_xid, change_seq) > (${after.xid}::xid8, ${after.seq}::bigint)
        AND change_xid ${visible ? sql`<` : sql`>=`} pg_snapshot_xmin(pg_current_snapshot())
        ${source.windowDays ? sql`AND updated_at > now() - make_interval(days => ${source.windowDays})` : sql``}`,
  );
  return sql.join(parts, sql` UNION ALL `);
}

async function pull(request: RequestOf<typeof pullSchema>) {
  const collection = collectionNamed(request.query.collection);
  if (!collection) throw badRequest(m.collectionUnknown(request.query.collection));
  const companyId = actingCompany(request, request.query.company_id);
  const [, xid = '0', seq = '0'] = CHECKPOINT_PATTERN.exec(request.query.checkpoint ?? '') ?? [];
  const { limit } = request.query;
  const changed = await sql<{ source: number; id: number; change_xid: string; change_seq: number }>`
    SELECT * FROM (${changedRows(collection, companyId, { xid, seq }, true)}) AS changed
    ORDER BY change_xid, change_seq LIMIT ${limit}`.execute(request.db);

  // The rows themselves, per source, turned into documents in checkpoint order. A row changed again
  // since the statement above is sent in its newer state, and once more later: harmless, never a gap.
  const position = new Map(changed.rows.map((row, index) => [`${row.source}:${row.id}`, index]));
  const documents: Array<{ at: number; document: SyncDocument }> = [];
  for (const [index, source] of collection.sources.entries()) {
    const ids = changed.rows.filter((row) => row.source === index).map((row) => row.id);
    if (ids.length === 0) continue;
    const rows = await sql<Record<string, unknown> & { id: number }>`
      SELECT * FROM ${sql.table(source.table)} WHERE id = ANY(${ids}::integer[])`.execute(request.db);
    for (const document of await source.toDocuments(request.db, rows.rows)) {
      const id = Number(document.id);
      documents.push({
        at: position.get(`${index}:${id}`) ?? 0,
        document: source.kind ? { ...document, id: `${source.kind}:${document.id}`, kind: source.kind } : document,
      });
    }
  }
  documents.sort((a, b) => a.at - b.at);

  const last = changed.rows.at(-1);
  const checkpoint = last ? { xid: last.change_xid, seq: String(last.change_seq) } : { xid, seq };
  const hasMore = changed.rows.length === limit;
  // Committed rows waiting behind an older open transaction: their change was already announced on
  // the stream, so the client must pull again soon rather than wait for another announcement.
  const heldBack =
    !hasMore &&
    (await sql<{ held: boolean }>`SELECT EXISTS (${changedRows(collection, companyId, checkpoint, false)}) AS held`.execute(request.db)).rows[0]?.held === true;
  return success({
    documents: documents.map((entry) => entry.document),
    checkpoint: `${checkpoint.xid}:${checkpoint.seq}`,
    has_more: hasMore,
    held_back: heldBack,
  });
}

/**
 * The current state of named documents, whatever the checkpoint: after the client's change is applied,
 * it reads back the documents it touched, so what the server made of them (ids, plant ids, computed
 * fields) replaces the optimistic version even when a pull already went past them. Missing ids are
 * left out; tombstoned ones come with `_deleted: true`.
 */
async function documents(request: RequestOf<typeof documentsSchema>) {
  const collection = collectionNamed(request.query.collection);
  if (!collection) throw badRequest(m.collectionUnknown(request.query.collection));
  const companyId = actingCompany(request, request.query.company_id);
  const found: SyncDocument[] = [];
  for (const source of collection.sources) {
    const prefix = source.kind ? `${source.kind}:` : '';
    const ids = request.query.ids.filter((id) => (prefix ? id.startsWith(prefix) : !id.includes(':'))).map((id) => Number(id.slice(prefix.length)));
    if (ids.length === 0) continue;
    const rows = await sql<Record<string, unknown> & { id: number }>`
      SELECT * FROM ${sql.table(source.table)} WHERE id = ANY(${ids}::integer[]) AND ${sql.ref(source.companyColumn)} = ${companyId}`.execute(request.db);
    for (const document of await source.toDocuments(request.db, rows.rows)) {
      found.push(source.kind ? { ...document, id: `${source.kind}:${document.id}`, kind: source.kind } : document);
    }
  }
  return success({ documents: found });
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
    const flush = () => {
      flushTimer = undefined;
      response.write(`event: change\ndata: ${JSON.stringify({ collections: [...changed] })}\n\n`);
      changed.clear();
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
}
