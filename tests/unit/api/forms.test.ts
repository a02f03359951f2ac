/**
 * Form templates' domain functions (src/api/forms.ts) on a real tablet (outbox, RxDB, sync engine)
 * against the real server, behind a proxy that can cut the network: templates, fields and hide rules
 * built offline are named by the client ids the tablet gave them, before and after they reach the
 * server (once); reads fall back to the local store, which names records by client id.
 */
import { describe, expect, it } from 'vitest';
import { type ClientId, isClientId } from '../../../common/client-ids';
import { FIELD_TYPES, formClientMessages as cm, formMessages as m } from '../../../common/messages/forms';
import { httpMessages } from '../../../common/messages/http';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { ApiError } from '../../../src/api/context';
import {
  addHideFieldUntilLink,
  deleteFieldHideUntilLink,
  deleteTemplate,
  type FieldDraft,
  getFieldHideUntilLink,
  getFieldTypes,
  getFormTemplates,
  localTemplate,
  resetAllTemplates,
  saveFormTemplate,
  updateDefaultTemplate,
  updateFieldHideUntilLink,
  updateFormTemplate,
} from '../../../src/api/forms';
import type { Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createTenant, type SignedInUser } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ defaultUser: 'admin', otherTenant: true });
const { tablet, notFromServer } = fleet;
const db = () => fleet.server.database.db;
let counter = 0;
const unique = (name: string) => `${name} ${Date.now().toString(36)}-${(counter += 1)}`;

/** Goes back online and lets the tablet send and pull everything. */
async function reconnect(device: Tablet) {
  await fleet.reconnect(device);
  expect(await device.outbox.count()).toBe(0);
}

