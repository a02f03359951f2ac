/**
 * A video queued on a tablet (src/api/videos.ts `recordVideo`) reaches the server through the sync
 * engine's resumable upload (sync/replay.ts `sendUpload`), against the real server through a network
 * proxy: in 1 MiB chunks, across a connection cut after the server took a chunk, and across a reload
 * of the page mid-upload; each time it goes on from what the server says it has, sending no byte the
 * server has twice, and makes one video with the exact bytes, kept as recorded offline.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VIDEO_CHUNK_BYTES } from '../../common/messages/videos';
import { recordVideo } from '../../src/api/videos';
import { startTablet } from '../support/client';
import { useFleet } from '../support/fleet';

const fleet = useFleet({ settle: true });

const MiB = VIDEO_CHUNK_BYTES;
const webm = (size: number) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(size - 4)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The offsets of the chunks the server was sent for a video, in the order sent. */
const chunkOffsets = (clientId: string) =>
  fleet.proxy.sent
    .filter((call) => call.url.startsWith('/api/upload_video_chunk') && call.url.includes(clientId))
    .map((call) => Number(new URL(call.url, 'http://proxy').searchParams.get('offset')));

/** How many times an upload was started (or asked where it stands) so far. */
const starts = () => fleet.proxy.sent.filter((call) => call.url.startsWith('/api/start_video_upload')).length;

const isChunkAt = (offset: number) => (call: { url: string }) => call.url.startsWith('/api/upload_video_chunk') && new URL(call.url, 'http://proxy').searchParams.get('offset') === String(offset);

async function storedVideo(clientId: string) {
  const rows = await fleet.server.database.db.selectFrom('box_videos').innerJoin('files', 'files.id', 'box_videos.file_id').select(['box_videos.id', 'box_videos.recorded_at', 'box_videos.grid_box_id', 'files.storage_key']).where('box_videos.client_id', '=', clientId).execute();
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  const bytes = await fleet.server.app.deps.files.get(row.storage_key);
  return { ...row, bytes };
}

describe('a queued video', () => {
  it('goes up in chunks when the signal returns and, after a connection cut, resumes where the server is', async () => {
    const device = await fleet.tablet();
    const grid = await fleet.pulledGrid(device, 2);
    const startsBefore = starts();
    fleet.proxy.setOnline(false);

    const bytes = webm(Math.round(3.5 * MiB));
    const recordedBefore = new Date();
    const { clientId } = await recordVideo(device.context, { video: new Blob([Uint8Array.from(bytes)], { type: 'video/webm' }), durationMs: 2100, what: 'box', gridBoxId: grid.boxKeys[1] });
    // It shows at once, waiting.
    const waiting = await device.database.operations.findOne(clientId).exec();
    expect(waiting?.get('kind')).toBe('video');
    expect(waiting?.get('upload_pending')).toBe(true);
    expect(waiting?.get('grid_box_id')).toBe(grid.boxKeys[1]);
    expect(await device.outbox.count()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));

    // The second chunk reaches the server, but its answer is lost: the tablet does not know the server has it.
    const lost = fleet.proxy.loseAnswerOnce(isChunkAt(MiB));
    fleet.proxy.setOnline(true);
    void device.engine.syncNow();
    await lost;
    await device.engine.settle();

    expect(await device.outbox.count()).toBe(0);
    // Every byte went once: the chunk whose answer was lost was not sent again.
    expect(chunkOffsets(clientId)).toEqual([0, MiB, 2 * MiB, 3 * MiB]);
    // Asked twice where the upload stood: when it began, and when it resumed.
    expect(starts() - startsBefore).toBe(2);
    const stored = await storedVideo(clientId);
    expect(sha256(stored.bytes)).toBe(sha256(bytes));
    expect(stored.grid_box_id).toBe(grid.boxIds[1]);
    // Recorded when the grower recorded it, offline, not when the upload ended.
    expect(new Date(stored.recorded_at).getTime()).toBeGreaterThanOrEqual(recordedBefore.getTime() - 1000);
    expect(new Date(stored.recorded_at).getTime()).toBeLessThanOrEqual(recordedBefore.getTime() + 1000);

    // The server's copy replaced the tablet's, under the same key.
    await expect.poll(async () => (await device.database.operations.findOne(clientId).exec())?.get('serverId'), { timeout: 10_000 }).toBe(stored.id);
    const local = (await device.database.operations.findOne(clientId).exec())?.toJSON() as Record<string, unknown>;
    expect(local.upload_pending).toBeUndefined();
    expect(local.file).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
  });

  it('survives a reload of the page mid-upload: the new page goes on from the server’s count', async () => {
    const outboxName = `video-outbox-${randomUUID()}`;
    const first = await fleet.tablet(undefined, { outboxName });
    const grid = await fleet.pulledGrid(first, 1);
    fleet.proxy.setOnline(false);
    const bytes = webm(Math.round(2.2 * MiB));
    const { clientId } = await recordVideo(first.context, { video: new Blob([Uint8Array.from(bytes)], { type: 'video/webm' }), durationMs: 1500, what: 'box', gridBoxId: grid.boxKeys[0] });

    // The first chunk reaches the server; the page goes away before it hears so.
    const lost = fleet.proxy.loseAnswerOnce(isChunkAt(0));
    fleet.proxy.setOnline(true);
    void first.engine.syncNow();
    await lost;
    fleet.proxy.setOnline(false);
    await first.engine.stop();
    await first.database.close();
    first.outbox.close();
    expect(chunkOffsets(clientId)).toEqual([0]);

    // The page opens again: the same outbox (with the video in it), a new engine.
    fleet.proxy.setOnline(true);
    const reopened = await startTablet(`${fleet.proxy.url}/api`, fleet.farm.regular, { outboxName });
    fleet.tablets.push(reopened);
    await reopened.engine.settle();

    expect(await reopened.outbox.count()).toBe(0);
    expect(chunkOffsets(clientId)).toEqual([0, MiB, 2 * MiB]);
    expect(sha256((await storedVideo(clientId)).bytes)).toBe(sha256(bytes));
  });
});
