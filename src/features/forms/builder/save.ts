/**
 * Save of the builder's draft through the form domain functions, which queue every call (so a form
 * built offline saves like any other, and reaches the server in this order when the signal returns):
 * 1. a new form: saveFormTemplate, each new field under its key (a client id);
 *    a saved one: updateFormTemplate with its new fields, its changed fields and those taken off
 *    (`isActive: false`), plus the name and category when they changed;
 * 2. then the hide-until-link rules as they changed: deleted, updated, added (in that order, so a
 *    field whose rule moves never has two). A rule may name a field whose save is still queued: its
 *    call goes after that save.
 * After step 1 the screen is given the draft with the saved ids (`onSaved`), so when a rule is refused
 * a second Save changes the form instead of making it again.
 */
import { formMessages } from '../../../../common/messages/forms';
import type { FormHideRuleRecord, FormTemplateRecord } from '../../../../common/schemas/forms';
import { type ApiContext, ValidationError } from '../../../api/context';
import {
  addHideFieldUntilLink,
  deleteFieldHideUntilLink,
  type FieldChange,
  type FieldDraft,
  localTemplate,
  saveFormTemplate,
  updateFieldHideUntilLink,
  updateFormTemplate,
} from '../../../api/forms';
import { type Draft, type DraftField, fieldChanged, type Id, isChoice, withSavedIds } from './draft';

const fieldDraft = (field: DraftField): FieldDraft => ({
  // A new field is saved under its key (a client id), so rules recorded with it name it as the server will.
  ...(field.savedId === null ? { clientId: field.key } : {}),
  fieldName: field.name.trim(),
  fieldType: field.type,
  fieldOptions: isChoice(field.type) ? field.options : [],
  isRequired: field.required,
  cssClass: field.cssClass.trim() || null,
  reportId: field.reportId,
});

export interface SaveResult {
  templateId: Id;
  created: boolean;
}

export async function saveDraft(context: ApiContext, draft: Draft, companyId: number, onSaved: (draft: Draft) => void): Promise<SaveResult> {
  const created = draft.templateId === null;
  const saved = created ? await createTemplate(context, draft, companyId) : await changeTemplate(context, draft);
  onSaved(saved.draft);
  await saveRules(context, saved.draft, saved.before);
  return { templateId: saved.draft.templateId!, created };
}

async function createTemplate(context: ApiContext, draft: Draft, companyId: number) {
  const answer = await saveFormTemplate(context, { templateName: draft.name, companyId, formCategory: draft.category, fields: draft.fields.map(fieldDraft) });
  const ids = new Map<string, Id>(draft.fields.map((field, index) => [field.key, answer.field_ids[index]!]));
  return { draft: withSavedIds(draft, answer.template_id, ids), before: answer.template };
}

async function changeTemplate(context: ApiContext, draft: Draft) {
  const templateId = draft.templateId!;
  const before = await localTemplate(context, templateId);
  // The form went away (deleted here or by the server) while it was open.
  if (!before) throw new ValidationError(formMessages.templateNotFound);
  const savedField = (field: DraftField) => before.fields.find((each) => String(each.FieldID) === String(field.savedId));
  // Every field goes where the draft has it: its index is its position.
  const positionOf = new Map(draft.fields.map((field, index) => [field.key, index]));
  const fresh = draft.fields.filter((field) => field.savedId === null);
  const changed = draft.fields.filter((field) => {
    const saved = field.savedId === null ? undefined : savedField(field);
    return saved !== undefined && (fieldChanged(field, saved) || saved.Position !== positionOf.get(field.key));
  });
  const updatedFields: FieldChange[] = [
    ...changed.map((field) => ({ fieldId: field.savedId!, ...fieldDraft(field), isActive: true, position: positionOf.get(field.key)! })),
    // Taken off with what is saved (an edit made before removing it is not kept).
    ...draft.removed.flatMap((field): FieldChange[] => {
      const saved = savedField(field);
      return saved
        ? [{ fieldId: saved.FieldID, fieldName: saved.FieldName, fieldType: saved.FieldType, fieldOptions: saved.FieldOptions, isRequired: saved.IsRequired, cssClass: saved.CSSClass, reportId: saved.report_id, isActive: false }]
        : [];
    }),
  ];
  const renamed = draft.name.trim() !== before.TemplateName;
  const recategorised = draft.category !== before.FormCategory;
  if (fresh.length === 0 && updatedFields.length === 0 && !renamed && !recategorised) return { draft, before };
  const answer = await updateFormTemplate(context, {
    templateId,
    newFields: fresh.map((field) => ({ ...fieldDraft(field), position: positionOf.get(field.key)! })),
    updatedFields,
    ...(renamed ? { templateName: draft.name } : {}),
    ...(recategorised ? { formCategory: draft.category } : {}),
  });
  const ids = new Map<string, Id>(fresh.map((field, index) => [field.key, answer.new_field_ids[index]!]));
  return { draft: withSavedIds(draft, templateId, ids), before };
}

/** The rules the draft asks for, by hidden field id (every field of the draft has its id by now). */
function wantedRules(draft: Draft) {
  const idOf = new Map(draft.fields.map((field) => [field.key, field.savedId]));
  const wanted = new Map<string, { hiddenFieldId: Id; linkedFieldId: Id; linkedInput: string }>();
  for (const field of draft.fields) {
    const linked = field.rule ? idOf.get(field.rule.linkedKey) : undefined;
    if (field.rule && field.savedId !== null && linked !== undefined && linked !== null) {
      wanted.set(String(field.savedId), { hiddenFieldId: field.savedId, linkedFieldId: linked, linkedInput: field.rule.input.trim() });
    }
  }
  return wanted;
}

async function saveRules(context: ApiContext, draft: Draft, before: FormTemplateRecord) {
  const wanted = wantedRules(draft);
  // Only rules of fields this draft holds or takes off: a leftover rule of a field removed long ago is left alone.
  const ours = new Set([...draft.fields, ...draft.removed].map((field) => String(field.savedId)));
  const existing = new Map<string, FormHideRuleRecord>(before.hide_rules.filter((rule) => ours.has(String(rule.form_field_hidden_FieldID))).map((rule) => [String(rule.form_field_hidden_FieldID), rule]));
  for (const [hidden, rule] of existing) {
    if (!wanted.has(hidden)) await deleteFieldHideUntilLink(context, { hiddenFieldId: rule.form_field_hidden_FieldID });
  }
  for (const [hidden, rule] of wanted) {
    const old = existing.get(hidden);
    if (!old) continue;
    if (String(old.form_field_linked_FieldID) !== String(rule.linkedFieldId) || old.form_field_linked_input.trim() !== rule.linkedInput) await updateFieldHideUntilLink(context, rule);
  }
  for (const [hidden, rule] of wanted) if (!existing.has(hidden)) await addHideFieldUntilLink(context, rule);
}