const WALK_FIELDS = [
  { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 1 },
  { fieldName: 'Thrips', fieldType: 'Number', fieldOptions: [], isRequired: 0 },
  { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
];

/** A template saved on the server (as the Admin's desk would), pulled by the tablet. */
async function serverTemplate(device: Tablet | null, extra: Record<string, unknown> = {}, admin: SignedInUser = fleet.farm.admin): Promise<FormTemplateRecord & { TemplateID: number }> {
  const response = await fleet.server.request<{ template: FormTemplateRecord & { TemplateID: number } }>('POST', '/save_form_template', {
    token: admin.token,
    json: { templateName: unique('Walk'), companyID: admin.companyId, formCategory: 'Scouting', fields: WALK_FIELDS, ...extra },
  });
  expect(response.status).toBe(200);
  if (device) await device.engine.settle();
  return response.body.template;
}

/**
 * A template the server answered (integer ids) as the tablet names it (naming=client): the template,
 * its fields and the rules' fields by client id, the integer id kept as `serverId`. Screens name
 * records so, and a pulled local document is this.
 */
async function asTablet(template: FormTemplateRecord): Promise<FormTemplateRecord & { TemplateID: ClientId; serverId: number }> {
  const key = await clientIdOf(fleet.server, 'form_templates', Number(template.TemplateID));
  const fieldIds = [...new Set([...template.fields.map((field) => Number(field.FieldID)), ...template.hide_rules.flatMap((rule) => [Number(rule.form_field_hidden_FieldID), Number(rule.form_field_linked_FieldID)])])];
  const keys = new Map(fieldIds.map((id, index) => [id, index]));
  const fieldKeys = await clientIdsOf(fleet.server, 'form_fields', fieldIds);
  const fieldKey = (id: unknown) => fieldKeys[keys.get(Number(id))!]!;
  return {
    ...template,
    TemplateID: key,
    fields: template.fields.map((field) => ({ ...field, id: fieldKey(field.id), FieldID: fieldKey(field.FieldID), TemplateID: key })),
    hide_rules: template.hide_rules.map((rule) => ({
      ...rule,
      form_field_hidden_UID: key,
      form_field_hidden_FieldID: fieldKey(rule.form_field_hidden_FieldID),
      form_field_linked_FieldID: fieldKey(rule.form_field_linked_FieldID),
    })),
    serverId: Number(template.TemplateID),
  };
}

const templateRows = (companyId: number, name: string) => db().selectFrom('form_templates').selectAll().where('company_id', '=', companyId).where('template_name', '=', name).execute();
const fieldRows = (templateId: number) =>
  db().selectFrom('form_fields').select(['id', 'client_id', 'field_name', 'field_type', 'field_options', 'is_required', 'is_active', 'position']).where('template_id', '=', templateId).orderBy('position').execute();
const ruleRows = (templateId: number) =>
  db().selectFrom('form_field_hide_rules').select(['hidden_field_id', 'linked_field_id', 'linked_input']).where('template_id', '=', templateId).where('deleted_at', 'is', null).execute();
const localTemplates = async (device: Tablet, companyId = fleet.farm.companyId) => (await device.database.form_templates.find({ selector: { CompanyID: companyId } }).exec()).map((document) => document.toMutableJSON());

describe('saveFormTemplate', () => {
  const input = (fields: FieldDraft[] = [{ fieldName: 'Notes', fieldType: 'Textarea' }]) => ({ templateName: unique('Walk'), companyId: fleet.farm.companyId, fields });

  it("needs a name, the company and fields: 'Form template save needs template name, company and fields'; a choice field needs an option", async () => {
    const device = await tablet();
    const before = (await localTemplates(device)).length;
    await rejects(saveFormTemplate(device.context, { ...input(), templateName: '   ' }), m.saveRequired);
    await rejects(saveFormTemplate(device.context, { ...input(), templateName: undefined as never }), m.saveRequired);
    await rejects(saveFormTemplate(device.context, { ...input(), companyId: undefined as never }), m.saveRequired);
    await rejects(saveFormTemplate(device.context, { ...input(), fields: undefined as never }), m.saveRequired);
    await rejects(saveFormTemplate(device.context, input([])), m.saveRequired);
    await rejects(saveFormTemplate(device.context, input([{ fieldName: 'Pests', fieldType: 'Dropdown' }])), m.optionsRequired('Pests'));
    await rejects(saveFormTemplate(device.context, input([{ fieldName: 'Seen', fieldType: 'Checkbox', fieldOptions: ['  ', ''] }])), m.optionsRequired('Seen'));
    await rejects(saveFormTemplate(device.context, input([{ fieldName: 'Level', fieldType: 'Radio', fieldOptions: [] }])), m.optionsRequired('Level'));
    await rejects(saveFormTemplate(device.context, input([{ fieldName: ' ', fieldType: 'Text' }])), m.fieldNameRequired);
    await rejects(saveFormTemplate(device.context, input([{ fieldName: 'A', fieldType: 'Slider' as never }])), m.fieldTypeInvalid);
    await rejects(saveFormTemplate(device.context, { ...input(), formCategory: 'Weather' as never }), m.categoryInvalid);
    expect(await device.outbox.count()).toBe(0);
    expect(await localTemplates(device)).toHaveLength(before);
  });

  it('built offline with a hide rule on a new field: shown at once under client ids, then on the server once, naming the same template and fields', async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const name = unique('Mite walk');
    const saved = await saveFormTemplate(device.context, {
      templateName: `  ${name} `,
      companyId: fleet.farm.companyId,
      formCategory: 'Treatment',
      fields: [
        { fieldName: 'Mites seen', fieldType: 'Radio', fieldOptions: ['Yes', 'No'], isRequired: true },
        { fieldName: 'Mite count', fieldType: 'Number', isRequired: true, reportId: 3 },
        { fieldName: 'Notes', fieldType: 'Textarea', cssClass: 'wide' },
      ],
    });
    expect(isClientId(saved.template_id)).toBe(true);
    expect(saved.field_ids).toHaveLength(3);
    const [seen, count, notes] = saved.field_ids;
    for (const id of saved.field_ids) expect(isClientId(id)).toBe(true);
    expect(new Set([saved.template_id, ...saved.field_ids]).size).toBe(4);
    const { rule } = await addHideFieldUntilLink(device.context, { hiddenFieldId: count!, linkedFieldId: seen!, linkedInput: ' Yes ' });
    expect(rule).toEqual({ form_field_hidden_UID: saved.template_id, form_field_hidden_FieldID: count, form_field_linked_FieldID: seen, form_field_linked_input: 'Yes' });

    // The local document shows the template, its fields and the rule at once (no serverId yet: not from the server).
    expect(await localTemplate(device.context, saved.template_id)).toEqual({
      TemplateID: saved.template_id,
      TemplateName: name,
      CompanyID: fleet.farm.companyId,
      CreatedAt: expect.any(String),
      FormCategory: 'Treatment',
      PageCSS: null,
      IsDefault: true,
      fields: [
        { id: seen, FieldID: seen, TemplateID: saved.template_id, FieldName: 'Mites seen', FieldType: 'Radio', FieldOptions: ['Yes', 'No'], CSSClass: null, IsRequired: 1, IsActive: 1, report_id: null, Position: 0 },
        { id: count, FieldID: count, TemplateID: saved.template_id, FieldName: 'Mite count', FieldType: 'Number', FieldOptions: [], CSSClass: null, IsRequired: 1, IsActive: 1, report_id: 3, Position: 1 },
        { id: notes, FieldID: notes, TemplateID: saved.template_id, FieldName: 'Notes', FieldType: 'Textarea', FieldOptions: [], CSSClass: 'wide', IsRequired: 0, IsActive: 1, report_id: null, Position: 2 },
      ],
      hide_rules: [rule],
    });
    const offline = await getFormTemplates(device.context, { companyId: fleet.farm.companyId, templateId: saved.template_id });
    expect(offline).toMatchObject({ status: 'success', offline: true, templates: [{ TemplateID: saved.template_id, TemplateName: name }] });
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.method, entry.path, entry.creates])).toEqual([
      ['POST', '/save_form_template', [saved.template_id, seen, count, notes]],
      ['POST', '/add_hide_field_until_link', []],
    ]);
    // The rule names fields the save makes: it is sent after it.
    expect([...entries[1]!.clientIds].sort()).toEqual([seen!, count!].sort());
    expect(entries[0]?.body).toEqual({
      kind: 'json',
      data: {
        templateName: name,
        companyID: fleet.farm.companyId,
        formCategory: 'Treatment',
        pageCSS: null,
        client_id: saved.template_id,
        fields: [
          { fieldName: 'Mites seen', fieldType: 'Radio', fieldOptions: ['Yes', 'No'], report_id: null, cssClass: null, isRequired: 1, client_id: seen },
          { fieldName: 'Mite count', fieldType: 'Number', fieldOptions: [], report_id: 3, cssClass: null, isRequired: 1, client_id: count },
          { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], report_id: null, cssClass: 'wide', isRequired: 0, client_id: notes },
        ],
      },
    });
    expect(entries[1]?.body).toEqual({ kind: 'json', data: { form_field_hidden_FieldID: count, form_field_linked_FieldID: seen, form_field_linked_input: 'Yes' } });
    expect(await templateRows(fleet.farm.companyId, name)).toEqual([]);

    await reconnect(device);
    // On the server once, holding the client ids the tablet gave the template and each field.
    const rows = await templateRows(fleet.farm.companyId, name);
    expect(rows.map((row) => [row.form_category, row.is_default, row.client_id])).toEqual([['Treatment', true, saved.template_id]]);
    const templateId = rows[0]!.id;
    const fields = await fieldRows(templateId);
    expect(fields.map((field) => [field.field_name, field.field_type, field.is_required, field.position, field.client_id])).toEqual([
      ['Mites seen', 'Radio', 1, 0, seen],
      ['Mite count', 'Number', 1, 1, count],
      ['Notes', 'Textarea', 0, 2, notes],
    ]);
    expect(await ruleRows(templateId)).toEqual([{ hidden_field_id: fields[1]!.id, linked_field_id: fields[0]!.id, linked_input: 'Yes' }]);
    // Online, the server answers the template named by the tablet's id, under its integer ids.
    const answered = await getFormTemplates(device.context, { companyId: fleet.farm.companyId, templateId: saved.template_id });
    expect(answered.offline).toBeUndefined();
    expect(answered.templates.map((template) => [template.TemplateID, template.fields.map((field) => field.FieldID), template.hide_rules])).toEqual([
      [templateId, fields.map((field) => field.id), [{ form_field_hidden_UID: templateId, form_field_hidden_FieldID: fields[1]!.id, form_field_linked_FieldID: fields[0]!.id, form_field_linked_input: 'Yes' }]],
    ]);

    // The local document kept its key, the server's copy now, with the integer id; fields and rule keep their client ids.
    const local = await localTemplate(device.context, saved.template_id);
    expect(local).toMatchObject({ TemplateID: saved.template_id, serverId: templateId, TemplateName: name });
    expect(local?.fields.map((field) => [field.id, field.FieldID, field.TemplateID, field.FieldName])).toEqual([
      [seen, seen, saved.template_id, 'Mites seen'],
      [count, count, saved.template_id, 'Mite count'],
      [notes, notes, saved.template_id, 'Notes'],
    ]);
    expect(local?.hide_rules).toEqual([rule]);
    expect(await notFromServer(device)).toEqual([]);
  });
});

