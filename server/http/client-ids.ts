/**
 * Client ids in parameters (common/client-ids.ts): any parameter that names a record (ownership.ts,
 * and a route's `config.owns`) accepts the record's client id in place of the spec's integer id, in the
 * path, the query or the body, at any depth of the body (`fieldResponses[].fieldID`), alone, in an
 * array or in a comma-joined list. So a tablet names a record it made offline by the id it gave it,
 * in every later change, without waiting for the create's answer: a push can carry a create and the
 * changes that use it together.
 *
 * Resolved here, before validation, to the integer id: the schemas, the tenancy guard and the handlers
 * only ever see the spec's integers. One query per kind of record named. A client id of another
 * company's record answers 403, one that names nothing 404, as an integer id would.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { isClientId } from '../../common/client-ids';
import { httpMessages } from '../../common/messages/http';
import { caller } from './guards';
import { forbidden, notFound } from './errors';
import { OWNED_KINDS, OWNED_PARAMETERS, type OwnedKindName } from './ownership';
import { answeredRepeatOf } from './transactions';

/** Kinds whose records are made by the server only: nobody names them by client id. */
const SERVER_MADE: ReadonlySet<OwnedKindName> = new Set(['company', 'user', 'invitation']);

/** A place in the request holding a value that names records of one kind. */
interface Slot {
  holder: Record<string, unknown>;
  key: string;
  kind: OwnedKindName;
}

export function registerClientIds(app: FastifyInstance) {
  app.addHook('preValidation', async (request, reply) => {
    // A repeat of a call already answered gets that answer now, before validation: its client ids are
    // not resolved (a record it named may be gone since), and the schemas want integers.
    const repeat = answeredRepeatOf(request);
    if (repeat) return reply.code(repeat.status_code).header('Idempotent-Replayed', 'true').send(repeat.response);
    // The push (`transaction: false`) carries other calls: each of its entries is resolved as a request of its own.
    if (!request.auth || request.routeOptions.config.transaction === false) return;
    const names: Record<string, OwnedKindName> = { ...OWNED_PARAMETERS, ...request.routeOptions.config.owns };
    const slots: Slot[] = [];
    for (const source of [request.params, request.query, request.body]) collectSlots(source, names, slots);
    if (slots.length === 0) return;
    const wanted = new Map<OwnedKindName, Set<string>>();
    for (const slot of slots) for (const clientId of clientIdsIn(slot.holder[slot.key])) wanted.set(slot.kind, (wanted.get(slot.kind) ?? new Set()).add(clientId));
    const resolved = new Map<OwnedKindName, Map<string, number>>();
    for (const [kind, clientIds] of wanted) resolved.set(kind, await resolve(request, kind, [...clientIds]));
    for (const slot of slots) slot.holder[slot.key] = replaced(slot.holder[slot.key], resolved.get(slot.kind) ?? new Map());
  });
}

/** Every place under `value` whose key names records and whose value holds a client id. */
function collectSlots(value: unknown, names: Record<string, OwnedKindName>, slots: Slot[]) {
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) collectSlots(item, names, slots);
    return;
  }
  const holder = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(holder)) {
    const kind = names[key];
    if (kind && !SERVER_MADE.has(kind) && clientIdsIn(item).length > 0) slots.push({ holder, key, kind });
    else collectSlots(item, names, slots);
  }
}

/** The client ids in a parameter's value: the value itself, an array's items, a comma-joined list's parts. */
function clientIdsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter(isClientId);
  if (typeof value !== 'string') return [];
  return value.includes(',') ? value.split(',').map((part) => part.trim()).filter(isClientId) : isClientId(value) ? [value] : [];
}

/** The value with each client id replaced by its integer id (in text, as digits). */
function replaced(value: unknown, ids: ReadonlyMap<string, number>): unknown {
  if (Array.isArray(value)) return value.map((item) => (isClientId(item) ? (ids.get(item) ?? item) : item));
  if (typeof value !== 'string') return value;
  if (!value.includes(',')) return ids.get(value) ?? value;
  return value
    .split(',')
    .map((part) => String(ids.get(part.trim()) ?? part))
    .join(',');
}

/** Kinds whose client ids are kept beside their rows (migration 0006 says why). */
const CLIENT_ID_HOLDERS: Partial<Record<OwnedKindName, { table: string; idColumn: string; companyColumn: string }>> = {
  grid_box: { table: 'grid_box_client_ids', idColumn: 'grid_box_id', companyColumn: 'company_id' },
};

/**
 * The integer ids of `clientIds` of one kind, from the caller's company (a SuperAdmin's, any one).
 * Through the request's database: in a push, a record made by an earlier entry of it is found.
 */
async function resolve(request: FastifyRequest, kindName: OwnedKindName, clientIds: string[]): Promise<Map<string, number>> {
  const claims = caller(request);
  const kind = CLIENT_ID_HOLDERS[kindName] ?? OWNED_KINDS[kindName];
  const rows = await sql<{ id: number; client_id: string; company: number }>`
    SELECT ${sql.ref(kind.idColumn)} AS id, client_id, ${sql.ref(kind.companyColumn)} AS company
    FROM ${sql.table(kind.table)}
    WHERE client_id = ANY(${clientIds}::uuid[])`.execute(request.db);
  const crossCompany = claims.user_role === 'SuperAdmin';
  const ids = new Map<string, number>();
  for (const row of rows.rows) {
    // Unique per company: the caller's own record wins over another company's with the same id.
    if (row.company === claims.company_id || (crossCompany && !ids.has(row.client_id))) ids.set(row.client_id, row.id);
  }
  for (const clientId of clientIds) {
    if (ids.has(clientId)) continue;
    if (rows.rows.some((row) => row.client_id === clientId)) throw forbidden(httpMessages.otherCompany);
    throw notFound(httpMessages.recordNotFound(`${kindName} ${clientId}`));
  }
  return ids;
}
