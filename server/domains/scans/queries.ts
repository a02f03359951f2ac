/** Scan state of rooms and grids, scans, and whiteboard history (spec part 1 §3, §4, §8). */
import type { Kysely } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { GridBackgroundRecord, ScanDetailsRecord, WhiteboardImageRecord } from '../../../common/schemas/scans';
import type { DB, Grid } from '../../db/schema';
import { filePath } from '../files/storage';
import { personName } from '../users/queries';

type ScannedTable = 'rooms' | 'grids';

export const scanQueries = {
  /** A room's or grid's scan state, with the last scanner's name. */
  details: (db: Kysely<DB>, table: ScannedTable, id: number) =>
    db
      .selectFrom(table)
      .leftJoin('users', 'users.id', `${table}.last_scanned_by`)
      .select([`${table}.scanned`, `${table}.scanned_at`, `${table}.last_scanned_by`, 'users.first_name', 'users.last_name'])
      .where(`${table}.id`, '=', id)
      .executeTakeFirstOrThrow(),
  /** Ids of the company's live rooms or grids that carry any scan state. */
  scannedIds: async (db: Kysely<DB>, table: ScannedTable, companyId: number) => {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('scanned', '=', true), eb('scanned_at', 'is not', null), eb('last_scanned_by', 'is not', null)]))
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  },
  scanById: (db: Kysely<DB>, id: number) => db.selectFrom('scans').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  addWhiteboardImage: (db: Kysely<DB>, row: { companyId: number; roomId: number; fileId: string; uploadedBy: number; uploadedAt: Date }) =>
    db
      .insertInto('whiteboard_images')
      .values({ company_id: row.companyId, room_id: row.roomId, file_id: row.fileId, uploaded_by: row.uploadedBy, created_at: row.uploadedAt })
      .returning('id')
      .executeTakeFirstOrThrow(),
  whiteboardHistory: (db: Kysely<DB>, roomId: number) =>
    db.selectFrom('whiteboard_images').selectAll().where('room_id', '=', roomId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
  gridsOfRoom: (db: Kysely<DB>, roomId: number) =>
    db.selectFrom('grids').selectAll().where('room_id', '=', roomId).where('deleted_at', 'is', null).orderBy('id').execute(),
};

export const scanDetailsJson = (row: Awaited<ReturnType<typeof scanQueries.details>>): ScanDetailsRecord => ({
  Scanned: row.scanned,
  ScannedDateTime: isoTime(row.scanned_at),
  LastScannedBy: row.last_scanned_by,
  LastScannedByName: personName(row),
});

export const whiteboardJson = (row: Awaited<ReturnType<typeof scanQueries.whiteboardHistory>>[number]): WhiteboardImageRecord => ({
  id: row.id,
  ImagePath: filePath(row.file_id),
  UploadedBy: row.uploaded_by,
  UploadedAt: isoTime(row.created_at),
});

export const gridBackgroundJson = (grid: Grid): GridBackgroundRecord => ({ id: grid.id, Name: grid.name, ImageName: grid.image_name });
