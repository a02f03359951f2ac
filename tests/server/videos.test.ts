/**
 * Videos of boxes and rows (issue 17): the resumable upload over HTTP on a real database and file
 * store. A video goes up in chunks, is cut off after the first, the server says how much it has, the
 * rest follows (a repeated chunk is not written twice), and the finished file is the exact bytes sent.
 * Bytes are checked by their content and size; another company's uploads and videos answer 403; a
 * finish sent again makes no second video; the act's time is kept; tablets pull the video.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { VIDEO_MAX_BYTES, videoMessages as m } from '../../common/messages/videos';
import type { VideoRecord, VideoUploadRecord } from '../../common/schemas/videos';
import { clientIdOf, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';
import { pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let grid: { id: number; boxIds: number[] };

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  // 3 × 2: boxes row by row, so boxIds[0..2] are row 1 and boxIds[3..5] row 2.
  grid = await createGrid(server, farm.companyId, roomId, 3, 2);
});
afterAll(() => server.close());

const MiB = 1024 * 1024;
/** The EBML header every WebM file starts with. */
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** A "video": the WebM signature and random bytes (the server checks the signature, not the codec). */
const webm = (size: number) => Buffer.concat([WEBM_MAGIC, randomBytes(size - WEBM_MAGIC.length)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type UploadAnswer = { upload: VideoUploadRecord; message?: string; received_bytes?: number };
type VideoAnswer = { video: VideoRecord; message?: string };

function start(token: string, fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  return server.request<UploadAnswer>('POST', '/start_video_upload', { token, json: { what: 'box', duration_ms: 2000, content_type: 'video/webm;codecs=vp8', ...fields }, headers });
}
const chunk = (token: string, clientId: string, offset: number, bytes: Uint8Array) =>
  server.request<UploadAnswer>('POST', '/upload_video_chunk', { token, query: { client_id: clientId, offset }, form: { chunk: new Blob([Uint8Array.from(bytes)]) } });
const state = (token: string, clientId: string) => server.request<UploadAnswer>('GET', '/get_video_upload', { token, query: { client_id: clientId } });
const finish = (token: string, clientId: string, headers: Record<string, string> = {}) => server.request<VideoAnswer>('POST', '/finish_video_upload', { token, query: { client_id: clientId }, headers });

/** Uploads a whole video of a box in 1 MiB chunks and finishes it. */
async function uploadWhole(token: string, boxId: number, bytes: Buffer, headers: Record<string, string> = {}) {
  const clientId = randomUUID();
  expect((await start(token, { client_id: clientId, grid_box_id: boxId, size_bytes: bytes.length }, headers)).status).toBe(200);
  for (let offset = 0; offset < bytes.length; offset += MiB) expect((await chunk(token, clientId, offset, bytes.subarray(offset, offset + MiB))).status).toBe(200);
  const finished = await finish(token, clientId, headers);
  expect(finished.status).toBe(200);
  return { clientId, video: finished.body.video };
}

async function download(path: string, token: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('a video sent in chunks, cut off and resumed', () => {
  it('the server keeps what it received, says how much, takes the rest, and serves the exact bytes', async () => {
    const bytes = webm(Math.round(2.5 * MiB));
    const clientId = randomUUID();
    const boxId = grid.boxIds[1]!;
    const token = farm.regular.token;

    const started = await start(token, { client_id: clientId, grid_box_id: boxId, size_bytes: bytes.length });
    expect(started.status).toBe(200);
    expect(started.body.upload).toEqual({ client_id: clientId, size_bytes: bytes.length, received_bytes: 0, content_type: null, finished: false });

    const first = await chunk(token, clientId, 0, bytes.subarray(0, MiB));
    expect(first.status).toBe(200);
    expect(first.body.upload).toMatchObject({ received_bytes: MiB, content_type: 'video/webm' });
    // The tablet loses its signal here; later it starts again: the start (sent again) and a read say where the server is.
    expect((await start(token, { client_id: clientId, grid_box_id: boxId, size_bytes: bytes.length })).body.upload.received_bytes).toBe(MiB);
    expect((await state(token, clientId)).body.upload).toMatchObject({ received_bytes: MiB, finished: false });

    // Finishing now is refused: bytes are missing.
    const early = await finish(token, clientId);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ message: m.incomplete(MiB, bytes.length), received_bytes: MiB });
    // A chunk that skips bytes the server lacks is refused with where to go on from.
    const ahead = await chunk(token, clientId, 2 * MiB, bytes.subarray(2 * MiB));
    expect(ahead.status).toBe(409);
    expect(ahead.body).toMatchObject({ message: m.offsetMismatch(MiB), received_bytes: MiB });
    // A chunk overlapping what the server has (its answer was lost): only the bytes after it are written.
    const overlapping = await chunk(token, clientId, MiB / 2, bytes.subarray(MiB / 2, 2 * MiB));
    expect(overlapping.body.upload.received_bytes).toBe(2 * MiB);
    // The same chunk again changes nothing.
    expect((await chunk(token, clientId, MiB, bytes.subarray(MiB, 2 * MiB))).body.upload.received_bytes).toBe(2 * MiB);
    expect((await chunk(token, clientId, 2 * MiB, bytes.subarray(2 * MiB))).body.upload).toMatchObject({ received_bytes: bytes.length, finished: false });

    const finished = await finish(token, clientId);
    expect(finished.status).toBe(200);
    const video = finished.body.video;
    expect(video).toMatchObject({ client_id: clientId, what: 'box', grid_box_id: boxId, grid_id: grid.id, room_id: roomId, row: null, content_type: 'video/webm', size_bytes: bytes.length, duration_ms: 2000, recorded_by: farm.regular.id });
    expect((await state(token, clientId)).body.upload).toEqual({ client_id: clientId, size_bytes: bytes.length, received_bytes: bytes.length, content_type: 'video/webm', finished: true });

    const served = await download(video.file, farm.admin.token);
    expect(served.status).toBe(200);
    expect(served.type).toBe('video/webm');
    expect(served.bytes.length).toBe(bytes.length);
    expect(sha256(served.bytes)).toBe(sha256(bytes));
    // The upload is gone; the box's history has the video.
    expect(await server.database.db.selectFrom('video_uploads').selectAll().where('client_id', '=', clientId).execute()).toEqual([]);
    const listed = await server.request<{ videos: VideoRecord[] }>('GET', '/get_box_videos', { token, query: { grid_box_id: boxId } });
    expect(listed.body.videos.map((listedVideo) => listedVideo.client_id)).toEqual([clientId]);
    const audit = await server.database.db.selectFrom('audit_events').select(['event_title', 'grid_box_id', 'room_id']).where('company_id', '=', farm.companyId).where('event_title', 'like', 'Recorded a video%').execute();
    expect(audit).toEqual([{ event_title: expect.stringMatching(/^Recorded a video of box /), grid_box_id: boxId, room_id: roomId }]);
  });

  it('a video of a row shows in the history of each box of that row', async () => {
    const clientId = randomUUID();
    const bytes = webm(4096);
    expect((await start(farm.regular.token, { client_id: clientId, what: 'row', grid_id: grid.id, row: 2, size_bytes: bytes.length })).status).toBe(200);
    expect((await chunk(farm.regular.token, clientId, 0, bytes)).status).toBe(200);
    const finished = await finish(farm.regular.token, clientId);
    expect(finished.body.video).toMatchObject({ what: 'row', grid_id: grid.id, grid_box_id: null, row: 2, room_id: roomId });
    const videosOf = async (boxId: number) => (await server.request<{ videos: VideoRecord[] }>('GET', '/get_box_videos', { token: farm.regular.token, query: { grid_box_id: boxId } })).body.videos.map((video) => video.client_id);
    expect(await videosOf(grid.boxIds[3]!)).toContain(clientId);
    expect(await videosOf(grid.boxIds[5]!)).toContain(clientId);
    expect(await videosOf(grid.boxIds[0]!)).not.toContain(clientId);

    const outside = await start(farm.regular.token, { client_id: randomUUID(), what: 'row', grid_id: grid.id, row: 3, size_bytes: 10 });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe(m.rowOutsideGrid(3, 2));
  });
});

describe('what the server takes', () => {
  it('refuses bytes that are not a video (415), a declared size over the limit (413) and a start without its place (400)', async () => {
    const clientId = randomUUID();
    const text = Buffer.from('this is not a video at all, only text pretending');
    expect((await start(farm.regular.token, { client_id: clientId, grid_box_id: grid.boxIds[0], size_bytes: text.length })).status).toBe(200);
    const refused = await chunk(farm.regular.token, clientId, 0, text);
    expect(refused.status).toBe(415);
    expect(refused.body.message).toBe(m.notVideo);
    expect((await state(farm.regular.token, clientId)).body.upload.received_bytes).toBe(0);

    // MP4 is recognised by its ftyp box.
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(500)]);
    const mp4Id = randomUUID();
    await start(farm.regular.token, { client_id: mp4Id, grid_box_id: grid.boxIds[0], size_bytes: mp4.length, content_type: 'video/mp4' });
    expect((await chunk(farm.regular.token, mp4Id, 0, mp4)).body.upload.content_type).toBe('video/mp4');
    expect((await finish(farm.regular.token, mp4Id)).body.video.content_type).toBe('video/mp4');

    const tooLarge = await start(farm.regular.token, { client_id: randomUUID(), grid_box_id: grid.boxIds[0], size_bytes: VIDEO_MAX_BYTES + 1 });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe(m.tooLarge);

    const noBox = await start(farm.regular.token, { client_id: randomUUID(), size_bytes: 100 });
    expect(noBox.status).toBe(400);
    expect(noBox.body.message).toBe(m.gridBoxIdRequired);
    const pastEnd = randomUUID();
    await start(farm.regular.token, { client_id: pastEnd, grid_box_id: grid.boxIds[0], size_bytes: 10 });
    expect((await chunk(farm.regular.token, pastEnd, 0, webm(20))).status).toBe(400);
    expect((await chunk(farm.regular.token, randomUUID(), 0, webm(20))).body.message).toBe(m.uploadNotFound);
  });
});

