/**
 * Routes of form submissions and the reading of their answers (spec part 2 §5, §7, §8). Any member
 * submits forms (floor work, README "Roles"), only as themselves; every submission is audited and
 * written in the request's one transaction (with the plant problems its Problem answers name, and the
 * task a task automation makes of it: tasks/automations.ts), so a repeated Idempotency-Key makes one
 * response. Corrections of a submitted response are corrections.ts.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { formProblemClientId, responseClientId } from '../../../common/client-ids';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { STICKY_TRAP_CATEGORY, TREATMENT_CATEGORY } from '../../../common/messages/forms';
import { problemsOfAnswers } from '../../../common/problem-answers';
import {
  batchQuery,
  fieldResponsesAnswer,
  formResponsesAnswer,
  gridBoxDatesQuery,
  gridBoxQuery,
  gridDatesQuery,
  gridResponsesAnswer,
  responseIdQuery,
  stickyTrapCheckAnswer,
  submitFormAnswer,
  submitFormBody,
  submitFormBoxesAnswer,
  submitFormBoxesBody,
  submitFormImageAnswer,
  submitFormImageBody,
  submitFormRoomBody,
  submitMultiSelectBody,
} from '../../../common/schemas/form-responses';
import { badRequest, notFound } from '../../http/errors';
import { writer } from '../../db/writes';
import { assertCaller } from '../../http/guards';
import { saveImage } from '../files/storage';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { problemSlugOf, recordBoxProblems } from '../problems/record';
import { applyTaskAutomations, taskAutomationQueries } from '../tasks/automations';
import { notifyResponseSubmitted } from '../automations/triggers';
import { formCorrectionRoutes } from './corrections';
import { correctionQueries } from './corrections-queries';
import { type Answer, responseQueries } from './responses-queries';

const submitSchema = { body: submitFormBody, response: { 200: submitFormAnswer } };
const submitRoomSchema = { body: submitFormRoomBody, response: { 200: submitFormAnswer } };
const submitBoxesSchema = { body: submitFormBoxesBody, response: { 200: submitFormBoxesAnswer } };
const submitMultiSelectSchema = { body: submitMultiSelectBody, response: { 200: submitFormBoxesAnswer } };
const submitImageSchema = { body: submitFormImageBody, response: { 200: submitFormImageAnswer } };
const responseSchema = { querystring: responseIdQuery, response: { 200: fieldResponsesAnswer } };
const gridBoxSchema = { querystring: gridBoxQuery, response: { 200: formResponsesAnswer } };
const gridBoxDatesSchema = { querystring: gridBoxDatesQuery, response: { 200: formResponsesAnswer } };
const gridDatesSchema = { querystring: gridDatesQuery, response: { 200: gridResponsesAnswer } };
const stickyTrapGridSchema = { querystring: gridDatesQuery, response: { 200: formResponsesAnswer } };
const stickyTrapCheckSchema = { querystring: gridBoxQuery, response: { 200: stickyTrapCheckAnswer } };
const batchSchema = { querystring: batchQuery, response: { 200: formResponsesAnswer } };

type AnyRequest = RequestOf<object>;

const YEAR_MS = 365 * 86_400_000;

/**
 * When the form was filled: the tablet's `submittedAt`, within the server's clock (never ahead of it,
 * at most a year back); without one, the request's acted-at time (already within the clock).
 */
function filledAt(submittedAt: string | undefined, actedAt: Date): Date {
  if (submittedAt === undefined) return actedAt;
  const now = Date.now();
  return new Date(Math.min(now, Math.max(now - YEAR_MS, Date.parse(submittedAt))));
}

/**
 * The form of the answers, checked for its required fields as it was when filled, and the problems its
 * Problem answers name (common/problem-answers.ts; an answer not in the format refuses the submission).
 */
async function checkedTemplate(request: AnyRequest, companyId: number, answers: Answer[], at: Date) {
  const template = await responseQueries.templateOfAnswers(request.db, companyId, answers);
  await responseQueries.checkRequired(request.db, template.id, answers, at);
  const { problems, error } = problemsOfAnswers(
    answers.map((answer) => {
      // templateOfAnswers found every answered field.
      const field = template.fields.get(answer.fieldID)!;
      return { fieldName: field.name, fieldType: field.type, inputData: answer.inputData };
    }),
  );
  if (error) throw badRequest(error);
  return { id: template.id, name: template.name, problems };
}

