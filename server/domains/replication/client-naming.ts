/**
 * The tablet's naming of records (`naming=client`): a tablet names every record it can make by its
 * client id, as its local document's key and in every field that refers to it, so that a record made
 * offline has one name before and after the server knows it. The documents the server sends tablets
 * (pull, read-back, push answer: routes.ts `documentsOf`) are named so here when asked; the way back,
 * a client id in a request's parameters, is server/http/client-ids.ts.
 *
 * Each source says which kind of record its rows are and which of its documents' fields name which
 * kind (nested fields too: a template's fields, a box's sub-gridboxes). Ids of users and of the
 * company stay integers: only the server makes them. One query per kind of record named, per call,
 * whatever the number of documents.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

/** Kinds of records a tablet can make, and where their client ids are kept. */
export const NAMED_KINDS = {
  room: 'rooms',
  grid: 'grids',
  grid_box: 'grid_boxes',
  sub_gridbox: 'sub_gridboxes',
  batch: 'batches',
  batch_problem: 'batch_problems',
  tray: 'trays',
  tray_template: 'tray_templates',
  grid_template: 'grid_templates',
  plant_move: 'plant_moves',
  form_template: 'form_templates',
  form_field: 'form_fields',
  form_response: 'form_responses',
  audit_event: 'audit_events',
} as const;

export type NamedKind = keyof typeof NAMED_KINDS;

/** Field names of a source's documents, at any depth (the top-level `id` is the document's own), and the kind each names. */
export type ReferenceNames = Readonly<Record<string, NamedKind>>;

type Document = Record<string, unknown> & { id: string };

/** Arrays and plain objects are walked; anything else (text, numbers, a Date) is a value, kept as it is. */
const isPlainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** Every integer id under `value` in a field `names` declares, by kind. */
function collect(value: unknown, names: ReferenceNames, found: Map<NamedKind, Set<number>>, top: boolean) {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, names, found, false);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    const kind = top && key === 'id' ? undefined : names[key];
    if (!kind) {
      collect(item, names, found, false);
      continue;
    }
    const ids = found.get(kind) ?? new Set<number>();
    for (const id of Array.isArray(item) ? item : [item]) if (typeof id === 'number') ids.add(id);
    found.set(kind, ids);
  }
}

/** A copy of `value` with the integer ids of the declared fields replaced by their client ids. */
function renamed(value: unknown, names: ReferenceNames, clientIds: ReadonlyMap<NamedKind, ReadonlyMap<number, string>>, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, names, clientIds, false));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const kind = top && key === 'id' ? undefined : names[key];
    if (!kind) copy[key] = renamed(item, names, clientIds, false);
    else {
      const of = (id: unknown) => (typeof id === 'number' ? (clientIds.get(kind)?.get(id) ?? null) : id);
      copy[key] = Array.isArray(item) ? item.map(of) : of(item);
    }
  }
  return copy;
}

/**
 * Kinds whose client ids are kept beside their rows rather than in a `client_id` column (migration
 * 0006 says why), and where.
 */
export const CLIENT_ID_HOLDERS: Partial<Record<NamedKind, { table: 'grid_box_client_ids'; idColumn: 'grid_box_id'; companyColumn: 'company_id' }>> = {
  grid_box: { table: 'grid_box_client_ids', idColumn: 'grid_box_id', companyColumn: 'company_id' },
};

/** The client ids of records of one kind, by integer id. */
async function clientIdsOf(db: Kysely<DB>, kind: NamedKind, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const holder = CLIENT_ID_HOLDERS[kind];
  const { rows } = holder
    ? await sql<{ id: number; client_id: string }>`SELECT ${sql.ref(holder.idColumn)} AS id, client_id FROM ${sql.table(holder.table)} WHERE ${sql.ref(holder.idColumn)} = ANY(${ids}::integer[])`.execute(db)
    : await sql<{ id: number; client_id: string }>`SELECT id, client_id FROM ${sql.table(NAMED_KINDS[kind])} WHERE id = ANY(${ids}::integer[])`.execute(db);
  return new Map(rows.map((row) => [row.id, row.client_id]));
}

/**
 * Documents of one source named as tablets name them: each document's `id` (the integer id of its
 * row, as text) becomes its record's client id, and each declared field's integer ids theirs. `own`:
 * the documents' own client ids, when their rows brought them (routes.ts `rowsOf`); the rest are looked up.
 */
export async function namedForTablets<D extends Document>(db: Kysely<DB>, kind: NamedKind, names: ReferenceNames, documents: D[], own: ReadonlyMap<number, string> = new Map()): Promise<D[]> {
  if (documents.length === 0) return documents;
  const found = new Map<NamedKind, Set<number>>([[kind, new Set(documents.map((document) => Number(document.id)))]]);
  for (const document of documents) collect(document, names, found, true);
  const clientIds = new Map<NamedKind, Map<number, string>>();
  for (const [named, ids] of found) {
    const known = named === kind ? new Map(own) : new Map<number, string>();
    for (const [id, clientId] of await clientIdsOf(db, named, [...ids].filter((id) => !known.has(id)))) known.set(id, clientId);
    clientIds.set(named, known);
  }
  return documents.map((document) => {
    const ownId = clientIds.get(kind)?.get(Number(document.id));
    if (!ownId) throw new Error(`No client id for ${kind} ${document.id}`);
    return { ...(renamed(document, names, clientIds, true) as D), id: ownId, serverId: Number(document.id) };
  });
}

/** The integer ids of a source's rows named by client id, of any company (the caller checks whose they are). */
export async function idsOfClientIds(db: Kysely<DB>, kind: NamedKind, clientIds: string[]): Promise<number[]> {
  if (clientIds.length === 0) return [];
  const holder = CLIENT_ID_HOLDERS[kind];
  const { rows } = holder
    ? await sql<{ id: number }>`SELECT ${sql.ref(holder.idColumn)} AS id FROM ${sql.table(holder.table)} WHERE client_id = ANY(${clientIds}::uuid[])`.execute(db)
    : await sql<{ id: number }>`SELECT id FROM ${sql.table(NAMED_KINDS[kind])} WHERE client_id = ANY(${clientIds}::uuid[])`.execute(db);
  return rows.map((row) => row.id);
}
