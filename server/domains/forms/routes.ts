/**
 * Routes of form templates (spec part 2 §3, §5, §7, §8): templates, their fields and hide-until-link
 * rules. Templates are company configuration: Admins create, change, reset and delete them (README
 * "Roles"); any member reads them to fill a form. Every write is audited and touches the template,
 * whose sync document carries its fields and rules.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { FIELD_TYPES, formMessages as m } from '../../../common/messages/forms';
import {
  companyQuery,
  deleteHideRuleAnswer,
  deleteTemplateAnswer,
  deleteTemplateQuery,
  fieldTypesAnswer,
  formTemplatesAnswer,
  formTemplatesQuery,
  hiddenFieldQuery,
  hideRuleAnswer,
  hideRuleBody,
  hideRulesAnswer,
  hideRulesQuery,
  reportableFieldsAnswer,
  reportableFieldsQuery,
  reportTemplatesAnswer,
  resetTemplatesBody,
  saveFormTemplateAnswer,
  saveFormTemplateBody,
  updateDefaultTemplateAnswer,
  updateDefaultTemplateBody,
  updateFormTemplateAnswer,
  updateFormTemplateBody,
} from '../../../common/schemas/forms';
import { writer } from '../../db/writes';
import { badRequest, conflict, conflictOnUnique, notFound } from '../../http/errors';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { formResponseRoutes } from './responses';
import { categoryOf, checkFieldOptions, DEFAULT_FORM_TEMPLATES, fieldRow, formFieldJson, formQueries, hideRuleJson } from './queries';

const saveSchema = { body: saveFormTemplateBody, response: { 200: saveFormTemplateAnswer } };
const listSchema = { querystring: formTemplatesQuery, response: { 200: formTemplatesAnswer } };
const updateSchema = { body: updateFormTemplateBody, response: { 200: updateFormTemplateAnswer } };
const defaultSchema = { body: updateDefaultTemplateBody, response: { 200: updateDefaultTemplateAnswer } };
const resetSchema = { body: resetTemplatesBody, response: { 200: formTemplatesAnswer } };
const deleteSchema = { querystring: deleteTemplateQuery, response: { 200: deleteTemplateAnswer } };
const fieldTypesSchema = { response: { 200: fieldTypesAnswer } };
const companySchema = { querystring: companyQuery, response: { 200: reportTemplatesAnswer } };
const reportableSchema = { querystring: reportableFieldsQuery, response: { 200: reportableFieldsAnswer } };
const hideRuleSchema = { body: hideRuleBody, response: { 200: hideRuleAnswer } };
const hideListSchema = { querystring: hideRulesQuery, response: { 200: hideRulesAnswer } };
const hiddenFieldSchema = { querystring: hiddenFieldQuery, response: { 200: deleteHideRuleAnswer } };

type AnyRequest = RequestOf<object>;

/** A live template; the guard has checked its company already (config.owns). */
async function liveTemplate(request: AnyRequest, templateId: number) {
  const template = await formQueries.byId(request.db, templateId);
  if (template.deleted_at !== null) throw notFound(m.templateNotFound);
  return template;
}

async function saveFormTemplate(request: RequestOf<typeof saveSchema>) {
  const { templateName, companyID, fields, formCategory, pageCSS, client_id } = request.body;
  checkFieldOptions(fields);
  const actor = actorOfRequest(request, companyID);
  // The first template of a category becomes its default, so a category always offers one form first.
  await formQueries.lockDefaults(request.db, companyID);
  const hasDefault = (await formQueries.templatesOf(request.db, companyID)).some((template) => template.form_category === formCategory && template.is_default);
  const { id, client_id: templateClientId } = await formQueries.create(request.db, actor, { name: templateName, category: formCategory, pageCss: pageCSS ?? null, isDefault: !hasDefault, clientId: client_id }, fields);
  await recordAudit(request.db, actor, { title: auditTitles.createdForm(templateName, fields.length), details: { template_id: id } });
  const template = await formQueries.jsonById(request.db, id);
  // The new fields' ids in the order sent.
  return success({ template_id: id, field_ids: template.fields.map((field) => field.FieldID), template, client_id: templateClientId }, m.saved);
}

