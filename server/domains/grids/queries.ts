/** Grids and their grid boxes (spec part 1 §3 offline-store fields). */
import type { Kysely } from 'kysely';
import { boxClientId } from '../../../common/client-ids';
import { isoTime } from '../../../common/schemas/answers';
import type { GridBoxRecord, GridRecord } from '../../../common/schemas/grids';
import type { DB, Grid, GridBox } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';

export const gridJson = (grid: Grid): GridRecord => ({
  id: grid.id,
  Name: grid.name,
  CompanyID: grid.company_id,
  RoomID: grid.room_id,
  CreatedDateTime: isoTime(grid.created_at),
  UpdatedDateTime: isoTime(grid.updated_at),
  Description: grid.description,
  ImageName: grid.image_name,
  Scanned: grid.scanned,
  ScannedDateTime: isoTime(grid.scanned_at),
  LastScannedBy: grid.last_scanned_by,
  nx: grid.nx,
  ny: grid.ny,
});

/** The columns a box's JSON shows: loading 10,000 boxes moves only these (the rest is bookkeeping). */
const GRID_BOX_COLUMNS = ['id', 'grid_id', 'company_id', 'x', 'y', 'color', 'status', 'content', 'image_name', 'custom_name', 'culled', 'culled_by', 'culled_at'] as const;
type GridBoxShown = Pick<GridBox, (typeof GRID_BOX_COLUMNS)[number]>;

export const gridBoxJson = (box: GridBoxShown): GridBoxRecord => ({
  id: box.id,
  GridID: box.grid_id,
  CompanyID: box.company_id,
  X: box.x,
  Y: box.y,
  Color: box.color,
  Status: box.status,
  Content: box.content,
  ImageName: box.image_name,
  CustomName: box.custom_name,
  culled: box.culled,
  CulledBy: box.culled_by,
  CulledDateTime: isoTime(box.culled_at),
});

/** Rows per statement of box client ids (as writes.ts INSERT_SLICE: PGlite's one connection is not held long). */
const CLIENT_ID_SLICE = 1000;

export const gridQueries = {
  /**
   * A grid of nx × ny boxes in a room, at positions X = 1…nx, Y = 1…ny (spec: Create_grid; also used
   * by submit_grid_template). Returns the grid's id. Its client id is the one given, else a new one;
   * each box's is derived from the grid's and its position (`boxClientId`), as the tablet derives it.
   */
  async createWithBoxes(
    db: Kysely<DB>,
    actor: Actor,
    grid: { roomId: number; name: string; nx: number; ny: number; description?: string | null; clientId?: string },
  ): Promise<number> {
    const write = writer(db, actor);
    const created = await write.insert('grids', {
      client_id: grid.clientId,
      company_id: actor.companyId,
      room_id: grid.roomId,
      name: grid.name,
      description: grid.description ?? null,
      nx: grid.nx,
      ny: grid.ny,
      image_name: null,
      scanned_at: null,
      last_scanned_by: null,
    });
    const boxes = [];
    for (let y = 1; y <= grid.ny; y += 1) {
      for (let x = 1; x <= grid.nx; x += 1) boxes.push({ company_id: actor.companyId, grid_id: created.id, x, y });
    }
    const inserted = await write.insertMany('grid_boxes', boxes);
    const clientIds = inserted.map((box) => ({ client_id: boxClientId(created.client_id, box.x, box.y), company_id: actor.companyId, grid_box_id: box.id }));
    for (let start = 0; start < clientIds.length; start += CLIENT_ID_SLICE) {
      await db.insertInto('grid_box_client_ids').values(clientIds.slice(start, start + CLIENT_ID_SLICE)).execute();
    }
    return created.id;
  },

  boxesOfGrids: (db: Kysely<DB>, gridIds: number[]) =>
    db.selectFrom('grid_boxes').select(GRID_BOX_COLUMNS).where('grid_id', 'in', gridIds.concat(-1)).where('deleted_at', 'is', null).orderBy('grid_id').orderBy('y').orderBy('x').execute(),

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('grids').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  boxById: (db: Kysely<DB>, id: number) => db.selectFrom('grid_boxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  /** A box and the room of its grid, in one read (what a change to a box records in the audit trail). */
  boxWithRoom: (db: Kysely<DB>, id: number) =>
    db.selectFrom('grid_boxes').innerJoin('grids', 'grids.id', 'grid_boxes.grid_id').selectAll('grid_boxes').select('grids.room_id').where('grid_boxes.id', '=', id).executeTakeFirstOrThrow(),

  /** Tombstones the grids' boxes and the sub-gridboxes in them, two statements whatever their number. */
  async softDeleteBoxes(db: Kysely<DB>, actor: Actor, gridIds: number[]) {
    const write = writer(db, actor);
    const boxIds = await write.softDeleteWhere('grid_boxes', 'grid_id', gridIds);
    await write.softDeleteWhere('sub_gridboxes', 'parent_gridbox_id', boxIds);
    return boxIds;
  },

  culledBoxes: (db: Kysely<DB>, gridId: number) =>
    db.selectFrom('grid_boxes').selectAll().where('grid_id', '=', gridId).where('culled', '=', true).where('deleted_at', 'is', null).orderBy('y').orderBy('x').execute(),

  /** Audit events about one plant position, oldest first. */
  boxHistory: (db: Kysely<DB>, companyId: number, gridBoxId: number) =>
    db
      .selectFrom('audit_events')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('grid_box_id', '=', gridBoxId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
};
