/** Rooms (spec part 1 §3 offline-store fields). */
import type { Kysely } from 'kysely';
import type { DB, Room } from '../../db/schema';

/** A room as the API and the synced `rooms` collection show it. */
export const roomJson = (room: Room) => ({
  RoomID: room.id,
  CompanyID: room.company_id,
  Name: room.name,
  Description: room.description,
  CreatedDateTime: room.created_at,
  UpdatedDateTime: room.updated_at,
  Scanned: room.scanned,
  ScannedDateTime: room.scanned_at,
  LastScannedBy: room.last_scanned_by,
  WhiteboardImage: room.whiteboard_image,
  StartScroll: room.start_scroll,
});

export const roomQueries = {
  byCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('rooms').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute(),
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('rooms').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
};