async function getFormTemplates(request: RequestOf<typeof listSchema>) {
  const { company_id, template_id } = request.query;
  const templates = await formQueries.withChildren(request.db, await formQueries.templatesOf(request.db, company_id, template_id));
  return success({ templates });
}

/**
 * Changes fields in place (`isActive: 0` takes one off the form, `position` moves it), adds new ones (where
 * their `position` puts them, else after the last field), and renames or restyles.
 */
async function updateFormTemplate(request: RequestOf<typeof updateSchema>) {
  const { templateID, newFields, updatedFields, templateName, formCategory, pageCSS } = request.body;
  const template = await liveTemplate(request, templateID);
  checkFieldOptions([...newFields, ...updatedFields]);
  const live = await formQueries.liveFieldsOf(request.db, template.id);
  const liveIds = new Set(live.map((field) => field.id));
  // Another company's field and a missing one the guard has answered (403, 404): left is a field of another of the company's templates.
  for (const field of updatedFields) if (!liveIds.has(field.FieldID)) throw badRequest(m.fieldNotInTemplate(field.FieldID));

  const actor = actorOfRequest(request, template.company_id);
  const write = writer(request.db, actor);
  for (const field of updatedFields) {
    await write.update('form_fields', field.FieldID, { ...fieldRow(field), is_active: field.isActive, ...(field.position !== undefined ? { position: field.position } : {}) });
  }
  // New fields go where they ask to be, or after the last field, in the order sent (ids follow that order).
  let position = live.reduce((last, field) => Math.max(last, field.position), -1);
  const inserted = await write.insertMany(
    'form_fields',
    newFields.map((field) => ({ ...fieldRow(field), client_id: field.client_id, company_id: template.company_id, template_id: template.id, position: field.position ?? (position += 1) })),
  );
  const categoryChanged = formCategory !== undefined && formCategory !== template.form_category;
  await write.update('form_templates', template.id, {
    template_name: templateName ?? template.template_name,
    page_css: pageCSS ?? template.page_css,
    form_category: formCategory ?? template.form_category,
    // A template moved to another category stops being the default of its old one.
    ...(categoryChanged ? { is_default: false } : {}),
  });
  const name = templateName ?? template.template_name;
  await recordAudit(request.db, actor, {
    title: auditTitles.updatedForm(name, newFields.length, updatedFields.length),
    details: { template_id: template.id },
  });
  const json = await formQueries.jsonById(request.db, template.id);
  return success({ template_id: template.id, new_field_ids: inserted.map((field) => field.id).sort((a, b) => a - b), template: json }, m.updated);
}

/** Makes the template the default of its category (`template_type`); the category's previous default stops being one. */
async function updateDefaultTemplate(request: RequestOf<typeof defaultSchema>) {
  const { template_id, company_id, template_type } = request.body;
  const template = await liveTemplate(request, template_id);
  if (template.company_id !== company_id) throw notFound(m.templateNotFound);
  if (template.form_category !== template_type) throw badRequest(m.defaultCategoryMismatch(template.form_category));
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  await formQueries.lockDefaults(request.db, company_id);
  const previous = (await formQueries.templatesOf(request.db, company_id)).filter((other) => other.form_category === template_type && other.is_default && other.id !== template.id);
  for (const other of previous) await write.update('form_templates', other.id, { is_default: false });
  await write.update('form_templates', template.id, { is_default: true });
  await recordAudit(request.db, actor, { title: auditTitles.madeDefaultForm[template_type](template.template_name), details: { template_id: template.id } });
  return success({ template_id: template.id, template_type }, m.defaultSet);
}

/**
 * Tombstones every template of the company (answers already given keep their template and fields) and
 * recreates the built-in set (queries.ts DEFAULT_FORM_TEMPLATES), each the default of its category.
 */
