/**
 * GET /api/files/{id}: an uploaded file, to users of its company only. Images are shown by the app
 * through an authenticated fetch (a Blob URL), so no file is reachable without an access token.
 */
import { z } from 'zod';
import { fileMessages as m } from '../../../common/messages/files';
import { notFound } from '../../http/errors';
import { assertCompanyAccess } from '../../http/guards';
import type { App, RequestOf } from '../../http/route';
import type { FastifyReply } from 'fastify';
import { fileQueries } from './storage';

const fileSchema = { params: z.object({ id: z.uuid({ error: m.notFound }) }) };

async function getFile(request: RequestOf<typeof fileSchema>, reply: FastifyReply) {
  const file = await fileQueries.byId(request.db, request.params.id);
  if (!file || !file.storage_key) throw notFound(m.notFound);
  assertCompanyAccess(request, file.company_id);
  const bytes = await request.server.deps.files.get(file.storage_key).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Known to the database but not to this instance's storage: with several instances, DATA_DIR/uploads
    // must be shared (README "Running several instances").
    request.log.error({ file: file.id, storageKey: file.storage_key }, 'an uploaded file is missing from this instance’s storage');
    throw notFound(m.notFound);
  });
  return reply
    .header('Content-Type', file.content_type)
    .header('Cache-Control', 'private, max-age=31536000, immutable')
    .header('Content-Disposition', 'inline')
    .send(bytes);
}

export async function fileRoutes(app: App) {
  app.get('/files/:id', { schema: fileSchema }, getFile);
}
