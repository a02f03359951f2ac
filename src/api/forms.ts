/**
 * Domain functions of form templates, their fields and hide-until-link rules (spec part 2 §3, §5, §7,
 * §8). Templates live in the local `form_templates` collection (fields and rules inside), so forms can be
 * filled with no network. Changes are queued like every write: a template and each field made on the
 * tablet are named by client ids sent with the save (the template's `client_id`, each field's own), so
 * a hide rule on a new field names it as the server will. Resetting to the built-in set is the one call made online:
 * the set is the server's, and an Admin does it at a desk.
 */
import { fieldOptionsProblem } from '../../common/form-rules';
import { changeLabels } from '../../common/messages/changes';
import { DEFAULT_FORM_CATEGORY, FIELD_TYPES, type FieldType, type FormCategory, formClientMessages as cm, formMessages as m } from '../../common/messages/forms';
import {
  deleteTemplateQuery,
  type fieldTypesAnswer,
  type FormFieldRecord,
  type formFieldInput,
  type FormHideRuleRecord,
  type formTemplatesAnswer,
  formTemplatesQuery,
  type FormTemplateRecord,
  newFormFieldInput,
  hiddenFieldQuery,
  hideRuleBody,
  type hideRulesAnswer,
  hideRulesQuery,
  type reportableFieldsAnswer,
  reportableFieldsQuery,
  type reportTemplatesAnswer,
  resetTemplatesBody,
  saveFormTemplateBody,
  updateDefaultTemplateBody,
  updateFormTemplateBody,
  updatedFormFieldInput,
  companyQuery,
} from '../../common/schemas/forms';
import type { z } from 'zod';
import { type ClientId, newClientId } from '../../common/client-ids';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, json, now, online, onlineOrLocal, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import type { RecordId } from './records';

type Id = RecordId;

/** Read from the local store because the server could not be reached. */
type Offline = { offline?: true };

/** A field as the form builder edits it. */
export interface FieldDraft {
  fieldName: string;
  fieldType: FieldType;
  fieldOptions?: string[];
  isRequired?: boolean | 0 | 1;
  cssClass?: string | null;
  reportId?: number | null;
  /** The field's client id, when the screen already names it (a builder's draft); else a new one. */
  clientId?: ClientId;
}

/** A field added to a saved form; `position` places it (left out: after the last field). */
export interface NewField extends FieldDraft {
  position?: number;
}

/**
 * A saved field changed in the builder; `isActive: false` takes it off the form (its answers stay);
 * `position` moves it (fields are ordered by position, then by id).
 */
export interface FieldChange extends FieldDraft {
  fieldId: Id;
  isActive?: boolean | 0 | 1;
  position?: number;
}

const flagOf = (value: boolean | 0 | 1 | undefined, fallback: 0 | 1): 0 | 1 => (value === undefined ? fallback : value ? 1 : 0);

/** A field as the server's body takes it, before checking. */
const rawField = (draft: FieldDraft) => ({
  fieldName: draft.fieldName,
  fieldType: draft.fieldType,
  fieldOptions: draft.fieldOptions ?? [],
  report_id: draft.reportId ?? undefined,
  cssClass: draft.cssClass ?? undefined,
  isRequired: flagOf(draft.isRequired, 0),
});

/** A choice field without options could not be answered (the server's rule and message). */
function withOptions<F extends { fieldName: string; fieldType: FieldType; fieldOptions: string[] }>(field: F): F {
  const problem = fieldOptionsProblem(field);
  if (problem) throw new ValidationError(problem);
  return field;
}

type CheckedField = z.output<typeof formFieldInput>;

const fieldBody = (field: CheckedField) => ({
  fieldName: field.fieldName,
  fieldType: field.fieldType,
  fieldOptions: field.fieldOptions,
  report_id: field.report_id ?? null,
  cssClass: field.cssClass ?? null,
  isRequired: field.isRequired,
});

const fieldDocument = (field: CheckedField, fieldId: Id, templateId: Id, position: number, isActive: 0 | 1 = 1): FormFieldRecord => ({
  id: fieldId,
  FieldID: fieldId,
  TemplateID: templateId,
  FieldName: field.fieldName,
  FieldType: field.fieldType,
  FieldOptions: field.fieldOptions,
  CSSClass: field.cssClass ?? null,
  IsRequired: field.isRequired as 0 | 1,
  IsActive: isActive,
  report_id: field.report_id ?? null,
  Position: position,
});

