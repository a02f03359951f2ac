/** Rooms (spec part 1 §3 offline-store fields). */
import type { Kysely } from 'kysely';
import type { DB, Room } from '../../db/schema';
import type { Actor } from '../../db/writes';

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

  /** Live rooms of a company, or the one named. */
  listed: (db: Kysely<DB>, companyId: number, roomId?: number) => {
    let query = db.selectFrom('rooms').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null);
    if (roomId !== undefined) query = query.where('id', '=', roomId);
    return query.orderBy('id').execute();
  },

  /** Live grids of the rooms, in one query. */
  gridsOfRooms: (db: Kysely<DB>, roomIds: number[]) =>
    db.selectFrom('grids').selectAll().where('room_id', 'in', roomIds.concat(-1)).where('deleted_at', 'is', null).orderBy('room_id').orderBy('id').execute(),

  /**
   * Tombstones a room's grids and their boxes in two bulk statements, by the writer's rules: deleted_at
   * and updated_by set; the track_change trigger bumps change_seq of each row.
   */
  async softDeleteContents(db: Kysely<DB>, actor: Actor, roomId: number) {
    const now = new Date();
    const grids = await db
      .updateTable('grids')
      .set({ deleted_at: now, updated_by: actor.userId })
      .where('room_id', '=', roomId)
      .where('company_id', '=', actor.companyId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .execute();
    await db
      .updateTable('grid_boxes')
      .set({ deleted_at: now, updated_by: actor.userId })
      .where((eb) => eb('grid_id', 'in', eb.selectFrom('grids').select('id').where('room_id', '=', roomId)))
      .where('company_id', '=', actor.companyId)
      .where('deleted_at', 'is', null)
      .execute();
    return grids.length;
  },

  setScrollOfAll: (db: Kysely<DB>, actor: Actor, value: number) =>
    db.updateTable('rooms').set({ start_scroll: value, updated_by: actor.userId }).where('company_id', '=', actor.companyId).where('deleted_at', 'is', null).executeTakeFirst(),
};
