/**
 * The synced collections of ARCHITECTURE.md "The local store", as the server pulls them. A collection
 * reads one or more source tables (aggregate roots) by checkpoint and turns rows into the documents the
 * browser stores; a child that travels inside its parent bumps the parent's row (writes.ts `touch`), so
 * the sources alone decide what changed. In a collection of several sources each document carries its
 * `kind`. Asked with `naming=client`, documents name records as tablets do, by client id
 * (client-naming.ts): a source says what its rows are (`named.kind`) and which fields of its documents
 * name which records (`named.references`). A domain adds its collection to `COLLECTIONS`.
 */
import { auditCollection } from '../audit/collection';
import { batchesCollection } from '../batches/collection';
import { companyCollection } from '../companies/collection';
import { formResponsesCollection, formTemplatesCollection } from '../forms/collection';
import { gridBoxesCollection, gridsCollection } from '../grids/collection';
import { operationsCollection } from '../operations/collection';
import { plantProblemsCollection } from '../problems/collection';
import { reportsCollection } from '../reports/collection';
import { roomsCollection } from '../rooms/collection';
import type { SyncCollection } from './sync-collection';

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
  plantProblemsCollection,
  reportsCollection,
];

const byName = new Map(COLLECTIONS.map((collection) => [collection.name, collection]));

export const collectionNamed = (name: string) => byName.get(name);

export function collectionsOfTable(table: string): string[] {
  return COLLECTIONS.filter((collection) => collection.tables.includes(table)).map((collection) => collection.name);
}