describe('another company', () => {
  it('cannot read, continue, finish or delete an upload or video of this company, nor start one on its box (403)', async () => {
    const bytes = webm(3000);
    const clientId = randomUUID();
    await start(farm.regular.token, { client_id: clientId, grid_box_id: grid.boxIds[2], size_bytes: bytes.length });
    await chunk(farm.regular.token, clientId, 0, bytes.subarray(0, 1000));

    const outsider = other.admin.token;
    expect((await state(outsider, clientId)).status).toBe(403);
    expect((await chunk(outsider, clientId, 1000, bytes.subarray(1000))).status).toBe(403);
    expect((await finish(outsider, clientId)).status).toBe(403);
    // Its own start under the same client id does not take this company's upload over.
    expect((await start(outsider, { client_id: randomUUID(), grid_box_id: grid.boxIds[2], size_bytes: 10 })).status).toBe(403);
    const otherRoom = await createRoom(server, other.companyId);
    const otherGrid = await createGrid(server, other.companyId, otherRoom, 1, 1);
    expect((await start(outsider, { client_id: clientId, grid_box_id: otherGrid.boxIds[0], size_bytes: bytes.length })).status).toBe(403);

    await chunk(farm.regular.token, clientId, 1000, bytes.subarray(1000));
    const { video } = (await finish(farm.regular.token, clientId)).body;
    expect((await state(outsider, clientId)).status).toBe(403);
    expect((await finish(outsider, clientId)).status).toBe(403);
    expect((await server.request('DELETE', '/delete_video', { token: outsider, query: { client_id: clientId } })).status).toBe(403);
    expect((await server.request('GET', '/get_box_videos', { token: outsider, query: { grid_box_id: grid.boxIds[2] } })).status).toBe(403);
    const file = await download(video.file, outsider);
    expect(file.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(file.bytes))).toMatchObject({ message: httpMessages.otherCompany });
    expect((await download(video.file, farm.regular.token)).status).toBe(200);
  });
});

