/**
 * Uploaded files: checked by their bytes (never by the name or the declared type), stored by a
 * `FileStore` under DATA_DIR/uploads, recorded in `files` with the owning company, and served only to
 * that company's users by GET /api/files/{id}. An S3-compatible store can implement `FileStore` later.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
}

export function localFileStore(root: string): FileStore {
  const path = (key: string) => join(root, ...key.split('/'));
  return {
    async put(key, bytes) {
      await mkdir(dirname(path(key)), { recursive: true });
      await writeFile(path(key), bytes, { mode: 0o600 });
    },
    get: (key) => readFile(path(key)),
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

/** Where a stored file is served from (the value kept in ImageName, WhiteboardImage, …). */
export const filePath = (id: string) => `/api/files/${id}`;

export const fileQueries = {
  byId: (db: Kysely<DB>, id: string) => db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst(),
};