async function resetAllTemplates(request: RequestOf<typeof resetSchema>) {
  const { company_id } = request.body;
  const actor = actorOfRequest(request, company_id);
  await formQueries.lockDefaults(request.db, company_id);
  const existing = await formQueries.templatesOf(request.db, company_id);
  await formQueries.softDeleteTemplates(request.db, actor, existing.map((template) => template.id));
  const ids: number[] = [];
  for (const preset of DEFAULT_FORM_TEMPLATES) {
    ids.push((await formQueries.create(request.db, actor, { name: preset.name, category: preset.category, pageCss: null, isDefault: true }, preset.fields)).id);
  }
  await recordAudit(request.db, actor, { title: auditTitles.resetForms(existing.length), details: { template_ids: ids } });
  const templates = await formQueries.withChildren(request.db, await formQueries.templatesOf(request.db, company_id));
  return success({ templates }, m.reset);
}

async function deleteTemplate(request: RequestOf<typeof deleteSchema>) {
  const template = await liveTemplate(request, request.query.template_id);
  const actor = actorOfRequest(request, template.company_id);
  await formQueries.softDeleteTemplates(request.db, actor, [template.id]);
  await recordAudit(request.db, actor, { title: auditTitles.deletedForm(template.template_name), details: { template_id: template.id } });
  return success({ template_id: template.id }, m.deleted);
}

async function getFieldTypes() {
  return success({ field_types: [...FIELD_TYPES] });
}

/** The company's templates that have fields a report can chart, with those fields. */
async function getReportTemplatesByCompany(request: RequestOf<typeof companySchema>) {
  const fields = await formQueries.reportableFields(request.db, request.query.company_id);
  const templates = await formQueries.templatesOf(request.db, request.query.company_id);
  const data = templates
    .filter((template) => fields.some((field) => field.template_id === template.id))
    .map((template) => ({
      TemplateID: template.id,
      TemplateName: template.template_name,
      FormCategory: categoryOf(template.form_category),
      fields: fields.filter((field) => field.template_id === template.id).map(formFieldJson),
    }));
  return success({ data });
}

async function getReportableFields(request: RequestOf<typeof reportableSchema>) {
  const fields = await formQueries.reportableFields(request.db, request.query.company_id, request.query.template_id);
  return success({
    reportable_fields: fields.map((field) => ({ ...formFieldJson(field), TemplateName: field.template_name, FormCategory: categoryOf(field.form_category) })),
  });
}

/** The two fields of a rule: live, of one template, not the same field. */
async function ruleFields(request: AnyRequest, hiddenFieldId: number, linkedFieldId: number) {
  if (hiddenFieldId === linkedFieldId) throw badRequest(m.hideSameField);
  const hidden = await formQueries.fieldById(request.db, hiddenFieldId);
  const linked = await formQueries.fieldById(request.db, linkedFieldId);
  if (hidden.template_id !== linked.template_id) throw badRequest(m.hideOtherTemplate);
  const template = await liveTemplate(request, hidden.template_id);
  return { hidden, linked, template };
}

async function addHideFieldUntilLink(request: RequestOf<typeof hideRuleSchema>) {
  const { form_field_hidden_FieldID, form_field_linked_FieldID, form_field_linked_input } = request.body;
  const { hidden, linked, template } = await ruleFields(request, form_field_hidden_FieldID, form_field_linked_FieldID);
  if (await formQueries.hideRuleOfField(request.db, hidden.id)) throw conflict(m.hideRuleExists);
  const actor = actorOfRequest(request, template.company_id);
  const write = writer(request.db, actor);
  const { id } = await write
    .insert('form_field_hide_rules', {
      company_id: template.company_id,
      template_id: template.id,
      hidden_field_id: hidden.id,
      linked_field_id: linked.id,
      linked_input: form_field_linked_input,
    })
    .catch(conflictOnUnique('form_field_hide_rules_hidden', m.hideRuleExists));
  await write.touch('form_templates', template.id);
  await recordAudit(request.db, actor, {
    title: auditTitles.hidFieldUntil(template.template_name, hidden.field_name, linked.field_name, form_field_linked_input),
    details: { template_id: template.id, rule_id: id },
  });
  return success({ rule: hideRuleJson((await formQueries.hideRuleOfField(request.db, hidden.id))!) }, m.hideAdded);
}

async function getFieldHideUntilLink(request: RequestOf<typeof hideListSchema>) {
  const template = await liveTemplate(request, request.query.form_field_hidden_UID);
  return success({ rules: (await formQueries.hideRulesOf(request.db, template.id)).map(hideRuleJson) });
}

