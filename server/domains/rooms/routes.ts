/** Routes of the rooms domain (issue 3: the grow model; spec part 1 §3, §5, §7, §8). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { roomMessages as m } from '../../../common/messages/rooms';
import {
  allRoomScrollAnswer,
  createRoomAnswer,
  createRoomBody,
  deleteRoomAnswer,
  loadRoomGridsBoxesAnswer,
  roomScrollAnswer,
  deleteRoomQuery,
  loadRoomGridsBoxesQuery,
  roomCompanyQuery,
  roomScrollQuery,
  scrollBody,
  scrollNumber,
  updateAllRoomScrollQuery,
  updateRoomScrollQuery,
} from '../../../common/schemas/rooms';
import type { DB } from '../../db/schema';
import { writer } from '../../db/writes';
import { sendKeptAnswer } from '../../http/answer-cache';
import { badRequest } from '../../http/errors';
import { type App, type RequestOf, success } from '../../http/route';
import { batchQueries } from '../batches/queries';
import { actorOfRequest, recordAudit } from '../audit/record';
import { gridBoxJson, gridJson, gridQueries } from '../grids/queries';
import { roomJson, roomQueries } from './queries';

const createRoomSchema = { querystring: roomCompanyQuery, body: createRoomBody, response: { 200: createRoomAnswer } };
const loadSchema = { querystring: loadRoomGridsBoxesQuery, response: { 200: loadRoomGridsBoxesAnswer } };
const deleteRoomSchema = { querystring: deleteRoomQuery, response: { 200: deleteRoomAnswer } };
const getScrollSchema = { querystring: roomScrollQuery, response: { 200: roomScrollAnswer } };
const updateScrollSchema = { querystring: updateRoomScrollQuery, body: scrollBody, response: { 200: roomScrollAnswer } };
const updateAllScrollSchema = { querystring: updateAllRoomScrollQuery, body: scrollBody, response: { 200: allRoomScrollAnswer } };

/** The scroll value from the body or the query, as `setValue` or `start_scroll`. */
function scrollValueOf(request: FastifyRequest<{ Body: { setValue?: unknown; start_scroll?: unknown }; Querystring: { setValue?: unknown; start_scroll?: unknown } }>) {
  const raw = request.body.setValue ?? request.body.start_scroll ?? request.query.setValue ?? request.query.start_scroll;
  const parsed = scrollNumber.safeParse(raw);
  if (!parsed.success) throw badRequest(m.scrollRequired);
  return parsed.data;
}

async function createRoom(request: RequestOf<typeof createRoomSchema>) {
  const actor = actorOfRequest(request, request.query.company_id);
  const { name, description, client_id } = request.body;
  const created = await writer(request.db, actor).insert('rooms', { company_id: actor.companyId, name, description, client_id });
  await recordAudit(request.db, actor, { title: auditTitles.createdRoom(name), roomId: created.id });
  const room = await roomQueries.byId(request.db, created.id);
  return success({ room: roomJson(room), RoomID: created.id, client_id: created.client_id }, m.created);
}

/**
 * Rooms with their grids and boxes: the floor plan every tablet opens, kept as sent by this instance
 * until the company's rooms, grids or boxes change (http/answer-cache.ts); made in three queries
 * whatever the sizes.
 */
async function loadRoomGridsBoxes(request: RequestOf<typeof loadSchema>, reply: FastifyReply) {
  const { company_id: companyId, room_id: roomId } = request.query;
  // The route's own serializer (its response schema) writes the text: a string, as every answer's.
  const answer = await request.server.deps.floorAnswers.through(companyId, `load_room_grids_boxes:${roomId ?? 'all'}`, async () =>
    String(reply.serialize(await floorPlan(request.db, companyId, roomId))),
  );
  return sendKeptAnswer(request, reply, answer);
}

async function floorPlan(db: Kysely<DB>, companyId: number, roomId: number | undefined) {
  const rooms = await roomQueries.listed(db, companyId, roomId);
  const grids = await roomQueries.gridsOfRooms(
    db,
    rooms.map((room) => room.id),
  );
  const boxes = await gridQueries.boxesOfGrids(
    db,
    grids.map((grid) => grid.id),
  );
  const boxesByGrid = new Map<number, ReturnType<typeof gridBoxJson>[]>();
  for (const box of boxes) {
    const list = boxesByGrid.get(box.grid_id) ?? [];
    list.push(gridBoxJson(box));
    boxesByGrid.set(box.grid_id, list);
  }
  const gridsByRoom = new Map<number, Array<ReturnType<typeof gridJson> & { boxes: ReturnType<typeof gridBoxJson>[] }>>();
  for (const grid of grids) {
    const list = gridsByRoom.get(grid.room_id) ?? [];
    list.push({ ...gridJson(grid), boxes: boxesByGrid.get(grid.id) ?? [] });
    gridsByRoom.set(grid.room_id, list);
  }
  return success({ rooms: rooms.map((room) => ({ ...roomJson(room), grids: gridsByRoom.get(room.id) ?? [] })) });
}

async function deleteRoom(request: RequestOf<typeof deleteRoomSchema>) {
  const room = await roomQueries.byId(request.db, request.query.room_id);
  const actor = actorOfRequest(request, room.company_id);
  const gridIds = await roomQueries.softDeleteContents(request.db, actor, room.id);
  await writer(request.db, actor).softDelete('rooms', room.id);
  await batchQueries.touchLinkedTo(request.db, actor, { roomIds: [room.id], gridIds });
  await recordAudit(request.db, actor, { title: auditTitles.deletedRoom(room.name), roomId: room.id, details: { grids: gridIds.length } });
  return success({ RoomID: room.id }, m.deleted);
}

async function getRoomScroll(request: RequestOf<typeof getScrollSchema>) {
  const room = await roomQueries.byId(request.db, request.query.room_id);
  return success({ StartScroll: room.start_scroll });
}

async function updateRoomScroll(request: RequestOf<typeof updateScrollSchema>) {
  const value = scrollValueOf(request);
  const actor = actorOfRequest(request, request.query.company_id);
  await writer(request.db, actor).update('rooms', request.query.room_id, { start_scroll: value });
  await recordAudit(request.db, actor, { title: auditTitles.setRoomScroll(value), roomId: request.query.room_id });
  return success({ StartScroll: value }, m.scrollUpdated);
}

async function updateAllRoomScroll(request: RequestOf<typeof updateAllScrollSchema>) {
  const value = scrollValueOf(request);
  const actor = actorOfRequest(request, request.query.company_id);
  const result = await roomQueries.setScrollOfAll(request.db, actor, value);
  await recordAudit(request.db, actor, { title: auditTitles.setEveryRoomScroll(value) });
  return success({ StartScroll: value, updated: Number(result.numUpdatedRows) }, m.allScrollUpdated);
}

export async function roomRoutes(app: App) {
  app.post('/create_room', { schema: createRoomSchema }, createRoom);
  app.get('/load_room_grids_boxes', { schema: loadSchema }, loadRoomGridsBoxes);
  app.delete('/delete_room', { schema: deleteRoomSchema, config: { access: 'admin' } }, deleteRoom);
  app.get('/get_room_scroll', { schema: getScrollSchema }, getRoomScroll);
  app.put('/update_room_scroll', { schema: updateScrollSchema }, updateRoomScroll);
  app.put('/update_all_room_scroll', { schema: updateAllScrollSchema, config: { access: 'admin' } }, updateAllRoomScroll);
}