/** A template from the local store (plain data), or null. */
export async function localTemplate(context: Pick<ApiContext, 'store'>, templateId: Id): Promise<FormTemplateRecord | null> {
  const document = await context.store.get('form_templates', String(templateId));
  return document ? templateOf(document) : null;
}

/** A local document shaped as the server's JSON (without the store's id and link key). */
export const templateOf = (document: Record<string, unknown>): FormTemplateRecord => {
  const { id: _id, category: _category, ...template } = document;
  return template as unknown as FormTemplateRecord;
};

async function templateOrFail(context: ApiContext, templateId: Id): Promise<FormTemplateRecord> {
  const template = await localTemplate(context, templateId);
  if (!template) throw new ValidationError(m.templateNotFound);
  return template;
}

/** The signed-in company's templates on this tablet (a shared tablet may still hold another company's). */
export async function companyTemplates(context: ApiContext): Promise<FormTemplateRecord[]> {
  const session = await context.client.session.get();
  return (await findLocal(context, 'form_templates', { CompanyID: session?.company_id ?? -1 })).map(templateOf);
}

/** Of these templates, the one holding a field. */
export const templateHolding = (templates: readonly FormTemplateRecord[], fieldId: Id) => templates.find((template) => template.fields.some((field) => String(field.FieldID) === String(fieldId)));

/** The template holding a field, from the local store. */
async function templateOfField(context: ApiContext, fieldId: Id): Promise<FormTemplateRecord> {
  const template = templateHolding(await companyTemplates(context), fieldId);
  if (!template) throw new ValidationError(m.templateNotFound);
  return template;
}

/**
 * The server's order (get_form_templates: category by name, the default first, then by name), so an
 * answer from the local store reads as the server's; screens offer forms in their own order (fill/model.ts).
 */
function inServerOrder(templates: FormTemplateRecord[]) {
  return templates.sort(
    (a, b) =>
      a.FormCategory.localeCompare(b.FormCategory) ||
      Number(b.IsDefault) - Number(a.IsDefault) ||
      a.TemplateName.toLowerCase().localeCompare(b.TemplateName.toLowerCase()) ||
      String(a.TemplateID).localeCompare(String(b.TemplateID), undefined, { numeric: true }),
  );
}

/**
 * get_form_templates (spec §7): the company's templates (or the one named) with fields and rules.
 * Offline, the local store answers (the pull keeps it current, which is the spec's cache of online
 * results); otherwise the server's message or 'Failed to fetch form templates.'.
 */
export async function getFormTemplates(context: ApiContext, input: { companyId: number; templateId?: Id }) {
  const query = check(formTemplatesQuery, { company_id: input.companyId, template_id: input.templateId });
  return onlineOrLocal<z.infer<typeof formTemplatesAnswer> & Offline>(context, { path: '/get_form_templates', query }, cm.fetchFailed, async () => {
    const all = (await findLocal(context, 'form_templates', { CompanyID: query.company_id })).map(templateOf);
    const templates = input.templateId === undefined ? all : all.filter((template) => String(template.TemplateID) === String(input.templateId));
    return { status: 'success', templates: inServerOrder(templates), offline: true };
  });
}

/**
 * save_form_template (spec §5): 'Form template save needs template name, company and fields'; a choice
 * field needs an option. Queued: the template is in the local list at once, its fields under client
 * ids (returned in order) that hide rules may use before the save reaches the server.
 */
export async function saveFormTemplate(
  context: ApiContext,
  input: { templateName: string; companyId: number; fields: FieldDraft[]; formCategory?: FormCategory; pageCSS?: string | null },
) {
  const values = check(saveFormTemplateBody, {
    templateName: input.templateName,
    companyID: input.companyId,
    fields: Array.isArray(input.fields) ? input.fields.map(rawField) : undefined,
    formCategory: input.formCategory,
    pageCSS: input.pageCSS ?? undefined,
  });
  const fields = values.fields.map(withOptions);
  const templateId = newClientId();
  const fieldIds = input.fields.map((draft) => draft.clientId ?? newClientId());
  const category = values.formCategory ?? DEFAULT_FORM_CATEGORY;
  const siblings = (await findLocal(context, 'form_templates', { CompanyID: values.companyID })).map(templateOf);
  const template: FormTemplateRecord = {
    TemplateID: templateId,
    TemplateName: values.templateName,
    CompanyID: values.companyID,
    CreatedAt: now(),
    FormCategory: category,
    PageCSS: values.pageCSS ?? null,
    // As the server decides: the first template of a category becomes its default.
    IsDefault: !siblings.some((other) => other.FormCategory === category && other.IsDefault),
    fields: fields.map((field, position) => fieldDocument(field, fieldIds[position]!, templateId, position)),
    hide_rules: [],
  };
  await record(context, {
    method: 'POST',
    path: '/save_form_template',
    body: json({
      templateName: values.templateName,
      companyID: values.companyID,
      fields: fields.map((field, index) => ({ ...fieldBody(field), client_id: fieldIds[index] })),
      formCategory: category,
      pageCSS: values.pageCSS ?? null,
      client_id: templateId,
    }),
    creates: [templateId, ...fieldIds],
    effects: [{ op: 'upsert', collection: 'form_templates', id: templateId, data: { ...template } }],
    label: changeLabels.saveForm(values.templateName),
  });
  return { template_id: templateId, field_ids: fieldIds, template };
}

