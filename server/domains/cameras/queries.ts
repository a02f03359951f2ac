/**
 * The camera domain's queries, defined once, and the answers' shapes (common/schemas/cameras.ts).
 *
 * `cameraImagesOfCompany` is what the scan history (issue 17) lists camera captures with: the
 * company's images across its cameras, newest first, with each one's camera and room.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { CAMERA_MAX_INTERVAL_MINUTES } from '../../../common/messages/cameras';
import { isoTime } from '../../../common/schemas/answers';
import type { CameraCaptureRecord, CameraImageRecord, CameraLimits, CameraRecord, DeviceTokenRecord } from '../../../common/schemas/cameras';
import type { CameraDeviceTokensTable, CameraImagesTable, CamerasTable, DB } from '../../db/schema';
import { filePath } from '../files/storage';
import { maskSnapshotUrl } from './snapshot-url';

export type Camera = Selectable<CamerasTable>;
export type CameraImage = Selectable<CameraImagesTable>;
export type DeviceToken = Selectable<CameraDeviceTokensTable>;

/** A camera with the names of where it looks, its last image and its live links (get_cameras' row). */
export type CameraListed = Camera & {
  room_name: string | null;
  grid_name: string | null;
  grid_box_name: string | null;
  active_device_links: number;
  last_image: CameraImage | null;
};

export interface Page {
  start?: Date | undefined;
  end?: Date | undefined;
  page: number;
  per_page: number;
}

/** How a grid box is named where no custom name is set (as the audit trail names boxes). */
const boxName = sql<string | null>`CASE WHEN grid_boxes.id IS NULL THEN NULL ELSE COALESCE(grid_boxes.custom_name, grid_boxes.x || ',' || grid_boxes.y) END`;

