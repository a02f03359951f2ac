import { z } from 'zod';
import { DEFAULT_FORM_CATEGORY, FIELD_TYPES, FORM_CATEGORIES, formMessages as m } from '../messages/forms';
import { answer, recordRef, timestamp } from './answers';
import { flag, formBody, optionalClientId, optionalId, optionalText, requiredId, requiredText, requiredWholeNumber } from './fields';

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** Options as a JSON list, or one comma-joined text as a form builder may send them; blanks are dropped. */
const fieldOptions = z.preprocess(
  (value) => (value === undefined || value === null || value === '' ? [] : typeof value === 'string' ? value.split(',') : value),
  z.array(z.string({ error: m.fieldOptionsInvalid }).trim().max(500, { error: m.fieldOptionsInvalid }), { error: m.fieldOptionsInvalid }).transform((options) => options.filter(Boolean)),
);

const category = z.preprocess(blankToUndefined, z.enum(FORM_CATEGORIES, { error: m.categoryInvalid }));

/** One field as the form builder sends it (spec §3). */
export const formFieldInput = z.object({
  fieldName: requiredText(m.fieldNameRequired, 200),
  fieldType: z.preprocess(blankToUndefined, z.enum(FIELD_TYPES, { error: m.fieldTypeInvalid })),
  fieldOptions,
  report_id: optionalId(m.idInvalid('report_id')),
  cssClass: optionalText(200),
  isRequired: z.preprocess(blankToUndefined, flag(m.requiredInvalid).default(0)),
});
export type FormFieldInput = z.output<typeof formFieldInput>;

/** Where a field stands on the form (order by position, then by id); left out, a field keeps its place or goes last. */
const position = z.preprocess(blankToUndefined, requiredWholeNumber(m.positionInvalid, 0, 10_000).optional());

/** A field the request makes, named by the client id its tablet gave it (else the server makes one). */
const createdFormFieldInput = formFieldInput.extend({ client_id: optionalClientId() });
export type CreatedFormFieldInput = z.output<typeof createdFormFieldInput>;

/** A field added to a saved template. */
export const newFormFieldInput = createdFormFieldInput.extend({ position });

/** A field already saved, changed in place; `isActive: 0` takes it off the form (its answers stay). */
export const updatedFormFieldInput = formFieldInput.extend({
  FieldID: requiredId(m.idInvalid('FieldID')),
  isActive: z.preprocess(blankToUndefined, flag(m.activeInvalid).default(1)),
  position,
});
export type UpdatedFormFieldInput = z.output<typeof updatedFormFieldInput>;

export const saveFormTemplateBody = formBody({
  templateName: requiredText(m.saveRequired, 200),
  companyID: requiredId(m.saveRequired),
  fields: z.array(createdFormFieldInput, { error: m.saveRequired }).min(1, { error: m.saveRequired }),
  formCategory: category.default(DEFAULT_FORM_CATEGORY),
  pageCSS: optionalText(20_000),
  client_id: optionalClientId(),
});

export const formTemplatesQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  template_id: optionalId(m.idInvalid('template_id')),
});

export const updateFormTemplateBody = formBody({
  templateID: requiredId(m.updateRequired),
  newFields: z.array(newFormFieldInput, { error: m.updateRequired }),
  updatedFields: z.array(updatedFormFieldInput, { error: m.updateRequired }),
  templateName: optionalText(200),
  formCategory: category.optional(),
  pageCSS: optionalText(20_000),
});

export const updateDefaultTemplateBody = formBody({
  template_id: requiredId(m.defaultRequired),
  company_id: requiredId(m.defaultRequired),
  template_type: z.preprocess(blankToUndefined, z.enum(FORM_CATEGORIES, { error: (issue) => (issue.input === undefined ? m.defaultRequired : m.categoryInvalid) })),
});

export const resetTemplatesBody = formBody({ company_id: requiredId(m.resetRequired) });

export const deleteTemplateQuery = z.object({ template_id: requiredId(m.deleteRequired) });

export const companyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const reportableFieldsQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  template_id: optionalId(m.idInvalid('template_id')),
});

