/**
 * Plant problems (issue 14; spec part 2 §4, §7 "Unresolved problems"): problems recorded on grid boxes
 * and on plants of their sub-gridboxes, their readers (by box, grid, room, type, and the grid's circles
 * on the pest-pressure map) and the actions on them (common/messages/problems.ts PROBLEM_ACTIONS), one
 * problem, a type in a room or grid, or all of a room or grid. Anyone records and acts on problems
 * (floor work). Every change is audited and travels in the `plant_problems` collection. The catalogue and
 * the company's colours and solutions are catalogue-routes.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpMessages } from '../../../common/messages/http';
import { PROBLEM_ACTIONS, type ProblemAction, problemCircleStyle, problemMessages as m } from '../../../common/messages/problems';
import {
  createGridboxProblemAnswer,
  createGridboxProblemBody,
  gridboxProblemsAnswer,
  gridboxProblemsQuery,
  gridCirclesAnswer,
  gridProblemsAnswer,
  gridProblemsQuery,
  manageProblemBody,
  manageProblemsAnswer,
  manageProblemsByTypeGridBody,
  manageProblemsByTypeRoomBody,
  type OpenProblemEntry,
  problemsByTypeAnswer,
  problemsByTypeQuery,
  roomProblemsAnswer,
  roomProblemsQuery,
  updateGridProblemsBody,
  updateRoomProblemsBody,
} from '../../../common/schemas/problems';
import { badRequest, notFound } from '../../http/errors';
import { sendKeptAnswer } from '../../http/answer-cache';
import { assertCaller, caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest } from '../audit/record';
import { saveImage } from '../files/storage';
import { catalogueRoutes } from './catalogue-routes';
import { type OpenProblemOnBox, plantProblemJson, problemQueries, type ProblemReach } from './queries';
import { type ActedOn, actOnProblems, problemSlugOf, recordBoxProblems } from './record';

const createSchema = { body: createGridboxProblemBody, response: { 200: createGridboxProblemAnswer } };
const gridboxSchema = { querystring: gridboxProblemsQuery, response: { 200: gridboxProblemsAnswer } };
const gridSchema = { querystring: gridProblemsQuery, response: { 200: gridProblemsAnswer } };
const roomSchema = { querystring: roomProblemsQuery, response: { 200: roomProblemsAnswer } };
const byTypeSchema = { querystring: problemsByTypeQuery, response: { 200: problemsByTypeAnswer } };
const circlesSchema = { querystring: gridProblemsQuery, response: { 200: gridCirclesAnswer } };
const manageSchema = { body: manageProblemBody, response: { 200: manageProblemsAnswer } };
const byTypeRoomSchema = { body: manageProblemsByTypeRoomBody, response: { 200: manageProblemsAnswer } };
const byTypeGridSchema = { body: manageProblemsByTypeGridBody, response: { 200: manageProblemsAnswer } };
const gridActionSchema = { body: updateGridProblemsBody, response: { 200: manageProblemsAnswer } };
const roomActionSchema = { body: updateRoomProblemsBody, response: { 200: manageProblemsAnswer } };

const recordNotFound = (kind: string, id: number) => notFound(httpMessages.recordNotFound(`${kind} ${id}`));

/** A live room (the guard found it the caller's to act on; an earlier entry of the same push may have deleted it). */
async function roomOf(request: FastifyRequest, id: number) {
  const room = await problemQueries.liveRoom(request.db, id);
  if (!room) throw recordNotFound('room', id);
  return room;
}

/** A live grid (as `roomOf`). */
async function gridOf(request: FastifyRequest, id: number) {
  const grid = await problemQueries.liveGrid(request.db, id);
  if (!grid) throw recordNotFound('grid', id);
  return grid;
}

async function createGridboxProblem(request: RequestOf<typeof createSchema>) {
  const { GridBoxID, sub_gridbox_id, problem_type, problem_slug, severity, notes, user_id, client_id, image } = request.body;
  const claims = assertCaller(request, user_id);
  const box = await problemQueries.liveBox(request.db, GridBoxID);
  if (!box) throw recordNotFound('grid_box', GridBoxID);
  if (sub_gridbox_id !== undefined && !(await problemQueries.subGridboxIsInBox(request.db, sub_gridbox_id, box.id))) throw badRequest(m.subGridboxNotInBox);
  const slug = problemSlugOf(problem_type, problem_slug);
  const actor = actorOfRequest(request, box.company_id);
  // A JSON body has no file; a form's empty file field counts as none.
  const photo = image === undefined || image === null || image === '' ? null : await saveImage(request, image, box.company_id);
  const [problem] = await recordBoxProblems(
    request.db,
    actor,
    box,
    [{ problemType: problem_type, problemSlug: slug, severity, subGridboxId: sub_gridbox_id ?? null, notes: notes ?? null, imageName: photo?.path ?? null, ...(client_id ? { clientId: client_id } : {}) }],
    { userId: claims.user_id, observedAt: request.actedAt, source: 'manual' },
  );
  return success({ problem_id: problem!.id, client_id: problem!.client_id, problem: plantProblemJson(problem!) }, m.problemRecorded);
}

