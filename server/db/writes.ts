/**
 * The one way to write a synced row (STYLE.md §5). It stamps who wrote it and when it was done (an
 * inserted row's `created_at` is the actor's `actedAt`, the act's time a queued write carries), tombstones
 * instead of deleting, and refuses to write without an actor. `change_seq`, `change_xid` and `updated_at`
 * (the server's own bookkeeping time) are set by the `track_change` trigger (migrations.ts), so no write
 * can skip them.
 */
import { type Insertable, type Kysely, type RawBuilder, type Selectable, sql, type Updateable } from 'kysely';
import { newClientId } from '../../common/client-ids';
import { CLIENT_ID_TABLES, LATER_CLIENT_ID_TABLES } from './migrations';
import type { DB } from './schema';

export interface Actor {
  /** The signed-in user, or null only for the system itself (first-start demo data, the CLI). */
  userId: number | null;
  companyId: number;
  /**
   * When the act was done (a request's `actedAt`, server/http/acted-at.ts): the `created_at` of the rows
   * it inserts. Absent (the system), the database's now.
   */
  actedAt?: Date;
  /** The Idempotency-Key of the request acting (a tablet change's outbox id), recorded on its audit events. */
  idempotencyKey?: string | null;
}

export const systemActor = (companyId: number): Actor => ({ userId: null, companyId });

/** The act's time for columns a route sets itself (scanned, culled, links, history): the actor's, else now. */
export const actedAtOf = (actor: Actor): Date => actor.actedAt ?? new Date();

type SyncedTable = { [T in keyof DB]: DB[T] extends { change_seq: unknown; deleted_at: unknown } ? T : never }[keyof DB];
type CompanyTable = { [T in SyncedTable]: DB[T] extends { company_id: number } ? T : never }[SyncedTable];

export interface Writer {
  /**
   * Answers the new row's integer id and its client id (given in `values`, else a new one). Not for
   * grid boxes, which are made many at a time with their grid (`insertMany`).
   */
  insert<T extends Exclude<SyncedTable, 'grid_boxes'>>(table: T, values: Omit<Insertable<DB[T]>, 'created_by' | 'updated_by' | 'deleted_at'>): Promise<{ id: number; client_id: string }>;
  /** Inserts many rows in statements of at most 1,000 rows (PGlite has one connection; one huge statement holds it long). */
  insertMany<T extends SyncedTable>(table: T, rows: Array<Omit<Insertable<DB[T]>, 'created_by' | 'updated_by' | 'deleted_at'>>): Promise<Array<Selectable<DB[T]>>>;
  update<T extends SyncedTable>(table: T, id: number, values: Updateable<DB[T]>): Promise<number>;
  /**
   * The same, answering the row as it now is (undefined when there was no live row): no second read.
   * `also`: values computed from the row in the same statement (a box's room), answered beside it.
   */
  updateReturning<T extends SyncedTable, Also extends Record<string, unknown> = Record<never, never>>(
    table: T,
    id: number,
    values: Updateable<DB[T]>,
    also?: { [K in keyof Also]: RawBuilder<Also[K]> },
  ): Promise<(Selectable<DB[T]> & Also) | undefined>;
  softDelete<T extends SyncedTable>(table: T, id: number): Promise<number>;
  /**
   * Tombstones, in one statement, the actor's company's live rows whose `column` is one of `values`
   * (a room's grids, a grid's boxes); returns their ids.
   */
  softDeleteWhere<T extends CompanyTable>(table: T, column: keyof DB[T] & string, values: number[]): Promise<number[]>;
  /** Bumps parent documents' change_seq when a child that travels inside them changed (one statement). */
  touch<T extends SyncedTable>(table: T, ids: number | number[]): Promise<void>;
  /**
   * Inserts a row whose id nobody reads back (an audit-trail entry): inside a push, together with the
   * push's other such rows just before it commits (see `collectLaterRows`); otherwise at once.
   */
  insertLater<T extends SyncedTable>(table: T, values: Omit<Insertable<DB[T]>, 'created_by' | 'updated_by' | 'deleted_at'>): Promise<void>;
}

/** A row waiting for its insert: already stamped with its writer and time. */
export interface LaterRow {
  table: SyncedTable;
  row: object;
}

const laterRows = new WeakMap<Kysely<DB>, LaterRow[]>();

/**
 * From now on, rows written with `insertLater` through `db` are collected in the list answered
 * instead of inserted: a push's entry writes through a database object of its own, so its rows can
 * be kept when it is applied and dropped when it is refused. `insertRows` inserts them.
 */
export function collectLaterRows(db: Kysely<DB>): LaterRow[] {
  const rows: LaterRow[] = [];
  laterRows.set(db, rows);
  return rows;
}

