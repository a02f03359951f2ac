/**
 * Automated cameras (issue 17): the Admins' calls that add, change and delete cameras, ask for a
 * capture now and make or revoke a phone's device link; everyone's reads of the cameras and their
 * images. The phone's own calls (no session, a device token) are device.ts'; the background work is
 * jobs.ts'.
 *
 * Decisions (the spec shows none of this):
 * - Admins (and SuperAdmins) write; every member reads cameras and images (the scan history shows
 *   camera captures to growers too). The snapshot address is answered to Admins only, masked
 *   (snapshot-url.ts): it may hold the camera's password.
 * - A camera is named by `camera_id`, a device link by `token_id`; each handler loads the record and
 *   checks its company (guards.ts `assertCompanyAccess`: another company's answers 403, a missing or
 *   deleted one 404) until the ownership table (server/http/ownership.ts) knows both kinds.
 * - A snapshot address the server may not call (not https, or not a public internet address:
 *   server/http/outbound.ts) is refused when the camera is saved, with the reason, unless the operator
 *   allows private addresses (ALLOW_PRIVATE_WEBHOOKS); each fetch checks it again. The check runs before
 *   the request's transaction (a DNS lookup must not hold the database); a host that does not resolve
 *   now is let through (its fetches say why they fail).
 * - Saving a camera whose address, interval or pause changed photographs it at once (an IP camera);
 *   a new address starts its state afresh (`waiting`, no failures).
 * - Deleting a camera revokes its device links and keeps its images until their retention ends
 *   (retention.ts); the scan history still lists them.
 * - Every save, deletion, link and revocation is audited, never with the address.
 */
