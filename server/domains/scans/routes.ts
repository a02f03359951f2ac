/**
 * Scan state of rooms and grids, scans, and whiteboard and grid images (spec part 1 §3, §4, §5, §8).
 * Any member marks a room or grid scanned (as themselves), scans (sessions.ts) and uploads images;
 * Admins reset the scanned state and delete scans. Every change is audited and bumps the synced row.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { scanMessages as m } from '../../../common/messages/scans';
import { doneAnswer } from '../../../common/schemas/answers';
import {
  deleteScanQuery,
  gridBackgroundAnswer,
  gridBackgroundQuery,
  gridIdQuery,
  markGridScannedAnswer,
  markGridScannedQuery,
  markRoomScannedAnswer,
  markRoomScannedQuery,
  resetScannedAnswer,
  resetScannedQuery,
  roomIdQuery,
  scanDetailsAnswer,
  uploadGridImageAnswer,
  uploadGridImageBody,
  uploadGridImageQuery,
  uploadWhiteboardAnswer,
  uploadWhiteboardBody,
  whiteboardHistoryAnswer,
} from '../../../common/schemas/scans';
import { writer } from '../../db/writes';
import { notFound } from '../../http/errors';
import { actingCompany, assertCaller, caller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { saveImage } from '../files/storage';
import { gridJson, gridQueries } from '../grids/queries';
import { roomJson, roomQueries } from '../rooms/queries';
import { gridBackgroundJson, scanDetailsJson, scanQueries, whiteboardJson } from './queries';
import { scanSessionRoutes } from './sessions';

const markRoomSchema = { querystring: markRoomScannedQuery, response: { 200: markRoomScannedAnswer } };
const markGridSchema = { querystring: markGridScannedQuery, response: { 200: markGridScannedAnswer } };
const roomDetailsSchema = { querystring: roomIdQuery, response: { 200: scanDetailsAnswer } };
const gridDetailsSchema = { querystring: gridIdQuery, response: { 200: scanDetailsAnswer } };
const resetSchema = { querystring: resetScannedQuery, response: { 200: resetScannedAnswer } };
const deleteScanSchema = { querystring: deleteScanQuery, response: { 200: doneAnswer } };
const uploadWhiteboardSchema = { body: uploadWhiteboardBody, response: { 200: uploadWhiteboardAnswer } };
const whiteboardHistorySchema = { querystring: roomIdQuery, response: { 200: whiteboardHistoryAnswer } };
const uploadGridImageSchema = { querystring: uploadGridImageQuery, body: uploadGridImageBody, response: { 200: uploadGridImageAnswer } };
const gridBackgroundSchema = { querystring: gridBackgroundQuery, response: { 200: gridBackgroundAnswer } };

/** The scanner is always the caller: nobody marks a scan in someone else's name. */
function scannerOf(request: RequestOf<typeof markRoomSchema> | RequestOf<typeof markGridSchema>) {
  return assertCaller(request, request.query.user_id);
}

async function markRoomScanned(request: RequestOf<typeof markRoomSchema>) {
  const auth = scannerOf(request);
  const room = await roomQueries.byId(request.db, request.query.room_id);
  const actor = actorOfRequest(request, room.company_id);
  await writer(request.db, actor).update('rooms', room.id, { scanned: true, scanned_at: request.actedAt, last_scanned_by: auth.user_id });
  await recordAudit(request.db, actor, { title: auditTitles.markedRoomScanned(room.name), roomId: room.id });
  return success({ room: roomJson(await roomQueries.byId(request.db, room.id)) }, m.roomScanned);
}

async function markGridScanned(request: RequestOf<typeof markGridSchema>) {
  const auth = scannerOf(request);
  const grid = await gridQueries.byId(request.db, request.query.grid_id);
  const actor = actorOfRequest(request, grid.company_id);
  await writer(request.db, actor).update('grids', grid.id, { scanned: true, scanned_at: request.actedAt, last_scanned_by: auth.user_id });
  await recordAudit(request.db, actor, { title: auditTitles.markedGridScanned(grid.name), roomId: grid.room_id });
  return success({ grid: gridJson(await gridQueries.byId(request.db, grid.id)) }, m.gridScanned);
}

async function getRoomScanDetails(request: RequestOf<typeof roomDetailsSchema>) {
  return success(scanDetailsJson(await scanQueries.details(request.db, 'rooms', request.query.room_id)));
}

async function getGridScanDetails(request: RequestOf<typeof gridDetailsSchema>) {
  return success(scanDetailsJson(await scanQueries.details(request.db, 'grids', request.query.grid_id)));
}

