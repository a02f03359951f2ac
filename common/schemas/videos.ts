/**
 * Requests and answers of box and row videos (issue 17): the resumable upload (start_video_upload,
 * upload_video_chunk, get_video_upload, finish_video_upload), get_box_videos and delete_video.
 * `videoRecord` is both the answers' video and the document tablets keep in the `operations`
 * collection (kind `video`), so a box's videos show in its history offline.
 *
 * An upload and its video are named by the video's client id (`client_id`, a uuid the tablet chose when
 * it recorded): the upload's id until the video is made, the video's own name after.
 */
import { z } from 'zod';
import { VIDEO_MAX_DURATION_MS, VIDEO_TYPES, videoMessages as m } from '../messages/videos';
import { answer, recordRef, timestamp } from './answers';
import { formBody, optionalId, requiredId, requiredWholeNumber } from './fields';

/** Blank text and null count as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

export const VIDEO_SUBJECTS = ['box', 'row'] as const;
export type VideoSubject = (typeof VIDEO_SUBJECTS)[number];

const clientId = z.uuid({ error: m.clientIdRequired });

/** The largest byte count a request may name (sizes and offsets; the limits are checked by the handlers, with 413). */
const byteCount = (message: string) => requiredWholeNumber(message, 0, Number.MAX_SAFE_INTEGER);

/** A media type as a recorder names it (`video/webm;codecs=vp8`): its container only. */
const contentType = z.preprocess(
  (value) => (typeof value === 'string' ? blankToUndefined(value.split(';')[0]?.trim().toLowerCase()) : blankToUndefined(value)),
  z.enum(VIDEO_TYPES, { error: m.contentTypeInvalid }).optional(),
);

// ——— Requests ———

/** What a video is of (a box, or a row of a grid), its size, type and duration. */
const videoFields = {
  what: z.enum(VIDEO_SUBJECTS, { error: m.whatInvalid }),
  grid_box_id: optionalId(m.gridBoxIdRequired),
  grid_id: optionalId(m.gridIdRequired),
  row: z.preprocess(blankToUndefined, z.coerce.number({ error: m.rowRequired }).int({ error: m.rowRequired }).min(1, { error: m.rowRequired }).max(10_000, { error: m.rowRequired }).optional()),
  size_bytes: requiredWholeNumber(m.sizeRequired, 1, Number.MAX_SAFE_INTEGER),
  content_type: contentType,
  duration_ms: requiredWholeNumber(m.durationInvalid, 0, VIDEO_MAX_DURATION_MS),
};

/** A video of a box names the box; a video of a row, the grid and the row. */
function placeNamed(body: { what: VideoSubject; grid_box_id?: number; grid_id?: number; row?: number }, context: z.RefinementCtx) {
  if (body.what === 'box' && body.grid_box_id === undefined) context.addIssue({ code: 'custom', message: m.gridBoxIdRequired, path: ['grid_box_id'] });
  if (body.what === 'row' && body.grid_id === undefined) context.addIssue({ code: 'custom', message: m.gridIdRequired, path: ['grid_id'] });
  if (body.what === 'row' && body.row === undefined) context.addIssue({ code: 'custom', message: m.rowRequired, path: ['row'] });
}

/**
 * start_video_upload (JSON): starts the upload of a video of a box (`grid_box_id`) or of a row of a
 * grid (`grid_id` and `row`, from 1), or answers how much of it the server has when it was started
 * before. The room and grid are the box's. `content_type` is what the recorder says; the bytes decide.
 */
export const startVideoUploadBody = formBody({ client_id: clientId, ...videoFields }).superRefine(placeNamed);

/** The start's fields but the video's own client id: what the tablet checks before it queues a recording. */
export const recordedVideoFields = formBody(videoFields).superRefine(placeNamed);
export type StartVideoUploadBody = z.output<typeof startVideoUploadBody>;

/** get_video_upload, finish_video_upload and delete_video name the video by its client id. */
export const videoClientIdQuery = z.object({ client_id: clientId });

/** upload_video_chunk: the bytes of the video from `offset` on, as the multipart file `chunk`. */
export const uploadVideoChunkQuery = z.object({ client_id: clientId, offset: byteCount(m.offsetRequired) });
export const uploadVideoChunkBody = formBody({ chunk: z.unknown().optional() });

export const boxVideosQuery = z.object({ grid_box_id: requiredId(m.gridBoxIdRequired) });

// ——— Answers ———

/**
 * What the server has of a video: its declared size, how many of its first bytes it has received, the
 * type its bytes showed (null until the first chunk), and whether the video is made (finished).
 */
export const videoUploadRecord = z.object({
  client_id: z.string(),
  size_bytes: z.number().int(),
  received_bytes: z.number().int(),
  content_type: z.enum(VIDEO_TYPES).nullable(),
  finished: z.boolean(),
});
export type VideoUploadRecord = z.infer<typeof videoUploadRecord>;

export const videoUploadAnswer = answer({ upload: videoUploadRecord });

/**
 * A video of a box or of a row, as answers and the `operations` collection (kind `video`) show it.
 * `file` is where its bytes are served (GET /api/files/{id}, to the company's users); `recorded_at` is
 * when the grower recorded it (the act's time, however late the upload ended).
 */
export const videoRecord = z.object({
  video_id: recordRef,
  client_id: z.string(),
  what: z.enum(VIDEO_SUBJECTS),
  room_id: recordRef,
  grid_id: recordRef.nullable(),
  grid_box_id: recordRef.nullable(),
  row: z.number().int().nullable(),
  file: z.string(),
  content_type: z.enum(VIDEO_TYPES),
  size_bytes: z.number().int(),
  duration_ms: z.number().int(),
  recorded_at: timestamp,
  recorded_by: z.number().int().nullable(),
  company_id: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type VideoRecord = z.infer<typeof videoRecord>;

export const videoAnswer = answer({ video: videoRecord });
export const boxVideosAnswer = answer({ videos: z.array(videoRecord) });
export const deleteVideoAnswer = answer({ client_id: z.string() });
