import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_TYPES, formMessages as m } from '../../common/messages/forms';
import { httpMessages } from '../../common/messages/http';
import { createTenant, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

interface Field {
  FieldID: number;
  TemplateID: number;
  FieldName: string;
  FieldType: string;
  FieldOptions: string[];
  CSSClass: string | null;
  IsRequired: number;
  IsActive: number;
  report_id: number | null;
  Position: number;
}
interface Rule {
  form_field_hidden_UID: number;
  form_field_hidden_FieldID: number;
  form_field_linked_FieldID: number;
  form_field_linked_input: string;
}
interface Template {
  TemplateID: number;
  TemplateName: string;
  CompanyID: number;
  FormCategory: string;
  PageCSS: string | null;
  IsDefault: boolean;
  fields: Field[];
  hide_rules: Rule[];
}

const request = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });

let counter = 0;
const body = (tenant: Tenant = farm, extra: Record<string, unknown> = {}) => ({
  templateName: `Walk ${(counter += 1)}`,
  companyID: tenant.companyId,
  formCategory: 'Scouting',
  pageCSS: '.form { gap: 4px }',
  fields: [
    { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 1, cssClass: 'wide' },
    { fieldName: 'Thrips', fieldType: 'Number', fieldOptions: [], report_id: 7, isRequired: 0 },
    { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: '', isRequired: '0' },
  ],
  ...extra,
});

async function newTemplate(tenant: Tenant = farm, extra: Record<string, unknown> = {}) {
  const response = await request('POST', '/save_form_template', tenant.admin.token, { json: body(tenant, extra) });
  expect(response.status).toBe(200);
  return response.body.template as Template;
}

const auditEvents = (companyId: number, like: string) =>
  server.database.db.selectFrom('audit_events').select(['event_title', 'user_id']).where('company_id', '=', companyId).where('event_title', 'like', like).execute();

