/** Rooms (spec part 1 §3 offline-store fields). */
import type { Kysely } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { RoomRecord } from '../../../common/schemas/rooms';
import type { DB, Room } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { gridQueries } from '../grids/queries';

/** A room as the API and the synced `rooms` collection show it. */
export const roomJson = (room: Room): RoomRecord => ({
  RoomID: room.id,
  CompanyID: room.company_id,
  Name: room.name,
  Description: room.description,
  CreatedDateTime: isoTime(room.created_at),
  UpdatedDateTime: isoTime(room.updated_at),
  Scanned: room.scanned,
  ScannedDateTime: isoTime(room.scanned_at),
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

  /** Tombstones a room's grids, their boxes and sub-gridboxes, three statements whatever their number; returns how many grids. */
  async softDeleteContents(db: Kysely<DB>, actor: Actor, roomId: number) {
    const gridIds = await writer(db, actor).softDeleteWhere('grids', 'room_id', [roomId]);
    await gridQueries.softDeleteBoxes(db, actor, gridIds);
    return gridIds;
  },

  setScrollOfAll: (db: Kysely<DB>, actor: Actor, value: number) =>
    db.updateTable('rooms').set({ start_scroll: value, updated_by: actor.userId }).where('company_id', '=', actor.companyId).where('deleted_at', 'is', null).executeTakeFirst(),
};