/**
 * update_form_template (spec §5): 'Template update needs the template id plus arrays of new and updated
 * fields'. Changes fields in place, adds new ones where their position puts them (else last; client
 * ids returned in order), renames.
 */
export async function updateFormTemplate(
  context: ApiContext,
  input: { templateId: Id; newFields: NewField[]; updatedFields: FieldChange[]; templateName?: string; formCategory?: FormCategory; pageCSS?: string | null },
) {
  const envelope = check(updateFormTemplateBody, {
    templateID: input.templateId,
    newFields: Array.isArray(input.newFields) ? [] : undefined,
    updatedFields: Array.isArray(input.updatedFields) ? [] : undefined,
    templateName: input.templateName,
    formCategory: input.formCategory,
    pageCSS: input.pageCSS ?? undefined,
  });
  const templateId = envelope.templateID as Id;
  const template = await templateOrFail(context, templateId);
  const newFields = input.newFields.map((draft) => withOptions(check(newFormFieldInput, { ...rawField(draft), position: draft.position })));
  const updatedFields = input.updatedFields.map((change) => {
    if (!template.fields.some((field) => String(field.FieldID) === String(change.fieldId))) throw new ValidationError(m.fieldNotInTemplate(Number(change.fieldId)));
    const field = withOptions(check(updatedFormFieldInput, { ...rawField(change), FieldID: change.fieldId, isActive: flagOf(change.isActive, 1), position: change.position }));
    return { ...field, FieldID: change.fieldId };
  });
  const newFieldIds = input.newFields.map((draft) => draft.clientId ?? newClientId());
  let last = template.fields.reduce((highest, field) => Math.max(highest, field.Position), -1);
  const fields = [
    ...template.fields.map((field) => {
      const change = updatedFields.find((each) => String(each.FieldID) === String(field.FieldID));
      return change ? fieldDocument(change, field.FieldID, templateId, change.position ?? field.Position, change.isActive as 0 | 1) : field;
    }),
    ...newFields.map((field, index) => fieldDocument(field, newFieldIds[index]!, templateId, field.position ?? (last += 1))),
  ].sort((a, b) => a.Position - b.Position);
  const name = envelope.templateName ?? template.TemplateName;
  const categoryChanged = envelope.formCategory !== undefined && envelope.formCategory !== template.FormCategory;
  await record(context, {
    method: 'POST',
    path: '/update_form_template',
    body: json({
      templateID: templateId,
      newFields: newFields.map((field, index) => ({ ...fieldBody(field), ...(field.position !== undefined ? { position: field.position } : {}), client_id: newFieldIds[index] })),
      updatedFields: updatedFields.map((field) => ({ FieldID: field.FieldID, ...fieldBody(field), isActive: field.isActive, ...(field.position !== undefined ? { position: field.position } : {}) })),
      ...(envelope.templateName !== undefined ? { templateName: envelope.templateName } : {}),
      ...(envelope.formCategory !== undefined ? { formCategory: envelope.formCategory } : {}),
      ...(envelope.pageCSS !== undefined ? { pageCSS: envelope.pageCSS } : {}),
    }),
    creates: newFieldIds,
    effects: [
      {
        op: 'patch',
        collection: 'form_templates',
        id: String(templateId),
        data: {
          TemplateName: name,
          fields,
          ...(envelope.formCategory !== undefined ? { FormCategory: envelope.formCategory, category: envelope.formCategory } : {}),
          ...(categoryChanged ? { IsDefault: false } : {}),
          ...(envelope.pageCSS !== undefined ? { PageCSS: envelope.pageCSS } : {}),
        },
      },
    ],
    label: changeLabels.updateForm(name),
  });
  return { template_id: templateId, new_field_ids: newFieldIds };
}

