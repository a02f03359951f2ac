/** Form templates, their fields and hide-until-link rules (spec part 2 §3). */
import { sql, type Kysely, type Selectable } from 'kysely';
import { fieldOptionsProblem } from '../../../common/form-rules';
import type { FieldType, FormCategory } from '../../../common/messages/forms';
import { isoTime } from '../../../common/schemas/answers';
import type { CreatedFormFieldInput, FormFieldInput, FormFieldRecord, FormHideRuleRecord, FormTemplateRecord } from '../../../common/schemas/forms';
import type { DB, FormFieldHideRulesTable, FormFieldsTable, FormTemplatesTable } from '../../db/schema';
import type { Actor } from '../../db/writes';
import { writer } from '../../db/writes';
import { badRequest } from '../../http/errors';

type Template = Selectable<FormTemplatesTable>;
type Field = Selectable<FormFieldsTable>;
type HideRule = Selectable<FormFieldHideRulesTable>;

/** Field options are stored as a JSON list; PGlite and PostgreSQL both hand jsonb back parsed. */
const optionsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? (JSON.parse(value) as string[]) : []);

/**
 * Columns the database keeps as plain text or smallint but that only ever hold these values: every write
 * goes through the request schemas (FIELD_TYPES, FORM_CATEGORIES, flags; the columns' CHECK for the flags).
 */
export const fieldTypeOf = (value: string) => value as FieldType;
export const categoryOf = (value: string) => value as FormCategory;
const flagOf = (value: number) => value as 0 | 1;

/** A field, named as the spec's offline table names it (formFields). */
export const formFieldJson = (field: Field): FormFieldRecord => ({
  id: field.id,
  FieldID: field.id,
  TemplateID: field.template_id,
  FieldName: field.field_name,
  FieldType: fieldTypeOf(field.field_type),
  FieldOptions: optionsOf(field.field_options),
  CSSClass: field.css_class,
  IsRequired: flagOf(field.is_required),
  IsActive: flagOf(field.is_active),
  report_id: field.report_id,
  Position: field.position,
});

/** A rule; `form_field_hidden_UID` is the template's id (the rules of one form are read by it). */
export const hideRuleJson = (rule: HideRule): FormHideRuleRecord => ({
  form_field_hidden_UID: rule.template_id,
  form_field_hidden_FieldID: rule.hidden_field_id,
  form_field_linked_FieldID: rule.linked_field_id,
  form_field_linked_input: rule.linked_input,
});

/** A template with its fields (by position) and rules, as get_form_templates and the sync document carry it. */
export const formTemplateJson = (template: Template, fields: Field[], rules: HideRule[]): FormTemplateRecord => ({
  TemplateID: template.id,
  TemplateName: template.template_name,
  CompanyID: template.company_id,
  CreatedAt: isoTime(template.created_at),
  FormCategory: categoryOf(template.form_category),
  PageCSS: template.page_css,
  IsDefault: template.is_default,
  fields: fields.filter((field) => field.template_id === template.id).map(formFieldJson),
  hide_rules: rules.filter((rule) => rule.template_id === template.id).map(hideRuleJson),
});

/** A choice field without options could not be answered. */
export function checkFieldOptions(fields: Array<{ fieldName: string; fieldType: FieldType; fieldOptions: string[] }>) {
  for (const field of fields) {
    const problem = fieldOptionsProblem(field);
    if (problem) throw badRequest(problem);
  }
}

export const fieldRow = (field: FormFieldInput) => ({
  field_name: field.fieldName,
  field_type: field.fieldType,
  field_options: JSON.stringify(field.fieldOptions),
  report_id: field.report_id ?? null,
  css_class: field.cssClass ?? null,
  is_required: field.isRequired,
});

/** The advisory lock namespace of a company's default forms (`lockDefaults`); the company id is the other half of the key. */
const DEFAULTS_LOCK = 1;

