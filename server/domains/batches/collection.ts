/** The `batches` collection: one document per batch (links, problems and history travel inside it). */
import type { Batch } from '../../db/schema';
import type { SyncCollection } from '../replication/collections';
import { batchJson } from './queries';

export const batchesCollection: SyncCollection = {
  name: 'batches',
  tables: ['batches', 'batch_problems'],
  sources: [
    {
      table: 'batches',
      companyColumn: 'company_id',
      async toDocuments(_db, rows) {
        return (rows as unknown as Batch[]).map((batch) => ({ id: String(batch.id), _deleted: batch.deleted_at !== null, ...batchJson(batch) }));
      },
    },
  ],
};