import type { FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import type { Role } from '../../../common/roles';
import { CAMERA_DEFAULT_INTERVAL_MINUTES, cameraMessages as m } from '../../../common/messages/cameras';
import { builtInModel } from '../../../common/models/catalogue';
import {
  cameraAnswer,
  cameraCapturesAnswer,
  cameraCapturesQuery,
  cameraImagesAnswer,
  cameraImagesQuery,
  cameraOnlyBody,
  cameraOnlyQuery,
  camerasAnswer,
  camerasQuery,
  captureNowAnswer,
  createCameraBody,
  createDeviceTokenAnswer,
  deleteCameraAnswer,
  deviceTokensAnswer,
  intervalSecondsOf,
  revokeDeviceTokenAnswer,
  revokeDeviceTokenBody,
  saveCameraAnswer,
  updateCameraBody,
} from '../../../common/schemas/cameras';
import type { DB } from '../../db/schema';
import { actedAtOf, writer } from '../../db/writes';
import { badRequest, notFound } from '../../http/errors';
import { actingCompany, assertCompanyAccess, assertLinkedWithin, caller } from '../../http/guards';
import { OutboundRefusedError, resolveOutboundTarget } from '../../http/outbound';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { sendJob } from '../../jobs/queue';
import { actorOfRequest, recordAudit } from '../audit/record';
import { hashToken, newOpaqueToken } from '../auth/tokens';
import { aiModelQueries } from '../models/queries';
import { deviceRoutes } from './device';
import { CAMERA_FETCH_QUEUE, type CameraFetchJob } from './jobs';
import { type Camera, cameraImageJson, cameraImagesOfCompany, cameraJson, cameraLimitsOf, cameraQueries as q, deviceTokenJson } from './queries';
import { unmaskSnapshotUrl } from './snapshot-url';

const createSchema = { body: createCameraBody, response: { 200: saveCameraAnswer } };
const updateSchema = { body: updateCameraBody, response: { 200: saveCameraAnswer } };
const deleteSchema = { body: cameraOnlyBody, response: { 200: deleteCameraAnswer } };
const listSchema = { querystring: camerasQuery, response: { 200: camerasAnswer } };
const oneSchema = { querystring: cameraOnlyQuery, response: { 200: cameraAnswer } };
const imagesSchema = { querystring: cameraImagesQuery, response: { 200: cameraImagesAnswer } };
const capturesSchema = { querystring: cameraCapturesQuery, response: { 200: cameraCapturesAnswer } };
const captureSchema = { body: cameraOnlyBody, response: { 200: captureNowAnswer } };
const createTokenSchema = { body: cameraOnlyBody, response: { 200: createDeviceTokenAnswer } };
const revokeTokenSchema = { body: revokeDeviceTokenBody, response: { 200: revokeDeviceTokenAnswer } };
const tokensSchema = { querystring: cameraOnlyQuery, response: { 200: deviceTokensAnswer } };

/** How long a save waits for the snapshot host's DNS answer. */
const SNAPSHOT_LOOKUP_MS = 3_000;

const cameraNotFound = (id: number) => notFound(httpMessages.recordNotFound(`camera ${id}`));

/** A camera's address may carry its credentials: the company's Admins (and SuperAdmins) see it, not growers or outside consultants. */
const mayReadAddress = (role: Role) => role === 'Admin' || role === 'SuperAdmin';

/** The live camera `id`, of a company the caller may act for (403 for another's, 404 for none). */
async function namedCamera(request: FastifyRequest, id: number): Promise<Camera> {
  const camera = await request.db.selectFrom('cameras').selectAll().where('id', '=', id).executeTakeFirst();
  if (!camera) throw cameraNotFound(id);
  assertCompanyAccess(request, camera.company_id);
  if (camera.deleted_at !== null) throw cameraNotFound(id);
  return camera;
}

/** The camera as answered, read again with its names and last image. */
async function answered(request: FastifyRequest, camera: Pick<Camera, 'id' | 'company_id'>) {
  const [listed] = await q.listed(request.db, camera.company_id, camera.id);
  if (!listed) throw cameraNotFound(camera.id);
  return cameraJson(listed, true);
}

/**
 * Route preHandler of the saves, before the request's transaction: a snapshot address the server may
 * not call is refused (see the module header).
 */
async function snapshotCallable(request: FastifyRequest) {
  const { snapshot_url } = request.body as { snapshot_url?: string };
  if (snapshot_url === undefined) return;
  try {
    await resolveOutboundTarget(snapshot_url, { allowPrivate: request.server.deps.config.allowPrivateWebhooks }, AbortSignal.timeout(SNAPSHOT_LOOKUP_MS));
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw badRequest(m.snapshotUrlRefused(error.message));
    // Not resolved now (no DNS answer, or none in time): checked again at each fetch.
  }
}

type CameraSave = RequestOf<typeof createSchema>['body'] | RequestOf<typeof updateSchema>['body'];

/** The checks a save needs beyond its schema: where the camera looks, its model and its interval; answers the interval in seconds. */
async function checkedSave(request: FastifyRequest, companyId: number, save: CameraSave, intervalMinutes: number): Promise<number> {
  await assertLinkedWithin(request, companyId, { room: save.room_id, grid: save.grid_id, grid_box: save.grid_box_id });
  if (save.grid_id !== undefined) {
    const grid = await request.db.selectFrom('grids').select('room_id').where('id', '=', save.grid_id).executeTakeFirst();
    if (grid?.room_id !== save.room_id) throw badRequest(m.gridNotInRoom);
  }
  if (save.grid_box_id !== undefined) {
    const box = await request.db.selectFrom('grid_boxes').select('grid_id').where('id', '=', save.grid_box_id).executeTakeFirst();
    if (box?.grid_id !== save.grid_id) throw badRequest(m.boxNotInGrid);
  }
  if (save.model_key !== undefined && !builtInModel(save.model_key) && !(await aiModelQueries.latestByKey(request.db, companyId, save.model_key))) {
    throw badRequest(m.modelUnknown(save.model_key));
  }
  const interval = intervalSecondsOf(intervalMinutes, request.server.deps.config.cameraMinIntervalSeconds);
  if ('problem' in interval) throw badRequest(interval.problem);
  return interval.seconds;
}

/** The audit titles of a camera's kind (the trail names a camera by its name and kind). */
const titlesOf = (camera: Pick<Camera, 'kind'>) => auditTitles.cameras[camera.kind];

async function createCamera(request: RequestOf<typeof createSchema>) {
  const body = request.body;
  const companyId = actingCompany(request, body.company_id);
  const intervalSeconds = await checkedSave(request, companyId, body, body.interval_minutes ?? CAMERA_DEFAULT_INTERVAL_MINUTES);
  const actor = actorOfRequest(request, companyId);
  const enabled = body.enabled !== 0;
  const created = await writer(request.db, actor).insert('cameras', {
    company_id: companyId,
    name: body.name,
    room_id: body.room_id,
    grid_id: body.grid_id ?? null,
    grid_box_id: body.grid_box_id ?? null,
    kind: body.kind,
    // Stored as the URL parser writes it, so a save that sends it back compares equal (snapshot-url.ts).
    snapshot_url: body.kind === 'ip' && body.snapshot_url !== undefined ? new URL(body.snapshot_url).toString() : null,
    interval_seconds: intervalSeconds,
    model_key: body.model_key ?? null,
    enabled,
    // An IP camera is photographed at once: the Admin sees at once whether its address works.
    next_capture_at: body.kind === 'ip' ? actedAtOf(actor) : null,
  });
  await recordAudit(request.db, actor, { title: titlesOf(body).added(body.name), roomId: body.room_id, details: { camera_id: created.id } });
  return success({ camera: await answered(request, { id: created.id, company_id: companyId }), camera_id: created.id }, m.cameraCreated);
}

async function updateCamera(request: RequestOf<typeof updateSchema>) {
  const body = request.body;
  const camera = await namedCamera(request, body.camera_id);
  if (body.kind !== undefined && body.kind !== camera.kind) throw badRequest(m.kindFixed);
  if (camera.kind === 'ip' && body.snapshot_url === undefined) throw badRequest(m.snapshotUrlRequired);
  if (camera.kind === 'device' && body.snapshot_url !== undefined) throw badRequest(m.snapshotUrlForDevice);
  const intervalSeconds = await checkedSave(request, camera.company_id, body, body.interval_minutes ?? camera.interval_seconds / 60);
  const actor = actorOfRequest(request, camera.company_id);
  const snapshotUrl = camera.kind === 'ip' && body.snapshot_url !== undefined ? unmaskSnapshotUrl(body.snapshot_url, camera.snapshot_url) : null;
  const enabled = body.enabled === undefined ? camera.enabled : body.enabled === 1;
  const newAddress = snapshotUrl !== camera.snapshot_url;
  const photographNow = camera.kind === 'ip' && enabled && (newAddress || !camera.enabled || intervalSeconds !== camera.interval_seconds);
  await writer(request.db, actor).update('cameras', camera.id, {
    name: body.name,
    room_id: body.room_id,
    grid_id: body.grid_id ?? null,
    grid_box_id: body.grid_box_id ?? null,
    snapshot_url: snapshotUrl,
    interval_seconds: intervalSeconds,
    model_key: body.model_key ?? null,
    enabled,
    ...(photographNow ? { next_capture_at: actedAtOf(actor) } : {}),
    ...(newAddress ? { state: 'waiting' as const, failures: 0, last_error: null } : {}),
  });
  await recordAudit(request.db, actor, { title: titlesOf(camera).changed(body.name), roomId: body.room_id, details: { camera_id: camera.id } });
  return success({ camera: await answered(request, camera), camera_id: camera.id }, m.cameraUpdated);
}

async function deleteCamera(request: RequestOf<typeof deleteSchema>) {
  const camera = await namedCamera(request, request.body.camera_id);
  const actor = actorOfRequest(request, camera.company_id);
  await writer(request.db, actor).softDelete('cameras', camera.id);
  const revoked = await q.revokeTokens(request.db, { cameraId: camera.id }, actor.userId, actedAtOf(actor));
  await recordAudit(request.db, actor, { title: titlesOf(camera).deleted(camera.name), roomId: camera.room_id, details: { camera_id: camera.id, revoked_token_ids: revoked.map((token) => token.id) } });
  return success({ camera_id: camera.id }, m.cameraDeleted);
}

/** The company's cameras by name, each with its last image and state, and the operator's interval bounds. */
async function getCameras(request: RequestOf<typeof listSchema>) {
  const companyId = actingCompany(request, request.query.company_id);
  const showAddress = mayReadAddress(caller(request).user_role);
  const cameras = (await q.listed(request.db, companyId)).map((camera) => cameraJson(camera, showAddress));
  return success({ cameras, limits: cameraLimitsOf(request.server.deps.config.cameraMinIntervalSeconds) });
}

async function getCamera(request: RequestOf<typeof oneSchema>) {
  const camera = await namedCamera(request, request.query.camera_id);
  const [listed] = await q.listed(request.db, camera.company_id, camera.id);
  if (!listed) throw cameraNotFound(camera.id);
  return success({ camera: cameraJson(listed, mayReadAddress(caller(request).user_role)), limits: cameraLimitsOf(request.server.deps.config.cameraMinIntervalSeconds) });
}

/** A camera's timeline: newest first by the camera's time, within start..end, a page at a time. */
async function getCameraImages(request: RequestOf<typeof imagesSchema>) {
  const { camera_id, ...page } = request.query;
  const camera = await namedCamera(request, camera_id);
  const { images, total } = await q.images(request.db, camera.id, page);
  return success({ images: images.map(cameraImageJson), page: page.page, per_page: page.per_page, total });
}

/** The company's camera images across its cameras (the scan history's camera entries). */
async function getCameraCaptures(request: RequestOf<typeof capturesSchema>) {
  const { company_id, room_id, ...page } = request.query;
  const { captures, total } = await cameraImagesOfCompany(request.db, actingCompany(request, company_id), { ...page, roomId: room_id });
  return success({ captures, page: page.page, per_page: page.per_page, total });
}

/** Queues a fetch of an IP camera now, whatever its schedule (a paused camera too: the Admin asks). */
async function captureCameraNow(request: RequestOf<typeof captureSchema>) {
  const camera = await namedCamera(request, request.body.camera_id);
  if (camera.kind !== 'ip') throw badRequest(m.captureNeedsIp);
  await sendJob<DB, CameraFetchJob>(request.db, CAMERA_FETCH_QUEUE, { cameraId: camera.id, slot: null });
  return success({ camera_id: camera.id }, m.captureQueued);
}

/** A new device link for a phone camera; its token is answered here only. */
async function createDeviceToken(request: RequestOf<typeof createTokenSchema>) {
  const camera = await namedCamera(request, request.body.camera_id);
  if (camera.kind !== 'device') throw badRequest(m.tokenForDeviceOnly);
  const actor = actorOfRequest(request, camera.company_id);
  const token = newOpaqueToken();
  const created = await request.db
    .insertInto('camera_device_tokens')
    .values({ camera_id: camera.id, company_id: camera.company_id, token_hash: hashToken(token), created_by: caller(request).user_id, created_at: actedAtOf(actor) })
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(request.db, actor, { title: titlesOf(camera).madeDeviceLink(camera.name), roomId: camera.room_id, details: { camera_id: camera.id, token_id: created.id } });
  const path = `/camera?token=${encodeURIComponent(token)}`;
  return success({ device_token: deviceTokenJson(created), token, path, url: `${request.server.deps.config.publicUrl}${path}` }, m.tokenCreated);
}

/** Revokes a device link; revoking one already revoked changes nothing. */
async function revokeDeviceToken(request: RequestOf<typeof revokeTokenSchema>) {
  const token = await q.tokenById(request.db, request.body.token_id);
  if (!token) throw notFound(httpMessages.recordNotFound(`camera_device_token ${request.body.token_id}`));
  assertCompanyAccess(request, token.company_id);
  if (token.revoked_at !== null) return success({ device_token: deviceTokenJson(token) }, m.tokenAlreadyRevoked);
  const actor = actorOfRequest(request, token.company_id);
  const [revoked] = await q.revokeTokens(request.db, { tokenId: token.id }, actor.userId, actedAtOf(actor));
  const camera = await request.db.selectFrom('cameras').select(['name', 'kind', 'room_id']).where('id', '=', token.camera_id).executeTakeFirstOrThrow();
  await recordAudit(request.db, actor, { title: titlesOf(camera).revokedDeviceLink(camera.name), roomId: camera.room_id, details: { camera_id: token.camera_id, token_id: token.id } });
  return success({ device_token: deviceTokenJson(revoked ?? token) }, m.tokenRevoked);
}

/** A camera's device links, newest first, revoked ones included. */
async function getDeviceTokens(request: RequestOf<typeof tokensSchema>) {
  const camera = await namedCamera(request, request.query.camera_id);
  return success({ tokens: (await q.tokensOf(request.db, camera.id)).map(deviceTokenJson) });
}

export async function cameraRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  const admin = { access: 'admin' as const };
  // Saves take their fields from the body only: a snapshot address may hold a password, and a query
  // is written to the request log.
  app.post('/create_camera', { schema: createSchema, config: admin, preHandler: snapshotCallable }, createCamera);
  app.post('/update_camera', { schema: updateSchema, config: admin, preHandler: snapshotCallable }, updateCamera);
  app.delete('/delete_camera', { schema: deleteSchema, config: admin, ...fields }, deleteCamera);
  app.get('/get_cameras', { schema: listSchema }, getCameras);
  app.get('/get_camera', { schema: oneSchema }, getCamera);
  app.get('/get_camera_images', { schema: imagesSchema }, getCameraImages);
  app.get('/get_camera_captures', { schema: capturesSchema }, getCameraCaptures);
  app.post('/capture_camera_now', { schema: captureSchema, config: admin, ...fields }, captureCameraNow);
  app.post('/create_camera_device_token', { schema: createTokenSchema, config: admin, ...fields }, createDeviceToken);
  app.delete('/revoke_camera_device_token', { schema: revokeTokenSchema, config: { ...admin, owns: { token_id: 'camera_device_token' } }, ...fields }, revokeDeviceToken);
  app.get('/get_camera_device_tokens', { schema: tokensSchema, config: admin }, getDeviceTokens);
  await deviceRoutes(app);
}