export const formQueries = {
  /**
   * Holds, until the transaction ends, the right to decide which of the company's templates are the
   * defaults of their categories: two requests that read the defaults and then write one (a first form
   * of a category, a reset, a new default) run one after the other, so the one-default-per-category
   * index is never raced into a 500. Other companies are not held up.
   */
  async lockDefaults(db: Kysely<DB>, companyId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${DEFAULTS_LOCK}, ${companyId})`.execute(db);
  },

  /** Live templates of a company (or the one named), default first within a category, then by name. */
  templatesOf: (db: Kysely<DB>, companyId: number, templateId?: number) => {
    let query = db.selectFrom('form_templates').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null);
    if (templateId !== undefined) query = query.where('id', '=', templateId);
    return query.orderBy('form_category').orderBy('is_default', 'desc').orderBy(sql`lower(template_name)`).orderBy('id').execute();
  },

  /** Live fields (active or not: old answers still name them) and rules of the templates. */
  async withChildren(db: Kysely<DB>, templates: Template[]) {
    const ids = templates.map((template) => template.id);
    if (ids.length === 0) return [];
    const fields = await db.selectFrom('form_fields').selectAll().where('template_id', 'in', ids).where('deleted_at', 'is', null).orderBy('position').orderBy('id').execute();
    const rules = await db.selectFrom('form_field_hide_rules').selectAll().where('template_id', 'in', ids).where('deleted_at', 'is', null).orderBy('id').execute();
    return templates.map((template) => formTemplateJson(template, fields, rules));
  },

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('form_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** One template with its fields and rules, as a write answers it. */
  async jsonById(db: Kysely<DB>, id: number): Promise<FormTemplateRecord> {
    const [json] = await formQueries.withChildren(db, [await formQueries.byId(db, id)]);
    return json!;
  },

  fieldById: (db: Kysely<DB>, id: number) => db.selectFrom('form_fields').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  liveFieldsOf: (db: Kysely<DB>, templateId: number) =>
    db.selectFrom('form_fields').selectAll().where('template_id', '=', templateId).where('deleted_at', 'is', null).orderBy('position').orderBy('id').execute(),

  hideRuleOfField: (db: Kysely<DB>, hiddenFieldId: number) =>
    db.selectFrom('form_field_hide_rules').selectAll().where('hidden_field_id', '=', hiddenFieldId).where('deleted_at', 'is', null).executeTakeFirst(),

  hideRulesOf: (db: Kysely<DB>, templateId: number) =>
    db.selectFrom('form_field_hide_rules').selectAll().where('template_id', '=', templateId).where('deleted_at', 'is', null).orderBy('id').execute(),

  /** Fields a report can chart: numbers, or fields given a report. */
  reportableFields: (db: Kysely<DB>, companyId: number, templateId?: number) => {
    let query = db
      .selectFrom('form_fields')
      .innerJoin('form_templates', 'form_templates.id', 'form_fields.template_id')
      .selectAll('form_fields')
      .select(['form_templates.template_name', 'form_templates.form_category'])
      .where('form_fields.company_id', '=', companyId)
      .where('form_fields.deleted_at', 'is', null)
      .where('form_fields.is_active', '=', 1)
      .where('form_templates.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('form_fields.report_id', 'is not', null), eb('form_fields.field_type', '=', 'Number')]));
    if (templateId !== undefined) query = query.where('form_fields.template_id', '=', templateId);
    return query.orderBy('form_fields.template_id').orderBy('form_fields.position').orderBy('form_fields.id').execute();
  },

  /** Creates a template with its fields, in order; returns its id. */
  async create(
    db: Kysely<DB>,
    actor: Actor,
    template: { name: string; category: FormCategory; pageCss: string | null; isDefault: boolean; clientId?: string },
    fields: CreatedFormFieldInput[],
  ): Promise<{ id: number; client_id: string }> {
    const write = writer(db, actor);
    const created = await write.insert('form_templates', {
      client_id: template.clientId,
      company_id: actor.companyId,
      template_name: template.name,
      form_category: template.category,
      page_css: template.pageCss,
      is_default: template.isDefault,
      user_id: actor.userId,
    });
    await write.insertMany(
      'form_fields',
      fields.map((field, position) => ({ ...fieldRow(field), client_id: field.client_id, company_id: actor.companyId, template_id: created.id, position })),
    );
    return created;
  },

  /** Tombstones templates with their fields and rules. */
  async softDeleteTemplates(db: Kysely<DB>, actor: Actor, templateIds: number[]) {
    const write = writer(db, actor);
    await write.softDeleteWhere('form_field_hide_rules', 'template_id', templateIds);
    await write.softDeleteWhere('form_fields', 'template_id', templateIds);
    await write.softDeleteWhere('form_templates', 'id', templateIds);
  },
};

const choice = (fieldName: string, fieldType: 'Dropdown' | 'Radio' | 'Checkbox', fieldOptions: string[], isRequired: FormFieldInput['isRequired'] = 0): FormFieldInput => ({
  fieldName,
  fieldType,
  fieldOptions,
  isRequired,
});
const plain = (fieldName: string, fieldType: FieldType, isRequired: FormFieldInput['isRequired'] = 0): FormFieldInput => ({ fieldName, fieldType, fieldOptions: [], isRequired });

/**
 * The built-in set reset_all_templates restores, each the default of its category. Chosen as growers
 * keep these records:
 * - Scouting: what was seen on a walk — pest pressure (required), pests and diseases seen, vigour, a photo, notes.
 * - Sticky trap count: counts per trap of the insects traps are read for (thrips and whitefly required),
 *   whether the card was replaced, a photo of the card.
 * - Treatment record: what a spray log needs — product and rate (required), method, target, re-entry
 *   interval, who applied it, notes.
 * - Task: a job for the team — title (required), details, priority, due date, a photo.
 */
export const DEFAULT_FORM_TEMPLATES: ReadonlyArray<{ name: string; category: FormCategory; fields: FormFieldInput[] }> = [
  {
    name: 'Scouting',
    category: 'Scouting',
    fields: [
      choice('Pest pressure', 'Radio', ['None', 'Low', 'Medium', 'High'], 1),
      choice('Pests seen', 'Checkbox', ['Aphids', 'Thrips', 'Spider mites', 'Whitefly', 'Fungus gnats', 'Caterpillars']),
      choice('Disease signs', 'Checkbox', ['Powdery mildew', 'Botrytis', 'Downy mildew', 'Root rot', 'Leaf spot']),
      choice('Plant vigour', 'Dropdown', ['Poor', 'Fair', 'Good', 'Excellent']),
      plain('Photo', 'Image'),
      plain('Notes', 'Textarea'),
    ],
  },
  {
    name: 'Sticky trap count',
    category: 'Sticky Trap',
    fields: [
      plain('Thrips', 'Number', 1),
      plain('Whitefly', 'Number', 1),
      plain('Fungus gnats', 'Number'),
      plain('Aphids (winged)', 'Number'),
      plain('Leafminers', 'Number'),
      choice('Trap replaced', 'Radio', ['Yes', 'No']),
      plain('Photo of the trap', 'Image'),
    ],
  },
  {
    name: 'Treatment record',
    category: 'Treatment',
    fields: [
      plain('Product', 'Text', 1),
      plain('Rate', 'Text', 1),
      choice('Application method', 'Dropdown', ['Foliar spray', 'Drench', 'Fogging', 'Granular', 'Biological release']),
      plain('Target pest or disease', 'Text'),
      plain('Re-entry interval (hours)', 'Number'),
      plain('Applied by', 'Text'),
      plain('Notes', 'Textarea'),
    ],
  },
  {
    name: 'Task',
    category: 'Task',
    fields: [
      plain('Task title', 'Text', 1),
      plain('Details', 'Textarea'),
      choice('Priority', 'Dropdown', ['Low', 'Normal', 'High', 'Urgent']),
      plain('Due date', 'Date'),
      plain('Photo', 'Image'),
    ],
  },
];