describe('a save whose answer is lost after the server committed', () => {
  it('is replayed into one template, and the rule waiting on its fields reaches it', async () => {
    const device = await tablet();
    const name = unique('Lost answer');
    const lost = fleet.proxy.loseAnswerOnce((request) => request.url?.split('?')[0] === '/api/save_form_template');
    fleet.proxy.setOnline(false);
    const saved = await saveFormTemplate(device.context, {
      templateName: name,
      companyId: fleet.farm.companyId,
      fields: [
        { fieldName: 'Seen', fieldType: 'Checkbox', fieldOptions: ['Aphids', 'Thrips'] },
        { fieldName: 'Count', fieldType: 'Number' },
      ],
    });
    await addHideFieldUntilLink(device.context, { hiddenFieldId: saved.field_ids[1]!, linkedFieldId: saved.field_ids[0]!, linkedInput: 'Thrips' });
    fleet.proxy.setOnline(true);
    void device.engine.syncNow();
    await lost;
    expect(await templateRows(fleet.farm.companyId, name)).toHaveLength(1);

    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    const rows = await templateRows(fleet.farm.companyId, name);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.client_id).toBe(saved.template_id);
    const fields = await fieldRows(rows[0]!.id);
    expect(fields.map((field) => [field.field_name, field.client_id])).toEqual([
      ['Seen', saved.field_ids[0]],
      ['Count', saved.field_ids[1]],
    ]);
    expect(await ruleRows(rows[0]!.id)).toEqual([{ hidden_field_id: fields[1]!.id, linked_field_id: fields[0]!.id, linked_input: 'Thrips' }]);
    expect(fleet.proxy.sent.filter((request) => request.url.split('?')[0] === '/api/save_form_template').length).toBeGreaterThanOrEqual(2);
    expect(await localTemplate(device.context, saved.template_id)).toMatchObject({ serverId: rows[0]!.id, hide_rules: [{ form_field_hidden_FieldID: saved.field_ids[1], form_field_linked_FieldID: saved.field_ids[0] }] });
    expect(await notFromServer(device)).toEqual([]);
  });
});

