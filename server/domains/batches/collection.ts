/** The `batches` collection: one document per batch, with its links, problems and history inside. */
import { batchDocument } from '../../../common/schemas/batches';
import type { Batch } from '../../db/schema';
import type { SyncCollection } from '../replication/sync-collection';
import { batchQueries } from './queries';

export const batchesCollection: SyncCollection = {
  name: 'batches',
  tables: ['batches', 'batch_problems'],
  sources: [
    {
      table: 'batches',
      companyColumn: 'company_id',
      // Inside: problems (problem_id, batch_id, room_id) and history (batch_id, from/to rooms; its
      // event_id stays an integer: only the server writes history).
      named: {
        kind: 'batch',
        references: { BatchID: 'batch', RoomIDs: 'room', GridIDs: 'grid', GridBoxIDs: 'grid_box', problem_id: 'batch_problem', batch_id: 'batch', room_id: 'room', from_room_id: 'room', to_room_id: 'room' },
      },
      document: batchDocument,
      async toDocuments(db, rows) {
        const batches = rows as unknown as Batch[];
        const deleted = new Set(batches.filter((batch) => batch.deleted_at !== null).map((batch) => String(batch.id)));
        const documents = await batchQueries.documents(db, batches);
        return documents.map((document) => ({ ...document, id: String(document.BatchID), _deleted: deleted.has(String(document.BatchID)) }));
      },
    },
  ],
};
