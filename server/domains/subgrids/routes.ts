/**
 * Routes of sub-gridboxes and plant moves (spec part 2 §3, §4, §5, §7, §8, §9). Any member divides a
 * box, edits its sub-gridboxes and moves plants (floor work); removing a sub-gridbox is a deletion,
 * Admin-only (README "Roles"). Every write is audited and touches the parent grid box, whose synced
 * document carries its sub-gridboxes.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { subgridMessages as m } from '../../../common/messages/subgrids';
import { gridBoxRecord } from '../../../common/schemas/grids';
import {
  UPDATABLE_SUB_GRIDBOX_FIELDS,
  createSubGridboxesAnswer,
  createSubGridboxesBody,
  createSubGridboxesQuery,
  deleteSubGridboxAnswer,
  deleteSubGridboxQuery,
  getSubGridboxesQuery,
  movePlantAnswer,
  movePlantBody,
  movementHistoryAnswer,
  movementHistoryQuery,
  subGridboxAnswer,
  subGridboxesAnswerWith,
  updateSubGridboxBody,
} from '../../../common/schemas/subgrids';
import { badRequest, notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { gridBoxJson, gridQueries } from '../grids/queries';
import { type Layout, plantMoveJson, plantMoveQueries, subGridboxDisplayName, subGridboxJson, subGridboxQueries } from './queries';

const createSchema = { querystring: createSubGridboxesQuery, body: createSubGridboxesBody, response: { 200: createSubGridboxesAnswer } };
const listSchema = { querystring: getSubGridboxesQuery, response: { 200: subGridboxesAnswerWith(gridBoxRecord) } };
const deleteSchema = { querystring: deleteSubGridboxQuery, response: { 200: deleteSubGridboxAnswer } };
const updateSchema = { body: updateSubGridboxBody, response: { 200: subGridboxAnswer } };
const moveSchema = { body: movePlantBody, response: { 200: movePlantAnswer } };
const historySchema = { querystring: movementHistoryQuery, response: { 200: movementHistoryAnswer } };

/** Custom positions when given (they win over nx × ny), else nx × ny (or x × y), else the spec's message. */
function requestedLayout(request: RequestOf<typeof createSchema>): Layout {
  const custom = request.body.custom_positions ?? request.body.customPositions;
  if (custom && custom.length > 0) return custom;
  const nx = request.query.nx ?? request.query.x;
  const ny = request.query.ny ?? request.query.y;
  if (nx === undefined || ny === undefined) throw badRequest(m.sizeRequired);
  return { nx, ny };
}

async function createSubGridboxes(request: RequestOf<typeof createSchema>) {
  assertCaller(request, request.query.user_id);
  const layout = requestedLayout(request);
  const parent = await subGridboxQueries.lockBox(request.db, request.query.parent_gridbox_id);
  const actor = actorOfRequest(request, parent.company_id);
  // Spec §9: auto_initialize_plants defaults to true.
  const result = await subGridboxQueries.createInBox(request.db, actor, parent, layout, request.query.auto_initialize_plants !== 0, request.query.client_id);
  await recordAudit(request.db, actor, {
    title: auditTitles.createdSubGridboxes(result.created.length),
    roomId: await subGridboxQueries.roomIdOfBox(request.db, parent.id),
    gridBoxId: parent.id,
    details: { sub_gridbox_ids: result.created.map((sub) => sub.id) },
  });
  return success(
    {
      parent_gridbox_id: parent.id,
      sub_gridboxes: result.created.map(subGridboxJson),
      client_ids: result.created.map((sub) => sub.client_id),
      total_count: result.total_count,
      max_allowed: result.max_allowed,
    },
    m.created,
  );
}

async function getSubGridboxes(request: RequestOf<typeof listSchema>) {
  const parent = await gridQueries.boxById(request.db, request.query.parent_gridbox_id);
  const grid = await gridQueries.byId(request.db, parent.grid_id);
  const subs = await subGridboxQueries.ofParent(request.db, parent.id, request.query.include_deleted === 1);
  return success({
    sub_gridboxes: subs.map(subGridboxJson),
    parent_gridbox: { ...gridBoxJson(parent), GridName: grid.name, RoomID: grid.room_id },
    total_count: subs.filter((sub) => sub.deleted_at === null).length,
    max_allowed: await subGridboxQueries.maxAllowed(request.db, parent.company_id),
  });
}