describe('updateFormTemplate', () => {
  it("needs the template id and both lists: 'Template update needs the template id plus arrays of new and updated fields'; checks fields as the server does", async () => {
    const device = await tablet();
    // The tablet names the server's template and fields by their client ids, as its screens do.
    const template = await asTablet(await serverTemplate(device));
    const base = { templateId: template.TemplateID, newFields: [], updatedFields: [] };
    await rejects(updateFormTemplate(device.context, { ...base, templateId: undefined as never }), m.updateRequired);
    await rejects(updateFormTemplate(device.context, { ...base, newFields: undefined as never }), m.updateRequired);
    await rejects(updateFormTemplate(device.context, { ...base, updatedFields: 'x' as never }), m.updateRequired);
    await rejects(updateFormTemplate(device.context, { ...base, newFields: [{ fieldName: 'Severity', fieldType: 'Dropdown', fieldOptions: [] }] }), m.optionsRequired('Severity'));
    const pressure = template.fields[0]!.FieldID;
    await rejects(updateFormTemplate(device.context, { ...base, updatedFields: [{ fieldId: pressure, fieldName: 'Pressure', fieldType: 'Checkbox' }] }), m.optionsRequired('Pressure'));
    await rejects(updateFormTemplate(device.context, { ...base, updatedFields: [{ fieldId: 99_999_999, fieldName: 'X', fieldType: 'Text' }] }), m.fieldNotInTemplate(99_999_999));
    await rejects(updateFormTemplate(device.context, { ...base, templateId: 99_999_999 }), m.templateNotFound);
    expect(await device.outbox.count()).toBe(0);
    expect(await localTemplate(device.context, template.TemplateID)).toEqual(template);
  });

  it('offline: fields changed and appended at once; a rule on a new field names it by its client id and reaches the server naming the same field', async () => {
    const device = await tablet();
    const onServer = await serverTemplate(device);
    const template = await asTablet(onServer);
    const [pressure, thrips, notes] = template.fields.map((field) => field.FieldID);
    fleet.proxy.setOnline(false);
    const name = unique('Weekly walk');
    const { new_field_ids } = await updateFormTemplate(device.context, {
      templateId: template.TemplateID,
      templateName: name,
      newFields: [
        { fieldName: 'Severity', fieldType: 'Dropdown', fieldOptions: ['Mild', 'Severe'], isRequired: true },
        { fieldName: 'Photo', fieldType: 'Image' },
      ],
      updatedFields: [
        { fieldId: pressure!, fieldName: 'Pressure', fieldType: 'Radio', fieldOptions: ['None', 'Low', 'High'], isRequired: true },
        { fieldId: thrips!, fieldName: 'Thrips', fieldType: 'Number', isActive: false },
      ],
    });
    expect(new_field_ids).toHaveLength(2);
    for (const id of new_field_ids) expect(isClientId(id)).toBe(true);
    const [severity, photo] = new_field_ids;
    await addHideFieldUntilLink(device.context, { hiddenFieldId: severity!, linkedFieldId: pressure!, linkedInput: 'High' });

    const shown = await localTemplate(device.context, template.TemplateID);
    expect(shown?.TemplateName).toBe(name);
    expect(shown?.fields.map((field) => [field.FieldID, field.FieldName, field.FieldOptions, field.IsRequired, field.IsActive, field.Position])).toEqual([
      [pressure, 'Pressure', ['None', 'Low', 'High'], 1, 1, 0],
      [thrips, 'Thrips', [], 0, 0, 1],
      [notes, 'Notes', [], 0, 1, 2],
      [severity, 'Severity', ['Mild', 'Severe'], 1, 1, 3],
      [photo, 'Photo', [], 0, 1, 4],
    ]);
    expect(shown?.hide_rules).toEqual([{ form_field_hidden_UID: template.TemplateID, form_field_hidden_FieldID: severity, form_field_linked_FieldID: pressure, form_field_linked_input: 'High' }]);
    const [update] = await device.outbox.all();
    expect(update).toMatchObject({
      path: '/update_form_template',
      creates: [severity, photo],
      body: {
        kind: 'json',
        data: {
          templateID: template.TemplateID,
          templateName: name,
          newFields: [
            { fieldName: 'Severity', client_id: severity },
            { fieldName: 'Photo', client_id: photo },
          ],
          updatedFields: [
            { FieldID: pressure, fieldName: 'Pressure', isActive: 1 },
            { FieldID: thrips, isActive: 0 },
          ],
        },
      },
    });

    await reconnect(device);
    // The new fields hold the client ids the tablet gave them; the rule names the same field on the server.
    const fields = await fieldRows(onServer.TemplateID);
    expect(fields.map((field) => [field.field_name, field.is_active, field.position, field.client_id])).toEqual([
      ['Pressure', 1, 0, pressure],
      ['Thrips', 0, 1, thrips],
      ['Notes', 1, 2, notes],
      ['Severity', 1, 3, severity],
      ['Photo', 1, 4, photo],
    ]);
    expect((await db().selectFrom('form_templates').select('template_name').where('id', '=', onServer.TemplateID).executeTakeFirstOrThrow()).template_name).toBe(name);
    expect(await ruleRows(onServer.TemplateID)).toEqual([{ hidden_field_id: fields[3]!.id, linked_field_id: onServer.fields[0]!.FieldID, linked_input: 'High' }]);
    expect(await getFieldHideUntilLink(device.context, { templateId: template.TemplateID })).toEqual({
      status: 'success',
      rules: [{ form_field_hidden_UID: onServer.TemplateID, form_field_hidden_FieldID: fields[3]!.id, form_field_linked_FieldID: onServer.fields[0]!.FieldID, form_field_linked_input: 'High' }],
    });
    const local = await localTemplate(device.context, template.TemplateID);
    expect(local).toMatchObject({ serverId: onServer.TemplateID, TemplateName: name });
    expect(local?.fields.map((field) => field.FieldID)).toEqual([pressure, thrips, notes, severity, photo]);
    expect(local?.hide_rules).toEqual([{ form_field_hidden_UID: template.TemplateID, form_field_hidden_FieldID: severity, form_field_linked_FieldID: pressure, form_field_linked_input: 'High' }]);
    expect(await notFromServer(device)).toEqual([]);
  });

  it('offline on a template saved offline too: one template on the server with every field', async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const name = unique('Built offline');
    const saved = await saveFormTemplate(device.context, { templateName: name, companyId: fleet.farm.companyId, fields: [{ fieldName: 'Notes', fieldType: 'Text' }] });
    const { new_field_ids } = await updateFormTemplate(device.context, {
      templateId: saved.template_id,
      newFields: [{ fieldName: 'Count', fieldType: 'Number' }],
      updatedFields: [{ fieldId: saved.field_ids[0]!, fieldName: 'Remarks', fieldType: 'Textarea' }],
    });
    await addHideFieldUntilLink(device.context, { hiddenFieldId: new_field_ids[0]!, linkedFieldId: saved.field_ids[0]!, linkedInput: '' });
    expect((await localTemplate(device.context, saved.template_id))?.fields.map((field) => field.FieldName)).toEqual(['Remarks', 'Count']);

    await reconnect(device);
    const rows = await templateRows(fleet.farm.companyId, name);
    expect(rows.map((row) => row.client_id)).toEqual([saved.template_id]);
    const fields = await fieldRows(rows[0]!.id);
    expect(fields.map((field) => [field.field_name, field.field_type, field.client_id])).toEqual([
      ['Remarks', 'Textarea', saved.field_ids[0]],
      ['Count', 'Number', new_field_ids[0]],
    ]);
    expect(await ruleRows(rows[0]!.id)).toEqual([{ hidden_field_id: fields[1]!.id, linked_field_id: fields[0]!.id, linked_input: '' }]);
    const local = await localTemplate(device.context, saved.template_id);
    expect(local).toMatchObject({ serverId: rows[0]!.id });
    expect(local?.fields.map((field) => [field.FieldID, field.FieldName])).toEqual([
      [saved.field_ids[0], 'Remarks'],
      [new_field_ids[0], 'Count'],
    ]);
    expect(await notFromServer(device)).toEqual([]);
  });
});

