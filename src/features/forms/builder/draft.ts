/**
 * The form builder's draft: a template being built or changed, held on the screen until Save. Fields
 * are named by a `key` that never changes (a saved field's key is its id; a new one's is the client id
 * it will be saved under), so a hide-until-link rule can point at a field not saved yet.
 * The order of `fields` is the form's order: Save sends each field's index as its position.
 */
import { CHOICE_FIELD_TYPES, DEFAULT_FORM_CATEGORY, type FieldType, type FormCategory, formMessages } from '../../../../common/messages/forms';
import type { FormFieldRecord, FormHideRuleRecord, FormTemplateRecord } from '../../../../common/schemas/forms';
import { type ClientId, newClientId } from '../../../../common/client-ids';
import { i18next } from '../../../i18n/i18n';
import { formsTexts } from '../texts';

export type Id = FormFieldRecord['FieldID'];

/** The field's rule: it shows only once `linkedKey`'s field is answered with `input` (any answer when blank). */
export interface DraftRule {
  linkedKey: string;
  input: string;
}

export interface DraftField {
  key: string;
  /** Its id once saved (queued or on the server): its key. Null until the field is saved. */
  savedId: Id | null;
  name: string;
  type: FieldType;
  options: string[];
  required: boolean;
  cssClass: string;
  /** Kept as it was: the builder does not edit report links. */
  reportId: number | null;
  rule: DraftRule | null;
}

export interface Draft {
  /** Null for a form not saved yet. */
  templateId: Id | null;
  name: string;
  category: FormCategory;
  /** In form order; while editing a saved template its saved fields come first (see the header). */
  fields: DraftField[];
  /** Saved fields taken off the form: on Save they become inactive (their answers stay). */
  removed: DraftField[];
}

export const isChoice = (type: FieldType) => CHOICE_FIELD_TYPES.includes(type);

/** A new field's key: the client id it is saved under. */
export const newFieldKey = (): ClientId => newClientId();

/** A new, empty field of the draft (Text, not required). */
export function blankField(): DraftField {
  return { key: newFieldKey(), savedId: null, name: '', type: 'Text', options: [], required: false, cssClass: '', reportId: null, rule: null };
}

/** The draft of a saved template (its active fields, by position, with their rules), or of a new form. */
export function draftOf(template: FormTemplateRecord | null): Draft {
  if (!template) return { templateId: null, name: '', category: DEFAULT_FORM_CATEGORY, fields: [], removed: [] };
  const active = template.fields.filter((field) => Number(field.IsActive) === 1).sort((a, b) => a.Position - b.Position);
  const ruleOf = new Map(template.hide_rules.map((rule) => [String(rule.form_field_hidden_FieldID), rule]));
  const activeIds = new Set(active.map((field) => String(field.FieldID)));
  return {
    templateId: template.TemplateID,
    name: template.TemplateName,
    category: template.FormCategory,
    fields: active.map((field) => {
      const rule = ruleOf.get(String(field.FieldID));
      const linked = rule ? String(rule.form_field_linked_FieldID) : null;
      return {
        key: String(field.FieldID),
        savedId: field.FieldID,
        name: field.FieldName,
        type: field.FieldType,
        options: [...field.FieldOptions],
        required: Number(field.IsRequired) === 1,
        cssClass: field.CSSClass ?? '',
        reportId: field.report_id,
        // A rule on a field taken off the form could never be met; the builder shows the field as always shown.
        rule: rule && linked && activeIds.has(linked) ? { linkedKey: linked, input: rule.form_field_linked_input } : null,
      };
    }),
    removed: [],
  };
}

/** Whether a field can move a step (not past either end). */
export function canMove(draft: Draft, index: number, step: -1 | 1): boolean {
  return draft.fields[index] !== undefined && draft.fields[index + step] !== undefined;
}

export function moveField(draft: Draft, index: number, step: -1 | 1): Draft {
  if (!canMove(draft, index, step)) return draft;
  const fields = [...draft.fields];
  [fields[index], fields[index + step]] = [fields[index + step]!, fields[index]!];
  return { ...draft, fields };
}

/** Adds a field at the end, or replaces the field with the same key. */
export function putField(draft: Draft, field: DraftField): Draft {
  const exists = draft.fields.some((each) => each.key === field.key);
  return { ...draft, fields: exists ? draft.fields.map((each) => (each.key === field.key ? field : each)) : [...draft.fields, field] };
}

/**
 * Takes a field off the draft: a saved one goes to `removed` (made inactive on Save), a new one is
 * dropped. Rules that waited for its answer go too (they could never be met): their fields' names are
 * returned so the screen can say so.
 */
export function removeField(draft: Draft, key: string): { draft: Draft; freed: string[] } {
  const field = draft.fields.find((each) => each.key === key);
  if (!field) return { draft, freed: [] };
  const freed: string[] = [];
  const fields = draft.fields
    .filter((each) => each.key !== key)
    .map((each) => {
      if (each.rule?.linkedKey !== key) return each;
      freed.push(each.name);
      return { ...each, rule: null };
    });
  const removed = field.savedId === null ? draft.removed : [...draft.removed, { ...field, rule: null }];
  return { draft: { ...draft, fields, removed }, freed };
}

