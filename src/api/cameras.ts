/**
 * Domain functions of automated cameras (issue 17; common/schemas/cameras.ts says what they are).
 *
 * - The tablet's: all online calls. Cameras are company equipment an Admin sets up with the server's
 *   answer at hand (a snapshot address is checked by the server, a device link is shown once), and
 *   their images live on the server; nothing of them is kept in the local store. Input is checked
 *   first with the server's own schemas, so the same messages come before any call.
 * - The phone's (`/camera`, no session): `deviceClient` makes a client without a session, and each
 *   call carries the device token in `Authorization: Camera <token>`; a 401 is the answer (the link
 *   was revoked), never a reason to refresh.
 */
import type { z } from 'zod';
import { CAMERA_DEVICE_SCHEME, type CameraKind, cameraMessages as m } from '../../common/messages/cameras';
import {
  type CameraCaptureRecord,
  type cameraCapturesAnswer,
  cameraCapturesQuery,
  type CameraImageRecord,
  type cameraImagesAnswer,
  cameraImagesQuery,
  type CameraLimits,
  cameraOnlyBody,
  type CameraRecord,
  type cameraAnswer,
  type camerasAnswer,
  createCameraBody,
  type createDeviceTokenAnswer,
  type DeviceConfig,
  type deviceConfigAnswer,
  type DeviceTokenRecord,
  type deviceTokensAnswer,
  type deviceUploadAnswer,
  intervalSecondsOf,
  revokeDeviceTokenBody,
  type saveCameraAnswer,
  updateCameraBody,
} from '../../common/schemas/cameras';
import { type ApiClient, createApiClient } from './client';
import { type ApiContext, ApiError, check, online, ValidationError } from './context';
import type { RecordId } from './records';

export type Camera = CameraRecord;
export type CameraImage = CameraImageRecord;
export type CameraCapture = CameraCaptureRecord;
export type DeviceToken = DeviceTokenRecord;
export type { CameraKind, CameraLimits, DeviceConfig };

/** A camera as the form edits it; `cameraId` to save an existing one again (whole). */
export interface CameraDraft {
  cameraId?: number;
  companyId: number;
  name: string;
  kind: CameraKind;
  roomId: RecordId;
  gridId?: RecordId | null;
  gridBoxId?: RecordId | null;
  /** An IP camera's still-image address (as shown, masked secrets and all, when saved again). */
  snapshotUrl?: string;
  intervalMinutes: number;
  /** null: the company's model setting. */
  modelKey?: string | null;
  enabled: boolean;
}

/** GET /get_cameras: the company's cameras by name, each with its last image and state, and the interval bounds. */
export async function getCameras(context: Pick<ApiContext, 'client'>, input: { companyId: number }): Promise<{ cameras: Camera[]; limits: CameraLimits }> {
  const { cameras, limits } = await online<z.infer<typeof camerasAnswer>>(context, { path: '/get_cameras', query: { company_id: input.companyId } }, m.fetchFailed);
  return { cameras, limits };
}

/** GET /get_camera: one camera with its last image and state. */
export async function getCamera(context: Pick<ApiContext, 'client'>, input: { cameraId: number }): Promise<{ camera: Camera; limits: CameraLimits }> {
  const { camera, limits } = await online<z.infer<typeof cameraAnswer>>(context, { path: '/get_camera', query: check(cameraOnlyBody, { camera_id: input.cameraId }) }, m.fetchFailed);
  return { camera, limits };
}

/**
 * POST /create_camera or /update_camera (Admins): the camera saved, as the server answers it. The
 * interval is checked against the operator's bounds (`limits`) as the server checks it.
 */
export async function saveCamera(context: Pick<ApiContext, 'client'>, draft: CameraDraft, limits: CameraLimits): Promise<Camera> {
  const fields = {
    company_id: draft.companyId,
    name: draft.name,
    kind: draft.kind,
    room_id: draft.roomId,
    grid_id: draft.gridId ?? null,
    grid_box_id: draft.gridId ? (draft.gridBoxId ?? null) : null,
    snapshot_url: draft.kind === 'ip' ? (draft.snapshotUrl ?? '') : null,
    interval_minutes: draft.intervalMinutes,
    model_key: draft.modelKey ?? null,
    enabled: draft.enabled,
  };
  const body = draft.cameraId === undefined ? fields : { ...fields, camera_id: draft.cameraId };
  check(draft.cameraId === undefined ? createCameraBody : updateCameraBody, body);
  const interval = intervalSecondsOf(draft.intervalMinutes, limits.min_interval_seconds);
  if ('problem' in interval) throw new ValidationError(interval.problem);
  const path = draft.cameraId === undefined ? '/create_camera' : '/update_camera';
  return (await online<z.infer<typeof saveCameraAnswer>>(context, { method: 'POST', path, body }, m.saveFailed)).camera;
}

/** DELETE /delete_camera (Admins): its images stay until their retention ends; its device links end now. */
export async function deleteCamera(context: Pick<ApiContext, 'client'>, input: { cameraId: number }): Promise<void> {
  await online(context, { method: 'DELETE', path: '/delete_camera', body: check(cameraOnlyBody, { camera_id: input.cameraId }) }, m.deleteFailed);
}