describe('a finish sent again, the act’s time and the pull', () => {
  it('makes one video, keeps when it was recorded, and tablets pull it as kind video named by client ids', async () => {
    const recordedAt = new Date(Date.now() - 3 * 3_600_000);
    const headers = { 'X-Acted-At': recordedAt.toISOString() };
    const bytes = webm(MiB + 10);
    const { clientId, video } = await uploadWhole(farm.regular.token, grid.boxIds[4]!, bytes, headers);
    expect(video.recorded_at).toBe(recordedAt.toISOString());
    expect(video.created_at).toBe(recordedAt.toISOString());

    // The same entry again (same key: the stored answer) and another finish (no key: the video made).
    const key = { ...headers, 'Idempotency-Key': `finish-${clientId}` };
    const first = await finish(farm.regular.token, clientId, key);
    const repeated = await finish(farm.regular.token, clientId, key);
    const again = await finish(farm.regular.token, clientId);
    expect([first.status, repeated.status, again.status]).toEqual([200, 200, 200]);
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
    expect(new Set([video.video_id, first.body.video.video_id, repeated.body.video.video_id, again.body.video.video_id]).size).toBe(1);
    // A start sent again after the finish says it is done; chunks sent again change nothing.
    expect((await start(farm.regular.token, { client_id: clientId, grid_box_id: grid.boxIds[4], size_bytes: bytes.length })).body.upload).toMatchObject({ finished: true, received_bytes: bytes.length });
    expect((await chunk(farm.regular.token, clientId, 0, bytes.subarray(0, MiB))).body.upload.finished).toBe(true);
    const rows = await server.database.db.selectFrom('box_videos').select(['id', 'recorded_at']).where('client_id', '=', clientId).execute();
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.recorded_at).toISOString()).toBe(recordedAt.toISOString());

    const boxKey = await clientIdOf(server, 'grid_boxes', grid.boxIds[4]!);
    const pulled = await pullUntil(server, farm.regular.token, 'operations', (documents) => documents.has(clientId), 'client');
    expect(pulled.get(clientId)).toMatchObject({ kind: 'video', client_id: clientId, video_id: clientId, grid_box_id: boxKey, grid_id: await clientIdOf(server, 'grids', grid.id), room_id: await clientIdOf(server, 'rooms', roomId), file: video.file, _deleted: false });
    // Another company's tablets do not get it.
    expect((await pullUntil(server, other.regular.token, 'operations', () => true, 'client')).has(clientId)).toBe(false);
  });

  it('only an Admin deletes a video; it leaves the box’s history and the tablets', async () => {
    const { clientId } = await uploadWhole(farm.regular.token, grid.boxIds[0]!, webm(2000));
    expect((await server.request('DELETE', '/delete_video', { token: farm.regular.token, query: { client_id: clientId } })).status).toBe(403);
    const deleted = await server.request('DELETE', '/delete_video', { token: farm.admin.token, query: { client_id: clientId } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ message: m.videoDeleted, client_id: clientId });
    expect((await server.request('DELETE', '/delete_video', { token: farm.admin.token, query: { client_id: clientId } })).status).toBe(404);
    const listed = await server.request<{ videos: VideoRecord[] }>('GET', '/get_box_videos', { token: farm.regular.token, query: { grid_box_id: grid.boxIds[0] } });
    expect(listed.body.videos.map((video) => video.client_id)).not.toContain(clientId);
    const pulled = await pullUntil(server, farm.regular.token, 'operations', (documents) => documents.get(clientId)?._deleted === true, 'client');
    expect(pulled.get(clientId)?._deleted).toBe(true);
  });
});
