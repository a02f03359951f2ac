/**
 * Videos of a box or of a row of a grid (issue 17; not in the spec, named in its style). A tablet
 * records one, offline too, and uploads it when it has signal; a video of tens of MB cut at 90 % must
 * not start over, so the upload is resumable:
 *
 *   POST /start_video_upload            {client_id, what, grid_box_id | grid_id + row, size_bytes, …}
 *                                       starts it, or answers how much the server has (`received_bytes`)
 *   POST /upload_video_chunk?client_id=&offset=   multipart `chunk`: the bytes from `offset` on
 *   GET  /get_video_upload?client_id=   how much the server has
 *   POST /finish_video_upload?client_id=          makes the video once the server has every byte
 *
 * The upload and its video are named by the video's client id. A chunk may repeat bytes the server
 * has (its answer was lost): only what follows them is written. A chunk that starts past them answers
 * 409 with `received_bytes`, where to go on from. Finishing twice makes one video (the client id is the
 * video's), and its act's time is the X-Acted-At of the finish: when the grower recorded it.
 *
 * Why not tus (`@tus/server` + `tus-js-client`), the well-kept protocol for this: the client sends its
 * own requests, retries on its own schedule and remembers uploads in localStorage (absent in the sync
 * worker), beside the app's one HTTP client; but a queued video must travel as an outbox entry, sent
 * under its author's session with the token refresh of src/api/client.ts, retried and failed as every
 * other entry is (sync/replay.ts). On the server, @tus/server answers requests outside the routes'
 * schemas, guards, transactions, envelope and API description, and keeps its own files and metadata
 * beside `files`. The protocol's idea (ask the offset, send from there) is what is kept, in four calls
 * of the spec's style that go through all of those.
 *
 * Tenancy: the box or grid named is checked by the guard (another company's answers 403); an upload
 * or video named by client id is checked here once loaded (`assertCompanyAccess`, 403). Any member
 * records videos; Admins delete them. The bytes are checked by their content (WebM or MP4, 415) and
 * size (VIDEO_MAX_BYTES, 413), and served by GET /api/files/{id} to the company's users only.
 */