/**
 * update_default_template (spec §5): 'Default template update needs template id, company and template
 * type'. The template becomes the default of its category; the category's previous default stops being one.
 */
export async function updateDefaultTemplate(context: ApiContext, input: { templateId: Id; companyId: number; templateType: FormCategory }) {
  const values = check(updateDefaultTemplateBody, { template_id: input.templateId, company_id: input.companyId, template_type: input.templateType });
  const template = await templateOrFail(context, values.template_id as Id);
  if (template.FormCategory !== values.template_type) throw new ValidationError(m.defaultCategoryMismatch(template.FormCategory));
  const siblings = (await findLocal(context, 'form_templates', { CompanyID: values.company_id, category: values.template_type })).map(templateOf);
  const effects: Effect[] = siblings
    .filter((other) => other.IsDefault !== (String(other.TemplateID) === String(template.TemplateID)))
    .map((other) => ({ op: 'patch', collection: 'form_templates', id: String(other.TemplateID), data: { IsDefault: String(other.TemplateID) === String(template.TemplateID) } }));
  await record(context, {
    method: 'PUT',
    path: '/update_default_template',
    body: json({ template_id: values.template_id, company_id: values.company_id, template_type: values.template_type }),
    effects,
    label: changeLabels.makeDefaultForm[values.template_type](template.TemplateName),
  });
  return { template_id: values.template_id, template_type: values.template_type };
}

/**
 * reset_all_templates (spec §5): 'Reset templates needs the company'. Online (see the top of this file):
 * every template is replaced by the built-in set, which the pull then brings to every tablet.
 */
export async function resetAllTemplates(context: ApiContext, input: { companyId: number }) {
  const values = check(resetTemplatesBody, { company_id: input.companyId });
  return online<z.infer<typeof formTemplatesAnswer>>(context, { method: 'PUT', path: '/reset_all_templates', body: values }, cm.resetFailed);
}

/** delete_template (spec §5): 'Delete template needs a template id'. Queued; fails with 'Failed to delete template.' when the server gives no message. */
export async function deleteTemplate(context: ApiContext, input: { templateId: Id }) {
  const { template_id } = check(deleteTemplateQuery, { template_id: input.templateId });
  const template = await localTemplate(context, template_id as Id);
  await record(context, {
    method: 'DELETE',
    path: '/delete_template',
    query: { template_id: template_id as Id },
    effects: [{ op: 'remove', collection: 'form_templates', id: String(template_id) }],
    label: changeLabels.deleteForm(template?.TemplateName ?? template_id),
    fallbackMessage: cm.deleteFailed,
  });
  return { template_id };
}

/** get_field_types (spec §7): a fixed list, which offline is the app's own copy. */
export async function getFieldTypes(context: ApiContext) {
  return onlineOrLocal<z.infer<typeof fieldTypesAnswer>>(context, { path: '/get_field_types' }, cm.fetchFailed, async () => ({ status: 'success', field_types: [...FIELD_TYPES] }));
}

/** get_report_templates_by_company (spec §7): templates with fields a report can chart, `{data}`. Online. */
export async function getReportTemplatesByCompany(context: ApiContext, input: { companyId: number }) {
  const query = check(companyQuery, { company_id: input.companyId });
  return online<z.infer<typeof reportTemplatesAnswer>>(context, { path: '/get_report_templates_by_company', query }, cm.fetchFailed);
}

/** get_reportable_fields (spec §7): `{reportable_fields}`. Online. */
export async function getReportableFields(context: ApiContext, input: { companyId: number; templateId?: number }) {
  const query = check(reportableFieldsQuery, { company_id: input.companyId, template_id: input.templateId });
  return online<z.infer<typeof reportableFieldsAnswer>>(context, { path: '/get_reportable_fields', query }, cm.fetchFailed);
}

// ——— Hide-until-link rules ———

interface RuleInput {
  hiddenFieldId: Id;
  linkedFieldId: Id;
  linkedInput: string;
}

