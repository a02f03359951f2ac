/**
 * What a form shows and requires, the same on the tablet and the server (README "Forms"):
 * - a field with a hide-until-link rule stays hidden until its linked field is answered with the rule's
 *   input (any answer, when the input is blank); a Checkbox answer matches when one of its choices does;
 *   a rule whose linked field is itself hidden keeps its field hidden too;
 * - a required field must have a non-blank answer only while it shows: a hidden field cannot be filled.
 * Checkbox answers are the chosen options joined by CHOICE_SEPARATOR.
 */

import { CHOICE_FIELD_TYPES, type FieldType, formMessages } from './messages/forms';

export const CHOICE_SEPARATOR = ', ';

/**
 * What is wrong with a field's options, or null: a choice field needs one to be answerable, and a
 * Checkbox option cannot hold the separator of its answers.
 */
export function fieldOptionsProblem(field: { fieldName: string; fieldType: FieldType; fieldOptions: readonly string[] }): string | null {
  if (CHOICE_FIELD_TYPES.includes(field.fieldType) && field.fieldOptions.length === 0) return formMessages.optionsRequired(field.fieldName);
  if (field.fieldType === 'Checkbox' && field.fieldOptions.some((option) => option.includes(CHOICE_SEPARATOR))) return formMessages.optionSeparator(field.fieldName);
  return null;
}

export interface RuleField {
  FieldID: number | string;
  FieldName: string;
  FieldType: string;
  IsRequired: number | boolean;
  IsActive: number | boolean;
}

export interface HideRule {
  form_field_hidden_FieldID: number | string;
  form_field_linked_FieldID: number | string;
  form_field_linked_input: string;
}

/** The answers by field id (as text). */
export type Answers = ReadonlyMap<string, string | null>;

export const isBlank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/** The chosen options of a Checkbox answer. */
export const choicesOf = (value: string | null | undefined) => (isBlank(value) ? [] : value!.split(CHOICE_SEPARATOR).map((choice) => choice.trim()).filter(Boolean));

function matches(field: RuleField | undefined, answer: string | null | undefined, wanted: string) {
  if (isBlank(answer)) return false;
  if (wanted.trim() === '') return true;
  const expected = wanted.trim().toLowerCase();
  if (field?.FieldType === 'Checkbox') return choicesOf(answer).some((choice) => choice.toLowerCase() === expected);
  return answer!.trim().toLowerCase() === expected;
}

/** The ids (as text) of the active fields that show with these answers, in the fields' order. */
export function visibleFieldIds(fields: readonly RuleField[], rules: readonly HideRule[], answers: Answers): Set<string> {
  const active = fields.filter((field) => Boolean(Number(field.IsActive)));
  const byId = new Map(active.map((field) => [String(field.FieldID), field]));
  const ruleOf = new Map(rules.map((rule) => [String(rule.form_field_hidden_FieldID), rule]));
  const shows = new Map<string, boolean>();
  const visit = (id: string, path: Set<string>): boolean => {
    const known = shows.get(id);
    if (known !== undefined) return known;
    const rule = ruleOf.get(id);
    let visible = byId.has(id);
    if (visible && rule) {
      const linked = String(rule.form_field_linked_FieldID);
      // A loop of rules can never be satisfied: its fields stay hidden.
      visible = !path.has(linked) && visit(linked, new Set([...path, id])) && matches(byId.get(linked), answers.get(linked), rule.form_field_linked_input);
    }
    shows.set(id, visible);
    return visible;
  };
  return new Set(active.map((field) => String(field.FieldID)).filter((id) => visit(id, new Set())));
}

/** The first required field that shows but has no answer, or null. */
export function firstMissingRequired(fields: readonly RuleField[], rules: readonly HideRule[], answers: Answers): RuleField | null {
  const visible = visibleFieldIds(fields, rules, answers);
  return fields.find((field) => Boolean(Number(field.IsRequired)) && visible.has(String(field.FieldID)) && isBlank(answers.get(String(field.FieldID)))) ?? null;
}