/** Puts a removed saved field back, last (it can be moved from there). */
export function restoreField(draft: Draft, key: string): Draft {
  const field = draft.removed.find((each) => each.key === key);
  if (!field) return draft;
  return { ...draft, fields: [...draft.fields, field], removed: draft.removed.filter((each) => each.key !== key) };
}

/** True when `key`'s field, hidden until `linkedKey`'s, would close a loop of rules (such fields never show). */
export function wouldLoop(draft: Draft, key: string, linkedKey: string): boolean {
  const ruleOf = new Map(draft.fields.map((field) => [field.key, field.rule?.linkedKey ?? null]));
  const seen = new Set<string>();
  for (let current: string | null = linkedKey; current !== null && !seen.has(current); current = ruleOf.get(current) ?? null) {
    if (current === key) return true;
    seen.add(current);
  }
  return false;
}

/** The fields `key`'s field may wait for: any other field of the draft that does not wait for it. */
export function linkCandidates(draft: Draft, key: string): DraftField[] {
  return draft.fields.filter((field) => field.key !== key && !wouldLoop(draft, key, field.key));
}

/** What a field is called in the builder (a field not named yet is still shown: "Field 3", in the reader's language; called at render). */
export const fieldLabel = (field: DraftField, index: number) => field.name.trim() || i18next.t('builder.unnamedField', { ns: formsTexts, number: index + 1 });

/** The options typed one per line: trimmed, blanks and repeats dropped. */
export function optionsOf(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()).filter(Boolean))];
}

/** A field's own rules, checked as the domain functions will (same messages), before it joins the draft. */
export function fieldProblem(field: DraftField): string | null {
  if (field.name.trim() === '') return formMessages.fieldNameRequired;
  if (isChoice(field.type) && field.options.length === 0) return formMessages.optionsRequired(field.name.trim());
  return null;
}

/** A field of the draft as a template field (for the preview and for comparing with the saved one). */
function fieldOf(field: DraftField, templateId: Id, position: number): FormFieldRecord {
  const id = field.savedId ?? field.key;
  return {
    id,
    FieldID: id,
    TemplateID: templateId,
    FieldName: field.name.trim(),
    FieldType: field.type,
    FieldOptions: isChoice(field.type) ? field.options : [],
    CSSClass: field.cssClass.trim() || null,
    IsRequired: field.required ? 1 : 0,
    IsActive: 1,
    report_id: field.reportId,
    Position: position,
  };
}

/** The draft as a template, exactly as FormFields draws it for growers (the preview); `untitled` names a form without a name yet. */
export function previewTemplate(draft: Draft, companyId: number, untitled: string): FormTemplateRecord {
  // A form not saved yet has no id: the preview names it so.
  const templateId: Id = draft.templateId ?? 'draft-template';
  const idOf = new Map(draft.fields.map((field) => [field.key, field.savedId ?? field.key]));
  const hideRules: FormHideRuleRecord[] = draft.fields.flatMap((field) => {
    const linked = field.rule ? idOf.get(field.rule.linkedKey) : undefined;
    return field.rule && linked !== undefined
      ? [{ form_field_hidden_UID: templateId, form_field_hidden_FieldID: idOf.get(field.key)!, form_field_linked_FieldID: linked, form_field_linked_input: field.rule.input.trim() }]
      : [];
  });
  return {
    TemplateID: templateId,
    TemplateName: draft.name.trim() || untitled,
    CompanyID: companyId,
    CreatedAt: new Date(0).toISOString(),
    FormCategory: draft.category,
    PageCSS: null,
    IsDefault: false,
    fields: draft.fields.map((field, position) => fieldOf(field, templateId, position)),
    hide_rules: hideRules,
  };
}

/** True when a saved field's draft differs from what is saved (so it goes into updatedFields). */
export function fieldChanged(field: DraftField, saved: FormFieldRecord): boolean {
  const draft = fieldOf(field, saved.TemplateID, saved.Position);
  return (
    draft.FieldName !== saved.FieldName ||
    draft.FieldType !== saved.FieldType ||
    draft.IsRequired !== Number(saved.IsRequired) ||
    (draft.CSSClass ?? '') !== (saved.CSSClass ?? '') ||
    draft.FieldOptions.join('\n') !== saved.FieldOptions.join('\n')
  );
}

/** The draft with the ids a save answered (saved field ids by key), so a second Save changes rather than duplicates. */
export function withSavedIds(draft: Draft, templateId: Id, ids: ReadonlyMap<string, Id>): Draft {
  return { ...draft, templateId, fields: draft.fields.map((field) => (field.savedId === null && ids.has(field.key) ? { ...field, savedId: ids.get(field.key)! } : field)) };
}
