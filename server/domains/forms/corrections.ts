/**
 * Correcting a submitted form response (issue 18, rooms/FormEdit; ours: POST /correct_form_response):
 * a typo, a wrong count. Queued like every write (its Idempotency-Key and its `client_id` make one
 * correction however often it is sent; the act's time is kept).
 *
 * Who may correct (decision; common/form-corrections.ts `mayCorrect`): the person who submitted the
 * response, whatever their role, and Admins (and SuperAdmin) anyone's; another Regular member gets 403.
 * A grower corrects their own observation; someone else's is a manager's call, and the product's
 * manager role is Admin (common/roles.ts). The corrector is the caller (`user_id`); another company's
 * response answers 403 (the guard).
 *
 * What it does, in the request's one transaction: keeps each changed field's value before and after
 * (form_corrections and form_correction_values, migration 0023), sets the response's answers to the
 * corrected values (what every reader, report and tablet then shows), touches the response so its
 * synced document carries the correction, and records an audit event saying what changed, from what
 * to what, and why.
 *
 * The values are checked as a submission's answers are: the same answer schema, and the required
 * fields of the form as it was when the response was filled (a required field that shows cannot be
 * blanked; a corrected answer may make a hidden field show, which then needs its answer too). What a
 * correction may change is common/form-corrections.ts, which the tablet checks too: a photo is not a
 * value to correct (its answer is the photo's name), and a Problem answer's problems are recorded on
 * the box, where they are managed; both are refused with a message saying so. A correction
 * does not run the form's task automations or notifications again: those acted on the observation as
 * submitted. A field of the response's form that it did not answer (hidden when filled) may be given
 * its answer; it is kept as corrected from blank.
 */
import { auditTitleParts, PART_SEPARATOR } from '../../../common/messages/audit-title-parts';
import { auditTitles } from '../../../common/messages/audit-titles';
import { correctedFields, mayCorrect } from '../../../common/form-corrections';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { correctFormResponseAnswer, correctFormResponseBody } from '../../../common/schemas/form-responses';
import { writer } from '../../db/writes';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { correctionQueries } from './corrections-queries';
import { responseQueries } from './responses-queries';

const correctSchema = { body: correctFormResponseBody, response: { 200: correctFormResponseAnswer } };

/** How long a value an audit title quotes may be: a longer one is cut (the event's details keep it whole). */
const AUDIT_VALUE_MAX = 80;
const clipped = (value: string) => (value.length > AUDIT_VALUE_MAX ? `${value.slice(0, AUDIT_VALUE_MAX)}…` : value);

/** An answer changed, as the title says it: a blank one (null) says so (both blank is no change: correctedFields skips it). */
function answerChanged({ name, previous, corrected }: { name: string; previous: string | null; corrected: string | null }): string {
  if (previous === null) return auditTitleParts.answer.filled(name, clipped(corrected ?? ''));
  if (corrected === null) return auditTitleParts.answer.cleared(name, clipped(previous));
  return auditTitleParts.answer.changed(name, clipped(previous), clipped(corrected));
}

async function correctFormResponse(request: RequestOf<typeof correctSchema>) {
  const { response_id, company_id, user_id, fieldResponses, reason, client_id } = request.body;
  const claims = assertCaller(request, user_id);
  const response = await responseQueries.byId(request.db, response_id);
  // The guard found it live and the caller's to act on; a SuperAdmin naming another company than the response's finds no such response there.
  if (!response || (company_id !== undefined && company_id !== response.company_id)) throw notFound(m.responseNotFound);
  if (!mayCorrect({ userId: claims.user_id, role: claims.user_role }, response.submitted_by)) throw forbidden(m.notYourResponse);

  const form = await correctionQueries.formOf(
    request.db,
    response.template_id,
    fieldResponses.map((answer) => answer.fieldID),
  );
  // The server names fields by their integer ids (the record's type also allows a tablet's client id).
  const current = new Map((await responseQueries.answersOf(request.db, [response.id])).map((answer) => [Number(answer.FieldID), answer]));
  const { fields, error } = correctedFields(
    fieldResponses.map((answer) => ({ fieldId: answer.fieldID, inputData: answer.inputData })),
    (fieldId) => form.fields.get(fieldId),
    (fieldId) => current.get(fieldId)?.InputData,
  );
  if (error) throw badRequest(error);
  const values = fields.map((field) => ({ ...field, answerId: current.get(field.fieldId)?.FieldResponseID ?? null }));

  // The answers as they would be, checked as the submission's were, against the form as it was filled.
  const correctedOf = new Map(values.map((value) => [value.fieldId, value.corrected]));
  const after = [
    ...[...current].map(([fieldID, answer]) => ({ fieldID, inputData: correctedOf.has(fieldID) ? correctedOf.get(fieldID)! : answer.InputData })),
    ...values.filter((value) => value.answerId === null).map((value) => ({ fieldID: value.fieldId, inputData: value.corrected })),
  ];
  await responseQueries.checkRequired(request.db, response.template_id, after, response.submitted_at);

  const actor = actorOfRequest(request, response.company_id);
  const correction = await correctionQueries.record(request.db, actor, { responseId: response.id, reason, clientId: client_id }, values);
  // The correction travels inside the response's sync document.
  await writer(request.db, actor).touch('form_responses', response.id);
  const changes = values.map(answerChanged).join(PART_SEPARATOR);
  await recordAudit(request.db, actor, {
    title: auditTitles.correctedResponse(form.name, response.id, changes, reason),
    gridBoxId: response.grid_box_id,
    roomId: response.room_id,
    batchId: response.batch_id,
    responseId: response.id,
    details: {
      correction_id: correction.id,
      template_id: response.template_id,
      reason,
      changes: values.map((value) => ({ field_id: value.fieldId, field_name: value.name, from: value.previous, to: value.corrected })),
    },
  });
  const recorded = (await correctionQueries.of(request.db, [response.id])).get(response.id)?.find((each) => each.CorrectionID === correction.id);
  // Just written in this transaction.
  return success({ response_id: response.id, correction_id: correction.id, client_id: correction.client_id, correction: recorded! }, m.corrected);
}

export async function formCorrectionRoutes(app: App) {
  app.post('/correct_form_response', { schema: correctSchema }, correctFormResponse);
}