async function deleteSubGridbox(request: RequestOf<typeof deleteSchema>) {
  const sub = await subGridboxQueries.byId(request.db, request.query.sub_gridbox_id);
  const actor = actorOfRequest(request, sub.company_id);
  await subGridboxQueries.softDelete(request.db, actor, sub);
  await recordAudit(request.db, actor, {
    title: auditTitles.deletedSubGridbox(subGridboxDisplayName(sub)),
    roomId: await subGridboxQueries.roomIdOfBox(request.db, sub.parent_gridbox_id),
    gridBoxId: sub.parent_gridbox_id,
    details: { sub_gridbox_id: sub.id, plant_id: sub.plant_id },
  });
  return success(
    {
      Sub_gridboxID: sub.id,
      parent_gridbox_id: sub.parent_gridbox_id,
      // A count of live rows: it cannot go below 0 (spec §4).
      total_count: await subGridboxQueries.liveCount(request.db, sub.parent_gridbox_id),
      max_allowed: await subGridboxQueries.maxAllowed(request.db, sub.company_id),
    },
    m.deleted,
  );
}

/** Fields come from the query or the JSON body (the body wins); only those sent are changed (spec §4). */
async function updateSubGridbox(request: RequestOf<typeof updateSchema>) {
  const sent = request.body;
  const changes = Object.fromEntries(UPDATABLE_SUB_GRIDBOX_FIELDS.filter((field) => sent[field] !== undefined).map((field) => [field, sent[field] ?? null]));
  if (Object.keys(changes).length === 0) throw badRequest(m.nothingToUpdate);
  const sub = await subGridboxQueries.byId(request.db, sent.sub_gridbox_id);
  const actor = actorOfRequest(request, sub.company_id);
  await subGridboxQueries.update(request.db, actor, sub, changes);
  await recordAudit(request.db, actor, {
    title: auditTitles.updatedSubGridbox(subGridboxDisplayName(sub)),
    roomId: await subGridboxQueries.roomIdOfBox(request.db, sub.parent_gridbox_id),
    gridBoxId: sub.parent_gridbox_id,
    details: { sub_gridbox_id: sub.id, changes },
  });
  return success({ sub_gridbox: subGridboxJson(await subGridboxQueries.byId(request.db, sub.id)) }, m.updated);
}

async function movePlant(request: RequestOf<typeof moveSchema>) {
  const { plant_uid, target_parent_gridbox_id, user_id, target_position, movement_reason, notes, client_id } = request.body;
  const auth = assertCaller(request, user_id);
  // The plant is looked for in the target box's company: the caller's own (the guard checked it),
  // or the one a SuperAdmin acts on.
  const { company_id: companyId } = await gridQueries.boxById(request.db, target_parent_gridbox_id);
  const sub = await subGridboxQueries.byPlant(request.db, companyId, plant_uid);
  if (!sub) throw notFound(m.plantNotFound(plant_uid));
  const boxes = await subGridboxQueries.lockBoxes(request.db, [sub.parent_gridbox_id, target_parent_gridbox_id]);
  const target = boxes.get(target_parent_gridbox_id);
  if (!target) throw notFound();
  const to = await subGridboxQueries.placement(request.db, sub, target, target_position);
  const actor = actorOfRequest(request, companyId);
  const move = await subGridboxQueries.move(request.db, actor, sub, target, to, { plantUid: plant_uid, movementReason: movement_reason, notes, userId: auth.user_id, clientId: client_id });
  await recordAudit(request.db, actor, {
    title: auditTitles.movedPlant(plant_uid, to.subx, to.suby),
    roomId: await subGridboxQueries.roomIdOfBox(request.db, target.id),
    gridBoxId: target.id,
    details: { movement_id: move.id, from_parent_gridbox_id: sub.parent_gridbox_id, from_position: { subx: sub.subx, suby: sub.suby }, to_position: to, movement_reason },
  });
  return success({ movement: plantMoveJson(move), sub_gridbox: subGridboxJson(await subGridboxQueries.byId(request.db, sub.id)), client_id: move.client_id }, m.moved);
}

async function companyMovementHistory(request: RequestOf<typeof historySchema>) {
  const { company_id, batch_id, room_id, start_date, end_date, sort_by, sort_order, limit, offset } = request.query;
  const { moves, totalCount } = await plantMoveQueries.history(request.db, {
    companyId: company_id,
    batchId: batch_id,
    roomId: room_id,
    startDate: start_date ?? undefined,
    endDate: end_date ?? undefined,
    sortBy: sort_by,
    sortOrder: sort_order,
    limit,
    offset,
  });
  return success({ movements: moves.map(plantMoveJson), total_count: totalCount, limit, offset, sort_by, sort_order });
}

export async function subgridRoutes(app: App) {
  app.post('/create_sub_gridboxes', { schema: createSchema }, createSubGridboxes);
  app.get('/get_sub_gridboxes', { schema: listSchema }, getSubGridboxes);
  app.delete('/delete_sub_gridbox', { schema: deleteSchema, config: { access: 'admin' } }, deleteSubGridbox);
  app.put('/update_sub_gridbox', { schema: updateSchema, preValidation: fieldsFromQueryAndBody }, updateSubGridbox);
  app.post('/move_plant', { schema: moveSchema }, movePlant);
  app.get('/get_company_movement_history', { schema: historySchema }, companyMovementHistory);
}
