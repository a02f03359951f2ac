/** Routes of the grids domain (issue 3: the grow model; spec part 1 §3, §5, §7, §8). */
import { sql } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { gridMessages as m } from '../../../common/messages/grids';
import { httpMessages } from '../../../common/messages/http';
import {
  createGridAnswer,
  createGridBody,
  deleteGridAnswer,
  deleteGridQuery,
  gridBoxAnswer,
  gridBoxesAnswer,
  gridBoxNamesAnswer,
  gridIdQuery,
  plantHistoryAnswer,
  plantHistoryQuery,
  updateCullingBody,
  updateGridBoxNameBody,
} from '../../../common/schemas/grids';
import { writer } from '../../db/writes';
import { notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { batchQueries } from '../batches/queries';
import { actorOfRequest, recordAudit } from '../audit/record';
import { auditEventJson } from '../audit/queries';
import { gridBoxJson, gridJson, gridQueries } from './queries';

const createGridSchema = { body: createGridBody, response: { 200: createGridAnswer } };
const deleteGridSchema = { querystring: deleteGridQuery, response: { 200: deleteGridAnswer } };
const cullingSchema = { body: updateCullingBody, response: { 200: gridBoxAnswer } };
const culledBoxesSchema = { querystring: gridIdQuery, response: { 200: gridBoxesAnswer } };
const boxNamesSchema = { querystring: gridIdQuery, response: { 200: gridBoxNamesAnswer } };
const boxNameSchema = { body: updateGridBoxNameBody, response: { 200: gridBoxAnswer } };
const historySchema = { querystring: plantHistoryQuery, response: { 200: plantHistoryAnswer } };

/** yyyy-mm-dd of a timestamp, in UTC. */
const dayOf = (value: Date | string) => new Date(value).toISOString().slice(0, 10);

async function createGrid(request: RequestOf<typeof createGridSchema>) {
  const { ncompany_id, nroom_id, ngrid_name, nx, ny, client_id } = request.body;
  const actor = actorOfRequest(request, ncompany_id);
  const id = await gridQueries.createWithBoxes(request.db, actor, { roomId: nroom_id, name: ngrid_name, nx, ny, clientId: client_id });
  await recordAudit(request.db, actor, { title: auditTitles.createdGrid(ngrid_name, nx, ny), roomId: nroom_id, details: { grid_id: id } });
  const grid = await gridQueries.byId(request.db, id);
  const boxes = await gridQueries.boxesOfGrids(request.db, [id]);
  return success({ grid: { ...gridJson(grid), boxes: boxes.map(gridBoxJson) }, GridID: id, client_id: grid.client_id }, m.gridCreated);
}

async function deleteGrid(request: RequestOf<typeof deleteGridSchema>) {
  const grid = await gridQueries.byId(request.db, request.query.grid_id);
  const actor = actorOfRequest(request, grid.company_id);
  await gridQueries.softDeleteBoxes(request.db, actor, [grid.id]);
  await writer(request.db, actor).softDelete('grids', grid.id);
  await batchQueries.touchLinkedTo(request.db, actor, { gridIds: [grid.id] });
  await recordAudit(request.db, actor, { title: auditTitles.deletedGrid(grid.name), roomId: grid.room_id, details: { grid_id: grid.id } });
  return success({ GridID: grid.id }, m.gridDeleted);
}

async function updateCulling(request: RequestOf<typeof cullingSchema>) {
  const { GridBoxID, user_id, culled } = request.body;
  const auth = assertCaller(request, user_id);
  const isCulled = culled === 1;
  // One statement (a drain replays culls by the thousand): the guard found the box live and the
  // caller's to act on, and the update answers it with its room. A box tombstoned since is not culled.
  const updated = await writer(request.db, actorOfRequest(request)).updateReturning(
    'grid_boxes',
    GridBoxID,
    { culled: isCulled, culled_by: isCulled ? auth.user_id : null, culled_at: isCulled ? request.actedAt : null },
    { room_id: sql<number>`(SELECT room_id FROM grids WHERE grids.id = grid_boxes.grid_id)` },
  );
  if (!updated) throw notFound(httpMessages.recordNotFound(`grid_box ${GridBoxID}`));
  const actor = actorOfRequest(request, updated.company_id);
  await recordAudit(request.db, actor, { title: isCulled ? auditTitles.culledPlant : auditTitles.unculledPlant, roomId: updated.room_id, gridBoxId: updated.id, details: { culled: isCulled } });
  return success({ grid_box: gridBoxJson(updated) }, m.cullingUpdated);
}

async function getCulledBoxes(request: RequestOf<typeof culledBoxesSchema>) {
  const boxes = await gridQueries.culledBoxes(request.db, request.query.GridID);
  return success({ grid_boxes: boxes.map(gridBoxJson) });
}

async function updateBoxName(request: RequestOf<typeof boxNameSchema>) {
  const box = await gridQueries.boxWithRoom(request.db, request.body.GridBoxID);
  const actor = actorOfRequest(request, box.company_id);
  const name = request.body.custom_name === '' ? null : request.body.custom_name;
  const updated = await writer(request.db, actor).updateReturning('grid_boxes', box.id, { custom_name: name });
  await recordAudit(request.db, actor, { title: name === null ? auditTitles.clearedPlantName : auditTitles.renamedPlant(name), roomId: box.room_id, gridBoxId: box.id });
  return success({ grid_box: gridBoxJson(updated ?? box) }, m.nameUpdated);
}

async function getBoxNames(request: RequestOf<typeof boxNamesSchema>) {
  const boxes = await gridQueries.boxesOfGrids(request.db, [request.query.GridID]);
  return success({ grid_boxes: boxes.map((box) => ({ id: box.id, CustomName: box.custom_name, X: box.x, Y: box.y })) });
}

async function plantHistory(request: RequestOf<typeof historySchema>) {
  const events = await gridQueries.boxHistory(request.db, request.query.company_id, request.query.Grid_boxID);
  const days = new Map<string, ReturnType<typeof auditEventJson>[]>();
  for (const event of events) {
    const day = dayOf(event.created_at);
    const list = days.get(day) ?? [];
    list.push(auditEventJson(event));
    days.set(day, list);
  }
  return success({ history: [...days].map(([date, dayEvents]) => ({ date, events: dayEvents })) });
}

export async function gridRoutes(app: App) {
  app.post('/Create_grid', { schema: createGridSchema }, createGrid);
  app.put('/delete_grid', { schema: deleteGridSchema, config: { access: 'admin' } }, deleteGrid);
  app.post('/update_culling_status', { schema: cullingSchema }, updateCulling);
  app.get('/get_culled_gridboxes', { schema: culledBoxesSchema }, getCulledBoxes);
  app.post('/update_grid_box_name', { schema: boxNameSchema }, updateBoxName);
  app.get('/get_gridboxes_names', { schema: boxNamesSchema }, getBoxNames);
  app.get('/get_plant_history_date', { schema: historySchema }, plantHistory);
}
