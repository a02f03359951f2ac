/**
 * Requests and answers of automated cameras (issue 17; common/messages/cameras.ts says what they are).
 *
 * - An Admin adds a camera for a room (and optionally one of its grids, and one box of that grid): an
 *   IP camera's still-image address (`snapshot_url`) fetched by the server every `interval_minutes`, or
 *   a phone (`kind` device) that opens the public `/camera` page with a device link and uploads at
 *   that interval. `update_camera` saves a camera again whole, as the form shows it.
 * - A snapshot address may hold credentials (`https://user:password@…`, `?pwd=…`): answers show it
 *   with those masked (SNAPSHOT_SECRET_MASK), and a save that sends the masked address back keeps the
 *   stored secret (server/domains/cameras/snapshot-url.ts).
 * - Intervals are minutes, fractions allowed; the shortest the server accepts is the operator's
 *   (CAMERA_MIN_INTERVAL_SECONDS, 5 minutes by default), answered as `limits` by get_cameras, so the
 *   form checks the same rule (`intervalSecondsOf`).
 */
import { z } from 'zod';
import {
  CAMERA_IMAGE_SOURCES,
  CAMERA_IMAGES_PER_PAGE,
  CAMERA_IMAGES_PER_PAGE_MAX,
  CAMERA_KINDS,
  CAMERA_MAX_INTERVAL_MINUTES,
  CAMERA_STATES,
  cameraMessages as m,
} from '../messages/cameras';
import { answer, timestamp } from './answers';
import { flag, formBody, optionalClientId, optionalId, requiredId, requiredText } from './fields';
import { imageAnalysis } from './models';

/** Blank text, null and the text `null` (as forms send an empty choice) count as absent. */
const blankToUndefined = (value: unknown) => (value === null || value === 'null' || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** Whether `text` is an http(s) address with a host: what a snapshot address must be before the server's own checks. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The interval in whole seconds for `minutes`, or the message saying the allowed range: from the
 * operator's shortest (`minSeconds`) to a day. The server applies it with its setting, the form with
 * the `limits` get_cameras answers.
 */
export function intervalSecondsOf(minutes: number, minSeconds: number): { seconds: number } | { problem: string } {
  const seconds = Math.round(minutes * 60);
  if (!Number.isFinite(minutes) || seconds < minSeconds || minutes > CAMERA_MAX_INTERVAL_MINUTES) return { problem: m.intervalOutOfRange(minSeconds) };
  return { seconds };
}

const snapshotUrl = z.preprocess(
  blankToUndefined,
  z.string({ error: m.snapshotUrlInvalid }).trim().max(2000, { error: m.snapshotUrlInvalid }).refine(isWebAddress, { error: m.snapshotUrlInvalid }).optional(),
);

const intervalMinutes = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: m.intervalInvalid })
    .refine((minutes) => Number.isFinite(minutes) && minutes > 0, { error: m.intervalInvalid })
    .optional(),
);

/** A model key as the company's `ai_model` setting holds them (common/models/catalogue.ts). */
const modelKey = z.preprocess(
  blankToUndefined,
  z
    .string({ error: m.modelKeyInvalid })
    .trim()
    .max(100, { error: m.modelKeyInvalid })
    .regex(/^[A-Za-z0-9_.-]+$/, { error: m.modelKeyInvalid })
    .optional(),
);

const enabled = z.preprocess(blankToUndefined, flag(m.enabledInvalid).optional());

/** What a camera is, as create_camera and update_camera send it. */
const cameraFields = {
  company_id: optionalId(m.companyIdRequired),
  name: requiredText(m.nameRequired, 100),
  room_id: requiredId(m.roomRequired),
  grid_id: z.preprocess(blankToUndefined, optionalId(m.gridIdInvalid)),
  grid_box_id: z.preprocess(blankToUndefined, optionalId(m.gridBoxIdInvalid)),
  snapshot_url: snapshotUrl,
  interval_minutes: intervalMinutes,
  /** The model each image is analysed with; absent: the company's `ai_model` setting at the time. */
  model_key: modelKey,
  /** 0 pauses the camera (no fetches; its phone stops capturing); absent on a create: 1. */
  enabled,
};

/** The kind's rules: an IP camera has an address, a phone none; a box needs its grid. */
function kindRules(body: { kind?: string | undefined; snapshot_url?: string | undefined; grid_id?: number | undefined; grid_box_id?: number | undefined }, context: z.RefinementCtx) {
  if (body.kind === 'ip' && body.snapshot_url === undefined) context.addIssue({ code: 'custom', message: m.snapshotUrlRequired, path: ['snapshot_url'] });
  if (body.kind === 'device' && body.snapshot_url !== undefined) context.addIssue({ code: 'custom', message: m.snapshotUrlForDevice, path: ['snapshot_url'] });
  if (body.grid_box_id !== undefined && body.grid_id === undefined) context.addIssue({ code: 'custom', message: m.boxNeedsGrid, path: ['grid_id'] });
}