/** Clears Scanned, ScannedDateTime and LastScannedBy of the company's rooms and grids; only rows that had any are written. */
async function resetScannedStatus(request: RequestOf<typeof resetSchema>) {
  const companyId = actingCompany(request, request.query.company_id);
  const actor = actorOfRequest(request, companyId);
  const write = writer(request.db, actor);
  const cleared = { scanned: false, scanned_at: null, last_scanned_by: null };
  const roomIds = await scanQueries.scannedIds(request.db, 'rooms', companyId);
  for (const id of roomIds) await write.update('rooms', id, cleared);
  const gridIds = await scanQueries.scannedIds(request.db, 'grids', companyId);
  for (const id of gridIds) await write.update('grids', id, cleared);
  const counts = { rooms_reset: roomIds.length, grids_reset: gridIds.length };
  await recordAudit(request.db, actor, { title: auditTitles.resetScanned, details: counts });
  return success(counts, m.statusReset);
}

/**
 * Deletes a scan session with its boxes' photos and findings. Decision: the problems its confirmed
 * findings recorded and the Sticky Trap responses its counts made stay: they are records of their own
 * (a grower confirmed each problem, and the responses feed the reports), managed where they are.
 */
async function deleteScan(request: RequestOf<typeof deleteScanSchema>) {
  const { company_id, scan_id } = request.query;
  const scan = await scanQueries.scanById(request.db, scan_id);
  // A SuperAdmin may name any company: the scan must still belong to the one named.
  if (scan.company_id !== company_id) throw notFound();
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  const boxIds = await write.softDeleteWhere('scan_boxes', 'scan_id', [scan.id]);
  await write.softDelete('scans', scan.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedScan(scan.id), roomId: scan.room_id, gridBoxId: scan.grid_box_id, details: { scan_type: scan.scan_type, boxes: boxIds.length } });
  return success({}, m.scanDeleted);
}

async function uploadWhiteboardImage(request: RequestOf<typeof uploadWhiteboardSchema>) {
  const auth = caller(request);
  const room = await roomQueries.byId(request.db, request.body.room_id);
  const actor = actorOfRequest(request, room.company_id);
  const file = await saveImage(request, request.body.imageFile, room.company_id);
  // The history keeps every upload; the room shows the newest.
  await scanQueries.addWhiteboardImage(request.db, { companyId: room.company_id, roomId: room.id, fileId: file.id, uploadedBy: auth.user_id, uploadedAt: request.actedAt });
  await writer(request.db, actor).update('rooms', room.id, { whiteboard_image: file.path });
  await recordAudit(request.db, actor, { title: auditTitles.uploadedWhiteboard(room.name), roomId: room.id, details: { file: file.path } });
  return success({ WhiteboardImage: file.path, room: roomJson(await roomQueries.byId(request.db, room.id)) }, m.whiteboardUploaded);
}

async function getWhiteboardHistory(request: RequestOf<typeof whiteboardHistorySchema>) {
  const rows = await scanQueries.whiteboardHistory(request.db, request.query.room_id);
  return success({ history: rows.map(whiteboardJson) });
}

async function uploadGridImage(request: RequestOf<typeof uploadGridImageSchema>) {
  const grid = await gridQueries.byId(request.db, request.query.GridID);
  const actor = actorOfRequest(request, grid.company_id);
  const file = await saveImage(request, request.body.image, grid.company_id);
  await writer(request.db, actor).update('grids', grid.id, { image_name: file.path });
  await recordAudit(request.db, actor, { title: auditTitles.uploadedGridBackground(grid.name), roomId: grid.room_id, details: { file: file.path } });
  return success({ ImageName: file.path }, m.gridImageUploaded);
}

async function getGridBackground(request: RequestOf<typeof gridBackgroundSchema>) {
  const grids = await scanQueries.gridsOfRoom(request.db, request.query.RoomID);
  return success({ grids: grids.map(gridBackgroundJson) });
}

export async function scanRoutes(app: App) {
  const admin = { access: 'admin' as const };
  app.post('/mark_room_scanned', { schema: markRoomSchema }, markRoomScanned);
  app.post('/mark_grid_scanned', { schema: markGridSchema }, markGridScanned);
  app.get('/get_room_scan_details', { schema: roomDetailsSchema }, getRoomScanDetails);
  app.get('/get_grid_scan_details', { schema: gridDetailsSchema }, getGridScanDetails);
  app.post('/reset_scanned_status', { schema: resetSchema, config: admin }, resetScannedStatus);
  app.delete('/delete_scan', { schema: deleteScanSchema, config: admin }, deleteScan);
  app.post('/upload_whiteboard_image', { schema: uploadWhiteboardSchema }, uploadWhiteboardImage);
  app.get('/get_whiteboard_history', { schema: whiteboardHistorySchema }, getWhiteboardHistory);
  app.post('/upload_grid_image', { schema: uploadGridImageSchema }, uploadGridImage);
  app.get('/get_grid_background', { schema: gridBackgroundSchema }, getGridBackground);
  await scanSessionRoutes(app);
}