describe('save_form_template and get_form_templates', () => {
  it('saves a template with its fields in order, audits it and lists it to any member', async () => {
    const json = body();
    const response = await request('POST', '/save_form_template', farm.admin.token, { json });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.saved, template: { TemplateName: json.templateName, CompanyID: farm.companyId, FormCategory: 'Scouting', PageCSS: '.form { gap: 4px }' } });
    const template = response.body.template as Template;
    expect(response.body.field_ids).toEqual(template.fields.map((field) => field.FieldID));
    expect(template.fields.map((field) => [field.FieldName, field.FieldType, field.FieldOptions, field.IsRequired, field.Position, field.CSSClass, field.report_id])).toEqual([
      ['Pest pressure', 'Radio', ['Low', 'High'], 1, 0, 'wide', null],
      ['Thrips', 'Number', [], 0, 1, null, 7],
      ['Notes', 'Textarea', [], 0, 2, null, null],
    ]);
    expect(await auditEvents(farm.companyId, `Created form template ${json.templateName}%`)).toEqual([{ event_title: `Created form template ${json.templateName} (3 fields)`, user_id: farm.admin.id }]);

    const listed = await request('GET', '/get_form_templates', farm.regular.token, { query: { company_id: farm.companyId, template_id: template.TemplateID } });
    expect(listed.status).toBe(200);
    expect(listed.body.templates).toEqual([template]);
    const all = await request('GET', '/get_form_templates', farm.regular.token, { query: { company_id: farm.companyId } });
    expect((all.body.templates as Template[]).map((each) => each.TemplateID)).toContain(template.TemplateID);
  });

  it('answers the spec message for a missing name, company or fields, and ours for bad fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ templateName: ' ' }, m.saveRequired],
      [{ templateName: undefined }, m.saveRequired],
      [{ companyID: undefined }, m.saveRequired],
      [{ fields: undefined }, m.saveRequired],
      [{ fields: [] }, m.saveRequired],
      [{ fields: [{ fieldName: '', fieldType: 'Text' }] }, m.fieldNameRequired],
      [{ fields: [{ fieldName: 'A', fieldType: 'Slider' }] }, m.fieldTypeInvalid],
      [{ fields: [{ fieldName: 'A', fieldType: 'Text', isRequired: 2 }] }, m.requiredInvalid],
      [{ fields: [{ fieldName: 'Pests', fieldType: 'Dropdown', fieldOptions: [] }] }, m.optionsRequired('Pests')],
      [{ fields: [{ fieldName: 'Leaves', fieldType: 'Checkbox', fieldOptions: ['Yellow, spotted', 'Curled'] }] }, m.optionSeparator('Leaves')],
      [{ formCategory: 'Weather' }, m.categoryInvalid],
    ];
    for (const [change, message] of cases) {
      const response = await request('POST', '/save_form_template', farm.admin.token, { json: body(farm, change) });
      expect(response.body).toEqual(error(message));
      expect(response.status).toBe(400);
    }
    expect((await request('POST', '/save_form_template', farm.admin.token)).body).toEqual(error(m.saveRequired));
    expect((await request('GET', '/get_form_templates', farm.admin.token)).body).toEqual(error(m.companyIdRequired));
  });

  it('is Admin-only to save, and answers 403 for another company', async () => {
    expect((await request('POST', '/save_form_template', farm.regular.token, { json: body() })).status).toBe(403);
    expect((await request('POST', '/save_form_template', farm.admin.token, { json: body(other) })).status).toBe(403);
    const theirs = await newTemplate(other);
    expect((await request('GET', '/get_form_templates', farm.admin.token, { query: { company_id: other.companyId } })).status).toBe(403);
    expect((await request('GET', '/get_form_templates', farm.admin.token, { query: { company_id: farm.companyId, template_id: theirs.TemplateID } })).status).toBe(403);
  });

  it('makes one template for a repeated request with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = body();
    const first = await request('POST', '/save_form_template', farm.admin.token, { json, headers });
    const second = await request('POST', '/save_form_template', farm.admin.token, { json, headers });
    expect(second.status).toBe(200);
    expect(second.body.template_id).toBe(first.body.template_id);
    const rows = await server.database.db.selectFrom('form_templates').select('id').where('template_name', '=', json.templateName).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('update_form_template', () => {
  it('changes, deactivates and appends fields, and audits it', async () => {
    const template = await newTemplate();
    const [pressure, thrips] = template.fields;
    const response = await request('POST', '/update_form_template', farm.admin.token, {
      json: {
        templateID: template.TemplateID,
        templateName: 'Weekly walk',
        newFields: [{ fieldName: 'Photo', fieldType: 'Image', fieldOptions: [] }],
        updatedFields: [
          { FieldID: pressure!.FieldID, fieldName: 'Pressure', fieldType: 'Dropdown', fieldOptions: ['None', 'Low', 'High'], isRequired: 1 },
          { FieldID: thrips!.FieldID, fieldName: 'Thrips', fieldType: 'Number', fieldOptions: [], isActive: 0 },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(m.updated);
    const updated = response.body.template as Template;
    expect(updated.TemplateName).toBe('Weekly walk');
    expect(updated.fields.map((field) => [field.FieldName, field.FieldType, field.IsActive, field.Position])).toEqual([
      ['Pressure', 'Dropdown', 1, 0],
      ['Thrips', 'Number', 0, 1],
      ['Notes', 'Textarea', 1, 2],
      ['Photo', 'Image', 1, 3],
    ]);
    expect(response.body.new_field_ids).toEqual([updated.fields[3]!.FieldID]);

    // Reordered: the new field first, the old ones after it.
    const [first, second, third, fourth] = updated.fields.map((field) => field.FieldID);
    const reordered = await request('POST', '/update_form_template', farm.admin.token, {
      json: {
        templateID: template.TemplateID,
        newFields: [{ fieldName: 'Vigour', fieldType: 'Text', position: 1 }],
        updatedFields: [
          { FieldID: fourth, fieldName: 'Photo', fieldType: 'Image', position: 0 },
          { FieldID: first, fieldName: 'Pressure', fieldType: 'Dropdown', fieldOptions: ['None', 'Low', 'High'], isRequired: 1, position: 2 },
          { FieldID: second, fieldName: 'Thrips', fieldType: 'Number', isActive: 0, position: 3 },
          { FieldID: third, fieldName: 'Notes', fieldType: 'Textarea', position: 4 },
        ],
      },
    });
    expect(reordered.status).toBe(200);
    expect((reordered.body.template as Template).fields.map((field) => field.FieldName)).toEqual(['Photo', 'Vigour', 'Pressure', 'Thrips', 'Notes']);
    expect(reordered.body.new_field_ids).toEqual([(reordered.body.template as Template).fields[1]!.FieldID]);
    const badPosition = await request('POST', '/update_form_template', farm.admin.token, {
      json: { templateID: template.TemplateID, newFields: [{ fieldName: 'X', fieldType: 'Text', position: -1 }], updatedFields: [] },
    });
    expect(badPosition.body).toEqual(error(m.positionInvalid));
    expect(await auditEvents(farm.companyId, 'Updated form template Weekly walk%')).toEqual([
      { event_title: 'Updated form template Weekly walk (1 new, 2 changed fields)', user_id: farm.admin.id },
      { event_title: 'Updated form template Weekly walk (1 new, 4 changed fields)', user_id: farm.admin.id },
    ]);
  });

  it('answers the spec message, ours for a field of another template, 403 for a Regular user or another company', async () => {
    const template = await newTemplate();
    const sibling = await newTemplate();
    const theirs = await newTemplate(other);
    const base = { templateID: template.TemplateID, newFields: [], updatedFields: [] };
    for (const change of [{ templateID: undefined }, { newFields: undefined }, { updatedFields: 'x' }]) {
      const response = await request('POST', '/update_form_template', farm.admin.token, { json: { ...base, ...change } });
      expect(response.body).toEqual(error(m.updateRequired));
    }
    const changing = (FieldID: number) => request('POST', '/update_form_template', farm.admin.token, { json: { ...base, updatedFields: [{ FieldID, fieldName: 'X', fieldType: 'Text' }] } });
    const elsewhere = sibling.fields[0]!.FieldID;
    expect((await changing(elsewhere)).body).toEqual(error(m.fieldNotInTemplate(elsewhere)));
    // Another company's field is another company's record (tests/server/tenancy.test.ts).
    const foreign = await changing(theirs.fields[0]!.FieldID);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(error(httpMessages.otherCompany));
    expect((await request('POST', '/update_form_template', farm.regular.token, { json: base })).status).toBe(403);
    expect((await request('POST', '/update_form_template', farm.admin.token, { json: { ...base, templateID: theirs.TemplateID } })).status).toBe(403);
  });
});

describe('update_default_template, reset_all_templates and delete_template', () => {
  it('moves the default of a category to the named template', async () => {
    const tenant = await createTenant(server);
    const first = await newTemplate(tenant, { formCategory: 'Treatment' });
    const second = await newTemplate(tenant, { formCategory: 'Treatment' });
    expect([first.IsDefault, second.IsDefault]).toEqual([true, false]);
    const response = await request('PUT', '/update_default_template', tenant.admin.token, { json: { template_id: second.TemplateID, company_id: tenant.companyId, template_type: 'Treatment' } });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(m.defaultSet);
    const listed = (await request('GET', '/get_form_templates', tenant.regular.token, { query: { company_id: tenant.companyId } })).body.templates as Template[];
    expect(listed.map((template) => [template.TemplateID, template.IsDefault])).toEqual([
      [second.TemplateID, true],
      [first.TemplateID, false],
    ]);
    expect(await auditEvents(tenant.companyId, 'Made %')).toEqual([{ event_title: `Made ${second.TemplateName} the default Treatment form`, user_id: tenant.admin.id }]);

    for (const change of [{ template_id: undefined }, { company_id: undefined }, { template_type: '' }]) {
      const bad = await request('PUT', '/update_default_template', tenant.admin.token, { json: { template_id: first.TemplateID, company_id: tenant.companyId, template_type: 'Treatment', ...change } });
      expect(bad.body).toEqual(error(m.defaultRequired));
    }
    const mismatch = await request('PUT', '/update_default_template', tenant.admin.token, { json: { template_id: first.TemplateID, company_id: tenant.companyId, template_type: 'Task' } });
    expect(mismatch.body).toEqual(error(m.defaultCategoryMismatch('Treatment')));
    expect((await request('PUT', '/update_default_template', tenant.regular.token, { json: { template_id: first.TemplateID, company_id: tenant.companyId, template_type: 'Treatment' } })).status).toBe(403);
    expect((await request('PUT', '/update_default_template', farm.admin.token, { json: { template_id: first.TemplateID, company_id: farm.companyId, template_type: 'Treatment' } })).status).toBe(403);
  });

  it('resets to the built-in set, each the default of its category', async () => {
    const tenant = await createTenant(server);
    const custom = await newTemplate(tenant);
    const response = await request('PUT', '/reset_all_templates', tenant.admin.token, { json: { company_id: tenant.companyId } });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(m.reset);
    const templates = response.body.templates as Template[];
    expect(templates.map((template) => [template.FormCategory, template.TemplateName, template.IsDefault]).sort()).toEqual([
      ['Scouting', 'Scouting', true],
      ['Sticky Trap', 'Sticky trap count', true],
      ['Task', 'Task', true],
      ['Treatment', 'Treatment record', true],
    ]);
    expect(templates.every((template) => template.fields.length > 0)).toBe(true);
    expect(templates.some((template) => template.TemplateID === custom.TemplateID)).toBe(false);
    expect(await auditEvents(tenant.companyId, 'Reset form templates%')).toEqual([{ event_title: 'Reset form templates to the defaults (1 removed)', user_id: tenant.admin.id }]);

    expect((await request('PUT', '/reset_all_templates', tenant.admin.token, { json: {} })).body).toEqual(error(m.resetRequired));
    expect((await request('PUT', '/reset_all_templates', tenant.regular.token, { json: { company_id: tenant.companyId } })).status).toBe(403);
    expect((await request('PUT', '/reset_all_templates', tenant.admin.token, { json: { company_id: farm.companyId } })).status).toBe(403);
  });

  it('deletes a template (Admin only), audits it, and 404s it afterwards', async () => {
    const template = await newTemplate();
    const theirs = await newTemplate(other);
    expect((await request('DELETE', '/delete_template', farm.admin.token)).body).toEqual(error(m.deleteRequired));
    expect((await request('DELETE', '/delete_template', farm.regular.token, { query: { template_id: template.TemplateID } })).status).toBe(403);
    expect((await request('DELETE', '/delete_template', farm.admin.token, { query: { template_id: theirs.TemplateID } })).status).toBe(403);
    const response = await request('DELETE', '/delete_template', farm.admin.token, { query: { template_id: template.TemplateID } });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(m.deleted);
    expect(await auditEvents(farm.companyId, `Deleted form template ${template.TemplateName}`)).toHaveLength(1);
    expect((await request('DELETE', '/delete_template', farm.admin.token, { query: { template_id: template.TemplateID } })).status).toBe(404);
  });
});

describe('field types and reportable fields', () => {
  it('lists field types, reportable fields and the templates that have them', async () => {
    expect((await request('GET', '/get_field_types', farm.regular.token)).body).toEqual({ status: 'success', field_types: [...FIELD_TYPES] });
    const tenant = await createTenant(server);
    const template = await newTemplate(tenant);
    await newTemplate(tenant, { fields: [{ fieldName: 'Notes', fieldType: 'Text' }] });
    const fields = await request('GET', '/get_reportable_fields', tenant.regular.token, { query: { company_id: tenant.companyId } });
    expect((fields.body.reportable_fields as Field[]).map((field) => field.FieldName)).toEqual(['Thrips']);
    const reports = await request('GET', '/get_report_templates_by_company', tenant.regular.token, { query: { company_id: tenant.companyId } });
    expect(reports.body.data).toEqual([expect.objectContaining({ TemplateID: template.TemplateID, fields: [expect.objectContaining({ FieldName: 'Thrips' })] })]);
    expect((await request('GET', '/get_reportable_fields', tenant.regular.token, { query: { company_id: farm.companyId } })).status).toBe(403);
    expect((await request('GET', '/get_report_templates_by_company', tenant.regular.token)).body).toEqual(error(m.companyIdRequired));
  });
});

describe('hide-until-link rules', () => {
  it('adds, reads, updates and deletes a rule, audited, and syncs it inside the template', async () => {
    const template = await newTemplate();
    const [pressure, thrips, notes] = template.fields;
    const rule = { form_field_hidden_FieldID: thrips!.FieldID, form_field_linked_FieldID: pressure!.FieldID, form_field_linked_input: 'High' };
    const added = await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: rule });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ status: 'success', message: m.hideAdded, rule: { form_field_hidden_UID: template.TemplateID, ...rule } });
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: rule })).body).toEqual(error(m.hideRuleExists));

    const read = await request('GET', '/get_field_hide_until_link', farm.regular.token, { query: { form_field_hidden_UID: template.TemplateID } });
    expect(read.body.rules).toEqual([{ form_field_hidden_UID: template.TemplateID, ...rule }]);

    const changed = { ...rule, form_field_linked_FieldID: notes!.FieldID, form_field_linked_input: 'see notes' };
    const updated = await request('PUT', '/update_field_hide_until_link', farm.admin.token, { json: changed });
    expect(updated.body).toEqual({ status: 'success', message: m.hideUpdated, rule: { form_field_hidden_UID: template.TemplateID, ...changed } });

    const pulled = await pullUntil<PulledDocument & Template>(server, farm.regular.token, 'form_templates', (documents) =>
      documents.get(String(template.TemplateID))?.hide_rules[0]?.form_field_linked_input === 'see notes',
    );
    const document = pulled.get(String(template.TemplateID))!;
    expect(document).toMatchObject({ _deleted: false, TemplateName: template.TemplateName, fields: template.fields });
    expect(document.hide_rules).toEqual([{ form_field_hidden_UID: template.TemplateID, ...changed }]);

    const deleted = await request('DELETE', '/delete_field_hide_until_link', farm.admin.token, { query: { form_field_hidden_FieldID: thrips!.FieldID } });
    expect(deleted.body).toEqual({ status: 'success', message: m.hideDeleted, form_field_hidden_FieldID: thrips!.FieldID });
    expect((await request('DELETE', '/delete_field_hide_until_link', farm.admin.token, { query: { form_field_hidden_FieldID: thrips!.FieldID } })).body).toEqual(error(m.hideRuleNotFound));
    expect(await auditEvents(farm.companyId, `In form ${template.TemplateName},%`)).toHaveLength(3);

    const after = await pullUntil<PulledDocument & Template>(server, farm.regular.token, 'form_templates', (documents) => documents.get(String(template.TemplateID))?.hide_rules.length === 0);
    expect(after.get(String(template.TemplateID))!.hide_rules).toEqual([]);
  });

  it('answers our messages, 403 for a Regular user and for another company’s fields', async () => {
    const template = await newTemplate();
    const theirs = await newTemplate(other);
    const [first, second] = template.fields;
    const rule = { form_field_hidden_FieldID: first!.FieldID, form_field_linked_FieldID: second!.FieldID, form_field_linked_input: 'x' };
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: {} })).body).toEqual(error(m.hideRuleRequired));
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: { ...rule, form_field_linked_FieldID: first!.FieldID } })).body).toEqual(error(m.hideSameField));
    const otherTemplate = await newTemplate();
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: { ...rule, form_field_linked_FieldID: otherTemplate.fields[0]!.FieldID } })).body).toEqual(
      error(m.hideOtherTemplate),
    );
    expect((await request('PUT', '/update_field_hide_until_link', farm.admin.token, { json: rule })).body).toEqual(error(m.hideRuleNotFound));
    expect((await request('GET', '/get_field_hide_until_link', farm.admin.token)).body).toEqual(error(m.hideListRequired));
    expect((await request('DELETE', '/delete_field_hide_until_link', farm.admin.token)).body).toEqual(error(m.hiddenFieldRequired));
    expect((await request('POST', '/add_hide_field_until_link', farm.regular.token, { json: rule })).status).toBe(403);
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: { ...rule, form_field_linked_FieldID: theirs.fields[0]!.FieldID } })).status).toBe(403);
    expect((await request('GET', '/get_field_hide_until_link', farm.admin.token, { query: { form_field_hidden_UID: theirs.TemplateID } })).status).toBe(403);
    expect((await request('DELETE', '/delete_field_hide_until_link', farm.admin.token, { query: { form_field_hidden_FieldID: theirs.fields[0]!.FieldID } })).status).toBe(403);
  });
});