export const cameraQueries = {
  live: (db: Kysely<DB>, id: number) => db.selectFrom('cameras').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /** Whatever its state (a deleted camera's row too): for the tenancy check before "not found". */
  anyById: (db: Kysely<DB>, id: number) => db.selectFrom('cameras').select(['id', 'company_id', 'deleted_at']).where('id', '=', id).executeTakeFirst(),

  /** The company's live cameras by name (or the one `cameraId`), with what get_cameras shows of each. */
  async listed(db: Kysely<DB>, companyId: number, cameraId?: number): Promise<CameraListed[]> {
    let query = db
      .selectFrom('cameras')
      .leftJoin('rooms', 'rooms.id', 'cameras.room_id')
      .leftJoin('grids', 'grids.id', 'cameras.grid_id')
      .leftJoin('grid_boxes', 'grid_boxes.id', 'cameras.grid_box_id')
      .selectAll('cameras')
      .select([
        'rooms.name as room_name',
        'grids.name as grid_name',
        boxName.as('grid_box_name'),
        sql<number>`(SELECT count(*)::int FROM camera_device_tokens t WHERE t.camera_id = cameras.id AND t.revoked_at IS NULL)`.as('active_device_links'),
      ])
      .where('cameras.company_id', '=', companyId)
      .where('cameras.deleted_at', 'is', null);
    if (cameraId !== undefined) query = query.where('cameras.id', '=', cameraId);
    const cameras = await query.orderBy('cameras.name').orderBy('cameras.id').execute();
    if (cameras.length === 0) return [];
    // The newest image of each, in one statement.
    const { rows: lastImages } = await sql<CameraImage>`
      SELECT DISTINCT ON (camera_id) * FROM camera_images
      WHERE camera_id = ANY(${cameras.map((camera) => camera.id)}::integer[]) AND deleted_at IS NULL
      ORDER BY camera_id, captured_at DESC, id DESC`.execute(db);
    const lastOf = new Map(lastImages.map((image) => [image.camera_id, image]));
    return cameras.map((camera) => ({ ...camera, last_image: lastOf.get(camera.id) ?? null }));
  },

  /** A camera's images, newest first (by the camera's time), a page at a time, with how many there are in all. */
  async images(db: Kysely<DB>, cameraId: number, page: Page): Promise<{ images: CameraImage[]; total: number }> {
    let query = db.selectFrom('camera_images').where('camera_id', '=', cameraId).where('deleted_at', 'is', null);
    if (page.start) query = query.where('captured_at', '>=', page.start);
    if (page.end) query = query.where('captured_at', '<=', page.end);
    const images = await query
      .selectAll()
      .orderBy('captured_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page)
      .execute();
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return { images, total: Number(total) };
  },

  imageByClientId: (db: Kysely<DB>, cameraId: number, clientId: string) =>
    db.selectFrom('camera_images').selectAll().where('camera_id', '=', cameraId).where('client_id', '=', clientId).executeTakeFirst(),

  tokensOf: (db: Kysely<DB>, cameraId: number) => db.selectFrom('camera_device_tokens').selectAll().where('camera_id', '=', cameraId).orderBy('id', 'desc').execute(),

  tokenById: (db: Kysely<DB>, id: number) => db.selectFrom('camera_device_tokens').selectAll().where('id', '=', id).executeTakeFirst(),

  /** The live camera a token that is not revoked opens (none for an unknown or revoked token, or a deleted camera). */
  cameraOfToken: (db: Kysely<DB>, tokenHash: string) =>
    db
      .selectFrom('camera_device_tokens')
      .innerJoin('cameras', 'cameras.id', 'camera_device_tokens.camera_id')
      .selectAll('cameras')
      .select('camera_device_tokens.id as token_id')
      .where('camera_device_tokens.token_hash', '=', tokenHash)
      .where('camera_device_tokens.revoked_at', 'is', null)
      .where('cameras.deleted_at', 'is', null)
      .executeTakeFirst(),

  /** Revokes the links of a camera (all of them, or the one `tokenId`) that are not revoked yet; answers them as revoked. */
  revokeTokens(db: Kysely<DB>, which: { cameraId: number } | { tokenId: number }, by: number | null, at: Date) {
    const [column, id] = 'cameraId' in which ? (['camera_id', which.cameraId] as const) : (['id', which.tokenId] as const);
    return db.updateTable('camera_device_tokens').set({ revoked_at: at, revoked_by: by }).where(column, '=', id).where('revoked_at', 'is', null).returningAll().execute();
  },
};

/** The company's camera images across its cameras (of one room when given), newest first, with their camera and room. */
export async function cameraImagesOfCompany(db: Kysely<DB>, companyId: number, filter: Page & { roomId?: number | undefined }): Promise<{ captures: CameraCaptureRecord[]; total: number }> {
  let query = db
    .selectFrom('camera_images')
    .innerJoin('cameras', 'cameras.id', 'camera_images.camera_id')
    .leftJoin('rooms', 'rooms.id', 'cameras.room_id')
    .where('camera_images.company_id', '=', companyId)
    .where('camera_images.deleted_at', 'is', null);
  if (filter.roomId !== undefined) query = query.where('cameras.room_id', '=', filter.roomId);
  if (filter.start) query = query.where('camera_images.captured_at', '>=', filter.start);
  if (filter.end) query = query.where('camera_images.captured_at', '<=', filter.end);
  const rows = await query
    .selectAll('camera_images')
    .select(['cameras.name as camera_name', 'cameras.room_id', 'cameras.grid_id', 'rooms.name as room_name'])
    .orderBy('camera_images.captured_at', 'desc')
    .orderBy('camera_images.id', 'desc')
    .limit(filter.per_page)
    .offset((filter.page - 1) * filter.per_page)
    .execute();
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return {
    captures: rows.map((row) => ({ ...cameraImageJson(row), camera_name: row.camera_name, room_id: row.room_id, room_name: row.room_name, grid_id: row.grid_id })),
    total: Number(total),
  };
}

export function cameraImageJson(image: CameraImage): CameraImageRecord {
  return {
    image_id: image.id,
    camera_id: image.camera_id,
    company_id: image.company_id,
    file_id: image.file_id,
    image_path: filePath(image.file_id),
    thumbnail_path: image.thumbnail_file_id === null ? null : filePath(image.thumbnail_file_id),
    captured_at: isoTime(image.captured_at),
    received_at: isoTime(image.created_at),
    source: image.source,
    analysis: image.analysis,
  };
}

/** A camera as answered; its snapshot address masked, and only for Admins (`showAddress`). */
export function cameraJson(camera: CameraListed, showAddress: boolean): CameraRecord {
  return {
    camera_id: camera.id,
    company_id: camera.company_id,
    name: camera.name,
    room_id: camera.room_id,
    room_name: camera.room_name,
    grid_id: camera.grid_id,
    grid_name: camera.grid_name,
    grid_box_id: camera.grid_box_id,
    grid_box_name: camera.grid_box_name,
    kind: camera.kind,
    snapshot_url: showAddress && camera.snapshot_url !== null ? maskSnapshotUrl(camera.snapshot_url) : null,
    interval_minutes: camera.interval_seconds / 60,
    interval_seconds: camera.interval_seconds,
    model_key: camera.model_key,
    enabled: camera.enabled,
    state: camera.state,
    last_capture_at: isoTime(camera.last_capture_at),
    last_error: camera.last_error,
    failures: camera.failures,
    next_capture_at: camera.kind === 'ip' && camera.enabled ? isoTime(camera.next_capture_at) : null,
    active_device_links: camera.active_device_links,
    last_image: camera.last_image ? cameraImageJson(camera.last_image) : null,
    created_by: camera.created_by,
    created_at: isoTime(camera.created_at),
    updated_at: isoTime(camera.updated_at),
  };
}

export function deviceTokenJson(token: DeviceToken): DeviceTokenRecord {
  return {
    token_id: token.id,
    camera_id: token.camera_id,
    created_by: token.created_by,
    created_at: isoTime(token.created_at),
    revoked_at: isoTime(token.revoked_at),
    revoked_by: token.revoked_by,
    last_used_at: isoTime(token.last_used_at),
  };
}

/** The operator's bounds, as get_cameras answers them for the form. */
export const cameraLimitsOf = (minIntervalSeconds: number): CameraLimits => ({ min_interval_seconds: minIntervalSeconds, max_interval_minutes: CAMERA_MAX_INTERVAL_MINUTES });
