/**
 * Domain functions of box and row videos (issue 17): record one (queued: its upload resumes where it
 * stopped, sync/types.ts `ResumableUpload`), read how far an upload has come, list a box's videos, and
 * delete one (Admin). A video shows on the tablet at once, under the client id it was given, as a
 * document of the `operations` collection (kind `video`) marked `upload_pending` until the server's
 * copy replaces it.
 */
import { newClientId } from '../../common/client-ids';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { VIDEO_CHUNK_BYTES, VIDEO_MAX_BYTES, type VideoType, videoClientMessages as cm, videoMessages as m } from '../../common/messages/videos';
import { recordedVideoFields, type VideoRecord, type VideoSubject, type videoUploadAnswer } from '../../common/schemas/videos';
import type { z } from 'zod';
import type { LocalDocument } from '../../sync/store';
import type { ResumableUpload } from '../../sync/types';
import { type ApiContext, ApiError, check, now, online, onlineOrLocal, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import { signedIn } from './rooms';

/**
 * A video as the tablet keeps it: the server's record (its ids named by client ids), or, until the
 * server has it, the tablet's own with `upload_pending` and no `file` yet.
 */
export type VideoDocument = LocalDocument & Omit<VideoRecord, 'video_id' | 'room_id' | 'grid_id' | 'grid_box_id'> & {
  kind: 'video';
  video_id: string | number;
  room_id: string | number;
  grid_id: string | number | null;
  grid_box_id: string | number | null;
  upload_pending?: boolean;
};

/** The container a recording's first bytes show (as the server checks them); null for anything else. */
export async function videoTypeOf(video: Blob): Promise<VideoType | null> {
  const head = new Uint8Array(await video.slice(0, 8).arrayBuffer());
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'video/webm';
  if (String.fromCharCode(...head.slice(4, 8)) === 'ftyp') return 'video/mp4';
  return null;
}

export interface RecordVideoInput {
  video: Blob;
  durationMs: number;
  what: VideoSubject;
  /** The box recorded (a video of a box). */
  gridBoxId?: string;
  /** The grid and its row, from 1 (a video of a row). */
  gridId?: string;
  row?: number;
}

/**
 * Queues a recorded video of a box or a row: it shows at once, and goes up in chunks when there is
 * signal, resuming where it stopped (after a cut, a reload or a night offline). Refused now, with the
 * server's own messages, when it would be refused later: empty, over VIDEO_MAX_BYTES, not a WebM or
 * MP4, or its box or grid unknown to this tablet.
 */
export async function recordVideo(context: ApiContext, input: RecordVideoInput): Promise<{ clientId: string }> {
  if (input.video.size === 0) throw new ValidationError(cm.empty);
  if (input.video.size > VIDEO_MAX_BYTES) throw new ValidationError(m.tooLarge);
  const contentType = await videoTypeOf(input.video);
  if (!contentType) throw new ValidationError(m.notVideo);
  const place = await placeOf(context, input);
  const durationMs = Math.max(0, Math.round(input.durationMs));
  const fields = {
    what: input.what,
    ...(input.what === 'box' ? { grid_box_id: place.gridBoxId } : { grid_id: place.gridId, row: input.row ?? null }),
    size_bytes: input.video.size,
    content_type: contentType,
    duration_ms: durationMs,
  };
  // Checked as the server checks it (the same fields); the video's own client id is the tablet's.
  check(recordedVideoFields, fields);
  const clientId = newClientId();
  const { userId, companyId } = await signedIn(context);
  const at = now();
  const document: Omit<VideoDocument, 'id'> = {
    kind: 'video',
    video_id: clientId,
    client_id: clientId,
    what: input.what,
    room_id: place.roomId,
    grid_id: place.gridId,
    grid_box_id: input.what === 'box' ? place.gridBoxId : null,
    row: input.what === 'row' ? (input.row ?? null) : null,
    file: '',
    content_type: contentType,
    size_bytes: input.video.size,
    duration_ms: durationMs,
    recorded_at: at,
    recorded_by: userId,
    company_id: companyId ?? 0,
    created_at: at,
    updated_at: at,
    upload_pending: true,
  };
  const upload: ResumableUpload = {
    kind: 'upload',
    blob: input.video,
    uploadId: clientId,
    startPath: '/start_video_upload',
    chunkPath: '/upload_video_chunk',
    fields: { client_id: clientId, ...fields },
    chunkBytes: VIDEO_CHUNK_BYTES,
  };
  await record(context, {
    method: 'POST',
    path: '/finish_video_upload',
    query: { client_id: clientId },
    body: upload,
    creates: [clientId],
    effects: [{ op: 'upsert', collection: 'operations', id: clientId, data: { ...document } }],
    label: place.label,
    fallbackMessage: cm.saveFailed,
  });
  return { clientId };
}

/** The room, grid and box a recording names, from this tablet's copy of them; and the name of its queued change. */
async function placeOf(context: ApiContext, input: RecordVideoInput) {
  if (input.what === 'box') {
    const box = input.gridBoxId ? await context.store.get('grid_boxes', input.gridBoxId) : null;
    if (!box) throw new ValidationError(cm.chooseBox);
    const grid = await context.store.get('grids', String(box.GridID));
    if (!grid) throw new ValidationError(cm.chooseBox);
    const named = typeof box.CustomName === 'string' && box.CustomName.trim() ? box.CustomName : null;
    const columnAndRow = `${String(box.X)},${String(box.Y)}`;
    const label = labelNaming(
      grid.Name,
      (gridName) => (named ? changeLabels.videoOfBox(named, gridName) : changeLabels.videoOfBoxAt(columnAndRow, gridName)),
      named ? changeLabels.videoOfBoxOfAGrid(named) : changeLabels.videoOfBoxAtOfAGrid(columnAndRow),
    );
    return { gridBoxId: box.id, gridId: grid.id, roomId: String(grid.RoomID), label };
  }
  const grid = input.gridId ? await context.store.get('grids', input.gridId) : null;
  if (!grid || !input.row) throw new ValidationError(cm.chooseRow);
  const row = input.row;
  return { gridBoxId: null, gridId: grid.id, roomId: String(grid.RoomID), label: labelNaming(grid.Name, (gridName) => changeLabels.videoOfRow(row, gridName), changeLabels.videoOfRowOfAGrid(row)) };
}

export interface UploadProgress {
  receivedBytes: number;
  sizeBytes: number;
  finished: boolean;
}

/**
 * How much of a video the server has (get_video_upload), read online: what a resumed upload goes on
 * from. Null when the server has none of it yet (its upload has not started). Fails when the server
 * cannot be reached: offline there is no progress to tell, only that it waits.
 */
export async function videoUploadProgress(context: Pick<ApiContext, 'client'>, input: { clientId: string }): Promise<UploadProgress | null> {
  try {
    const answer = await online<z.infer<typeof videoUploadAnswer>>(context, { path: '/get_video_upload', query: { client_id: input.clientId } }, cm.progressFailed);
    return { receivedBytes: answer.upload.received_bytes, sizeBytes: answer.upload.size_bytes, finished: answer.upload.finished };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Whether a video belongs in a box's history: a video of the box, or of its row in its grid. */
export function isVideoOfBox(video: Pick<VideoDocument, 'what' | 'grid_box_id' | 'grid_id' | 'row'>, box: { id: string; serverId?: unknown; GridID?: unknown; Y?: unknown }): boolean {
  const same = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);
  if (video.what === 'box') return same(video.grid_box_id, box.id) || same(video.grid_box_id, box.serverId);
  return same(video.grid_id, box.GridID) && Number(video.row) === Number(box.Y);
}

/** Newest first (the time it was recorded). */
export const byRecordedAt = (a: Pick<VideoDocument, 'recorded_at'>, b: Pick<VideoDocument, 'recorded_at'>) => (a.recorded_at < b.recorded_at ? 1 : a.recorded_at > b.recorded_at ? -1 : 0);

/**
 * get_box_videos: the videos of a box and of its row, newest first. The server's answer when it can be
 * reached; offline, this tablet's copy (the operations collection), pending videos included.
 */
export async function getBoxVideos(context: ApiContext, input: { gridBoxId: string }): Promise<Array<VideoRecord | VideoDocument>> {
  const answer = await onlineOrLocal<{ videos: Array<VideoRecord | VideoDocument> }>(context, { path: '/get_box_videos', query: { grid_box_id: input.gridBoxId } }, cm.videosFailed, async () => {
    const box = await context.store.get('grid_boxes', input.gridBoxId);
    const videos = box ? ((await findLocal(context, 'operations', { kind: 'video' })) as VideoDocument[]) : [];
    return { videos: videos.filter((video) => box && isVideoOfBox(video, box)).sort(byRecordedAt) };
  });
  return answer.videos;
}

/** delete_video (Admin): queued; the video leaves this tablet at once. */
export async function deleteVideo(context: ApiContext, input: { clientId: string }) {
  const local = await context.store.get('operations', input.clientId);
  await record(context, {
    method: 'DELETE',
    path: '/delete_video',
    query: { client_id: input.clientId },
    effects: local ? [{ op: 'remove', collection: 'operations', id: input.clientId }] : [],
    label: changeLabels.deleteVideo,
    fallbackMessage: cm.deleteFailed,
  });
}