/** A rule checked with the server's messages, and the template both fields belong to. */
async function checkedRule(context: ApiContext, input: RuleInput) {
  const values = check(hideRuleBody, { form_field_hidden_FieldID: input.hiddenFieldId, form_field_linked_FieldID: input.linkedFieldId, form_field_linked_input: input.linkedInput });
  if (String(values.form_field_hidden_FieldID) === String(values.form_field_linked_FieldID)) throw new ValidationError(m.hideSameField);
  const template = await templateOfField(context, values.form_field_hidden_FieldID as Id);
  if (!template.fields.some((field) => String(field.FieldID) === String(values.form_field_linked_FieldID))) throw new ValidationError(m.hideOtherTemplate);
  const rule: FormHideRuleRecord = {
    form_field_hidden_UID: template.TemplateID,
    form_field_hidden_FieldID: values.form_field_hidden_FieldID as Id,
    form_field_linked_FieldID: values.form_field_linked_FieldID as Id,
    form_field_linked_input: values.form_field_linked_input,
  };
  const others = template.hide_rules.filter((each) => String(each.form_field_hidden_FieldID) !== String(rule.form_field_hidden_FieldID));
  const existing = template.hide_rules.length !== others.length;
  return { template, rule, others, existing };
}

const ruleBody = (rule: FormHideRuleRecord) => ({
  form_field_hidden_FieldID: rule.form_field_hidden_FieldID,
  form_field_linked_FieldID: rule.form_field_linked_FieldID,
  form_field_linked_input: rule.form_field_linked_input,
});

/** add_hide_field_until_link (spec §7): the field stays hidden until the linked field is answered with the input (any answer when blank). */
export async function addHideFieldUntilLink(context: ApiContext, input: RuleInput) {
  const { template, rule, others, existing } = await checkedRule(context, input);
  if (existing) throw new ValidationError(m.hideRuleExists);
  await record(context, {
    method: 'POST',
    path: '/add_hide_field_until_link',
    body: json(ruleBody(rule)),
    effects: [{ op: 'patch', collection: 'form_templates', id: String(template.TemplateID), data: { hide_rules: [...others, rule] } }],
    label: changeLabels.hideFieldUntilAnswered(template.TemplateName),
  });
  return { rule };
}

/** update_field_hide_until_link (spec §7). */
export async function updateFieldHideUntilLink(context: ApiContext, input: RuleInput) {
  const { template, rule, others, existing } = await checkedRule(context, input);
  if (!existing) throw new ValidationError(m.hideRuleNotFound);
  await record(context, {
    method: 'PUT',
    path: '/update_field_hide_until_link',
    body: json(ruleBody(rule)),
    effects: [{ op: 'patch', collection: 'form_templates', id: String(template.TemplateID), data: { hide_rules: [...others, rule] } }],
    label: changeLabels.changeWhenFieldShows(template.TemplateName),
  });
  return { rule };
}

/** delete_field_hide_until_link (spec §7): the field shows always again. */
export async function deleteFieldHideUntilLink(context: ApiContext, input: { hiddenFieldId: Id }) {
  const values = check(hiddenFieldQuery, { form_field_hidden_FieldID: input.hiddenFieldId });
  const hiddenFieldId = values.form_field_hidden_FieldID as Id;
  const template = await templateOfField(context, hiddenFieldId);
  const others = template.hide_rules.filter((rule) => String(rule.form_field_hidden_FieldID) !== String(hiddenFieldId));
  if (others.length === template.hide_rules.length) throw new ValidationError(m.hideRuleNotFound);
  await record(context, {
    method: 'DELETE',
    path: '/delete_field_hide_until_link',
    query: { form_field_hidden_FieldID: hiddenFieldId },
    effects: [{ op: 'patch', collection: 'form_templates', id: String(template.TemplateID), data: { hide_rules: others } }],
    label: changeLabels.showFieldAlways(template.TemplateName),
  });
  return { form_field_hidden_FieldID: hiddenFieldId };
}

/** get_field_hide_until_link (spec §7): the rules of a template (`form_field_hidden_UID` is the template id); offline, the local copy. */
export async function getFieldHideUntilLink(context: ApiContext, input: { templateId: Id }) {
  const values = check(hideRulesQuery, { form_field_hidden_UID: input.templateId });
  const templateId = values.form_field_hidden_UID as Id;
  return onlineOrLocal<z.infer<typeof hideRulesAnswer> & Offline>(context, { path: '/get_field_hide_until_link', query: { form_field_hidden_UID: templateId } }, cm.fetchFailed, async () => ({
    status: 'success',
    rules: (await templateOrFail(context, templateId)).hide_rules,
    offline: true,
  }));
}