const kind = z.enum(CAMERA_KINDS, { error: m.kindInvalid });

export const createCameraBody = formBody({ ...cameraFields, kind }).superRefine(kindRules);
export type CreateCameraBody = z.output<typeof createCameraBody>;

/** The camera saved again whole; its kind cannot change (given, it must be the camera's). */
export const updateCameraBody = formBody({ ...cameraFields, camera_id: requiredId(m.cameraIdRequired), kind: z.preprocess(blankToUndefined, kind.optional()) }).superRefine(kindRules);
export type UpdateCameraBody = z.output<typeof updateCameraBody>;

export const cameraOnlyBody = formBody({ camera_id: requiredId(m.cameraIdRequired) });
export const cameraOnlyQuery = z.object({ camera_id: requiredId(m.cameraIdRequired) });
export const camerasQuery = z.object({ company_id: optionalId(m.companyIdRequired) });
export const revokeDeviceTokenBody = formBody({ token_id: requiredId(m.tokenIdRequired) });

/** A moment of a range: a date (a start means its first instant, an end its last) or an ISO date-time. */
const moment = (edge: 'start' | 'end') =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: m.dateInvalid })
      .trim()
      .refine((text) => (/^\d{4}-\d{2}-\d{2}$/.test(text) || /^\d{4}-\d{2}-\d{2}T/.test(text)) && !Number.isNaN(Date.parse(text)), { error: m.dateInvalid })
      .transform((text) => (text.length === 10 ? new Date(Date.parse(`${text}T00:00:00Z`) + (edge === 'end' ? 86_400_000 - 1 : 0)) : new Date(text)))
      .optional(),
  );

const page = z.preprocess(blankToUndefined, z.coerce.number({ error: m.pageInvalid }).int({ error: m.pageInvalid }).min(1, { error: m.pageInvalid }).max(1_000_000, { error: m.pageInvalid }).default(1));
const perPage = z.preprocess(
  blankToUndefined,
  z.coerce.number({ error: m.perPageInvalid }).int({ error: m.perPageInvalid }).min(1, { error: m.perPageInvalid }).max(CAMERA_IMAGES_PER_PAGE_MAX, { error: m.perPageInvalid }).default(CAMERA_IMAGES_PER_PAGE),
);

const rangeRule = (query: { start?: Date | undefined; end?: Date | undefined }) => query.start === undefined || query.end === undefined || query.start <= query.end;

/** A camera's timeline: newest first, within start..end when given, a page at a time. */
export const cameraImagesQuery = z
  .object({ camera_id: requiredId(m.cameraIdRequired), start: moment('start'), end: moment('end'), page, per_page: perPage })
  .refine(rangeRule, { error: m.rangeInvalid });
export type CameraImagesQuery = z.output<typeof cameraImagesQuery>;

/** The company's camera images across its cameras (scan history's camera entries): newest first, of a room when given. */
export const cameraCapturesQuery = z
  .object({ company_id: optionalId(m.companyIdRequired), room_id: optionalId(m.roomRequired), start: moment('start'), end: moment('end'), page, per_page: perPage })
  .refine(rangeRule, { error: m.rangeInvalid });
export type CameraCapturesQuery = z.output<typeof cameraCapturesQuery>;

/**
 * A phone's upload (multipart): the photo `image`, when it was taken (`captured_at`, the phone's
 * clock: a photo kept while offline keeps its time) and the capture's own uuid (`client_id`), so an
 * upload sent again after a lost answer is stored once.
 */
export const deviceUploadBody = formBody({
  captured_at: z.preprocess(
    blankToUndefined,
    z
      .string({ error: m.capturedAtInvalid })
      .trim()
      .refine((text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)), { error: m.capturedAtInvalid }),
  ),
  client_id: optionalClientId(),
  /** The uploaded file stays a Buffer (or is absent); the handler checks it by its bytes. */
  image: z.unknown().optional(),
});

// ——— Answers ———

/** An analysis that could not be made (the model was deleted, the image could not be read): why. */
export const failedAnalysis = z.object({ type: z.literal('failed'), model_key: z.string().nullable(), message: z.string() });

/** An image's analysis: the model's result (common/schemas/models.ts `imageAnalysis`), or why there is none. */
export const cameraAnalysis = z.union([imageAnalysis, failedAnalysis]);
export type CameraAnalysis = z.infer<typeof cameraAnalysis>;

