/** The `batches` collection: one document per batch, with its links, problems and history inside. */
import type { Batch } from '../../db/schema';
import type { SyncCollection } from '../replication/collections';
import { batchQueries } from './queries';

export const batchesCollection: SyncCollection = {
  name: 'batches',
  tables: ['batches', 'batch_problems'],
  sources: [
    {
      table: 'batches',
      companyColumn: 'company_id',
      async toDocuments(db, rows) {
        const batches = rows as unknown as Batch[];
        const deleted = new Set(batches.filter((batch) => batch.deleted_at !== null).map((batch) => batch.id));
        const documents = await batchQueries.documents(db, batches);
        return documents.map((document) => ({ ...document, id: String(document.BatchID), _deleted: deleted.has(document.BatchID) }));
      },
    },
  ],
};
