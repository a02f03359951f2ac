/**
 * Uploaded files: checked by their bytes (never by the name or the declared type), stored by a
 * `FileStore` under DATA_DIR/uploads, recorded in `files` with the owning company, and served only to
 * that company's users by GET /api/files/{id}. An S3-compatible store can implement `FileStore` later.
 */
import { copyFile, link, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { fileMessages as m } from '../../../common/messages/files';
import type { DB } from '../../db/schema';
import { HttpError, badRequest } from '../../http/errors';
import { caller } from '../../http/guards';

export interface FileStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /**
   * Writes `bytes` at `position` of the file under `key` (made if missing) and cuts the file just after
   * them: the next chunk of a resumable upload (videos/routes.ts), whatever a cut attempt left beyond.
   */
  writeAt(key: string, position: number, bytes: Buffer): Promise<void>;
  /** Keeps the file under `from` also under `to` (a hard link where the store allows one, else a copy). */
  copy(from: string, to: string): Promise<void>;
  /** Removes the file under `key`; one already gone is no error. */
  remove(key: string): Promise<void>;
}

export function localFileStore(root: string): FileStore {
  const path = (key: string) => join(root, ...key.split('/'));
  return {
    async put(key, bytes) {
      await mkdir(dirname(path(key)), { recursive: true });
      await writeFile(path(key), bytes, { mode: 0o600 });
    },
    get: (key) => readFile(path(key)),
    async writeAt(key, position, bytes) {
      await mkdir(dirname(path(key)), { recursive: true });
      // 'r+' writes where asked (an append mode would not); a file not there yet is made.
      const file = await open(path(key), 'r+').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return open(path(key), 'w', 0o600);
      });
      try {
        await file.write(bytes, 0, bytes.length, position);
        await file.truncate(position + bytes.length);
      } finally {
        await file.close();
      }
    },
    async copy(from, to) {
      await mkdir(dirname(path(to)), { recursive: true });
      await rm(path(to), { force: true });
      // A link shares the bytes at no cost; across file systems (or where links are refused) they are copied.
      await link(path(from), path(to)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV' && error.code !== 'EPERM' && error.code !== 'ENOTSUP') throw error;
        return copyFile(path(from), path(to));
      });
    },
    remove: (key) => rm(path(key), { force: true }),
  };
}

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

const EXTENSIONS: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The image type the bytes really are, from their signature; null for anything else. */
export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Stores an uploaded image for the caller's company (inside the request's transaction) and returns
 * its id and the path it is served from. Multipart fields arrive as Buffers (app.ts); a missing file
 * answers 400, another type 415; the size limit (413) is enforced while the upload is read.
 */
export async function saveImage(request: FastifyRequest, upload: unknown, companyId: number): Promise<{ id: string; path: string }> {
  if (!Buffer.isBuffer(upload) || upload.length === 0) throw badRequest(m.imageRequired);
  const type = sniffImageType(upload);
  if (!type) throw new HttpError(415, m.imageType);
  const auth = caller(request);
  const { id } = await request.db
    .insertInto('files')
    .values({ company_id: companyId, storage_key: '', content_type: type, size_bytes: upload.length, original_name: null, created_by: auth.user_id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = `${companyId}/${id}.${EXTENSIONS[type]}`;
  await request.server.deps.files.put(key, upload);
  await request.db.updateTable('files').set({ storage_key: key }).where('id', '=', id).execute();
  return { id, path: filePath(id) };
}

/**
 * Stores a file that is not an image (an ONNX model) for a company, inside the request's transaction,
 * and returns its id. WARNING: the caller has already checked the bytes by their content (the model's
 * route opens the file before saving it); this only records and stores them. `extension` names the
 * stored file (`onnx`); GET /api/files/{id} serves it to the company's users with `contentType`.
 */
export async function saveFile(request: FastifyRequest, bytes: Buffer, companyId: number, contentType: string, extension: string): Promise<{ id: string }> {
  const auth = caller(request);
  const { id } = await request.db
    .insertInto('files')
    .values({ company_id: companyId, storage_key: '', content_type: contentType, size_bytes: bytes.length, original_name: null, created_by: auth.user_id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = `${companyId}/${id}.${extension}`;
  await request.server.deps.files.put(key, bytes);
  await request.db.updateTable('files').set({ storage_key: key }).where('id', '=', id).execute();
  return { id };
}

/** Where a stored file is served from (the value kept in ImageName, WhiteboardImage, …). */
export const filePath = (id: string) => `/api/files/${id}`;

export type VideoType = 'video/webm' | 'video/mp4';

/**
 * The video container the bytes start as, from their signature; null for anything else. WebM (and
 * Matroska) start with the EBML header 1A 45 DF A3; MP4 (and QuickTime) with a box whose type, at
 * bytes 4 to 8, is `ftyp`.
 */
export function sniffVideoType(bytes: Buffer): VideoType | null {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return 'video/mp4';
  return null;
}

/**
 * Records, inside the request's transaction, a file whose bytes the store already holds under `key`
 * (a finished resumable upload) as a stored file of the company, and answers its id. The bytes are kept
 * under the file's own key too (a link, else a copy); `key` stays for the caller to remove once the
 * transaction has committed (a rolled-back one leaves it, for the upload to finish again).
 * WARNING: the caller has already checked the bytes by their content.
 */
export async function saveStoredFile(request: FastifyRequest, key: string, file: { companyId: number; contentType: string; extension: string; sizeBytes: number }): Promise<{ id: string; path: string }> {
  const auth = caller(request);
  const { id } = await request.db
    .insertInto('files')
    .values({ company_id: file.companyId, storage_key: '', content_type: file.contentType, size_bytes: file.sizeBytes, original_name: null, created_by: auth.user_id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const storageKey = `${file.companyId}/${id}.${file.extension}`;
  await request.server.deps.files.copy(key, storageKey);
  await request.db.updateTable('files').set({ storage_key: storageKey }).where('id', '=', id).execute();
  return { id, path: filePath(id) };
}

export const fileQueries = {
  byId: (db: Kysely<DB>, id: string) => db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst(),
};
