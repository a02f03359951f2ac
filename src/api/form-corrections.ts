/**
 * Correcting a submitted form response (issue 18, rooms/FormEdit; the server's rules:
 * server/domains/forms/corrections.ts). A correction is queued like every write: the local response
 * shows its corrected answers and the correction (with the values it replaced) at once, offline too,
 * and the server's document replaces them once it has the correction. The correction gets its client
 * id here (never through `check`, which stands numbers in for client ids); its own integer id comes
 * with the server's copy (`CorrectionID` null until then: "waiting to sync").
 *
 * Checked here as the server checks it, with its messages: the corrector may correct this response
 * (common/form-corrections.ts `mayCorrect`), the values may be taken (`correctedFields`), and the
 * required fields that show are still answered (common/form-rules.ts, with the tablet's copy of the
 * form, as a submission is checked). A response the tablet does not hold is checked by the server alone.
 *
 * WARNING: the effect replaces the local document's whole `fieldResponses` and `corrections`, as the
 * comments' effects replace `comments` (src/api/tasks.ts): while the correction waits, the pull shows
 * the response's answers as the correction left them.
 */
import { newClientId } from '../../common/client-ids';
import { correctedFields, mayCorrect } from '../../common/form-corrections';
import { firstMissingRequired } from '../../common/form-rules';
import { changeLabels } from '../../common/messages/changes';
import { formResponseMessages as m } from '../../common/messages/form-responses';
import { correctFormResponseBody, type FormCorrectionRecord } from '../../common/schemas/form-responses';
import type { FormTemplateRecord } from '../../common/schemas/forms';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, json, now, record, ValidationError } from './context';
import type { FieldAnswer, FormResponse } from './form-responses';
import { type RecordId, sameId } from './records';

/** A correction as the tablet holds it: one made here has no CorrectionID until the server's copy replaces it. */
export type FormCorrection = Omit<FormCorrectionRecord, 'CorrectionID'> & { CorrectionID: number | null };

/** The corrections of a local response document, oldest first. */
export const correctionsOf = (response: Pick<FormResponse, 'corrections'> | null | undefined): FormCorrection[] => (response?.corrections as FormCorrection[] | undefined) ?? [];

/**
 * The answers a response was submitted with, of the fields corrected since: each field's value before
 * its first correction, by String(FieldID).
 */
export function originalAnswers(corrections: readonly FormCorrection[]): Map<string, string | null> {
  const originals = new Map<string, string | null>();
  for (const correction of corrections) {
    for (const value of correction.values) if (!originals.has(String(value.FieldID))) originals.set(String(value.FieldID), value.PreviousValue);
  }
  return originals;
}

/** The answers after the correction: changed in place, a field not answered before added at the end. */
function correctedAnswers(response: FormResponse, fields: ReturnType<typeof correctedFields<RecordId>>['fields']): FieldAnswer[] {
  const answers = response.fieldResponses.map((answer) => {
    const field = fields.find((each) => sameId(each.fieldId, answer.FieldID));
    return field ? { ...answer, InputData: field.corrected } : answer;
  });
  const added = fields
    .filter((field) => !response.fieldResponses.some((answer) => sameId(answer.FieldID, field.fieldId)))
    .map((field): FieldAnswer => ({ FieldResponseID: null, ResponseID: response.ResponseID, FieldID: field.fieldId, FieldName: field.name, FieldType: field.type, InputData: field.corrected }));
  return [...answers, ...added];
}

/**
 * POST /correct_form_response, queued: the response shows the corrected values and the correction at
 * once. `answers`: the new values (others may be sent as they are: they change nothing); `reason`:
 * why, required. Answers the correction's client id.
 */
export async function correctFormResponse(context: ApiContext, input: { responseId: RecordId; answers: Array<{ fieldId: RecordId; inputData: string | null }>; reason: string }): Promise<string> {
  const session = await context.client.session.get();
  if (!session) throw new ValidationError(m.correctNeeds);
  const fieldResponses = input.answers.map((answer) => ({ fieldID: answer.fieldId, inputData: answer.inputData }));
  const checked = check(correctFormResponseBody, { response_id: input.responseId, company_id: session.company_id, user_id: session.user_id, fieldResponses, reason: input.reason });
  const stored = await context.store.get('form_responses', String(input.responseId));
  const response = stored ? (stored as unknown as FormResponse) : null;
  const correctionId = newClientId();
  const effects: Effect[] = [];
  let label: string = changeLabels.correctAFormResponse;
  if (response) {
    if (!mayCorrect({ userId: session.user_id, role: session.user_role }, response.SubmittedBy)) throw new ValidationError(m.notYourResponse);
    const template = await context.store.get('form_templates', String(response.TemplateID));
    const form = template ? (template as unknown as FormTemplateRecord) : null;
    // The response's answers name their fields; a field it did not answer is the tablet's copy of the form's.
    const fieldOf = (fieldId: RecordId) => {
      const answered = response.fieldResponses.find((answer) => sameId(answer.FieldID, fieldId));
      if (answered) return { name: answered.FieldName, type: answered.FieldType };
      const field = form?.fields.find((each) => sameId(each.FieldID, fieldId));
      return field ? { name: field.FieldName, type: field.FieldType } : undefined;
    };
    const { fields, error } = correctedFields(
      input.answers,
      fieldOf,
      (fieldId) => response.fieldResponses.find((answer) => sameId(answer.FieldID, fieldId))?.InputData,
    );
    if (error) throw new ValidationError(error);
    const answers = correctedAnswers(response, fields);
    if (form) {
      // The server checks the form as it was when the response was filled; the tablet's copy is today's,
      // so a field it did not answer (added since, or hidden then) is left to the server.
      const answered = form.fields.filter((field) => answers.some((answer) => sameId(answer.FieldID, field.FieldID)));
      const missing = firstMissingRequired(answered, form.hide_rules, new Map(answers.map((answer) => [String(answer.FieldID), answer.InputData])));
      if (missing) throw new ValidationError(m.fieldRequired(missing.FieldName));
    }
    const correction: FormCorrection = {
      CorrectionID: null,
      ResponseID: response.ResponseID,
      CorrectedBy: session.user_id,
      CorrectedAt: now(),
      Reason: checked.reason,
      values: fields.map((field) => ({ FieldID: field.fieldId, FieldName: field.name, FieldType: field.type, PreviousValue: field.previous, CorrectedValue: field.corrected })),
    };
    effects.push({ op: 'patch', collection: 'form_responses', id: String(input.responseId), data: { fieldResponses: answers, corrections: [...correctionsOf(response), correction] } });
    label = changeLabels.correctFormResponse(response.TemplateName, fields.map((field) => field.name).join(', '));
  }
  await record(context, {
    method: 'POST',
    path: '/correct_form_response',
    body: json({ response_id: input.responseId, company_id: session.company_id, user_id: session.user_id, fieldResponses, reason: checked.reason, client_id: correctionId }),
    creates: [correctionId],
    effects,
    label,
    fallbackMessage: m.correctFailed,
  });
  return correctionId;
}
