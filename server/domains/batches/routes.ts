/**
 * Batches (spec part 1 §3–§9, part 2 §5): create, list, update, delete; links to rooms, grids and grid
 * boxes; QR codes; the batch dashboard; harvest, moves between rooms and history; crop statuses; batch
 * problems. Any member records this floor work; deleting a batch and managing custom statuses are
 * Admin-only. Every change records an audit event and touches the batch, whose document carries its
 * links, problems and history.
 */
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import { auditTitles } from '../../../common/messages/audit-titles';
import { BUILT_IN_BATCH_STATUSES, DEFAULT_BATCH_STATUS, HARVESTED_BATCH_STATUS, isBuiltInBatchStatus } from '../../../common/batch-statuses';
import { batchMessages as m } from '../../../common/messages/batches';
import { isoTime } from '../../../common/schemas/answers';
import {
  assignStatusAnswer,
  assignStatusBody,
  assignStatusQuery,
  batchAnswer,
  batchDashboardAnswer,
  batchesAnswer,
  batchProblemsAnswer,
  batchQrInfoAnswer,
  batchQrUrlAnswer,
  createBatchAnswer,
  createBatchProblemAnswer,
  createCustomStatusAnswer,
  customStatusesAnswer,
  deleteBatchAnswer,
  deleteCustomStatusAnswer,
  gridBoxBatchesAnswer,
  linkedGridBoxesAnswer,
  linkedGridsAnswer,
  linkedRoomsAnswer,
  linkGridAnswer,
  linkGridBoxesAnswer,
  linkRoomAnswer,
  resolveBatchProblemsAnswer,
  roomBatchHistoryAnswer,
  roomsOfBatchAnswer,
  batchCompanyQuery,
  batchProblemsQuery,
  batchQuery,
  companyQuery,
  createBatchBody,
  createBatchProblemBody,
  customStatusFields,
  dashboardQuery,
  filterByStatusQuery,
  gridBoxBatchesQuery,
  harvestQuery,
  linkedBoxesQuery,
  linkedGridsQuery,
  linkedRoomsQuery,
  linkGridBoxesBody,
  linkGridQuery,
  linkRoomQuery,
  movePlantsQuery,
  optionalRoomQuery,
  qrParams,
  qrQuery,
  qrUrlQuery,
  resolveBatchProblemBody,
  roomBody,
  roomQuery,
  updateBatchBody,
  type CustomStatusRecord,
} from '../../../common/schemas/batches';
import type { DB } from '../../db/schema';
import { writer } from '../../db/writes';
import { badRequest, conflict, conflictOnUnique, notFound } from '../../http/errors';
import { assertCaller, caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { gridQueries } from '../grids/queries';
import { problemQueries } from '../problems/queries';
import { roomJson, roomQueries } from '../rooms/queries';
import { batchEventJson, batchJson, batchProblemJson, batchQueries, gridBoxLinkJson, gridLinkJson, roomLinkJson } from './queries';

const createSchema = { body: createBatchBody, response: { 200: createBatchAnswer } };
const companySchema = { querystring: companyQuery, response: { 200: batchesAnswer } };
const updateSchema = { querystring: batchCompanyQuery, body: updateBatchBody, response: { 200: batchAnswer } };
const deleteSchema = { querystring: batchCompanyQuery, response: { 200: deleteBatchAnswer } };
const linkRoomSchema = { querystring: linkRoomQuery, response: { 200: linkRoomAnswer } };
const linkGridSchema = { querystring: linkGridQuery, response: { 200: linkGridAnswer } };
const linkedRoomsSchema = { querystring: linkedRoomsQuery, response: { 200: linkedRoomsAnswer } };
const linkedGridsSchema = { querystring: linkedGridsQuery, response: { 200: linkedGridsAnswer } };
const linkBoxesSchema = { body: linkGridBoxesBody, response: { 200: linkGridBoxesAnswer } };
const linkedBoxesSchema = { querystring: linkedBoxesQuery, response: { 200: linkedGridBoxesAnswer } };
const roomSchema = { querystring: roomQuery, response: { 200: batchesAnswer } };
const roomsByBatchSchema = { querystring: batchQuery, response: { 200: roomsOfBatchAnswer } };
/** batch_qr answers a PNG, not JSON: it has no response schema. */
const qrSchema = { params: qrParams, querystring: qrQuery };
const qrInfoSchema = { params: qrParams, querystring: qrQuery, response: { 200: batchQrInfoAnswer } };
const qrUrlSchema = { params: qrParams, querystring: qrUrlQuery, response: { 200: batchQrUrlAnswer } };
const dashboardSchema = { querystring: dashboardQuery, response: { 200: batchDashboardAnswer } };
const harvestSchema = { querystring: harvestQuery, response: { 200: batchAnswer } };
const movePlantsSchema = { querystring: movePlantsQuery, response: { 200: batchAnswer } };
const historySchema = { querystring: optionalRoomQuery, body: roomBody, response: { 200: roomBatchHistoryAnswer } };
const assignStatusSchema = { querystring: assignStatusQuery, body: assignStatusBody, response: { 200: assignStatusAnswer } };
const createCustomStatusSchema = { body: customStatusFields, response: { 200: createCustomStatusAnswer } };
const customStatusesSchema = { querystring: companyQuery, response: { 200: customStatusesAnswer } };
const deleteCustomStatusSchema = { body: customStatusFields, response: { 200: deleteCustomStatusAnswer } };
const filterSchema = { querystring: filterByStatusQuery, response: { 200: batchesAnswer } };
const createProblemSchema = { body: createBatchProblemBody, response: { 200: createBatchProblemAnswer } };
const resolveProblemSchema = { body: resolveBatchProblemBody, response: { 200: resolveBatchProblemsAnswer } };
const problemsSchema = { querystring: batchProblemsQuery, response: { 200: batchProblemsAnswer } };
const gridBoxBatchesSchema = { querystring: gridBoxBatchesQuery, response: { 200: gridBoxBatchesAnswer } };

/** The status as the company spells it; an unknown name is refused, so filters and reports stay exact. */
async function knownStatusOf(db: Kysely<DB>, companyId: number, name: string) {
  const status = await batchQueries.knownStatus(db, companyId, name);
  if (!status) throw badRequest(m.unknownStatus(name.trim()));
  return status;
}

function assertDates(start: string | null | undefined, end: string | null | undefined) {
  if (start && end && end < start) throw badRequest(m.endBeforeStart);
}

/** The batch as its document, after a change. */
async function documentOf(db: Kysely<DB>, batchId: number) {
  const [document] = await batchQueries.documents(db, [await batchQueries.byId(db, batchId)]);
  if (!document) throw notFound();
  return document;
}

async function createBatch(request: RequestOf<typeof createSchema>) {
  const body = request.body;
  const actor = actorOfRequest(request, body.company_id);
  const status = await knownStatusOf(request.db, actor.companyId, body.BatchStatus ?? DEFAULT_BATCH_STATUS);
  assertDates(body.StartDate, body.EndDate);
  const { id, client_id } = await writer(request.db, actor)
    .insert('batches', {
      client_id: body.client_id,
      company_id: actor.companyId,
      batch_number: body.BatchNumber,
      number_of_plants: body.NumberOfPlants,
      strain_name: body.StrainName ?? null,
      batch_status: status,
      color: body.Color ?? null,
      start_date: body.StartDate ?? null,
      end_date: body.EndDate ?? null,
      harvested_at: null,
      harvested_by: null,
    })
    .catch(conflictOnUnique('batches_number', m.duplicateBatchNumber(body.BatchNumber)));
  await batchQueries.recordEvent(request.db, actor, id, 'created', { details: { status } });
  await recordAudit(request.db, actor, { title: auditTitles.createdBatch(body.BatchNumber), batchId: id });
  return success({ batch: await documentOf(request.db, id), BatchID: id, client_id }, m.created);
}

async function getBatches(request: RequestOf<typeof companySchema>) {
  const batches = await batchQueries.byCompany(request.db, request.query.company_id);
  return success({ batches: await batchQueries.documents(request.db, batches) });
}

async function updateBatches(request: RequestOf<typeof updateSchema>) {
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  const actor = actorOfRequest(request, batch.company_id);
  const body = request.body;
  const status = body.BatchStatus === undefined ? undefined : await knownStatusOf(request.db, actor.companyId, body.BatchStatus);
  assertDates(body.StartDate === undefined ? batch.start_date : body.StartDate, body.EndDate === undefined ? batch.end_date : body.EndDate);
  const number = body.BatchNumber ?? batch.batch_number;
  await writer(request.db, actor)
    .update('batches', batch.id, {
      ...(body.BatchNumber === undefined ? {} : { batch_number: body.BatchNumber }),
      ...(body.NumberOfPlants === undefined ? {} : { number_of_plants: body.NumberOfPlants }),
      ...(body.StrainName === undefined ? {} : { strain_name: body.StrainName || null }),
      ...(status === undefined ? {} : { batch_status: status }),
      ...(body.Color === undefined ? {} : { color: body.Color || null }),
      ...(body.StartDate === undefined ? {} : { start_date: body.StartDate }),
      ...(body.EndDate === undefined ? {} : { end_date: body.EndDate }),
    })
    .catch(conflictOnUnique('batches_number', m.duplicateBatchNumber(number)));
  if (status !== undefined && status !== batch.batch_status) await batchQueries.recordEvent(request.db, actor, batch.id, 'status', { details: { from: batch.batch_status, to: status } });
  await recordAudit(request.db, actor, { title: auditTitles.updatedBatch(number), batchId: batch.id, details: { fields: Object.keys(body) } });
  return success({ batch: await documentOf(request.db, batch.id) }, m.updated);
}

/** Tombstones the batch; its links stay in the database for history but leave every live lookup. */
async function deleteBatches(request: RequestOf<typeof deleteSchema>) {
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  const actor = actorOfRequest(request, batch.company_id);
  const boxes = await batchQueries.linkedGridBoxes(request.db, actor.companyId, { batchId: batch.id });
  const write = writer(request.db, actor);
  await write.softDelete('batches', batch.id);
  await write.touch(
    'grid_boxes',
    boxes.map((box) => box.grid_box_id),
  );
  await recordAudit(request.db, actor, { title: auditTitles.deletedBatch(batch.batch_number), batchId: batch.id });
  return success({ BatchID: batch.id }, m.deleted);
}

async function linkRoomBatch(request: RequestOf<typeof linkRoomSchema>) {
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  const room = await roomQueries.byId(request.db, request.query.room_id);
  const actor = actorOfRequest(request, batch.company_id);
  if (await batchQueries.linkRoom(request.db, actor, batch.id, room.id)) {
    await batchQueries.recordEvent(request.db, actor, batch.id, 'linked_room', { toRoomId: room.id });
    await recordAudit(request.db, actor, { title: auditTitles.linkedBatchToRoom(batch.batch_number, room.name), batchId: batch.id, roomId: room.id });
  }
  return success({ batch_id: batch.id, room_id: room.id }, m.linkedToRoom);
}

async function linkGridBatch(request: RequestOf<typeof linkGridSchema>) {
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  const grid = await gridQueries.byId(request.db, request.query.grid_id);
  const actor = actorOfRequest(request, batch.company_id);
  if (await batchQueries.linkGrid(request.db, actor, batch.id, grid.id)) {
    await recordAudit(request.db, actor, { title: auditTitles.linkedBatchToGrid(batch.batch_number, grid.name), batchId: batch.id, roomId: grid.room_id, details: { grid_id: grid.id } });
  }
  return success({ batch_id: batch.id, grid_id: grid.id }, m.linkedToGrid);
}

/** Links boxes to a batch; each newly linked plant gets an entry in its history. */
async function linkGridBoxBatch(request: RequestOf<typeof linkBoxesSchema>) {
  const batch = await batchQueries.byId(request.db, request.body.batch_id);
  const actor = actorOfRequest(request, batch.company_id);
  const boxIds = [...new Set(request.body.grid_box_ids)];
  const linked = await batchQueries.linkGridBoxes(request.db, actor, batch.id, boxIds);
  for (const box of await batchQueries.roomsOfBoxes(request.db, linked)) {
    await recordAudit(request.db, actor, { title: auditTitles.linkedPlantToBatch(batch.batch_number), batchId: batch.id, roomId: box.room_id, gridBoxId: box.grid_box_id });
  }
  return success({ batch_id: batch.id, grid_box_ids: boxIds, newly_linked: linked }, m.linkedToBoxes);
}

async function getLinkedRooms(request: RequestOf<typeof linkedRoomsSchema>) {
  const links = await batchQueries.linkedRooms(request.db, caller(request).company_id, { roomId: request.query.room_id, batchId: request.query.batch_id });
  return success({ linked: links.length > 0, links: links.map(roomLinkJson) });
}

async function getLinkedGrids(request: RequestOf<typeof linkedGridsSchema>) {
  const links = await batchQueries.linkedGrids(request.db, caller(request).company_id, { gridId: request.query.grid_id, batchId: request.query.batch_id });
  return success({ linked: links.length > 0, links: links.map(gridLinkJson) });
}

async function getLinkedGridBoxes(request: RequestOf<typeof linkedBoxesSchema>) {
  const links = await batchQueries.linkedGridBoxes(request.db, caller(request).company_id, { gridBoxId: request.query.grid_box_id, batchId: request.query.batch_id });
  return success({ linked: links.length > 0, links: links.map(gridBoxLinkJson) });
}

async function getBatchesByRoom(request: RequestOf<typeof roomSchema>) {
  const batches = await batchQueries.inRoom(request.db, request.query.room_id);
  return success({ batches: await batchQueries.documents(request.db, batches) });
}

async function getRoomsByBatch(request: RequestOf<typeof roomsByBatchSchema>) {
  const rooms = await batchQueries.roomsOf(request.db, request.query.batch_id);
  return success({ data: rooms.map(roomJson) }, m.roomsOfBatch);
}

/** What a batch's QR code opens: the batch-info screen of the web app (spec part 1 §2 route batch-info/{batchId}). */
const batchInfoUrl = (publicUrl: string, batchId: number) => `${publicUrl}/dashboard/batch-info/${batchId}`;

export async function batchRoutes(app: App) {
  const { publicUrl } = app.deps.config;

  async function batchQrUrl(request: RequestOf<typeof qrUrlSchema>) {
    const batch = await batchQueries.byId(request.db, request.params.batchId);
    const url = batchInfoUrl(publicUrl, batch.id);
    const qrCodeUrl = await QRCode.toDataURL(url, { width: request.query.size, margin: 2, errorCorrectionLevel: 'M' });
    return success({ batch_id: batch.id, batch_number: batch.batch_number, url, size: request.query.size, qr_code_url: qrCodeUrl });
  }

  /** A PNG to print on labels; the file is named after the batch number. */
  async function batchQr(request: RequestOf<typeof qrSchema>, reply: FastifyReply) {
    const batch = await batchQueries.byId(request.db, request.params.batchId);
    const png = await QRCode.toBuffer(batchInfoUrl(publicUrl, batch.id), { type: 'png', width: 512, margin: 2, errorCorrectionLevel: 'M' });
    const fileName = `batch-${batch.batch_number.replace(/[^A-Za-z0-9._-]+/g, '_')}-qr.png`;
    return reply.type('image/png').header('Content-Disposition', `attachment; filename="${fileName}"`).header('Cache-Control', 'private, no-store').send(png);
  }

  async function batchQrInfo(request: RequestOf<typeof qrInfoSchema>) {
    const batch = await batchQueries.byId(request.db, request.params.batchId);
    const rooms = await batchQueries.roomsOf(request.db, batch.id);
    return success({ batch: await documentOf(request.db, batch.id), rooms: rooms.map(roomJson), url: batchInfoUrl(publicUrl, batch.id) });
  }

  app.post('/create_batch', { schema: createSchema }, createBatch);
  app.get('/get_batches', { schema: companySchema }, getBatches);
  app.put('/update_batches', { schema: updateSchema }, updateBatches);
  app.delete('/delete_batches', { schema: deleteSchema, config: { access: 'admin' } }, deleteBatches);
  app.post('/link_room_batch', { schema: linkRoomSchema }, linkRoomBatch);
  app.post('/link_grid_batch', { schema: linkGridSchema }, linkGridBatch);
  app.post('/link_gridbox_batch', { schema: linkBoxesSchema }, linkGridBoxBatch);
  app.get('/get_linked_rooms_batches', { schema: linkedRoomsSchema }, getLinkedRooms);
  app.get('/get_linked_grids_batches', { schema: linkedGridsSchema }, getLinkedGrids);
  app.get('/get_linked_gridboxes_batches', { schema: linkedBoxesSchema }, getLinkedGridBoxes);
  app.get('/get_batches_by_room', { schema: roomSchema }, getBatchesByRoom);
  app.get('/get_rooms_by_batch', { schema: roomsByBatchSchema }, getRoomsByBatch);
  app.get('/batch_qr_url/:batchId', { schema: qrUrlSchema }, batchQrUrl);
  app.get('/batch_qr/:batchId', { schema: qrSchema }, batchQr);
  app.get('/batch_qr_info/:batchId', { schema: qrInfoSchema }, batchQrInfo);
  app.get('/get_batch_dashboard', { schema: dashboardSchema }, getBatchDashboard);
  app.post('/harvest_batch', { schema: harvestSchema }, harvestBatch);
  app.post('/move_plants', { schema: movePlantsSchema }, movePlants);
  // A read sent as a POST (the spec's): outside consultants, who only read, may send it too.
  app.post('/get_batch_history_by_room', { schema: historySchema, config: { consultant: 'read' } }, getBatchHistoryByRoom);
  app.post('/assign_status_to_batches', { schema: assignStatusSchema }, assignStatusToBatches);
  app.post('/create_custom_batch_status', { schema: createCustomStatusSchema, config: { access: 'admin' }, preValidation: fieldsFromQueryAndBody }, createCustomStatus);
  app.get('/get_custom_batch_statuses', { schema: customStatusesSchema }, getCustomStatuses);
  app.delete('/delete_custom_batch_status', { schema: deleteCustomStatusSchema, config: { access: 'admin' }, preValidation: fieldsFromQueryAndBody }, deleteCustomStatus);
  app.get('/filter_batches_by_status', { schema: filterSchema }, filterBatchesByStatus);
  app.post('/grid/create_batch_problem', { schema: createProblemSchema }, createBatchProblem);
  app.post('/grid/resolve_batch_problem', { schema: resolveProblemSchema }, resolveBatchProblem);
  app.get('/grid/get_batch_problems', { schema: problemsSchema }, getBatchProblems);
  app.get('/get_gridbox_batches', { schema: gridBoxBatchesSchema }, getGridBoxBatches);
}

const DAY_MS = 86_400_000;
const within = (value: Date | string, start?: string | null, end?: string | null) => {
  const day = new Date(value).toISOString().slice(0, 10);
  return (!start || day >= start) && (!end || day <= end);
};

/**
 * One batch at a glance (spec: get_batch_dashboard → batch_details): plants and positions, where it
 * is, open problems, dates and status. start_date and end_date narrow the problems and history listed.
 */
async function getBatchDashboard(request: RequestOf<typeof dashboardSchema>) {
  const { start_date: start, end_date: end } = request.query;
  if (start && end && end < start) throw badRequest(m.dateRangeInvalid);
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  const document = await documentOf(request.db, batch.id);
  const rooms = await batchQueries.roomsOf(request.db, batch.id);
  const grids = await batchQueries.linkedGrids(request.db, batch.company_id, { batchId: batch.id });
  const boxes = await batchQueries.linkedGridBoxes(request.db, batch.company_id, { batchId: batch.id });
  const startedOn = batch.start_date ? Date.parse(`${batch.start_date}T00:00:00Z`) : null;
  const endedOn = batch.end_date ? Date.parse(`${batch.end_date}T00:00:00Z`) : Date.now();
  return success({
    batch_details: {
      ...batchJson(batch),
      status: batch.batch_status,
      plants: { planned: batch.number_of_plants, positions: boxes.length, culled: boxes.filter((box) => box.culled).length },
      rooms: rooms.map((room) => ({ RoomID: room.id, Name: room.name })),
      grids: grids.map((grid) => ({ GridID: grid.grid_id, Name: grid.grid_name, RoomID: grid.room_id })),
      grid_boxes: boxes.map((box) => ({ GridBoxID: box.grid_box_id, GridID: box.grid_id, X: box.x, Y: box.y, CustomName: box.custom_name })),
      open_problems: document.problems.filter((problem) => !problem.resolved).length,
      problems: document.problems.filter((problem) => within(problem.created_at, start, end)),
      history: document.history.filter((event) => within(event.created_at, start, end)),
      dates: {
        start_date: batch.start_date,
        end_date: batch.end_date,
        harvested_at: isoTime(batch.harvested_at),
        days_in_cultivation: startedOn === null ? null : Math.max(0, Math.floor((endedOn - startedOn) / DAY_MS)),
      },
      range: { start_date: start ?? null, end_date: end ?? null },
    },
  });
}

async function harvestBatch(request: RequestOf<typeof harvestSchema>) {
  const auth = assertCaller(request, request.query.user_id);
  const batch = await batchQueries.byId(request.db, request.query.batch_id);
  if (batch.harvested_at !== null) throw conflict(m.alreadyHarvested);
  const actor = actorOfRequest(request, batch.company_id);
  const today = request.actedAt.toISOString().slice(0, 10);
  await writer(request.db, actor).update('batches', batch.id, {
    batch_status: HARVESTED_BATCH_STATUS,
    harvested_at: request.actedAt,
    harvested_by: auth.user_id,
    end_date: batch.end_date ?? today,
  });
  await batchQueries.recordEvent(request.db, actor, batch.id, 'harvested', { details: { from: batch.batch_status } });
  await recordAudit(request.db, actor, { title: auditTitles.harvestedBatch(batch.batch_number), batchId: batch.id });
  return success({ batch: await documentOf(request.db, batch.id) }, m.harvested);
}

/**
 * Moves a batch's plants from one room to another: the batch leaves the old room (its room link and
 * its grid and box links there) and is linked to the new room, where the grower then places it.
 */
async function movePlants(request: RequestOf<typeof movePlantsSchema>) {
  const { batch_id, old_room_id, new_room_id } = request.query;
  if (old_room_id === new_room_id) throw badRequest(m.sameRoom);
  const batch = await batchQueries.byId(request.db, batch_id);
  const [oldRoom, newRoom] = [await roomQueries.byId(request.db, old_room_id), await roomQueries.byId(request.db, new_room_id)];
  const actor = actorOfRequest(request, batch.company_id);
  const left = await batchQueries.unlinkRoom(request.db, batch.id, oldRoom.id);
  if (!left.room && left.gridIds.length === 0 && left.gridBoxIds.length === 0) throw badRequest(m.notInOldRoom);
  await batchQueries.linkRoom(request.db, actor, batch.id, newRoom.id);
  await writer(request.db, actor).touch('grid_boxes', left.gridBoxIds);
  const details = { grid_ids: left.gridIds, grid_box_ids: left.gridBoxIds };
  await batchQueries.recordEvent(request.db, actor, batch.id, 'moved', { fromRoomId: oldRoom.id, toRoomId: newRoom.id, details });
  await recordAudit(request.db, actor, { title: auditTitles.movedBatch(batch.batch_number, oldRoom.name, newRoom.name), batchId: batch.id, roomId: newRoom.id, details: { ...details, from_room_id: oldRoom.id } });
  return success({ batch: await documentOf(request.db, batch.id) }, m.moved);
}

async function getBatchHistoryByRoom(request: RequestOf<typeof historySchema>) {
  const roomId = request.body.room_id ?? request.query.room_id;
  if (roomId === undefined) throw badRequest(m.roomIdRequired);
  const room = await roomQueries.byId(request.db, roomId);
  const events = await batchQueries.historyOfRoom(request.db, room.company_id, room.id);
  return success({ room_id: room.id, history: events.map((event) => ({ ...batchEventJson(event), BatchNumber: event.batch_number, StrainName: event.strain_name })) });
}

async function assignStatusToBatches(request: RequestOf<typeof assignStatusSchema>) {
  const actor = actorOfRequest(request, request.query.company_id);
  const status = await knownStatusOf(request.db, actor.companyId, request.body.batch_status);
  const ids = [...new Set(request.body.batch_ids)];
  const batches = await batchQueries.byIds(request.db, ids);
  const builtIn = BUILT_IN_BATCH_STATUSES.find((name) => name === status);
  const write = writer(request.db, actor);
  for (const batch of batches) {
    if (batch.batch_status === status) continue;
    await write.update('batches', batch.id, { batch_status: status });
    await batchQueries.recordEvent(request.db, actor, batch.id, 'status', { details: { from: batch.batch_status, to: status } });
    await recordAudit(request.db, actor, { title: builtIn ? auditTitles.setBatchStatus[builtIn](batch.batch_number) : auditTitles.setBatchCustomStatus(batch.batch_number, status), batchId: batch.id });
  }
  return success({ batch_status: status, batch_ids: ids }, m.statusAssigned);
}

const customStatusJson = (status: { id: number; name: string; created_at: Date | string }): CustomStatusRecord => ({ id: status.id, status_name: status.name, created_at: isoTime(status.created_at) });

async function createCustomStatus(request: RequestOf<typeof createCustomStatusSchema>) {
  const fields = request.body;
  const actor = actorOfRequest(request, fields.company_id);
  if (isBuiltInBatchStatus(fields.status_name)) throw conflict(m.customStatusExists(fields.status_name));
  const { id, client_id } = await writer(request.db, actor)
    .insert('custom_batch_statuses', { company_id: actor.companyId, name: fields.status_name, client_id: fields.client_id })
    .catch(conflictOnUnique('custom_batch_statuses_name', m.customStatusExists(fields.status_name)));
  await writer(request.db, actor).touch('companies', actor.companyId);
  await recordAudit(request.db, actor, { title: auditTitles.addedBatchStatus(fields.status_name) });
  return success({ custom_status: { id, status_name: fields.status_name }, client_id }, m.customStatusCreated);
}

async function getCustomStatuses(request: RequestOf<typeof customStatusesSchema>) {
  const statuses = await batchQueries.customStatuses(request.db, request.query.company_id);
  return success({ custom_statuses: statuses.map(customStatusJson), built_in_statuses: [...BUILT_IN_BATCH_STATUSES] });
}

/** Batches that carry a deleted status keep it (it is their history); it just cannot be assigned again. */
async function deleteCustomStatus(request: RequestOf<typeof deleteCustomStatusSchema>) {
  const fields = request.body;
  const actor = actorOfRequest(request, fields.company_id);
  const status = await batchQueries.customStatusNamed(request.db, actor.companyId, fields.status_name);
  if (!status) throw notFound(m.customStatusNotFound(fields.status_name));
  await writer(request.db, actor).softDelete('custom_batch_statuses', status.id);
  await writer(request.db, actor).touch('companies', actor.companyId);
  await recordAudit(request.db, actor, { title: auditTitles.removedBatchStatus(status.name) });
  return success({ status_name: status.name }, m.customStatusDeleted);
}

async function filterBatchesByStatus(request: RequestOf<typeof filterSchema>) {
  const batches = await batchQueries.byStatus(request.db, request.query.company_id, request.query.status_name);
  return success({ batches: await batchQueries.documents(request.db, batches) });
}

async function createBatchProblem(request: RequestOf<typeof createProblemSchema>) {
  const body = request.body;
  const auth = assertCaller(request, body.user_id);
  const batch = await batchQueries.byId(request.db, body.batch_id);
  const actor = actorOfRequest(request, batch.company_id);
  const { id, client_id } = await writer(request.db, actor).insert('batch_problems', {
    client_id: body.client_id,
    company_id: batch.company_id,
    batch_id: batch.id,
    room_id: body.room_id ?? null,
    problem_type: body.problem_type,
    severity: body.severity,
    notes: body.notes ?? null,
    user_id: auth.user_id,
    resolved_at: null,
    resolved_by: null,
  });
  await writer(request.db, actor).touch('batches', batch.id);
  await recordAudit(request.db, actor, { title: auditTitles.reportedBatchProblem(body.problem_type, body.severity, batch.batch_number), batchId: batch.id, roomId: body.room_id ?? null });
  const problem = await request.db.selectFrom('batch_problems').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return success({ problem: batchProblemJson(problem), problem_id: id, client_id }, m.problemCreated);
}

/**
 * Resolves a batch's open problems, narrowed by rooms and problem type, and with them the open
 * problems recorded on the boxes linked to the batch (same narrowing; all types without one): those on
 * a box count as grid-box problems, those on a plant of a sub-gridbox as plant problems.
 */
async function resolveBatchProblem(request: RequestOf<typeof resolveProblemSchema>) {
  const body = request.body;
  assertCaller(request, body.user_id);
  const batch = await batchQueries.byId(request.db, body.batch_id);
  const actor = actorOfRequest(request, batch.company_id);
  const filter = { roomIds: body.room_ids, problemType: body.problem_type };
  const resolved = await batchQueries.resolveProblems(request.db, actor, batch.id, filter);
  const onBoxes = await problemQueries.resolveOfBatch(request.db, actor, batch.id, filter);
  const plantProblems = onBoxes.filter((problem) => problem.sub_gridbox_id !== null).length;
  const roomsAffected = [...new Set([...resolved, ...onBoxes].map((problem) => problem.room_id).filter((id): id is number => id !== null))];
  if (resolved.length > 0) await writer(request.db, actor).touch('batches', batch.id);
  if (resolved.length + onBoxes.length > 0) {
    await recordAudit(request.db, actor, {
      title:
        onBoxes.length > 0
          ? auditTitles.resolvedBatchAndBoxProblems(resolved.length, batch.batch_number, onBoxes.length)
          : auditTitles.resolvedBatchProblems(resolved.length, batch.batch_number),
      batchId: batch.id,
      details: { problem_ids: resolved.map((problem) => problem.id), plant_problem_ids: onBoxes.map((problem) => problem.id) },
    });
  }
  return success(
    {
      problems_resolved: resolved.length,
      gridbox_problems_resolved: onBoxes.length - plantProblems,
      plant_problems_resolved: plantProblems,
      rooms_affected: roomsAffected,
      filters_applied: { room_ids: body.room_ids ?? null, problem_type: body.problem_type ?? null },
    },
    m.problemsResolved,
  );
}

async function getBatchProblems(request: RequestOf<typeof problemsSchema>) {
  const problems = await batchQueries.problems(request.db, request.query.company_id, { batchId: request.query.batch_id, includeResolved: request.query.include_resolved });
  return success({ problems: problems.map(batchProblemJson), total_batch_problems: problems.length });
}

async function getGridBoxBatches(request: RequestOf<typeof gridBoxBatchesSchema>) {
  return success({ GridID: request.query.GridID, GridBoxes: await batchQueries.boxesWithBatches(request.db, request.query.GridID) });
}