async function updateFieldHideUntilLink(request: RequestOf<typeof hideRuleSchema>) {
  const { form_field_hidden_FieldID, form_field_linked_FieldID, form_field_linked_input } = request.body;
  const { hidden, linked, template } = await ruleFields(request, form_field_hidden_FieldID, form_field_linked_FieldID);
  const rule = await formQueries.hideRuleOfField(request.db, hidden.id);
  if (!rule) throw notFound(m.hideRuleNotFound);
  const actor = actorOfRequest(request, template.company_id);
  const write = writer(request.db, actor);
  await write.update('form_field_hide_rules', rule.id, { linked_field_id: linked.id, linked_input: form_field_linked_input });
  await write.touch('form_templates', template.id);
  await recordAudit(request.db, actor, {
    title: auditTitles.changedHiddenUntil(template.template_name, hidden.field_name, linked.field_name, form_field_linked_input),
    details: { template_id: template.id, rule_id: rule.id },
  });
  return success({ rule: hideRuleJson((await formQueries.hideRuleOfField(request.db, hidden.id))!) }, m.hideUpdated);
}

async function deleteFieldHideUntilLink(request: RequestOf<typeof hiddenFieldSchema>) {
  const hidden = await formQueries.fieldById(request.db, request.query.form_field_hidden_FieldID);
  const rule = await formQueries.hideRuleOfField(request.db, hidden.id);
  if (!rule) throw notFound(m.hideRuleNotFound);
  const template = await formQueries.byId(request.db, rule.template_id);
  const actor = actorOfRequest(request, template.company_id);
  const write = writer(request.db, actor);
  await write.softDelete('form_field_hide_rules', rule.id);
  await write.touch('form_templates', template.id);
  await recordAudit(request.db, actor, { title: auditTitles.unhidField(template.template_name, hidden.field_name), details: { template_id: template.id, rule_id: rule.id } });
  return success({ form_field_hidden_FieldID: hidden.id }, m.hideDeleted);
}

const ownsTemplateId = { template_id: 'form_template' } as const;
const ownsRuleFields = { form_field_hidden_FieldID: 'form_field', form_field_linked_FieldID: 'form_field' } as const;

export async function formRoutes(app: App) {
  const admin = 'admin' as const;
  // The spec does not say whether PUT and DELETE fields travel in the query or the body: both are read.
  const either = { preValidation: fieldsFromQueryAndBody };
  app.post('/save_form_template', { schema: saveSchema, config: { access: admin } }, saveFormTemplate);
  app.get('/get_form_templates', { schema: listSchema, config: { owns: ownsTemplateId } }, getFormTemplates);
  app.post('/update_form_template', { schema: updateSchema, config: { access: admin, owns: { templateID: 'form_template' } } }, updateFormTemplate);
  app.put('/update_default_template', { schema: defaultSchema, ...either, config: { access: admin, owns: ownsTemplateId } }, updateDefaultTemplate);
  app.put('/reset_all_templates', { schema: resetSchema, ...either, config: { access: admin } }, resetAllTemplates);
  app.delete('/delete_template', { schema: deleteSchema, config: { access: admin, owns: ownsTemplateId } }, deleteTemplate);
  app.get('/get_field_types', { schema: fieldTypesSchema }, getFieldTypes);
  app.get('/get_report_templates_by_company', { schema: companySchema }, getReportTemplatesByCompany);
  app.get('/get_reportable_fields', { schema: reportableSchema, config: { owns: ownsTemplateId } }, getReportableFields);
  app.post('/add_hide_field_until_link', { schema: hideRuleSchema, config: { access: admin, owns: ownsRuleFields } }, addHideFieldUntilLink);
  app.get('/get_field_hide_until_link', { schema: hideListSchema, config: { owns: { form_field_hidden_UID: 'form_template' } } }, getFieldHideUntilLink);
  app.put('/update_field_hide_until_link', { schema: hideRuleSchema, ...either, config: { access: admin, owns: ownsRuleFields } }, updateFieldHideUntilLink);
  app.delete('/delete_field_hide_until_link', { schema: hiddenFieldSchema, config: { access: admin, owns: ownsRuleFields } }, deleteFieldHideUntilLink);
  await formResponseRoutes(app);
}
