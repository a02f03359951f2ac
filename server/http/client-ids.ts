/**
 * Client ids in parameters (common/client-ids.ts): any parameter that names a record (ownership.ts,
 * and a route's `config.owns`) accepts the record's client id in place of the spec's integer id, in the
 * path, the query or the body, at any depth of the body (`fieldResponses[].fieldID`), alone, in an
 * array (or a JSON array's text) or in a comma-joined list. So a tablet names a record it made offline by the id it gave it,
 * in every later change, without waiting for the create's answer: a push can carry a create and the
 * changes that use it together.
 *
 * Resolved here, before validation, to the integer id: the schemas, the tenancy guard and the handlers
 * only ever see the spec's integers. One query per kind of record named. A client id of another
 * company's record answers 403, one that names nothing 404, as an integer id would.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { isClientId } from '../../common/client-ids';
import { httpMessages } from '../../common/messages/http';
import { caller } from './guards';
import { forbidden, notFound } from './errors';
import { forEachNamedField, OWNED_KINDS, OWNED_PARAMETERS, type OwnedKindName } from './ownership';
import type { DB } from '../db/schema';
import type { AccessClaims } from '../domains/auth/tokens';
import { CLIENT_ID_HOLDERS, type NamedKind } from '../domains/replication/client-naming';
import { answeredRepeatOf, clientIdsResolvedAhead } from './transactions';

/** Kinds whose records are made by the server only: nobody names them by client id (a report's link, an image model, a camera and its device links are made online, by an Admin). */
const SERVER_MADE: ReadonlySet<OwnedKindName> = new Set(['company', 'user', 'invitation', 'report_share', 'ai_model', 'camera', 'camera_device_token']);

/** A place in the request holding a value that names records of one kind. */
interface Slot {
  holder: Record<string, unknown>;
  key: string;
  kind: OwnedKindName;
}

export function registerClientIds(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    // A repeat of a call already answered gets that answer now, before validation: its client ids are
    // not resolved (a record it named may be gone since), and the schemas want integers. The answer is
    // sent as it was stored, past the route's answer schema: it may come from an earlier version of the
    // server, and a repeat must get what the first call got.
    const repeat = answeredRepeatOf(request);
    if (repeat) return reply.code(repeat.status_code).header('Idempotent-Replayed', 'true').serializer(JSON.stringify).send(repeat.response);
    // The push carries other calls: each of its entries is resolved as a request of its own.
    if (!request.auth || request.routeOptions.config.carriesRequests) return;
    const names: Record<string, OwnedKindName> = { ...OWNED_PARAMETERS, ...request.routeOptions.config.owns };
    const slots: Slot[] = [];
    for (const source of [request.params, request.query, request.body]) collectSlots(source, names, slots);
    if (slots.length === 0) return;
    const resolved = new Map<OwnedKindName, Map<string, number>>();
    for (const [kind, clientIds] of wantedIn(slots)) resolved.set(kind, await resolve(request, kind, [...clientIds]));
    for (const slot of slots) slot.holder[slot.key] = replaced(slot.holder[slot.key], resolved.get(slot.kind) ?? new Map());
  });
}

/** The client ids the slots hold, by kind. */
function wantedIn(slots: Slot[]): Map<OwnedKindName, Set<string>> {
  const wanted = new Map<OwnedKindName, Set<string>>();
  for (const slot of slots) for (const clientId of clientIdsIn(slot.holder[slot.key])) wanted.set(slot.kind, (wanted.get(slot.kind) ?? new Set()).add(clientId));
  return wanted;
}

/**
 * For a push: the client ids its entries name (in `sources`, their queries and bodies, by the parameter
 * names of ownership.ts) that are the caller's records, resolved with one statement per kind for the
 * whole push before its entries run (transactions.ts `clientIdsResolvedAhead`), so each entry looks up
 * only what this does not find (a record an earlier entry makes, another company's, one named under a
 * route's own name). A SuperAdmin's are left to each entry: which company's record a client id names
 * is decided there.
 */
export async function clientIdsAhead(db: Kysely<DB>, claims: AccessClaims, sources: unknown[]): Promise<Map<OwnedKindName, Map<string, number>>> {
  const resolved = new Map<OwnedKindName, Map<string, number>>();
  if (claims.user_role === 'SuperAdmin') return resolved;
  const slots: Slot[] = [];
  for (const source of sources) collectSlots(source, OWNED_PARAMETERS, slots);
  for (const [kindName, clientIds] of wantedIn(slots)) {
    const rows = await rowsOf(db, kindName, [...clientIds]);
    resolved.set(kindName, new Map(rows.filter((row) => row.company === claims.company_id).map((row) => [row.client_id, row.id])));
  }
  return resolved;
}

