/**
 * A camera's images: recording one as it arrives (a fetch or a phone's upload) and the job that makes
 * its thumbnail and its analysis afterwards.
 *
 * Contract:
 * - `recordCameraImage(db, files, input)`: `db` is the caller's transaction. It stores the bytes (a
 *   `files` row of the camera's company, served by GET /api/files/{id}), writes the image row, moves
 *   the camera's state on (`ok`, failures cleared, last capture the latest of the images' times) and
 *   queues the image's job, all in that transaction: the image exists, and is analysed, if and only if
 *   the transaction commits. The bytes are written to the store first; a transaction that then rolls
 *   back leaves them unreferenced (as saveImage's do).
 * - `processCameraImage(deps, imageId, lastTry)`: the job. Idempotent: an image already analysed is
 *   left alone. Its thumbnail (a JPEG of at most THUMBNAIL_SIDE pixels, for lists and the time-lapse)
 *   and its analysis (analyse-capture.ts) are written together.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import sharp from 'sharp';
import type { CameraImageSource } from '../../../common/messages/cameras';
import type { CameraAnalysis } from '../../../common/schemas/cameras';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { sendJob } from '../../jobs/queue';
import { type FileStore, fileQueries, type ImageType } from '../files/storage';
import { analyseCapture } from './analyse-capture';
import type { Camera, CameraImage } from './queries';

/** The pg-boss queue of image jobs: `{imageId}`, one thumbnail and one analysis each. */
export const CAMERA_IMAGE_QUEUE = 'camera-image';

export interface CameraImageJob {
  imageId: number;
}

/** The longer side of a thumbnail: a list's or the time-lapse's frame on a tablet. */
export const THUMBNAIL_SIDE = 480;

const EXTENSIONS: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Stores bytes as a file of the company (checked by the caller); answers the file's id. */
async function storeFile(db: Kysely<DB>, files: FileStore, companyId: number, bytes: Buffer, type: ImageType, createdBy: number | null): Promise<string> {
  // The id is chosen first, so the bytes go to their final key before the row names them.
  const id = randomUUID();
  const key = `${companyId}/${id}.${EXTENSIONS[type]}`;
  await files.put(key, bytes);
  await db.insertInto('files').values({ id, company_id: companyId, storage_key: key, content_type: type, size_bytes: bytes.length, original_name: null, created_by: createdBy }).execute();
  return id;
}

export interface ArrivingImage {
  camera: Pick<Camera, 'id' | 'company_id'>;
  bytes: Buffer;
  type: ImageType;
  capturedAt: Date;
  source: CameraImageSource;
  /** The capture's own uuid (a phone's); absent: a new one. */
  clientId?: string | undefined;
}

/** Records an arriving image in the caller's transaction (see the module header); answers its row. */
export async function recordCameraImage(db: Kysely<DB>, files: FileStore, image: ArrivingImage): Promise<CameraImage> {
  const actor: Actor = { userId: null, companyId: image.camera.company_id };
  const fileId = await storeFile(db, files, image.camera.company_id, image.bytes, image.type, null);
  const { id } = await writer(db, actor).insert('camera_images', {
    camera_id: image.camera.id,
    company_id: image.camera.company_id,
    file_id: fileId,
    thumbnail_file_id: null,
    captured_at: image.capturedAt,
    analysis: null,
    source: image.source,
    ...(image.clientId ? { client_id: image.clientId } : {}),
  });
  // The camera's bookkeeping is the system's, not an edit: written directly, so updated_by stays the
  // Admin who last saved the camera. A photo kept offline and sent late does not move the last capture back.
  await db
    .updateTable('cameras')
    .set({ state: 'ok', failures: 0, last_error: null, last_capture_at: sql`GREATEST(last_capture_at, ${image.capturedAt}::timestamptz)` })
    .where('id', '=', image.camera.id)
    .execute();
  await sendJob<DB, CameraImageJob>(db, CAMERA_IMAGE_QUEUE, { imageId: id });
  return db.selectFrom('camera_images').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function thumbnailOf(bytes: Buffer): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { limitInputPixels: 64_000_000, autoOrient: true })
      .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
  } catch {
    // An image the decoder refuses has no thumbnail; its analysis says why.
    return null;
  }
}

export interface ImageJobDeps {
  db: Kysely<DB>;
  files: FileStore;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * The image job (see the module header). `lastTry`: the queue will not try again, so an analysis that
 * failed for another reason than the image or the model (ONNX Runtime itself) is recorded as failed.
 */
export async function processCameraImage(deps: ImageJobDeps, imageId: number, lastTry: boolean): Promise<void> {
  const image = await deps.db
    .selectFrom('camera_images')
    .innerJoin('cameras', 'cameras.id', 'camera_images.camera_id')
    .select(['camera_images.id', 'camera_images.company_id', 'camera_images.file_id', 'camera_images.thumbnail_file_id', 'camera_images.analysis', 'cameras.model_key'])
    .where('camera_images.id', '=', imageId)
    .where('camera_images.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!image || image.analysis !== null) return;
  const file = await fileQueries.byId(deps.db, image.file_id);
  // Removed meanwhile (retention): nothing to analyse.
  if (!file?.storage_key) return;
  const bytes = await deps.files.get(file.storage_key);
  let analysis: CameraAnalysis;
  try {
    analysis = await analyseCapture(deps, { companyId: image.company_id, modelKey: image.model_key, bytes });
  } catch (error) {
    if (!lastTry) throw error;
    deps.log.warn({ err: error, cameraImage: image.id }, 'a camera image could not be analysed');
    analysis = { type: 'failed', model_key: image.model_key, message: error instanceof Error ? error.message : String(error) };
  }
  const thumbnail = image.thumbnail_file_id === null ? await thumbnailOf(bytes) : null;
  await deps.db.transaction().execute(async (trx) => {
    const thumbnailId = thumbnail ? await storeFile(trx, deps.files, image.company_id, thumbnail, 'image/jpeg', null) : image.thumbnail_file_id;
    await trx
      .updateTable('camera_images')
      .set({ analysis: JSON.stringify(analysis), thumbnail_file_id: thumbnailId })
      .where('id', '=', image.id)
      .where('analysis', 'is', null)
      .execute();
  });
}