/**
 * One response per box, each audited under its box; answers the responses' ids and client ids in the
 * boxes' order. `clientIdOf(i)`: the client id of the i-th box's response, when the tablet named them.
 * The problems the answers name are recorded on each box, with the response that named them, seen when
 * the form was filled, by its submitter; each is named by the response's client id and its place among
 * them (formProblemClientId), as the tablet named its optimistic copy.
 */
async function submitForBoxes(
  request: AnyRequest,
  submission: { submittedBy: number; submittedAt?: string },
  gridBoxIds: number[],
  answers: Answer[],
  clientIdOf: (index: number) => string | undefined,
  roomId?: number,
) {
  const { submittedBy } = submission;
  const claims = assertCaller(request, submittedBy);
  const actor = actorOfRequest(request, claims.company_id);
  const at = filledAt(submission.submittedAt, request.actedAt);
  const { id: templateId, name: formName, problems } = await checkedTemplate(request, actor.companyId, answers, at);
  // Each response may make a task (tasks/automations.ts), in this transaction.
  const automations = await taskAutomationQueries.ofTemplate(request.db, templateId);
  const seen = problems.map((problem) => ({ problemType: problem.name, problemSlug: problemSlugOf(problem.name), severity: problem.severity }));
  const places = await responseQueries.placesOfBoxes(request.db, gridBoxIds, at);
  const roomName = roomId === undefined ? '' : await responseQueries.roomName(request.db, roomId);
  for (const gridBoxId of gridBoxIds) if (roomId !== undefined && places.get(gridBoxId)?.roomId !== roomId) throw badRequest(m.boxNotInRoom(gridBoxId, roomName));
  const responseIds: number[] = [];
  const clientIds: string[] = [];
  for (const [index, gridBoxId] of [...new Set(gridBoxIds)].entries()) {
    const place = places.get(gridBoxId)!;
    const { id: responseId, client_id } = await responseQueries.create(
      request.db,
      actor,
      { templateId, gridBoxId, roomId: place.roomId, batchId: place.batchId, submittedBy, submittedAt: at, clientId: clientIdOf(index) },
      answers,
    );
    responseIds.push(responseId);
    clientIds.push(client_id);
    await recordBoxProblems(
      request.db,
      actor,
      place.box,
      seen.map((problem, problemIndex) => ({ ...problem, clientId: formProblemClientId(client_id, problemIndex) })),
      { userId: submittedBy, observedAt: at, source: 'form', formResponseId: responseId, via: { form: formName } },
    );
    await applyTaskAutomations(request.db, actor, automations, { id: responseId, templateId, formName, gridBoxId, roomId: place.roomId, batchId: place.batchId }, answers);
    await notifyResponseSubmitted(request.db, actor, { id: responseId, templateId, roomId: place.roomId, gridBoxId, submittedAt: at }, answers);
    if (roomId === undefined) {
      await recordAudit(request.db, actor, { title: auditTitles.submittedForBox(formName, gridBoxId), gridBoxId, roomId: place.roomId, batchId: place.batchId, responseId, details: { template_id: templateId } });
    }
  }
  // A multi-select submission is one act on the floor: one event for the room (spec §8 names its title),
  // carrying the first response as its response_id and all of them in its details.
  if (roomId !== undefined) {
    await recordAudit(request.db, actor, { title: auditTitles.submittedMultiSelect(roomName), roomId, responseId: responseIds[0] ?? null, details: { response_ids: responseIds, template_id: templateId } });
  }
  return { responseIds, clientIds };
}

async function submitForm(request: RequestOf<typeof submitSchema>) {
  const { fieldResponses, GridBoxID, client_id } = request.body;
  const { responseIds, clientIds } = await submitForBoxes(request, request.body, [GridBoxID], fieldResponses, () => client_id);
  // One box, one response.
  return success({ response_id: responseIds[0]!, client_id: clientIds[0]! }, m.submitted);
}