/** Copies of `sources` with the client ids `resolved` knows replaced by their integer ids (for the push's ownership proofs). */
export function withClientIdsResolved(sources: unknown[], resolved: ReadonlyMap<OwnedKindName, ReadonlyMap<string, number>>): unknown[] {
  const copies = structuredClone(sources);
  const slots: Slot[] = [];
  for (const source of copies) collectSlots(source, OWNED_PARAMETERS, slots);
  for (const slot of slots) slot.holder[slot.key] = replaced(slot.holder[slot.key], resolved.get(slot.kind) ?? new Map());
  return copies;
}

/** Every place under `value` whose key names records (ownership.ts `forEachNamedField`) and whose value holds a client id. */
function collectSlots(value: unknown, names: Record<string, OwnedKindName>, slots: Slot[]) {
  forEachNamedField(value, names, (holder, key, kind) => {
    if (!SERVER_MADE.has(kind) && clientIdsIn(holder[key]).length > 0) slots.push({ holder, key, kind });
  });
}

/** A JSON array's text (a query's `room_ids=["…"]`, as the tablet's report calls send a list): its items; else null. */
function jsonListIn(value: string): unknown[] | null {
  if (!value.trimStart().startsWith('[')) return null;
  try {
    const list: unknown = JSON.parse(value);
    return Array.isArray(list) ? list : null;
  } catch {
    return null;
  }
}

/** The client ids in a parameter's value: the value itself, an array's items (or a JSON array's text's), a comma-joined list's parts. */
function clientIdsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter(isClientId);
  if (typeof value !== 'string') return [];
  const list = jsonListIn(value);
  if (list) return list.filter(isClientId);
  return value.includes(',') ? value.split(',').map((part) => part.trim()).filter(isClientId) : isClientId(value) ? [value] : [];
}

/** The value with each client id replaced by its integer id (in text, as digits). */
function replaced(value: unknown, ids: ReadonlyMap<string, number>): unknown {
  if (Array.isArray(value)) return value.map((item) => (isClientId(item) ? (ids.get(item) ?? item) : item));
  if (typeof value !== 'string') return value;
  const list = jsonListIn(value);
  if (list) return JSON.stringify(replaced(list, ids));
  if (!value.includes(',')) return ids.get(value) ?? value;
  return value
    .split(',')
    .map((part) => String(ids.get(part.trim()) ?? part))
    .join(',');
}

/**
 * The integer ids of `clientIds` of one kind, from the caller's company (a SuperAdmin's, any one).
 * Through the request's database: in a push, a record made by an earlier entry of it is found.
 */
async function resolve(request: FastifyRequest, kindName: OwnedKindName, clientIds: string[]): Promise<Map<string, number>> {
  const claims = caller(request);
  const ids = new Map<string, number>();
  const ahead = clientIdsResolvedAhead(request)?.get(kindName);
  for (const clientId of clientIds) {
    const id = ahead?.get(clientId);
    if (id !== undefined) ids.set(clientId, id);
  }
  if (ids.size === clientIds.length) return ids;
  const rows = await rowsOf(request.db, kindName, clientIds.filter((clientId) => !ids.has(clientId)));
  const crossCompany = claims.user_role === 'SuperAdmin';
  for (const row of rows) {
    // Unique per company: the caller's own record wins over another company's with the same id.
    if (row.company === claims.company_id || (crossCompany && !ids.has(row.client_id))) ids.set(row.client_id, row.id);
  }
  for (const clientId of clientIds) {
    if (ids.has(clientId)) continue;
    if (rows.some((row) => row.client_id === clientId)) throw forbidden(httpMessages.otherCompany);
    throw notFound(httpMessages.recordNotFound(`${kindName} ${clientId}`));
  }
  return ids;
}

/** The records of one kind with these client ids, of any company. */
async function rowsOf(db: Kysely<DB>, kindName: OwnedKindName, clientIds: string[]) {
  // Only kinds a tablet can make get here (not SERVER_MADE's); a kind without a holder keeps its client id
  // in its own table's `client_id` column.
  const kind = CLIENT_ID_HOLDERS[kindName as NamedKind] ?? OWNED_KINDS[kindName];
  const { rows } = await sql<{ id: number; client_id: string; company: number }>`
    SELECT ${sql.ref(kind.idColumn)} AS id, client_id, ${sql.ref(kind.companyColumn)} AS company
    FROM ${sql.table(kind.table)}
    WHERE client_id = ANY(${clientIds}::uuid[])`.execute(db);
  return rows;
}
