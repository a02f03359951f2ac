/**
 * What the correction screen (CorrectResponse.tsx) works out, as pure functions: which answers a
 * grower corrects there and how they are drawn (through the one form renderer, FormFields), and the
 * values a response was submitted with.
 */
import { correctionValue } from '../../../common/form-corrections';
import type { FieldType } from '../../../common/messages/forms';
import type { FormFieldRecord, FormTemplateRecord } from '../../../common/schemas/forms';
import { type FormCorrection, type FormResponse, originalAnswers } from '../../api/form-responses';
import { sameId } from '../../api/records';

/** Answers not corrected here (common/form-corrections.ts): a photo, and problems (corrected on their box). */
export const FIXED_TYPES: readonly FieldType[] = ['Image', 'Problem'];

/**
 * The response's answers to correct, as a form FormFields draws: each as its field, with the options
 * and the required mark of the tablet's copy of the form (`form`, when it holds it; a field deleted
 * since keeps its answer and is drawn from it), every one showing (the response already shows what
 * was filled), in the response's order.
 */
export function correctionForm(response: FormResponse, form: FormTemplateRecord | null): FormTemplateRecord {
  const fields = response.fieldResponses
    .filter((answer) => !FIXED_TYPES.includes(answer.FieldType))
    .map((answer, index): FormFieldRecord => {
      const field = form?.fields.find((each) => sameId(each.FieldID, answer.FieldID));
      return {
        id: answer.FieldID,
        FieldID: answer.FieldID,
        TemplateID: response.TemplateID,
        FieldName: answer.FieldName,
        FieldType: answer.FieldType,
        FieldOptions: field?.FieldOptions ?? [],
        CSSClass: null,
        IsRequired: field?.IsRequired ?? 0,
        IsActive: 1,
        report_id: null,
        Position: index,
      };
    });
  return {
    TemplateID: response.TemplateID,
    TemplateName: response.TemplateName,
    CompanyID: form?.CompanyID ?? 0,
    CreatedAt: form?.CreatedAt ?? response.SubmittedAt,
    FormCategory: response.FormCategory,
    PageCSS: null,
    IsDefault: false,
    fields,
    hide_rules: [],
  };
}

/** The editable answers as the form holds them: text by String(FieldID). */
export function currentAnswers(form: FormTemplateRecord, response: FormResponse): Record<string, string> {
  return Object.fromEntries(form.fields.map((field) => [String(field.FieldID), response.fieldResponses.find((answer) => sameId(answer.FieldID, field.FieldID))?.InputData ?? '']));
}

/** Whether the grower changed any answer (blank and spaces are alike: no answer). */
export const changedAny = (answers: Record<string, string>, before: Record<string, string>) =>
  Object.entries(answers).some(([fieldId, value]) => correctionValue(value) !== correctionValue(before[fieldId]));

/** Each corrected field's value as submitted, beside its value now, in the response's order. */
export function originalsOf(response: FormResponse): Array<{ fieldId: string; name: string; original: string | null; now: string | null }> {
  const originals = originalAnswers(response.corrections ?? []);
  return response.fieldResponses
    .filter((answer) => originals.has(String(answer.FieldID)))
    .map((answer) => ({ fieldId: String(answer.FieldID), name: answer.FieldName, original: originals.get(String(answer.FieldID)) ?? null, now: answer.InputData }));
}

/** Newest first: the history reads from the latest change back to the submission. */
export const newestCorrectionsFirst = (corrections: readonly FormCorrection[]) => [...corrections].reverse();
