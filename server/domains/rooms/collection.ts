/** The `rooms` collection: one document per room with its scan state, scroll and whiteboard. */
import { roomRecord } from '../../../common/schemas/rooms';
import type { Room } from '../../db/schema';
import type { SyncCollection } from '../replication/sync-collection';
import { roomJson } from './queries';

export const roomsCollection: SyncCollection = {
  name: 'rooms',
  tables: ['rooms'],
  sources: [
    {
      table: 'rooms',
      companyColumn: 'company_id',
      named: { kind: 'room', references: { RoomID: 'room' } },
      document: roomRecord,
      async toDocuments(_db, rows) {
        return (rows as unknown as Room[]).map((room) => ({ id: String(room.id), _deleted: room.deleted_at !== null, ...roomJson(room) }));
      },
    },
  ],
};
