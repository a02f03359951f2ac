/**
 * Routes of form submissions and the reading of their answers (spec part 2 §5, §7, §8). Any member
 * submits forms (floor work, README "Roles"), only as themselves; every submission is audited and
 * written in the request's one transaction, so a repeated Idempotency-Key makes one response.
 */
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { gridBoxQuery, responseIdQuery, submitFormBody, submitFormRoomBody } from '../../../common/schemas/form-responses';
import type { App } from '../../app';
import { notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type RequestOf, success } from '../../http/route';
import { actorOf, recordAudit } from '../audit/record';
import { responseJson, responseQueries, STICKY_TRAP_CATEGORY } from './responses-queries';

const submitSchema = { body: submitFormBody };
const submitRoomSchema = { body: submitFormRoomBody };
const responseSchema = { querystring: responseIdQuery };
const gridBoxSchema = { querystring: gridBoxQuery };

async function submitForm(request: RequestOf<typeof submitSchema>) {
  const { submittedBy, fieldResponses, GridBoxID } = request.body;
  const claims = assertCaller(request, submittedBy);
  const actor = actorOf(claims, claims.company_id);
  const templateId = await responseQueries.templateOfAnswers(request.db, actor.companyId, fieldResponses);
  await responseQueries.checkRequired(request.db, templateId, fieldResponses);
  const roomId = await responseQueries.roomOfBox(request.db, GridBoxID);
  const responseId = await responseQueries.create(request.db, actor, { templateId, gridBoxId: GridBoxID, roomId, submittedBy }, fieldResponses);
  await recordAudit(request.db, actor, { title: `Submitted form ${templateId} for grid box ${GridBoxID}`, gridBoxId: GridBoxID, roomId, details: { response_id: responseId } });
  return success({ response_id: responseId }, m.submitted);
}

async function submitFormRoom(request: RequestOf<typeof submitRoomSchema>) {
  const { submittedBy, roomID, fieldResponses } = request.body;
  const claims = assertCaller(request, submittedBy);
  const actor = actorOf(claims, claims.company_id);
  const templateId = await responseQueries.templateOfAnswers(request.db, actor.companyId, fieldResponses);
  await responseQueries.checkRequired(request.db, templateId, fieldResponses);
  const responseId = await responseQueries.create(request.db, actor, { templateId, gridBoxId: null, roomId: roomID, submittedBy }, fieldResponses);
  await recordAudit(request.db, actor, { title: `Submitted form ${templateId} for room ${roomID}`, roomId: roomID, details: { response_id: responseId } });
  return success({ response_id: responseId }, m.submitted);
}

async function getFieldResponses(request: RequestOf<typeof responseSchema>) {
  const response = await responseQueries.byId(request.db, request.query.response_id);
  if (!response) throw notFound(m.responseNotFound);
  return success({ fieldResponses: await responseQueries.answersOf(request.db, [response.id]) });
}

async function getFieldResponsesByGridbox(request: RequestOf<typeof gridBoxSchema>) {
  const responses = await responseQueries.responsesOfBox(request.db, request.query.GridBoxID);
  const answers = await responseQueries.answersOf(request.db, responses.map((response) => response.id));
  return success({ responses: responses.map((response) => responseJson(response, answers)) });
}

async function checkForStickytrap(request: RequestOf<typeof gridBoxSchema>) {
  const responses = await responseQueries.responsesOfBox(request.db, request.query.GridBoxID, STICKY_TRAP_CATEGORY);
  return success({ has_submission: responses.length > 0 });
}

export async function formResponseRoutes(app: App) {
  app.post('/submit_form', { schema: submitSchema }, submitForm);
  app.post('/submit_form_room', { schema: submitRoomSchema }, submitFormRoom);
  app.get('/get_field_responses', { schema: responseSchema, config: { owns: { response_id: 'form_response' } } }, getFieldResponses);
  app.get('/get_field_responses_by_gridbox', { schema: gridBoxSchema }, getFieldResponsesByGridbox);
  app.get('/check_for_stickytrap', { schema: gridBoxSchema }, checkForStickytrap);
}