describe('updateDefaultTemplate', () => {
  it("needs the template, company and type: 'Default template update needs template id, company and template type'", async () => {
    const device = await tablet();
    const template = await serverTemplate(device, { formCategory: 'Task' });
    const input = { templateId: await clientIdOf(fleet.server, 'form_templates', template.TemplateID), companyId: fleet.farm.companyId, templateType: 'Task' as const };
    await rejects(updateDefaultTemplate(device.context, { ...input, templateId: undefined as never }), m.defaultRequired);
    await rejects(updateDefaultTemplate(device.context, { ...input, companyId: undefined as never }), m.defaultRequired);
    await rejects(updateDefaultTemplate(device.context, { ...input, templateType: undefined as never }), m.defaultRequired);
    await rejects(updateDefaultTemplate(device.context, { ...input, templateType: '' as never }), m.defaultRequired);
    await rejects(updateDefaultTemplate(device.context, { ...input, templateType: 'Scouting' }), m.defaultCategoryMismatch('Task'));
    await rejects(updateDefaultTemplate(device.context, { ...input, templateId: 99_999_999 }), m.templateNotFound);
    expect(await device.outbox.count()).toBe(0);
  });

  it('queued: the default moves at once on the tablet, then on the server', async () => {
    const tenant = await createTenant(fleet.server);
    const device = await tablet(tenant.admin);
    const first = await serverTemplate(null, { formCategory: 'Treatment' }, tenant.admin);
    const second = await serverTemplate(null, { formCategory: 'Treatment' }, tenant.admin);
    const scouting = await serverTemplate(device, { formCategory: 'Scouting' }, tenant.admin);
    expect([first.IsDefault, second.IsDefault, scouting.IsDefault]).toEqual([true, false, true]);
    const [firstKey, secondKey, scoutingKey] = await clientIdsOf(fleet.server, 'form_templates', [first.TemplateID, second.TemplateID, scouting.TemplateID]);
    fleet.proxy.setOnline(false);
    await updateDefaultTemplate(device.context, { templateId: secondKey!, companyId: tenant.companyId, templateType: 'Treatment' });
    const defaults = async () => (await localTemplates(device, tenant.companyId)).map((template) => [template.TemplateID, template.serverId, template.IsDefault]).sort();
    const expected = [
      [firstKey, first.TemplateID, false],
      [secondKey, second.TemplateID, true],
      [scoutingKey, scouting.TemplateID, true],
    ].sort();
    expect(await defaults()).toEqual(expected);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'PUT', path: '/update_default_template', body: { kind: 'json', data: { template_id: secondKey, company_id: tenant.companyId, template_type: 'Treatment' } } });

    await reconnect(device);
    const rows = await db().selectFrom('form_templates').select(['client_id', 'id', 'is_default']).where('company_id', '=', tenant.companyId).execute();
    expect(rows.map((row) => [row.client_id, row.id, row.is_default]).sort()).toEqual(expected);
    expect(await defaults()).toEqual(expected);
  });
});

