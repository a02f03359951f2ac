/**
 * The synced collections of ARCHITECTURE.md "The local store", as the server pulls them. A collection
 * reads one or more source tables (aggregate roots) by checkpoint and turns rows into the documents the
 * browser stores; a child that travels inside its parent bumps the parent's row (writes.ts `touch`), so
 * the sources alone decide what changed. In a collection of several sources each document carries its
 * `kind`. Asked with `naming=client`, documents name records as tablets do, by client id
 * (client-naming.ts): a source says what its rows are (`named.kind`) and which fields of its documents
 * name which records (`named.references`). A domain adds its collection to `COLLECTIONS`.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { NamedKind, ReferenceNames } from './client-naming';
import { auditCollection } from '../audit/collection';
import { batchesCollection } from '../batches/collection';
import { companyCollection } from '../companies/collection';
import { formResponsesCollection, formTemplatesCollection } from '../forms/collection';
import { gridBoxesCollection, gridsCollection } from '../grids/collection';
import { operationsCollection } from '../operations/collection';
import { roomsCollection } from '../rooms/collection';

export interface SyncDocument {
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
   * What the rows are and which document fields name records, for the tablets' naming by client id.
   * Left out (the company): documents keep the server's ids, since only the server makes the record.
   */
  named?: { kind: NamedKind; references: ReferenceNames };
  /** Documents of rows, `id` the row's integer id as text (documentsOf names them as asked). */
  toDocuments(db: Kysely<DB>, rows: Array<Record<string, unknown>>): Promise<SyncDocument[]>;
}

export interface SyncCollection {
  name: string;
  sources: SyncSource[];
  /** Every table whose change can alter this collection's documents (for the change stream). */
  tables: string[];
}

export const COLLECTIONS: readonly SyncCollection[] = [
  companyCollection,
  roomsCollection,
  gridsCollection,
  gridBoxesCollection,
  batchesCollection,
  operationsCollection,
  auditCollection,
  formTemplatesCollection,
  formResponsesCollection,
];

const byName = new Map(COLLECTIONS.map((collection) => [collection.name, collection]));

export const collectionNamed = (name: string) => byName.get(name);

export function collectionsOfTable(table: string): string[] {
  return COLLECTIONS.filter((collection) => collection.tables.includes(table)).map((collection) => collection.name);
}