/** Inserts collected rows in order, one statement per run of one table (at most INSERT_SLICE rows each). */
export async function insertRows(db: Kysely<DB>, rows: readonly LaterRow[]): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const loose = db as unknown as Kysely<any>;
  for (let start = 0; start < rows.length; ) {
    const table = rows[start]?.table as string;
    let end = start;
    while (end < rows.length && end - start < INSERT_SLICE && rows[end]?.table === table) end += 1;
    // One column list for the statement: a column some rows leave out takes its default in each.
    const slice = rows.slice(start, end).map((later) => later.row as Record<string, unknown>);
    const columns = [...new Set(slice.flatMap((row) => Object.keys(row)))];
    await loose
      .insertInto(table)
      .values(slice.map((row) => Object.fromEntries(columns.map((column) => [column, column in row ? row[column] : sql`DEFAULT`]))) as never)
      .execute();
    start = end;
  }
}

const INSERT_SLICE = 1000;

const CLIENT_ID_TABLE_NAMES: ReadonlySet<string> = new Set<string>(['companies', ...CLIENT_ID_TABLES, ...LATER_CLIENT_ID_TABLES]);

/** Whether the table's rows hold their client id (a grid box's is in grid_box_client_ids, migration 0006). */
const holdsClientId = (table: string) => CLIENT_ID_TABLE_NAMES.has(table);

let tombstoneWrites = 0;

/**
 * How many tombstoning writes this process has started (the writer's softDelete and softDeleteWhere,
 * and `noteTombstones` for the one statement that sets `deleted_at` itself). A push's proof that the
 * records its entries name are live holds only while this has not moved (server/http/transactions.ts
 * `provenOwnership`).
 */
export const tombstoneWritesSoFar = () => tombstoneWrites;

/** For a statement that tombstones rows without the writer (invitations replaced by a new one). */
export const noteTombstones = () => void (tombstoneWrites += 1);

export function writer(db: Kysely<DB>, actor: Actor): Writer {
  if (!actor || typeof actor.companyId !== 'number') throw new Error('A write needs an actor: a user, or the system for a company');
  const by = actor.userId;
  // A value the caller gives wins; otherwise the column's default (now) unless the actor says when, and
  // a new client id (a record made on the server, or whose tablet did not choose one).
  const stamped = (table: SyncedTable, values: { client_id?: string | null }) => ({
    ...(actor.actedAt ? { created_at: actor.actedAt } : {}),
    ...values,
    ...(holdsClientId(table) ? { client_id: values.client_id ?? newClientId() } : {}),
    created_by: by,
    updated_by: by,
  });
  // Kysely cannot follow one generic table name through these builders; the signatures above keep callers typed.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const loose = db as unknown as Kysely<any>;
  return {
    async insert(table, values) {
      return loose
        .insertInto(table as string)
        .values(stamped(table, values) as never)
        .returning(['id', 'client_id'])
        .executeTakeFirstOrThrow();
    },
    async insertMany(table, rows) {
      const inserted = [];
      for (let start = 0; start < rows.length; start += INSERT_SLICE) {
        const slice = rows.slice(start, start + INSERT_SLICE).map((row) => stamped(table, row));
        inserted.push(...(await loose.insertInto(table as string).values(slice as never).returningAll().execute()));
      }
      return inserted as never;
    },
    async update(table, id, values) {
      const result = await loose
        .updateTable(table as string)
        .set({ ...(values as object), updated_by: by } as never)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async updateReturning(table, id, values, also) {
      const update = loose
        .updateTable(table as string)
        .set({ ...(values as object), updated_by: by } as never)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returningAll();
      const extra = Object.entries((also ?? {}) as Record<string, RawBuilder<unknown>>).map(([name, expression]) => expression.as(name));
      return (await (extra.length > 0 ? update.returning(extra) : update).executeTakeFirst()) as never;
    },
    async softDelete(table, id) {
      noteTombstones();
      const result = await loose
        .updateTable(table as string)
        .set({ deleted_at: new Date(), updated_by: by } as never)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async softDeleteWhere(table, column, values) {
      if (values.length === 0) return [];
      noteTombstones();
      const rows = await loose
        .updateTable(table as string)
        .set({ deleted_at: new Date(), updated_by: by } as never)
        .where(column as string, 'in', values)
        .where('company_id', '=', actor.companyId)
        .where('deleted_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((row: { id: number }) => row.id);
    },
    async touch(table, ids) {
      const list = Array.isArray(ids) ? ids : [ids];
      if (list.length === 0) return;
      await loose.updateTable(table as string).set({ updated_by: by } as never).where('id', 'in', list).execute();
    },
    async insertLater(table, values) {
      const later = laterRows.get(db);
      if (later) later.push({ table, row: stamped(table, values) });
      else await loose.insertInto(table as string).values(stamped(table, values) as never).execute();
    },
  };
}
