/**
 * Videos of boxes and rows (migration 0018) and the uploads that make them, and how a row becomes its
 * record. An upload's bytes so far are kept in the file store under `partKey` until the video is made.
 */
import type { Kysely, Selectable } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { VideoRecord, VideoUploadRecord } from '../../../common/schemas/videos';
import type { BoxVideosTable, DB, VideoUploadsTable } from '../../db/schema';
import { filePath } from '../files/storage';

export type BoxVideo = Selectable<BoxVideosTable>;
export type VideoUpload = Selectable<VideoUploadsTable>;

/**
 * Where an upload's bytes are kept until its video is made: beside the company's stored files, under
 * a folder of their own (stored files are `<company>/<file id>.<ext>`, so the two never meet).
 */
export const partKey = (companyId: number, clientId: string) => `parts/${companyId}/${clientId}.part`;

export const videoJson = (video: BoxVideo): VideoRecord => ({
  video_id: video.id,
  client_id: video.client_id,
  what: video.what,
  room_id: video.room_id,
  grid_id: video.grid_id,
  grid_box_id: video.grid_box_id,
  row: video.row_number,
  file: filePath(video.file_id),
  content_type: video.content_type,
  size_bytes: video.size_bytes,
  duration_ms: video.duration_ms,
  recorded_at: isoTime(video.recorded_at),
  recorded_by: video.recorded_by,
  company_id: video.company_id,
  created_at: isoTime(video.created_at),
  updated_at: isoTime(video.updated_at),
});

export const uploadJson = (upload: VideoUpload): VideoUploadRecord => ({
  client_id: upload.client_id,
  size_bytes: upload.size_bytes,
  received_bytes: upload.received_bytes,
  content_type: upload.content_type,
  finished: false,
});

/** A video made is an upload the server has whole. */
export const finishedUploadJson = (video: BoxVideo): VideoUploadRecord => ({
  client_id: video.client_id,
  size_bytes: video.size_bytes,
  received_bytes: video.size_bytes,
  content_type: video.content_type,
  finished: true,
});

export const videoQueries = {
  /**
   * An upload by its video's client id, of any company (the caller checks whose it is). `lock`: held
   * until the transaction ends, so two chunks (or a chunk and the finish) of one video take turns.
   */
  upload(db: Kysely<DB>, clientId: string, options: { lock?: boolean } = {}) {
    const query = db.selectFrom('video_uploads').selectAll().where('client_id', '=', clientId);
    return (options.lock ? query.forUpdate() : query).executeTakeFirst();
  },

  /** Starts an upload; one started meanwhile by another request (the same entry sent twice at once) stays as it is. */
  async startUpload(db: Kysely<DB>, upload: Omit<VideoUpload, 'received_bytes' | 'content_type' | 'started_at' | 'updated_at'>) {
    await db.insertInto('video_uploads').values(upload).onConflict((oc) => oc.column('client_id').doNothing()).execute();
  },

  /** Notes the bytes the server now has (and their type, once the first chunk showed it). */
  received: (db: Kysely<DB>, clientId: string, receivedBytes: number, contentType: VideoUpload['content_type']) =>
    db
      .updateTable('video_uploads')
      .set({ received_bytes: receivedBytes, content_type: contentType, updated_at: new Date() })
      .where('client_id', '=', clientId)
      .returningAll()
      .executeTakeFirstOrThrow(),

  removeUpload: (db: Kysely<DB>, clientId: string) => db.deleteFrom('video_uploads').where('client_id', '=', clientId).execute(),

  /**
   * Removes a company's uploads nobody has sent a chunk of since `before` (their tablets discarded
   * them, or can no longer send them) and answers their parts' keys, to remove from the store.
   */
  async removeStaleUploads(db: Kysely<DB>, companyId: number, before: Date): Promise<string[]> {
    const removed = await db.deleteFrom('video_uploads').where('company_id', '=', companyId).where('updated_at', '<', before).returning('storage_key').execute();
    return removed.map((row) => row.storage_key);
  },

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('box_videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The videos of any company with this client id, deleted ones too (the caller picks the one it may see). */
  byClientId: (db: Kysely<DB>, clientId: string) => db.selectFrom('box_videos').selectAll().where('client_id', '=', clientId).execute(),

  /** The live videos of a box and of its row, newest first. */
  ofBox: (db: Kysely<DB>, box: { id: number; grid_id: number; y: number }) =>
    db
      .selectFrom('box_videos')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('grid_box_id', '=', box.id), eb.and([eb('grid_id', '=', box.grid_id), eb('row_number', '=', box.y)])]))
      .orderBy('recorded_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),

  /** How many rows a grid has: its size, or more where boxes were added below it. */
  async rowsOf(db: Kysely<DB>, grid: { id: number; ny: number }): Promise<number> {
    const row = await db
      .selectFrom('grid_boxes')
      .select((eb) => eb.fn.max('y').as('rows'))
      .where('grid_id', '=', grid.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Math.max(grid.ny, Number(row?.rows ?? 0));
  },
};