describe('resetAllTemplates', () => {
  it("needs the company: 'Reset templates needs the company'", async () => {
    const device = await tablet();
    await rejects(resetAllTemplates(device.context, { companyId: undefined as never }), m.resetRequired);
  });

  it('online: the built-in set replaces every template, on the server and then on the tablet', async () => {
    const tenant = await createTenant(fleet.server);
    const device = await tablet(tenant.admin);
    const custom = await serverTemplate(device, {}, tenant.admin);
    const named = async () => (await localTemplates(device, tenant.companyId)).map((template) => [template.TemplateID, template.serverId]).sort();
    expect(await named()).toEqual([[await clientIdOf(fleet.server, 'form_templates', custom.TemplateID), custom.TemplateID]]);
    const answer = await resetAllTemplates(device.context, { companyId: tenant.companyId });
    expect(answer).toMatchObject({ status: 'success', message: m.reset });
    expect(answer.templates.map((template) => [template.FormCategory, template.TemplateName, template.IsDefault]).sort()).toEqual([
      ['Scouting', 'Scouting', true],
      ['Sticky Trap', 'Sticky trap count', true],
      ['Task', 'Task', true],
      ['Treatment', 'Treatment record', true],
    ]);
    expect(await device.outbox.count()).toBe(0);
    const live = await db().selectFrom('form_templates').select('id').where('company_id', '=', tenant.companyId).where('deleted_at', 'is', null).execute();
    expect(live.map((row) => row.id).sort()).toEqual(answer.templates.map((template) => template.TemplateID).sort());

    // The answer names the new templates by integer id; the tablet then holds them under their client ids.
    await device.engine.settle();
    const answered = answer.templates.map((template) => Number(template.TemplateID));
    const keys = await clientIdsOf(fleet.server, 'form_templates', answered);
    expect(await named()).toEqual(answered.map((id, index) => [keys[index], id]).sort());
  });

  it("offline: fails at once with 'Failed to reset templates.' (no answer, so no server message), queues nothing and leaves the templates", async () => {
    const tenant = await createTenant(fleet.server);
    const device = await tablet(tenant.admin);
    const custom = await serverTemplate(device, {}, tenant.admin);
    const key = await clientIdOf(fleet.server, 'form_templates', custom.TemplateID);
    fleet.proxy.setOnline(false);
    const error = await resetAllTemplates(device.context, { companyId: tenant.companyId }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: cm.resetFailed, status: null });
    expect(await device.outbox.count()).toBe(0);
    expect((await localTemplates(device, tenant.companyId)).map((template) => [template.TemplateID, template.serverId])).toEqual([[key, custom.TemplateID]]);
    expect((await templateRows(tenant.companyId, custom.TemplateName)).map((row) => row.deleted_at)).toEqual([null]);
  });

  it('a Regular user is refused with the server’s message', async () => {
    const device = await tablet(fleet.farm.regular);
    const error = await resetAllTemplates(device.context, { companyId: fleet.farm.companyId }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).not.toBe(cm.resetFailed);
  });
});