async function getGridboxProblems(request: RequestOf<typeof gridboxSchema>) {
  const problems = await problemQueries.openOfBox(request.db, request.query.gridbox_id);
  return success({ GridBoxID: request.query.gridbox_id, problems: problems.map(plantProblemJson) });
}

/** Problems in box order (as openOnBoxes reads them) grouped into the spec's `Boxes`. */
function boxesOf(problems: OpenProblemOnBox[]) {
  const boxes = new Map<number, { GridBoxID: number; X: number; Y: number; CustomName: string | null; problems: OpenProblemEntry[] }>();
  for (const { grid_id: _grid, grid_box_id, x, y, custom_name, ...entry } of problems) {
    let box = boxes.get(grid_box_id);
    if (!box) boxes.set(grid_box_id, (box = { GridBoxID: grid_box_id, X: x, Y: y, CustomName: custom_name, problems: [] }));
    box.problems.push(entry);
  }
  return [...boxes.values()];
}

/** Counts by problem type, compared without case (the first spelling seen names the type), most first. */
function countsOf(problems: Array<{ problem_type: string }>) {
  const counts = new Map<string, { problem_type: string; count: number }>();
  for (const { problem_type } of problems) {
    const key = problem_type.toLowerCase();
    const entry = counts.get(key) ?? { problem_type, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.problem_type.localeCompare(b.problem_type));
}

async function getGridProblems(request: RequestOf<typeof gridSchema>) {
  const problems = await problemQueries.openOnBoxes(request.db, { gridId: request.query.grid_id });
  return success({ GridID: request.query.grid_id, Boxes: boxesOf(problems), total: problems.length });
}

/**
 * A room's open problems: read by every tablet and manager opening the pest-pressure map, so each
 * instance keeps the answer's text with the floor plan's (app.ts `floorAnswers`: dropped at the commit
 * of any write of the company and on every instance when a plant problem, room, grid or box changes).
 */
async function getRoomProblems(request: RequestOf<typeof roomSchema>, reply: FastifyReply) {
  const roomId = request.query.room_id;
  // The room's own company, whose changes drop the answer: the caller's (the guard proved the room is
  // theirs), but a SuperAdmin's may be another's.
  const claims = caller(request);
  const companyId = claims.user_role === 'SuperAdmin' ? await problemQueries.companyOfRoom(request.db, roomId) : claims.company_id;
  const answer = await request.server.deps.floorAnswers.through(companyId, `get_unresolved_problems_for_room:${roomId}`, async () =>
    String(reply.serialize(await roomProblems(request.db, roomId))),
  );
  return sendKeptAnswer(request, reply, answer);
}

async function roomProblems(db: FastifyRequest['db'], roomId: number) {
  const [problems, grids] = await Promise.all([problemQueries.openOnBoxes(db, { roomId }), problemQueries.gridsOfRoom(db, roomId)]);
  const byGrid = new Map<number, OpenProblemOnBox[]>();
  for (const problem of problems) {
    const list = byGrid.get(problem.grid_id) ?? [];
    list.push(problem);
    byGrid.set(problem.grid_id, list);
  }
  return success({
    RoomID: roomId,
    grids: grids.filter((grid) => byGrid.has(grid.id)).map((grid) => ({ GridID: grid.id, Name: grid.name, Boxes: boxesOf(byGrid.get(grid.id) ?? []) })),
    counts: countsOf(problems),
    total: problems.length,
  });
}

async function getProblemsByType(request: RequestOf<typeof byTypeSchema>) {
  const { problemType, roomID, gridID } = request.query;
  const reach = gridID !== undefined ? { gridId: gridID } : { roomId: roomID as number };
  const problems = await problemQueries.openOfType(request.db, reach, problemType);
  return success({ problemType, RoomID: gridID === undefined ? (roomID ?? null) : null, GridID: gridID ?? null, problems: problems.map(plantProblemJson), total: problems.length });
}

/** Per box, a circle for each open problem type on it, in the company's colours (problemCircleStyle). */
async function getGridCircles(request: RequestOf<typeof circlesSchema>) {
  const grid = await gridOf(request, request.query.grid_id);
  const [problems, mappings] = await Promise.all([
    problemQueries.openOnBoxes(request.db, { gridId: grid.id }),
    problemQueries.colorMappings(request.db, [grid.company_id]).then((rows) => rows.map((row) => ({ Problem: row.problem, Color: row.color, Abbreviation: row.abbreviation }))),
  ]);
  const boxes = boxesOf(problems).map((box) => ({
    GridBoxID: box.GridBoxID,
    X: box.X,
    Y: box.Y,
    circles: countsOf(box.problems).map(({ problem_type, count }) => {
      const slug = box.problems.find((problem) => problem.problem_type.toLowerCase() === problem_type.toLowerCase())?.problem_slug ?? null;
      return { problem_type, count, ...problemCircleStyle(problem_type, slug, mappings) };
    }),
  }));
  return success({ GridID: grid.id, Boxes: boxes });
}

/**
 * Applies an action to the problems in reach (see ACTION_APPLIES_TO for which), for the company of the
 * place acted on, and records it when something changed.
 */
async function act(request: FastifyRequest, action: ProblemAction, reach: ProblemReach, place: { companyId: number; roomId: number | null; gridBoxId?: number; at: ActedOn }) {
  const changed = await actOnProblems(request.db, actorOfRequest(request, place.companyId), action, reach, place);
  return success(
    { action, problem_status: PROBLEM_ACTIONS[action], changed_count: changed.length, problems: changed.map(plantProblemJson) },
    m.problemsChanged(changed.length, action),
  );
}

async function manageProblem(request: RequestOf<typeof manageSchema>) {
  const { problemID, action, userID } = request.body;
  assertCaller(request, userID);
  const problem = await problemQueries.byId(request.db, problemID);
  return act(request, action, { problemId: problem.id }, { companyId: problem.company_id, roomId: problem.room_id, gridBoxId: problem.grid_box_id, at: { box: problem.grid_box_id, problemType: problem.problem_type } });
}

async function manageProblemsByTypeRoom(request: RequestOf<typeof byTypeRoomSchema>) {
  const { roomID, problemType, action, userID } = request.body;
  assertCaller(request, userID);
  const room = await roomOf(request, roomID);
  return act(request, action, { roomId: room.id, problemType }, { companyId: room.company_id, roomId: room.id, at: { room: room.name } });
}

async function manageProblemsByTypeGrid(request: RequestOf<typeof byTypeGridSchema>) {
  const { gridID, problemType, action, userID } = request.body;
  assertCaller(request, userID);
  const grid = await gridOf(request, gridID);
  return act(request, action, { gridId: grid.id, problemType }, { companyId: grid.company_id, roomId: grid.room_id, at: { grid: grid.name } });
}

async function updateGridProblems(request: RequestOf<typeof gridActionSchema>) {
  const { gridID, action, userID } = request.body;
  assertCaller(request, userID);
  const grid = await gridOf(request, gridID);
  return act(request, action, { gridId: grid.id }, { companyId: grid.company_id, roomId: grid.room_id, at: { grid: grid.name } });
}

async function updateRoomProblems(request: RequestOf<typeof roomActionSchema>) {
  const { roomID, action, userID } = request.body;
  assertCaller(request, userID);
  const room = await roomOf(request, roomID);
  return act(request, action, { roomId: room.id }, { companyId: room.company_id, roomId: room.id, at: { room: room.name } });
}

export async function problemRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  await catalogueRoutes(app);
  app.post('/create_gridbox_problem', { schema: createSchema, ...fields }, createGridboxProblem);
  app.get('/get_unresolved_problems_for_gridbox', { schema: gridboxSchema }, getGridboxProblems);
  app.get('/get_unresolved_problems_for_grid', { schema: gridSchema }, getGridProblems);
  app.get('/get_unresolved_problems_for_room', { schema: roomSchema }, getRoomProblems);
  app.get('/get_unresolved_problems_by_type', { schema: byTypeSchema }, getProblemsByType);
  app.get('/get_unresolved_problems_for_grid_circles', { schema: circlesSchema }, getGridCircles);
  app.post('/manage_problem', { schema: manageSchema, ...fields }, manageProblem);
  app.post('/manage_problems_by_type_room', { schema: byTypeRoomSchema, ...fields }, manageProblemsByTypeRoom);
  app.post('/manage_problems_by_type_grid', { schema: byTypeGridSchema, ...fields }, manageProblemsByTypeGrid);
  app.post('/update_unresolved_problems_for_grid', { schema: gridActionSchema, ...fields }, updateGridProblems);
  app.post('/update_unresolved_problems_for_room', { schema: roomActionSchema, ...fields }, updateRoomProblems);
}