import { ACTED_AT_MAX_AGE_DAYS } from '../../http/acted-at';
import { auditTitles } from '../../../common/messages/audit-titles';
import { VIDEO_CHUNK_MAX_BYTES, VIDEO_MAX_BYTES, videoMessages as m } from '../../../common/messages/videos';
import {
  boxVideosAnswer,
  boxVideosQuery,
  deleteVideoAnswer,
  startVideoUploadBody,
  uploadVideoChunkBody,
  uploadVideoChunkQuery,
  videoAnswer,
  videoClientIdQuery,
  videoUploadAnswer,
} from '../../../common/schemas/videos';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { writer } from '../../db/writes';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors';
import { assertCompanyAccess, caller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { saveStoredFile, sniffVideoType } from '../files/storage';
import { gridQueries } from '../grids/queries';
import { type BoxVideo, finishedUploadJson, partKey, uploadJson, videoJson, videoQueries } from './queries';

const startSchema = { body: startVideoUploadBody, response: { 200: videoUploadAnswer } };
const uploadStateSchema = { querystring: videoClientIdQuery, response: { 200: videoUploadAnswer } };
const chunkSchema = { querystring: uploadVideoChunkQuery, body: uploadVideoChunkBody, response: { 200: videoUploadAnswer } };
const finishSchema = { querystring: videoClientIdQuery, response: { 200: videoAnswer } };
const boxVideosSchema = { querystring: boxVideosQuery, response: { 200: boxVideosAnswer } };
const deleteSchema = { querystring: videoClientIdQuery, response: { 200: deleteVideoAnswer } };

const DAY_MS = 86_400_000;

/** Where a video is: a box (with its grid and room), or a row of a grid (with its room). */
interface Place {
  companyId: number;
  roomId: number;
  gridId: number;
  gridBoxId: number | null;
  row: number | null;
  /** The audit title of a video recorded there (the box's name, else its column and row, and its grid's name; or the row and grid). */
  recordedTitle: string;
}

/** What a video is of, as a start names it (ids already resolved and guarded) or an upload keeps it. */
interface Subject {
  what: 'box' | 'row';
  gridBoxId: number | null;
  gridId: number | null;
  row: number | null;
}

/**
 * The place of a video: a box's grid and room, or a row's grid and room. `checkRow`: a row must be in
 * its grid (when an upload starts; the grid may have shrunk by the time it finishes).
 */
async function placeOf(db: Kysely<DB>, subject: Subject, checkRow: boolean): Promise<Place> {
  if (subject.what === 'box') {
    const box = await gridQueries.boxById(db, subject.gridBoxId as number);
    const grid = await gridQueries.byId(db, box.grid_id);
    return { companyId: box.company_id, roomId: grid.room_id, gridId: grid.id, gridBoxId: box.id, row: null, recordedTitle: auditTitles.recordedBoxVideo(box.custom_name ?? `${box.x},${box.y}`, grid.name) };
  }
  const grid = await gridQueries.byId(db, subject.gridId as number);
  const row = subject.row as number;
  if (checkRow) {
    const rows = await videoQueries.rowsOf(db, grid);
    if (row > rows) throw badRequest(m.rowOutsideGrid(row, rows));
  }
  return { companyId: grid.company_id, roomId: grid.room_id, gridId: grid.id, gridBoxId: null, row, recordedTitle: auditTitles.recordedRowVideo(row, grid.name) };
}

/**
 * The video made under this client id that the caller may see (its own company's, or any for a
 * SuperAdmin), deleted ones too; null when there is none. One of another company only answers 403.
 */
async function madeVideo(request: FastifyRequest, clientId: string): Promise<BoxVideo | null> {
  const videos = await videoQueries.byClientId(request.db, clientId);
  const claims = caller(request);
  const own = videos.find((video) => video.company_id === claims.company_id) ?? (claims.user_role === 'SuperAdmin' ? videos[0] : undefined);
  if (own) return own;
  if (videos[0]) assertCompanyAccess(request, videos[0].company_id);
  return null;
}

async function startVideoUpload(request: RequestOf<typeof startSchema>) {
  const body = request.body;
  if (body.size_bytes > VIDEO_MAX_BYTES) throw new HttpError(413, m.tooLarge);
  const place = await placeOf(request.db, { what: body.what, gridBoxId: body.grid_box_id ?? null, gridId: body.grid_id ?? null, row: body.row ?? null }, true);
  const existing = await videoQueries.upload(request.db, body.client_id, { lock: true });
  if (existing) {
    assertCompanyAccess(request, existing.company_id);
    // The same entry sent again (its answer was lost, or the tablet reloaded): where it stands.
    if (existing.company_id !== place.companyId || existing.size_bytes !== body.size_bytes) throw conflict(m.startedDifferently);
    return success({ upload: uploadJson(existing) });
  }
  const made = await madeVideo(request, body.client_id);
  if (made) return success({ upload: finishedUploadJson(made) });
  // Uploads their tablets gave up on (a discarded entry) go after the time an outbox entry can wait.
  const stale = await videoQueries.removeStaleUploads(request.db, place.companyId, new Date(Date.now() - ACTED_AT_MAX_AGE_DAYS * DAY_MS));
  if (stale.length > 0) request.afterCommit(async () => void (await Promise.all(stale.map((key) => request.server.deps.files.remove(key)))));
  await videoQueries.startUpload(request.db, {
    client_id: body.client_id,
    company_id: place.companyId,
    user_id: caller(request).user_id,
    what: body.what,
    room_id: place.roomId,
    grid_id: place.gridId,
    grid_box_id: place.gridBoxId,
    row_number: place.row,
    duration_ms: body.duration_ms,
    size_bytes: body.size_bytes,
    storage_key: partKey(place.companyId, body.client_id),
  });
  const upload = await videoQueries.upload(request.db, body.client_id);
  if (!upload) throw new Error('start_video_upload: the upload was not stored');
  return success({ upload: uploadJson(upload) }, m.uploadStarted);
}

async function getVideoUpload(request: RequestOf<typeof uploadStateSchema>) {
  const upload = await videoQueries.upload(request.db, request.query.client_id);
  if (upload) {
    assertCompanyAccess(request, upload.company_id);
    return success({ upload: uploadJson(upload) });
  }
  const made = await madeVideo(request, request.query.client_id);
  if (!made) throw notFound(m.uploadNotFound);
  return success({ upload: finishedUploadJson(made) });
}

async function uploadVideoChunk(request: RequestOf<typeof chunkSchema>) {
  const { client_id, offset } = request.query;
  const chunk = request.body.chunk;
  if (!Buffer.isBuffer(chunk) || chunk.length === 0) throw badRequest(m.chunkRequired);
  if (chunk.length > VIDEO_CHUNK_MAX_BYTES) throw new HttpError(413, m.chunkTooLarge);
  const upload = await videoQueries.upload(request.db, client_id, { lock: true });
  if (!upload) {
    // Sent again after the video was made (the finish's answer was lost): it has every byte.
    const made = await madeVideo(request, client_id);
    if (!made) throw notFound(m.uploadNotFound);
    return success({ upload: finishedUploadJson(made) });
  }
  assertCompanyAccess(request, upload.company_id);
  const received = upload.received_bytes;
  if (offset > received) throw conflict(m.offsetMismatch(received), { received_bytes: received });
  if (offset + chunk.length > upload.size_bytes) throw badRequest(m.chunkPastEnd(upload.size_bytes));
  // What the server has already (a chunk sent again after its answer was lost) is not written twice.
  const fresh = chunk.subarray(received - offset);
  if (fresh.length === 0) return success({ upload: uploadJson(upload) });
  let contentType = upload.content_type;
  if (received === 0) {
    contentType = sniffVideoType(fresh);
    if (!contentType) throw new HttpError(415, m.notVideo);
  }
  // Written before the count is: a transaction rolled back after it leaves bytes past the count, which
  // the next chunk overwrites (writeAt cuts the file after what it writes).
  await request.server.deps.files.writeAt(upload.storage_key, received, fresh);
  const updated = await videoQueries.received(request.db, client_id, received + fresh.length, contentType);
  return success({ upload: uploadJson(updated) }, m.chunkReceived);
}

async function finishVideoUpload(request: RequestOf<typeof finishSchema>) {
  const { client_id } = request.query;
  const upload = await videoQueries.upload(request.db, client_id, { lock: true });
  if (!upload) {
    // Finished before (the same entry again, or another finish that waited for this one's lock): that video.
    const made = await madeVideo(request, client_id);
    if (!made) throw notFound(m.uploadNotFound);
    return success({ video: videoJson(made) }, m.videoSaved);
  }
  assertCompanyAccess(request, upload.company_id);
  if (upload.received_bytes < upload.size_bytes || !upload.content_type) throw conflict(m.incomplete(upload.received_bytes, upload.size_bytes), { received_bytes: upload.received_bytes });
  const actor = actorOfRequest(request, upload.company_id);
  const file = await saveStoredFile(request, upload.storage_key, {
    companyId: upload.company_id,
    contentType: upload.content_type,
    extension: upload.content_type === 'video/webm' ? 'webm' : 'mp4',
    sizeBytes: upload.size_bytes,
  });
  const { id } = await writer(request.db, actor).insert('box_videos', {
    client_id,
    company_id: upload.company_id,
    what: upload.what,
    room_id: upload.room_id,
    grid_id: upload.grid_id,
    grid_box_id: upload.grid_box_id,
    row_number: upload.row_number,
    file_id: file.id,
    content_type: upload.content_type,
    size_bytes: upload.size_bytes,
    duration_ms: upload.duration_ms,
    recorded_at: request.actedAt,
    recorded_by: actor.userId,
  });
  await videoQueries.removeUpload(request.db, client_id);
  // Kept under its file's key now; the upload's copy goes once this is committed.
  request.afterCommit(() => request.server.deps.files.remove(upload.storage_key));
  const place = await placeOf(request.db, { what: upload.what, gridBoxId: upload.grid_box_id, gridId: upload.grid_id, row: upload.row_number }, false);
  await recordAudit(request.db, actor, {
    title: place.recordedTitle,
    roomId: upload.room_id,
    gridBoxId: upload.grid_box_id,
    details: { video: client_id, file: file.path, duration_ms: upload.duration_ms, size_bytes: upload.size_bytes, ...(upload.row_number ? { grid_id: upload.grid_id, row: upload.row_number } : {}) },
  });
  return success({ video: videoJson(await videoQueries.byId(request.db, id)) }, m.videoSaved);
}

async function getBoxVideos(request: RequestOf<typeof boxVideosSchema>) {
  const box = await gridQueries.boxById(request.db, request.query.grid_box_id);
  const videos = await videoQueries.ofBox(request.db, box);
  return success({ videos: videos.map(videoJson) });
}

async function deleteVideo(request: RequestOf<typeof deleteSchema>) {
  const video = await madeVideo(request, request.query.client_id);
  if (!video || video.deleted_at !== null) throw notFound(m.videoNotFound);
  const actor = actorOfRequest(request, video.company_id);
  await writer(request.db, actor).softDelete('box_videos', video.id);
  await recordAudit(request.db, actor, {
    title: video.what === 'box' ? auditTitles.deletedBoxVideo : auditTitles.deletedRowVideo(video.row_number ?? ''),
    roomId: video.room_id,
    gridBoxId: video.grid_box_id,
    details: { video: video.client_id, file_id: video.file_id },
  });
  return success({ client_id: video.client_id }, m.videoDeleted);
}

export async function videoRoutes(app: App) {
  app.post('/start_video_upload', { schema: startSchema }, startVideoUpload);
  app.get('/get_video_upload', { schema: uploadStateSchema }, getVideoUpload);
  app.post('/upload_video_chunk', { schema: chunkSchema, config: { multipartOptions: { limits: { fileSize: VIDEO_CHUNK_MAX_BYTES, files: 1 } } } }, uploadVideoChunk);
  app.post('/finish_video_upload', { schema: finishSchema }, finishVideoUpload);
  app.get('/get_box_videos', { schema: boxVideosSchema }, getBoxVideos);
  app.delete('/delete_video', { schema: deleteSchema, config: { access: 'admin' } }, deleteVideo);
}