async function submitFormBoxes(request: RequestOf<typeof submitBoxesSchema>) {
  const { fieldResponses, GridBoxIDs, client_id } = request.body;
  const { responseIds, clientIds } = await submitForBoxes(request, request.body, GridBoxIDs, fieldResponses, (index) => client_id && responseClientId(client_id, index));
  return success({ response_ids: responseIds, client_ids: clientIds }, m.submitted);
}

async function submitFormMultiselect(request: RequestOf<typeof submitMultiSelectSchema>) {
  const { roomID, GridBoxIDs, fieldResponses, client_id } = request.body;
  const { responseIds, clientIds } = await submitForBoxes(request, request.body, GridBoxIDs, fieldResponses, (index) => client_id && responseClientId(client_id, index), roomID);
  return success({ response_ids: responseIds, client_ids: clientIds }, m.submitted);
}

/**
 * A response for the room as a whole. Decision (README "Plant problems"): the problems its Problem
 * answers name are not recorded as plant problems, since a plant problem is on a box (the pest-pressure
 * map draws it there) and a room answer names none; the answer is still checked and kept as text.
 */
async function submitFormRoom(request: RequestOf<typeof submitRoomSchema>) {
  const { submittedBy, submittedAt, roomID, fieldResponses, client_id } = request.body;
  const claims = assertCaller(request, submittedBy);
  const actor = actorOfRequest(request, claims.company_id);
  const at = filledAt(submittedAt, request.actedAt);
  const { id: templateId, name: formName } = await checkedTemplate(request, actor.companyId, fieldResponses, at);
  const response = await responseQueries.create(request.db, actor, { templateId, gridBoxId: null, roomId: roomID, submittedBy, submittedAt: at, clientId: client_id }, fieldResponses);
  const automations = await taskAutomationQueries.ofTemplate(request.db, templateId);
  await applyTaskAutomations(request.db, actor, automations, { id: response.id, templateId, formName, gridBoxId: null, roomId: roomID, batchId: null }, fieldResponses);
  await notifyResponseSubmitted(request.db, actor, { id: response.id, templateId, roomId: roomID, gridBoxId: null, submittedAt: at }, fieldResponses);
  const roomName = await responseQueries.roomName(request.db, roomID);
  await recordAudit(request.db, actor, { title: auditTitles.submittedForRoom(formName, roomName), roomId: roomID, responseId: response.id, details: { template_id: templateId } });
  return success({ response_id: response.id, client_id: response.client_id }, m.submitted);
}

/** A photo for a response (and the field it answers); its type is read from its bytes. */
async function submitFormImage(request: RequestOf<typeof submitImageSchema>) {
  const { response_id, field_id, image } = request.body;
  const response = await responseQueries.byId(request.db, response_id);
  if (!response) throw notFound(m.responseNotFound);
  if (field_id !== undefined && !(await responseQueries.isFieldOfTemplate(request.db, field_id, response.template_id))) throw badRequest(m.imageFieldNotInForm(field_id));
  const actor = actorOfRequest(request, response.company_id);
  const file = await saveImage(request, image, response.company_id);
  const write = writer(request.db, actor);
  await write.insert('form_response_images', { company_id: response.company_id, response_id: response.id, field_id: field_id ?? null, file_id: file.id });
  // The photo travels inside the response's sync document.
  await write.touch('form_responses', response.id);
  await recordAudit(request.db, actor, {
    title: auditTitles.addedResponsePhoto(response.id),
    gridBoxId: response.grid_box_id,
    roomId: response.room_id,
    batchId: response.batch_id,
    responseId: response.id,
    details: { file: file.path },
  });
  return success({ response_id: response.id, image: file.path }, m.imageSaved);
}

/** A response's answers (corrected, where corrected) and its corrections, which keep the values as submitted. */
async function getFieldResponses(request: RequestOf<typeof responseSchema>) {
  const response = await responseQueries.byId(request.db, request.query.response_id);
  if (!response) throw notFound(m.responseNotFound);
  const corrections = await correctionQueries.of(request.db, [response.id]);
  return success({ fieldResponses: await responseQueries.answersOf(request.db, [response.id]), corrections: corrections.get(response.id) ?? [] });
}

