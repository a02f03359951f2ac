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
  plant_problem: 'plant_problems',
  spray_product: 'spray_products',
  treatment: 'treatments',
  spray_application: 'spray_applications',
  saved_report: 'saved_reports',
  task: 'tasks',
  response_comment: 'response_comments',
  notification: 'notifications',
  // Scan sessions and their boxes' photos (issue 17): a tablet makes both, offline too.
  scan: 'scans',
  scan_box: 'scan_boxes',
  // Videos of boxes and rows (issue 17): recorded on a tablet, offline too.
  video: 'box_videos',
} as const;

export type NamedKind = keyof typeof NAMED_KINDS;

/** Field names of a source's documents, at any depth (the top-level `id` is the document's own), and the kind each names. */
export type ReferenceNames = Readonly<Record<string, NamedKind>>;

type Document = Record<string, unknown> & { id: string };

/** Arrays and plain objects are walked; anything else (text, numbers, a Date) is a value, kept as it is. */
const isWalked = (value: unknown): value is object => typeof value === 'object' && value !== null && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);

/** Field names that name records, as a map (a document's own keys never reach Object.prototype's). */
const referenceMap = (names: ReferenceNames) => new Map(Object.entries(names));

/**
 * Every integer id under `value` in a field `names` declares, by kind. Called for every document of a
 * pull page (thousands): values that are not walked are skipped without a call.
 */
function collect(value: object, names: ReadonlyMap<string, NamedKind>, found: Map<NamedKind, Set<number>>, top: boolean) {
  if (Array.isArray(value)) {
    for (const item of value) if (isWalked(item)) collect(item, names, found, false);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const kind = top && key === 'id' ? undefined : names.get(key);
    if (!kind) {
      if (isWalked(item)) collect(item, names, found, false);
      continue;
    }
    let ids = found.get(kind);
    if (!ids) found.set(kind, (ids = new Set<number>()));
    if (typeof item === 'number') ids.add(item);
    else if (Array.isArray(item)) for (const id of item) if (typeof id === 'number') ids.add(id);
  }
}

/** A copy of `value` with the integer ids of the declared fields replaced by their client ids. */
function renamed(value: object, names: ReadonlyMap<string, NamedKind>, clientIds: ReadonlyMap<NamedKind, ReadonlyMap<number, string>>, top: boolean): Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.map((item: unknown) => (isWalked(item) ? renamed(item, names, clientIds, false) : item));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const kind = top && key === 'id' ? undefined : names.get(key);
    if (!kind) copy[key] = isWalked(item) ? renamed(item, names, clientIds, false) : item;
    else {
      const ofKind = clientIds.get(kind);
      const of = (id: unknown) => (typeof id === 'number' ? (ofKind?.get(id) ?? null) : id);
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
  const references = referenceMap(names);
  const found = new Map<NamedKind, Set<number>>([[kind, new Set(documents.map((document) => Number(document.id)))]]);
  for (const document of documents) collect(document, references, found, true);
  const clientIds = new Map<NamedKind, Map<number, string>>();
  for (const [named, ids] of found) {
    const known = named === kind ? new Map(own) : new Map<number, string>();
    for (const [id, clientId] of await clientIdsOf(db, named, [...ids].filter((id) => !known.has(id)))) known.set(id, clientId);
    clientIds.set(named, known);
  }
  return documents.map((document) => {
    const ownId = clientIds.get(kind)?.get(Number(document.id));
    if (!ownId) throw new Error(`No client id for ${kind} ${document.id}`);
    const named = renamed(document, references, clientIds, true) as D & { serverId: number };
    named.id = ownId;
    named.serverId = Number(document.id);
    return named;
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