export const hideRuleBody = formBody({
  form_field_hidden_FieldID: requiredId(m.hideRuleRequired),
  form_field_linked_FieldID: requiredId(m.hideRuleRequired),
  form_field_linked_input: z.preprocess((value) => (value === null || value === undefined ? undefined : String(value)), z.string({ error: m.hideRuleRequired }).trim().max(500)),
});

export const hideRulesQuery = z.object({ form_field_hidden_UID: requiredId(m.hideListRequired) });

export const hiddenFieldQuery = z.object({ form_field_hidden_FieldID: requiredId(m.hiddenFieldRequired) });

// ——— Answers ———

/** A flag as the database keeps it (smallint 0 or 1). */
const flagValue = z.union([z.literal(0), z.literal(1)]);

/** A field, named as the spec's offline table names it (formFields); `id` and `FieldID` are the same. */
export const formFieldRecord = z.object({
  id: recordRef,
  FieldID: recordRef,
  TemplateID: recordRef,
  FieldName: z.string(),
  FieldType: z.enum(FIELD_TYPES),
  FieldOptions: z.array(z.string()),
  CSSClass: z.string().nullable(),
  IsRequired: flagValue,
  IsActive: flagValue,
  report_id: z.number().int().nullable(),
  Position: z.number().int(),
});

export type FormFieldRecord = z.infer<typeof formFieldRecord>;

/**
 * A hide-until-link rule: the hidden field shows once the linked one is answered with the input (any
 * answer when blank); `form_field_hidden_UID` is the template's id (the rules of one form are read by it).
 */
export const formHideRuleRecord = z.object({
  form_field_hidden_UID: recordRef,
  form_field_hidden_FieldID: recordRef,
  form_field_linked_FieldID: recordRef,
  form_field_linked_input: z.string(),
});

export type FormHideRuleRecord = z.infer<typeof formHideRuleRecord>;

/** A template with its fields (by position) and rules, as answers and the synced `form_templates` collection show it. */
export const formTemplateRecord = z.object({
  TemplateID: recordRef,
  TemplateName: z.string(),
  CompanyID: z.number().int(),
  CreatedAt: timestamp,
  FormCategory: z.enum(FORM_CATEGORIES),
  PageCSS: z.string().nullable(),
  IsDefault: z.boolean(),
  fields: z.array(formFieldRecord),
  hide_rules: z.array(formHideRuleRecord),
});

export type FormTemplateRecord = z.infer<typeof formTemplateRecord>;

/** A field a report can chart, with its template's name and category (get_reportable_fields). */
export const reportableFieldRecord = formFieldRecord.extend({ TemplateName: z.string(), FormCategory: z.enum(FORM_CATEGORIES) });

/** A template that has fields a report can chart, with those fields (get_report_templates_by_company). */
export const reportTemplateRecord = z.object({ TemplateID: recordRef, TemplateName: z.string(), FormCategory: z.enum(FORM_CATEGORIES), fields: z.array(formFieldRecord) });

export const saveFormTemplateAnswer = answer({ template_id: recordRef, field_ids: z.array(recordRef), template: formTemplateRecord, client_id: z.string() });
/** get_form_templates and reset_all_templates: the company's templates. */
export const formTemplatesAnswer = answer({ templates: z.array(formTemplateRecord) });
export const updateFormTemplateAnswer = answer({ template_id: recordRef, new_field_ids: z.array(recordRef), template: formTemplateRecord });
export const updateDefaultTemplateAnswer = answer({ template_id: recordRef, template_type: z.enum(FORM_CATEGORIES) });
export const deleteTemplateAnswer = answer({ template_id: recordRef });
export const fieldTypesAnswer = answer({ field_types: z.array(z.enum(FIELD_TYPES)) });
export const reportTemplatesAnswer = answer({ data: z.array(reportTemplateRecord) });
export const reportableFieldsAnswer = answer({ reportable_fields: z.array(reportableFieldRecord) });
/** add_hide_field_until_link and update_field_hide_until_link: the rule as saved. */
export const hideRuleAnswer = answer({ rule: formHideRuleRecord });
export const hideRulesAnswer = answer({ rules: z.array(formHideRuleRecord) });
export const deleteHideRuleAnswer = answer({ form_field_hidden_FieldID: recordRef });