/** POST /capture_camera_now (Admins): an IP camera photographed now; its image arrives moments later. */
export async function captureCameraNow(context: Pick<ApiContext, 'client'>, input: { cameraId: number }): Promise<void> {
  await online(context, { method: 'POST', path: '/capture_camera_now', body: check(cameraOnlyBody, { camera_id: input.cameraId }) }, m.captureFailed);
}

/** GET /get_camera_images: a camera's timeline, newest first, within start..end (ISO times), a page at a time. */
export async function getCameraImages(
  context: Pick<ApiContext, 'client'>,
  input: { cameraId: number; start?: string; end?: string; page?: number; perPage?: number },
): Promise<{ images: CameraImage[]; total: number; page: number; perPage: number }> {
  const query = Object.fromEntries(Object.entries({ camera_id: input.cameraId, start: input.start, end: input.end, page: input.page, per_page: input.perPage }).filter(([, value]) => value !== undefined));
  check(cameraImagesQuery, query);
  const answer = await online<z.infer<typeof cameraImagesAnswer>>(context, { path: '/get_camera_images', query }, m.imagesFailed);
  return { images: answer.images, total: answer.total, page: answer.page, perPage: answer.per_page };
}

/** GET /get_camera_captures: the company's camera images across its cameras (scan history), newest first. */
export async function getCameraCaptures(
  context: Pick<ApiContext, 'client'>,
  input: { companyId: number; roomId?: RecordId; start?: string; end?: string; page?: number; perPage?: number },
): Promise<{ captures: CameraCapture[]; total: number }> {
  const query = Object.fromEntries(
    Object.entries({ company_id: input.companyId, room_id: input.roomId, start: input.start, end: input.end, page: input.page, per_page: input.perPage }).filter(([, value]) => value !== undefined),
  );
  check(cameraCapturesQuery, query);
  const answer = await online<z.infer<typeof cameraCapturesAnswer>>(context, { path: '/get_camera_captures', query }, m.imagesFailed);
  return { captures: answer.captures, total: answer.total };
}

/** POST /create_camera_device_token (Admins): a phone camera's link; the token (inside `url`) is answered only now. */
export async function createDeviceLink(context: Pick<ApiContext, 'client'>, input: { cameraId: number }): Promise<{ token: DeviceToken; url: string }> {
  const answer = await online<z.infer<typeof createDeviceTokenAnswer>>(context, { method: 'POST', path: '/create_camera_device_token', body: check(cameraOnlyBody, { camera_id: input.cameraId }) }, m.tokenCreateFailed);
  return { token: answer.device_token, url: answer.url };
}

/** DELETE /revoke_camera_device_token (Admins): the phone using it stops at its next call. */
export async function revokeDeviceLink(context: Pick<ApiContext, 'client'>, input: { tokenId: number }): Promise<void> {
  await online(context, { method: 'DELETE', path: '/revoke_camera_device_token', body: check(revokeDeviceTokenBody, { token_id: input.tokenId }) }, m.tokenRevokeFailed);
}

/** GET /get_camera_device_tokens (Admins): a camera's links, newest first, revoked ones included. */
export async function getDeviceLinks(context: Pick<ApiContext, 'client'>, input: { cameraId: number }): Promise<DeviceToken[]> {
  return (await online<z.infer<typeof deviceTokensAnswer>>(context, { path: '/get_camera_device_tokens', query: check(cameraOnlyBody, { camera_id: input.cameraId }) }, m.tokensFailed)).tokens;
}

// ——— The phone's calls (the public /camera page) ———

/** A client without a session: the phone's calls carry their device token themselves. */
export function deviceClient(baseURL: string): ApiClient {
  return createApiClient({ baseURL, session: { get: async () => null, set: async () => undefined, clear: async () => undefined } });
}

const deviceHeaders = (token: string) => ({ Authorization: `${CAMERA_DEVICE_SCHEME} ${token}` });

/** Whether a failed device call means the link no longer works (revoked, unknown, its camera deleted). */
export const linkRevoked = (error: unknown) => error instanceof ApiError && error.status === 401;

/** GET /camera_device/config: which camera this phone is and how often it captures. */
export async function getDeviceConfig(client: ApiClient, token: string): Promise<DeviceConfig> {
  return (await online<z.infer<typeof deviceConfigAnswer>>({ client }, { path: '/camera_device/config', headers: deviceHeaders(token), skipRefresh: true }, m.deviceConfigFailed)).camera;
}

/**
 * POST /camera_device/upload: one photo with the time it was taken and its own uuid (an upload sent
 * again after a lost answer is stored once).
 */
export async function uploadDeviceCapture(client: ApiClient, token: string, capture: { id: string; blob: Blob; capturedAt: string }): Promise<z.infer<typeof deviceUploadAnswer>> {
  const form = new FormData();
  form.append('captured_at', capture.capturedAt);
  form.append('client_id', capture.id);
  form.append('image', capture.blob, `${capture.id}.jpg`);
  return online({ client }, { method: 'POST', path: '/camera_device/upload', body: form, headers: deviceHeaders(token), skipRefresh: true }, m.uploadFailed);
}