async function getFieldResponsesByGridbox(request: RequestOf<typeof gridBoxSchema>) {
  return success({ responses: await responseQueries.responsesWithAnswers(request.db, { gridBoxId: request.query.GridBoxID }) });
}

/** A box's responses of the given days; the forms path leaves sticky-trap cards out, the stickytraps path has only them. */
async function getFieldResponsesByGridboxDate(request: RequestOf<typeof gridBoxDatesSchema>, stickyTraps: boolean) {
  const { GridBoxID, start_date, end_date } = request.query;
  const responses = await responseQueries.responsesWithAnswers(request.db, { gridBoxId: GridBoxID, startDate: start_date, endDate: end_date });
  return success({ responses: responses.filter((response) => (response.FormCategory === STICKY_TRAP_CATEGORY) === stickyTraps) });
}

/** A grid's responses of the given days, and those of treatment forms apart. */
async function getResponsesForGrid2(request: RequestOf<typeof gridDatesSchema>) {
  const { GridID, start_date, end_date } = request.query;
  const all = await responseQueries.responsesWithAnswers(request.db, { gridId: GridID, startDate: start_date, endDate: end_date });
  return success({ all_responses: all, treatment_responses: all.filter((response) => response.FormCategory === TREATMENT_CATEGORY) });
}

/** The spec does not show this call's query: GridID, start_date, end_date, as get_responses_for_grid2 has. */
async function getStickyTrapResponsesGrid(request: RequestOf<typeof stickyTrapGridSchema>) {
  const { GridID, start_date, end_date } = request.query;
  return success({ responses: await responseQueries.responsesWithAnswers(request.db, { gridId: GridID, category: STICKY_TRAP_CATEGORY, startDate: start_date, endDate: end_date }) });
}

async function checkForStickytrap(request: RequestOf<typeof stickyTrapCheckSchema>) {
  const responses = await responseQueries.responses(request.db, { gridBoxId: request.query.GridBoxID, category: STICKY_TRAP_CATEGORY });
  return success({ has_submission: responses.length > 0 });
}

/** A batch's responses: those of boxes that held the batch when the form was submitted. */
async function getBatchFormResponses(request: RequestOf<typeof batchSchema>) {
  return success({ responses: await responseQueries.responsesWithAnswers(request.db, { batchId: request.query.batch_id }) });
}

export async function formResponseRoutes(app: App) {
  app.post('/submit_form', { schema: submitSchema }, submitForm);
  app.post('/submit_form_boxes', { schema: submitBoxesSchema }, submitFormBoxes);
  // The spec does not show the multi-select path (§7); this one is ours.
  app.post('/submit_form_multiselect', { schema: submitMultiSelectSchema }, submitFormMultiselect);
  app.post('/submit_form_image', { schema: submitImageSchema, config: { owns: { response_id: 'form_response', field_id: 'form_field' } } }, submitFormImage);
  app.post('/submit_form_room', { schema: submitRoomSchema }, submitFormRoom);
  app.get('/get_field_responses', { schema: responseSchema, config: { owns: { response_id: 'form_response' } } }, getFieldResponses);
  app.get('/get_field_responses_by_gridbox', { schema: gridBoxSchema }, getFieldResponsesByGridbox);
  app.get('/get_field_responses_by_gridbox_date/forms', { schema: gridBoxDatesSchema }, (request: RequestOf<typeof gridBoxDatesSchema>) => getFieldResponsesByGridboxDate(request, false));
  app.get('/get_field_responses_by_gridbox_date/stickytraps', { schema: gridBoxDatesSchema }, (request: RequestOf<typeof gridBoxDatesSchema>) => getFieldResponsesByGridboxDate(request, true));
  app.get('/get_responses_for_grid2', { schema: gridDatesSchema }, getResponsesForGrid2);
  app.get('/get_sticky_trap_responses_grid', { schema: stickyTrapGridSchema }, getStickyTrapResponsesGrid);
  app.get('/get_batch_form_responses', { schema: batchSchema }, getBatchFormResponses);
  app.get('/check_for_stickytrap', { schema: stickyTrapCheckSchema }, checkForStickytrap);
  await formCorrectionRoutes(app);
}
