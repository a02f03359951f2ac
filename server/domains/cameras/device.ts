/**
 * The calls of a phone camera (the public `/camera` page), with no user session: the device token an
 * Admin made (routes.ts `create_camera_device_token`) in the header `Authorization: Camera <token>`.
 * A header, not a form field or the address: it stays out of request logs (app.ts redacts the
 * authorization header) and out of the multipart body the fuzzing and size limits read.
 *
 * - GET /camera_device/config: which camera the phone is (its name, room, grid and box names), its
 *   interval and whether it is paused. Nothing else of the company.
 * - POST /camera_device/upload (multipart: `image`, `captured_at`, `client_id`): one photo, stored as
 *   the camera's image with the phone's capture time (a photo kept offline keeps its time; a time ahead
 *   of the server's clock is taken as the server's now), analysed by the image job. The same
 *   `client_id` sent again (an answer lost on a weak signal) is stored once and answered `repeated`.
 * - An unknown or revoked token, or one of a deleted camera, answers 401 with a message saying so: the
 *   page stops and tells the person at the phone. Both calls are rate-limited per address
 *   (CAMERA_DEVICE_RATE_LIMIT): a token is unguessable, but the calls are open to anyone.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CAMERA_DEVICE_SCHEME, cameraMessages as m } from '../../../common/messages/cameras';
import { fileMessages } from '../../../common/messages/files';
import { deviceConfigAnswer, deviceUploadAnswer, deviceUploadBody } from '../../../common/schemas/cameras';
import { isoTime } from '../../../common/schemas/answers';
import { HttpError, badRequest, unauthorized } from '../../http/errors';
import { type App, type RequestOf, success } from '../../http/route';
import { hashToken } from '../auth/tokens';
import { sniffImageType } from '../files/storage';
import { recordCameraImage } from './images';
import { cameraQueries as q } from './queries';

const configSchema = { response: { 200: deviceConfigAnswer } };
const uploadSchema = { body: deviceUploadBody, response: { 200: deviceUploadAnswer } };

/** The camera the request's device token opens, and the token's id; 401 otherwise. */
async function deviceCamera(request: FastifyRequest) {
  const header = request.headers.authorization ?? '';
  const prefix = `${CAMERA_DEVICE_SCHEME} `;
  const token = header.startsWith(prefix) ? header.slice(prefix.length).trim() : '';
  if (!token) throw unauthorized(m.deviceTokenMissing);
  const camera = await q.cameraOfToken(request.db, hashToken(token));
  if (!camera) throw unauthorized(m.deviceTokenInvalid);
  return camera;
}

async function getDeviceConfig(request: FastifyRequest, reply: FastifyReply) {
  const camera = await deviceCamera(request);
  await request.db.updateTable('camera_device_tokens').set({ last_used_at: new Date() }).where('id', '=', camera.token_id).execute();
  const [listed] = await q.listed(request.db, camera.company_id, camera.id);
  // A revoked link must not live on in a cache between the phone and the server.
  void reply.header('Cache-Control', 'no-store');
  return success({
    camera: {
      camera_id: camera.id,
      name: camera.name,
      room_name: listed?.room_name ?? null,
      grid_name: listed?.grid_name ?? null,
      grid_box_name: listed?.grid_box_name ?? null,
      interval_seconds: camera.interval_seconds,
      enabled: camera.enabled,
    },
  });
}

async function uploadDeviceImage(request: RequestOf<typeof uploadSchema>) {
  const camera = await deviceCamera(request);
  const { image, client_id } = request.body;
  if (!Buffer.isBuffer(image) || image.length === 0) throw badRequest(fileMessages.imageRequired);
  const type = sniffImageType(image);
  if (!type) throw new HttpError(415, fileMessages.imageType);
  if (client_id !== undefined) {
    const earlier = await q.imageByClientId(request.db, camera.id, client_id);
    if (earlier) return success({ image_id: earlier.id, captured_at: isoTime(earlier.captured_at), repeated: true }, m.imageRepeated);
  }
  const now = new Date();
  const taken = new Date(request.body.captured_at);
  const capturedAt = taken > now ? now : taken;
  const stored = await recordCameraImage(request.db, request.server.deps.files, { camera, bytes: image, type, capturedAt, source: 'device', clientId: client_id });
  await request.db.updateTable('camera_device_tokens').set({ last_used_at: now }).where('id', '=', camera.token_id).execute();
  return success({ image_id: stored.id, captured_at: isoTime(stored.captured_at), repeated: false }, m.imageStored);
}

export async function deviceRoutes(app: App) {
  const limit = { max: app.deps.config.cameraDeviceRateLimitPerMinute, timeWindow: '1 minute' };
  const device = { access: 'public' as const, rateLimit: limit };
  app.get('/camera_device/config', { schema: configSchema, config: device }, getDeviceConfig);
  app.post('/camera_device/upload', { schema: uploadSchema, config: device }, uploadDeviceImage);
}