describe('deleteTemplate', () => {
  it("needs a template id: 'Delete template needs a template id'", async () => {
    const device = await tablet();
    await rejects(deleteTemplate(device.context, { templateId: undefined as never }), m.deleteRequired);
    await rejects(deleteTemplate(device.context, { templateId: 0 }), m.deleteRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('queued: the template leaves the local list at once, then is deleted on the server', async () => {
    const device = await tablet();
    const template = await serverTemplate(device);
    const key = await clientIdOf(fleet.server, 'form_templates', template.TemplateID);
    expect(await localTemplate(device.context, key)).not.toBeNull();
    fleet.proxy.setOnline(false);
    await deleteTemplate(device.context, { templateId: key });
    expect(await localTemplate(device.context, key)).toBeNull();
    const offline = await getFormTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(offline.offline).toBe(true);
    expect(offline.templates.some((each) => each.TemplateID === key)).toBe(false);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_template', query: { template_id: key }, fallbackMessage: cm.deleteFailed });

    await reconnect(device);
    expect((await templateRows(fleet.farm.companyId, template.TemplateName)).map((row) => row.deleted_at === null)).toEqual([false]);
    expect(await localTemplate(device.context, key)).toBeNull();
  });

  it('a delete the server refuses (deleted meanwhile elsewhere) stays as a failed entry with the server’s message', async () => {
    const device = await tablet();
    const template = await serverTemplate(device);
    const key = await clientIdOf(fleet.server, 'form_templates', template.TemplateID);
    fleet.proxy.setOnline(false);
    await deleteTemplate(device.context, { templateId: key });
    const elsewhere = await fleet.server.request('DELETE', '/delete_template', { token: fleet.farm.admin.token, query: { template_id: template.TemplateID } });
    expect(elsewhere.status).toBe(200);

    await fleet.reconnect(device);
    // The server's own message (its access guard no longer finds the template), not the fallback.
    const refused = httpMessages.recordNotFound(`form_template ${template.TemplateID}`);
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.state, entry.error])).toEqual([['/delete_template', 'failed', refused]]);
    expect(device.engine.current().failed.map((failed) => failed.error)).toEqual([refused]);
    expect(await localTemplate(device.context, key)).toBeNull();
  });
});

describe('getFormTemplates', () => {
  it("needs the company: 'company_id is required'", async () => {
    const device = await tablet();
    await rejects(getFormTemplates(device.context, { companyId: undefined as never }), m.companyIdRequired);
  });

  it('online: the server’s templates; offline: the same from the local store, flagged, with those made offline', async () => {
    const device = await tablet();
    const template = await serverTemplate(device, { formCategory: 'Sticky Trap', pageCSS: '.form { gap: 4px }' });
    const local = await asTablet(template);
    const online = await getFormTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(online.offline).toBeUndefined();
    expect(online.templates.find((each) => each.TemplateID === template.TemplateID)).toEqual(template);
    // Asked by its client id (as a screen names it), the server answers the template under its integer ids.
    const one = await getFormTemplates(device.context, { companyId: fleet.farm.companyId, templateId: local.TemplateID });
    expect(one).toEqual({ status: 'success', templates: [template] });

    fleet.proxy.setOnline(false);
    const offline = await getFormTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(offline).toMatchObject({ status: 'success', offline: true });
    // The same templates, in the server's order, as the local store names them (client ids, the integer id as serverId).
    expect(offline.templates).toEqual(await Promise.all(online.templates.map(asTablet)));
    expect((await getFormTemplates(device.context, { companyId: fleet.farm.companyId, templateId: local.TemplateID })).templates).toEqual([local]);

    const saved = await saveFormTemplate(device.context, { templateName: unique('Offline form'), companyId: fleet.farm.companyId, fields: [{ fieldName: 'Notes', fieldType: 'Text' }] });
    const withNew = await getFormTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(withNew.templates.map((each) => each.TemplateID).sort()).toEqual([...offline.templates.map((each) => each.TemplateID), saved.template_id].sort());
  });

  it('online, a template not yet on the server (its save still queued) is read from the local store', async () => {
    // A tablet whose engine is not started: online, but nothing it records is sent.
    const device = await tablet(fleet.farm.admin, { start: false });
    const saved = await saveFormTemplate(device.context, {
      templateName: unique('Queued'),
      companyId: fleet.farm.companyId,
      fields: [
        { fieldName: 'Seen', fieldType: 'Radio', fieldOptions: ['Yes', 'No'] },
        { fieldName: 'Count', fieldType: 'Number' },
      ],
    });
    const { rule } = await addHideFieldUntilLink(device.context, { hiddenFieldId: saved.field_ids[1]!, linkedFieldId: saved.field_ids[0]!, linkedInput: 'Yes' });
    expect(await getFormTemplates(device.context, { companyId: fleet.farm.companyId, templateId: saved.template_id })).toEqual({ status: 'success', templates: [{ ...saved.template, hide_rules: [rule] }], offline: true });
    expect(await getFieldHideUntilLink(device.context, { templateId: saved.template_id })).toEqual({ status: 'success', rules: [rule], offline: true });
    // The server is asked as soon as no record whose create still waits is named.
    expect((await getFormTemplates(device.context, { companyId: fleet.farm.companyId })).offline).toBeUndefined();
  });

  it('the server’s refusal is not read from the local store: another company answers its message', async () => {
    const device = await tablet();
    await expect(getFormTemplates(device.context, { companyId: fleet.other.companyId })).rejects.toMatchObject({ name: 'ApiError', status: 403, message: httpMessages.otherCompany });
  });
});

