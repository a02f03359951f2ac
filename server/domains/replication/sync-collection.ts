/**
 * What a synced collection is (collections.ts lists them): its sources, how their rows become the
 * documents a tablet stores, and how those documents name records. Apart from the list, so that each
 * domain's collection.ts declares its own without importing the list that imports it.
 */
import type { Kysely, RawBuilder } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../db/schema';
import type { NamedKind, ReferenceNames } from './client-naming';

/** A document as a source makes it, before the pull adds its place in the change order (common/schemas/sync.ts `syncDocument`). */
export interface SourceDocument {
  id: string;
  _deleted: boolean;
  [field: string]: unknown;
}

export interface SyncSource {
  table: keyof DB;
  /** The column naming the owning company. */
  companyColumn: string;
  /** In a collection of several sources: the document kind, prefixed to ids. */
  kind?: string;
  /** Pull only rows changed in the last N days; older ones are fetched online (large histories). */
  windowDays?: number;
  /**
   * With `windowDays`: an SQL condition on the pulled row (aliased `row`) of the company's that keeps a
   * row in the pull however old (a response with an open task: forms/collection.ts).
   */
  keepBeyondWindow?: (companyId: number) => RawBuilder<unknown>;
  /**
   * What the rows are and which document fields name records, for the tablets' naming by client id.
   * Left out (the company): documents keep the server's ids, since only the server makes the record.
   */
  named?: { kind: NamedKind; references: ReferenceNames };
  /**
   * What each document holds beside `id` and `_deleted`: its record's schema (common/schemas), which
   * the tablet's types come from too. Documents are proven against it where answers are (CHECK_ANSWERS).
   */
  document?: z.ZodObject;
  /** Documents of rows, `id` the row's integer id as text (documentsOf names them as asked). */
  toDocuments(db: Kysely<DB>, rows: Array<Record<string, unknown>>): Promise<SourceDocument[]>;
}

export interface SyncCollection {
  name: string;
  sources: SyncSource[];
  /** Every table whose change can alter this collection's documents (for the change stream). */
  tables: string[];
}