/** One image of a camera. `analysis` is null until it is analysed (a job, moments after it arrived). */
export const cameraImageRecord = z.object({
  image_id: z.number().int(),
  camera_id: z.number().int(),
  company_id: z.number().int(),
  file_id: z.string(),
  /** GET /api/files/{id}: the image as taken. */
  image_path: z.string(),
  /** A small copy for lists and the time-lapse (null until made, or when the image could not be read). */
  thumbnail_path: z.string().nullable(),
  /** The camera's time: the server's when it fetched, the phone's when it took the photo. */
  captured_at: timestamp,
  /** When the server received it. */
  received_at: timestamp,
  source: z.enum(CAMERA_IMAGE_SOURCES),
  analysis: cameraAnalysis.nullable(),
});
export type CameraImageRecord = z.infer<typeof cameraImageRecord>;

export const cameraRecord = z.object({
  camera_id: z.number().int(),
  company_id: z.number().int(),
  name: z.string(),
  room_id: z.number().int(),
  room_name: z.string().nullable(),
  grid_id: z.number().int().nullable(),
  grid_name: z.string().nullable(),
  grid_box_id: z.number().int().nullable(),
  grid_box_name: z.string().nullable(),
  kind: z.enum(CAMERA_KINDS),
  /** The still-image address with its secrets masked; answered to Admins only (null for others and for phones). */
  snapshot_url: z.string().nullable(),
  interval_minutes: z.number(),
  interval_seconds: z.number().int(),
  model_key: z.string().nullable(),
  enabled: z.boolean(),
  state: z.enum(CAMERA_STATES),
  last_capture_at: timestamp.nullable(),
  /** Why the last fetch failed (kept until one succeeds). */
  last_error: z.string().nullable(),
  /** Fetches failed in a row. */
  failures: z.number().int(),
  /** When the server fetches next (IP cameras that are enabled; null otherwise). */
  next_capture_at: timestamp.nullable(),
  /** Device links not revoked. */
  active_device_links: z.number().int(),
  last_image: cameraImageRecord.nullable(),
  created_by: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type CameraRecord = z.infer<typeof cameraRecord>;

/** The operator's bounds of an interval, for the form. */
export const cameraLimits = z.object({ min_interval_seconds: z.number().int(), max_interval_minutes: z.number() });
export type CameraLimits = z.infer<typeof cameraLimits>;

export const camerasAnswer = answer({ cameras: z.array(cameraRecord), limits: cameraLimits });
export const cameraAnswer = answer({ camera: cameraRecord, limits: cameraLimits });
export const saveCameraAnswer = answer({ camera: cameraRecord, camera_id: z.number().int() });
export const deleteCameraAnswer = answer({ camera_id: z.number().int() });
export const captureNowAnswer = answer({ camera_id: z.number().int() });
export const cameraImagesAnswer = answer({ images: z.array(cameraImageRecord), page: z.number().int(), per_page: z.number().int(), total: z.number().int() });

/** A camera image as scan history lists it, with its camera and room. */
export const cameraCaptureRecord = cameraImageRecord.extend({ camera_name: z.string(), room_id: z.number().int(), room_name: z.string().nullable(), grid_id: z.number().int().nullable() });
export type CameraCaptureRecord = z.infer<typeof cameraCaptureRecord>;
export const cameraCapturesAnswer = answer({ captures: z.array(cameraCaptureRecord), page: z.number().int(), per_page: z.number().int(), total: z.number().int() });

export const deviceTokenRecord = z.object({
  token_id: z.number().int(),
  camera_id: z.number().int(),
  created_by: z.number().int().nullable(),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
  revoked_by: z.number().int().nullable(),
  /** The phone's last call with it. */
  last_used_at: timestamp.nullable(),
});
export type DeviceTokenRecord = z.infer<typeof deviceTokenRecord>;

/** The token is answered once, here (the server keeps its SHA-256 only); `url` opens the camera page on the phone. */
export const createDeviceTokenAnswer = answer({ device_token: deviceTokenRecord, token: z.string(), path: z.string(), url: z.string() });
export const deviceTokensAnswer = answer({ tokens: z.array(deviceTokenRecord) });
export const revokeDeviceTokenAnswer = answer({ device_token: deviceTokenRecord });

/** What the phone needs: which camera it is, where, and how often to capture. Nothing else of the company. */
export const deviceConfigRecord = z.object({
  camera_id: z.number().int(),
  name: z.string(),
  room_name: z.string().nullable(),
  grid_name: z.string().nullable(),
  grid_box_name: z.string().nullable(),
  interval_seconds: z.number().int(),
  enabled: z.boolean(),
});
export type DeviceConfig = z.infer<typeof deviceConfigRecord>;
export const deviceConfigAnswer = answer({ camera: deviceConfigRecord });
export const deviceUploadAnswer = answer({ image_id: z.number().int(), captured_at: timestamp, repeated: z.boolean() });