describe('getFieldTypes', () => {
  it('answers the fixed list online and offline', async () => {
    const device = await tablet();
    expect(await getFieldTypes(device.context)).toEqual({ status: 'success', field_types: [...FIELD_TYPES] });
    fleet.proxy.setOnline(false);
    expect(await getFieldTypes(device.context)).toEqual({ status: 'success', field_types: [...FIELD_TYPES] });
  });
});

describe('hide-until-link rules', () => {
  it('answer the messages of a bad rule before anything is queued', async () => {
    const device = await tablet();
    const template = await asTablet(await serverTemplate(device));
    const other = await asTablet(await serverTemplate(device));
    const [pressure, thrips] = template.fields.map((field) => field.FieldID);
    const rule = { hiddenFieldId: thrips!, linkedFieldId: pressure!, linkedInput: 'High' };
    await rejects(addHideFieldUntilLink(device.context, { ...rule, hiddenFieldId: undefined as never }), m.hideRuleRequired);
    await rejects(addHideFieldUntilLink(device.context, { ...rule, linkedInput: undefined as never }), m.hideRuleRequired);
    await rejects(addHideFieldUntilLink(device.context, { ...rule, linkedFieldId: thrips! }), m.hideSameField);
    await rejects(addHideFieldUntilLink(device.context, { ...rule, linkedFieldId: other.fields[0]!.FieldID }), m.hideOtherTemplate);
    await rejects(addHideFieldUntilLink(device.context, { ...rule, hiddenFieldId: 99_999_999 }), m.templateNotFound);
    await rejects(updateFieldHideUntilLink(device.context, rule), m.hideRuleNotFound);
    await rejects(deleteFieldHideUntilLink(device.context, { hiddenFieldId: thrips! }), m.hideRuleNotFound);
    await rejects(deleteFieldHideUntilLink(device.context, { hiddenFieldId: undefined as never }), m.hiddenFieldRequired);
    await rejects(getFieldHideUntilLink(device.context, { templateId: undefined as never }), m.hideListRequired);
    expect(await device.outbox.count()).toBe(0);
    await addHideFieldUntilLink(device.context, rule);
    await rejects(addHideFieldUntilLink(device.context, rule), m.hideRuleExists);
    expect(await device.outbox.count()).toBe(1);
  });

  it('added, changed and deleted offline: the local copy follows at once, the server after', async () => {
    const device = await tablet();
    const onServer = await serverTemplate(device);
    const template = await asTablet(onServer);
    const [pressure, thrips, notes] = template.fields.map((field) => field.FieldID);
    fleet.proxy.setOnline(false);
    await addHideFieldUntilLink(device.context, { hiddenFieldId: thrips!, linkedFieldId: pressure!, linkedInput: 'High' });
    await addHideFieldUntilLink(device.context, { hiddenFieldId: notes!, linkedFieldId: pressure!, linkedInput: '' });
    await updateFieldHideUntilLink(device.context, { hiddenFieldId: thrips!, linkedFieldId: notes!, linkedInput: 'see notes' });
    await deleteFieldHideUntilLink(device.context, { hiddenFieldId: notes! });
    const expected = [{ form_field_hidden_UID: template.TemplateID, form_field_hidden_FieldID: thrips, form_field_linked_FieldID: notes, form_field_linked_input: 'see notes' }];
    expect(await getFieldHideUntilLink(device.context, { templateId: template.TemplateID })).toEqual({ status: 'success', rules: expected, offline: true });
    expect((await device.outbox.all()).map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'POST /add_hide_field_until_link',
      'POST /add_hide_field_until_link',
      'PUT /update_field_hide_until_link',
      'DELETE /delete_field_hide_until_link',
    ]);

    await reconnect(device);
    // The server holds the rule on the same fields; online it answers them by integer id, the local copy by client id.
    const [, thripsId, notesId] = onServer.fields.map((field) => field.FieldID);
    expect(await ruleRows(onServer.TemplateID)).toEqual([{ hidden_field_id: thripsId, linked_field_id: notesId, linked_input: 'see notes' }]);
    expect(await getFieldHideUntilLink(device.context, { templateId: template.TemplateID })).toEqual({
      status: 'success',
      rules: [{ form_field_hidden_UID: onServer.TemplateID, form_field_hidden_FieldID: thripsId, form_field_linked_FieldID: notesId, form_field_linked_input: 'see notes' }],
    });
    expect((await localTemplate(device.context, template.TemplateID))?.hide_rules).toEqual(expected);
  });
});
