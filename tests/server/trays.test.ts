import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trayMessages as m } from '../../common/messages/trays';
import type { TrayRecord, TrayTemplateRecord } from '../../common/schemas/trays';
import { createBatch, createSuperAdmin, createTenant, createUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let batchId: number;
let otherBatch: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  batchId = await createBatch(server, farm.companyId);
  otherBatch = await createBatch(server, other.companyId);
});
afterAll(() => server.close());

type Fields = Record<string, unknown>;
/** The client sends JSON bodies; `form` and `query` check the other ways the fields may come. */
const send = (method: string, path: string, token: string, fields: Fields = {}, way: 'json' | 'form' | 'query' = 'json', headers?: Record<string, string>) => {
  const options: RequestOptions = { token, ...(headers ? { headers } : {}) };
  if (way === 'json') options.json = fields;
  else if (way === 'form') options.form = fields as Record<string, string | number>;
  else options.query = fields as Record<string, string | number>;
  return server.request(method, path, options);
};
const get = (path: string, token: string, query: Record<string, string | number> = {}) => server.request('GET', path, { token, query });

const error = (message: string) => ({ status: 'error', message });

const auditEvents = (companyId: number, title: string) =>
  server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).execute();

/** A tray and a template as these calls answer them: named by the server's integer ids (they do not ask for the tablet's naming). */
type TrayBody = Omit<TrayRecord, 'tray_id'> & { tray_id: number };
type TemplateBody = Omit<TrayTemplateRecord, 'template_id'> & { template_id: number };

const templateFields = (tenant: Tenant, fields: Fields = {}) => ({
  template_name: `Plug tray ${randomUUID().slice(0, 8)}`,
  company_id: tenant.companyId,
  user_id: tenant.admin.id,
  number_of_plants: 72,
  ...fields,
});
const trayFields = (tenant: Tenant, fields: Fields = {}) => ({
  tray_name: `Tray ${randomUUID().slice(0, 8)}`,
  company_id: tenant.companyId,
  user_id: tenant.regular.id,
  number_of_plants: 24,
  ...fields,
});

async function newTemplate(tenant: Tenant, fields: Fields = {}) {
  const response = await send('POST', '/create_tray_template', tenant.admin.token, templateFields(tenant, fields));
  expect(response.status).toBe(200);
  return response.body.template as TemplateBody;
}
async function newTray(tenant: Tenant, fields: Fields = {}) {
  const response = await send('POST', '/create_tray', tenant.regular.token, trayFields(tenant, fields));
  expect(response.status).toBe(200);
  return response.body.tray as TrayBody;
}

describe('create_tray_template', () => {
  it('creates a template from a JSON body and records an audit event with its default batch', async () => {
    const fields = templateFields(farm, { description: '  72-cell plug tray ', default_batch_id: batchId });
    const response = await send('POST', '/create_tray_template', farm.admin.token, fields);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.templateCreated,
      template: { template_name: fields.template_name, number_of_plants: 72, description: '72-cell plug tray', default_batch_id: batchId, company_id: farm.companyId, user_id: farm.admin.id },
    });
    expect(response.body.template_id).toBe((response.body.template as TemplateBody).template_id);
    const events = await auditEvents(farm.companyId, `Created tray template ${fields.template_name} (72 plants)`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.admin.id, batch_id: batchId });
  });

  it('takes its fields from a form body or the query too', async () => {
    const fromForm = await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { number_of_plants: '50' }), 'form');
    expect(fromForm.body).toMatchObject({ status: 'success', template: { number_of_plants: 50, description: null, default_batch_id: null } });
    const fromQuery = await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { number_of_plants: '8' }), 'query');
    expect(fromQuery.body).toMatchObject({ status: 'success', template: { number_of_plants: 8 } });
  });

  it.each([
    [{ template_name: undefined }, m.templateRequired],
    [{ template_name: '   ' }, m.templateRequired],
    [{ company_id: undefined }, m.templateRequired],
    [{ user_id: undefined }, m.templateRequired],
    [{ number_of_plants: undefined }, m.plantsPositive],
    [{ number_of_plants: 0 }, m.plantsPositive],
    [{ number_of_plants: -3 }, m.plantsPositive],
    [{ number_of_plants: 'many' }, m.plantsPositive],
    [{ number_of_plants: 2.5 }, m.plantsWhole],
    [{ number_of_plants: 10_001 }, m.plantsWhole],
    [{ default_batch_id: 'x' }, m.defaultBatchIdInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const response = await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, fields));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 to a Regular user, for another company’s ids and for another user’s name', async () => {
    expect((await send('POST', '/create_tray_template', farm.regular.token, templateFields(farm, { user_id: farm.regular.id }))).status).toBe(403);
    expect((await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { company_id: other.companyId }))).status).toBe(403);
    expect((await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { user_id: other.admin.id }))).status).toBe(403);
    expect((await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { user_id: farm.regular.id }))).status).toBe(403);
    expect((await send('POST', '/create_tray_template', farm.admin.token, templateFields(farm, { default_batch_id: otherBatch }))).status).toBe(403);
    const templates = await server.database.db.selectFrom('tray_templates').select('id').where('default_batch_id', '=', otherBatch).execute();
    expect(templates).toHaveLength(0);
  });
});

describe('get_tray_templates', () => {
  it('lists the company’s live templates', async () => {
    const tenant = await createTenant(server);
    const kept = await newTemplate(tenant);
    const dropped = await newTemplate(tenant);
    await send('DELETE', '/delete_tray_template', tenant.admin.token, { template_id: dropped.template_id, company_id: tenant.companyId });
    await newTemplate(other);
    const response = await get('/get_tray_templates', tenant.regular.token, { company_id: tenant.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', templates: [expect.objectContaining({ template_id: kept.template_id, template_name: kept.template_name })] });
  });

  it('answers the message without a company, and 403 for another company', async () => {
    expect((await get('/get_tray_templates', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_tray_templates', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
  });
});

describe('delete_tray_template', () => {
  it('tombstones the template, from a JSON body or the query, and records an audit event', async () => {
    const template = await newTemplate(farm, { default_batch_id: batchId });
    const response = await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: template.template_id, company_id: farm.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.templateDeleted, template_id: template.template_id });
    const row = await server.database.db.selectFrom('tray_templates').selectAll().where('id', '=', template.template_id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.updated_by).toBe(farm.admin.id);
    const events = await auditEvents(farm.companyId, `Deleted tray template ${template.template_name}`);
    expect(events).toHaveLength(1);
    expect(events[0]?.batch_id).toBe(batchId);

    const byQuery = await newTemplate(farm);
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: byQuery.template_id, company_id: farm.companyId }, 'query')).status).toBe(200);
    // Deleted is missing.
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: byQuery.template_id, company_id: farm.companyId })).status).toBe(404);
  });

  it('answers the message without template or company', async () => {
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { company_id: farm.companyId })).body).toEqual(error(m.templateIdCompanyRequired));
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: 1 })).body).toEqual(error(m.templateIdCompanyRequired));
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, {}, 'query')).body).toEqual(error(m.templateIdCompanyRequired));
  });

  it('answers 403 to a Regular user and for another company’s template or company', async () => {
    const template = await newTemplate(farm);
    const otherTemplate = await newTemplate(other);
    expect((await send('DELETE', '/delete_tray_template', farm.regular.token, { template_id: template.template_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: otherTemplate.template_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('DELETE', '/delete_tray_template', farm.admin.token, { template_id: template.template_id, company_id: other.companyId })).status).toBe(403);
    const row = await server.database.db.selectFrom('tray_templates').select('deleted_at').where('id', '=', otherTemplate.template_id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });
});

describe('use_tray_template', () => {
  it('creates a tray with the template’s plants in its default batch, as any member, and records an audit event', async () => {
    const template = await newTemplate(farm, { number_of_plants: 128, default_batch_id: batchId });
    const response = await send('POST', '/use_tray_template', farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, user_id: farm.regular.id, tray_name: '  Clones A ' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.templateUsed,
      tray: { tray_name: 'Clones A', number_of_plants: 128, batch_id: batchId, company_id: farm.companyId, user_id: farm.regular.id },
    });
    const events = await auditEvents(farm.companyId, `Created tray Clones A from template ${template.template_name} (128 plants)`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id, batch_id: batchId });
  });

  it('puts the tray in the batch named instead, and in none when the template has none', async () => {
    const secondBatch = await createBatch(server, farm.companyId);
    const template = await newTemplate(farm, { default_batch_id: batchId });
    const named = await send('POST', '/use_tray_template', farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, user_id: farm.regular.id, tray_name: 'T', batch_id: secondBatch });
    expect((named.body.tray as TrayBody).batch_id).toBe(secondBatch);
    const bare = await newTemplate(farm);
    const none = await send('POST', '/use_tray_template', farm.regular.token, { template_id: bare.template_id, company_id: farm.companyId, user_id: farm.regular.id, tray_name: 'T' }, 'form');
    expect((none.body.tray as TrayBody).batch_id).toBeNull();
  });

  it.each([
    [{ template_id: undefined }, m.templateUseRequired],
    [{ company_id: undefined }, m.templateUseRequired],
    [{ user_id: undefined }, m.templateUseRequired],
    [{ tray_name: undefined }, m.trayNameRequired],
    [{ tray_name: '  ' }, m.trayNameRequired],
    [{ batch_id: 'x' }, m.batchIdInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const template = await newTemplate(farm);
    const response = await send('POST', '/use_tray_template', farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, user_id: farm.regular.id, tray_name: 'T', ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 for another company’s template, company or batch, and for another user’s name', async () => {
    const template = await newTemplate(farm);
    const otherTemplate = await newTemplate(other);
    const base = { template_id: template.template_id, company_id: farm.companyId, user_id: farm.regular.id, tray_name: 'T' };
    expect((await send('POST', '/use_tray_template', farm.regular.token, { ...base, template_id: otherTemplate.template_id })).status).toBe(403);
    expect((await send('POST', '/use_tray_template', farm.regular.token, { ...base, company_id: other.companyId })).status).toBe(403);
    expect((await send('POST', '/use_tray_template', farm.regular.token, { ...base, batch_id: otherBatch })).status).toBe(403);
    expect((await send('POST', '/use_tray_template', farm.regular.token, { ...base, user_id: farm.admin.id })).status).toBe(403);
  });
});

describe('create_tray', () => {
  it('creates a tray in a batch and records an audit event for it', async () => {
    const fields = trayFields(farm, { batch_id: batchId });
    const response = await send('POST', '/create_tray', farm.regular.token, fields);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.trayCreated,
      tray: { tray_name: fields.tray_name, number_of_plants: 24, batch_id: batchId, company_id: farm.companyId, user_id: farm.regular.id },
    });
    const trayId = response.body.tray_id as number;
    expect((response.body.tray as TrayBody).tray_id).toBe(trayId);
    const events = await auditEvents(farm.companyId, `Created tray ${fields.tray_name} (24 plants)`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id, batch_id: batchId });
  });

  it('takes its fields from a form body or the query too', async () => {
    const fromForm = await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { batch_id: batchId }), 'form');
    expect(fromForm.body).toMatchObject({ status: 'success', tray: { number_of_plants: 24, batch_id: batchId } });
    const fromQuery = await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { batch_id: '' }), 'query');
    expect(fromQuery.body).toMatchObject({ status: 'success', tray: { number_of_plants: 24, batch_id: null } });
  });

  it.each([
    [{ tray_name: undefined }, m.trayNameRequired],
    [{ tray_name: ' \t ' }, m.trayNameRequired],
    [{ company_id: undefined }, m.trayCompanyUserRequired],
    [{ user_id: undefined }, m.trayCompanyUserRequired],
    [{ number_of_plants: undefined }, m.plantsPositive],
    [{ number_of_plants: 0 }, m.plantsPositive],
    [{ number_of_plants: '-1' }, m.plantsPositive],
    [{ number_of_plants: null }, m.plantsPositive],
    [{ number_of_plants: 1.5 }, m.plantsWhole],
    [{ batch_id: 'x' }, m.batchIdInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const response = await send('POST', '/create_tray', farm.regular.token, trayFields(farm, fields));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 for another company’s company, user or batch, and for another user’s name', async () => {
    expect((await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { company_id: other.companyId }))).status).toBe(403);
    expect((await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { user_id: other.regular.id }))).status).toBe(403);
    expect((await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { batch_id: otherBatch }))).status).toBe(403);
    expect((await send('POST', '/create_tray', farm.regular.token, trayFields(farm, { user_id: farm.admin.id }))).status).toBe(403);
    const trays = await server.database.db.selectFrom('trays').select('id').where('batch_id', '=', otherBatch).execute();
    expect(trays).toHaveLength(0);
  });

  it('makes one tray for a repeated request with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const fields = trayFields(farm);
    const first = await send('POST', '/create_tray', farm.regular.token, fields, 'json', { 'Idempotency-Key': key });
    const second = await send('POST', '/create_tray', farm.regular.token, fields, 'json', { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.tray_id).toBe(first.body.tray_id);
    const trays = await server.database.db.selectFrom('trays').select('id').where('tray_name', '=', fields.tray_name).execute();
    expect(trays).toHaveLength(1);
    expect(await auditEvents(farm.companyId, `Created tray ${fields.tray_name} (24 plants)`)).toHaveLength(1);
  });

  it('a created tray reaches the operations collection', async () => {
    const tray = await newTray(farm, { batch_id: batchId });
    const documentId = `tray:${tray.tray_id}`;
    const documents = await pullUntil(server, farm.regular.token, 'operations', (pulled) => pulled.has(documentId));
    expect(documents.get(documentId)).toMatchObject({ kind: 'tray', _deleted: false, tray_name: tray.tray_name, number_of_plants: 24, batch_id: batchId });
    const elsewhere = await pullUntil(server, other.regular.token, 'operations', () => true);
    expect(elsewhere.has(documentId)).toBe(false);
  });
});

describe('get_all_trays', () => {
  it('lists the company’s live trays', async () => {
    const tenant = await createTenant(server);
    const kept = await newTray(tenant);
    const dropped = await newTray(tenant);
    await send('POST', '/delete_tray', tenant.admin.token, { tray_id: dropped.tray_id, company_id: tenant.companyId });
    await newTray(other);
    const response = await get('/get_all_trays', tenant.regular.token, { company_id: tenant.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', trays: [expect.objectContaining({ tray_id: kept.tray_id, tray_name: kept.tray_name })] });
  });

  it('answers the message without a company, and 403 for another company', async () => {
    expect((await get('/get_all_trays', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_all_trays', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
  });
});

describe('update_tray', () => {
  it('changes only the fields sent, and records an audit event', async () => {
    const tray = await newTray(farm, { batch_id: batchId, number_of_plants: 30 });
    const renamed = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, tray_name: ' Mothers ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ status: 'success', message: m.trayUpdated, tray: { tray_name: 'Mothers', number_of_plants: 30, batch_id: batchId } });
    const events = await auditEvents(farm.companyId, 'Updated tray Mothers');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id, batch_id: batchId });

    const counted = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, number_of_plants: '12' }, 'form');
    expect(counted.body).toMatchObject({ tray: { tray_name: 'Mothers', number_of_plants: 12, batch_id: batchId } });
    const row = await server.database.db.selectFrom('trays').select(['updated_by', 'user_id']).where('id', '=', tray.tray_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ updated_by: farm.regular.id, user_id: farm.regular.id });
  });

  it('moves a tray to another batch, or out of its batch with null', async () => {
    const secondBatch = await createBatch(server, farm.companyId);
    const tray = await newTray(farm, { batch_id: batchId });
    const moved = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, batch_id: secondBatch }, 'query');
    expect(moved.body).toMatchObject({ tray: { batch_id: secondBatch, number_of_plants: 24 } });
    const cleared = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, batch_id: null, tray_name: null });
    expect(cleared.body).toMatchObject({ tray: { batch_id: null, tray_name: tray.tray_name } });
  });

  it('changes and records nothing when no field is sent', async () => {
    const tray = await newTray(farm);
    const response = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId });
    expect(response.body).toMatchObject({ status: 'success', message: m.trayUnchanged, tray: { tray_id: tray.tray_id } });
    expect(await auditEvents(farm.companyId, `Updated tray ${tray.tray_name}`)).toHaveLength(0);
  });

  it.each([
    [{ tray_id: undefined }, m.trayIdCompanyRequired],
    [{ company_id: undefined }, m.trayIdCompanyRequired],
    [{ number_of_plants: 0 }, m.plantsPositiveOnUpdate],
    [{ number_of_plants: -4 }, m.plantsPositiveOnUpdate],
    [{ number_of_plants: 'lots' }, m.plantsPositiveOnUpdate],
    [{ number_of_plants: 3.5 }, m.plantsWhole],
    [{ tray_name: '  ' }, m.trayNameRequired],
    [{ batch_id: 'x' }, m.batchIdInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const tray = await newTray(farm);
    const response = await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 for another company’s tray, company or batch', async () => {
    const tray = await newTray(farm);
    const otherTray = await newTray(other);
    expect((await send('POST', '/update_tray', farm.regular.token, { tray_id: otherTray.tray_id, company_id: farm.companyId, tray_name: 'Mine' })).status).toBe(403);
    expect((await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: other.companyId, tray_name: 'Mine' })).status).toBe(403);
    expect((await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, batch_id: otherBatch })).status).toBe(403);
    const row = await server.database.db.selectFrom('trays').select(['tray_name', 'batch_id']).where('id', '=', otherTray.tray_id).executeTakeFirstOrThrow();
    expect(row.tray_name).toBe(otherTray.tray_name);
  });

  it('a SuperAdmin naming a tray with a company it is not in finds no such tray there', async () => {
    const superAdmin = await createSuperAdmin(server);
    const tray = await newTray(farm);
    const response = await send('POST', '/update_tray', superAdmin.token, { tray_id: tray.tray_id, company_id: other.companyId, tray_name: 'Moved' });
    expect(response.status).toBe(404);
    const own = await send('POST', '/update_tray', superAdmin.token, { tray_id: tray.tray_id, company_id: farm.companyId, tray_name: 'Fixed' });
    expect(own.body).toMatchObject({ status: 'success', tray: { tray_name: 'Fixed' } });
  });
});

describe('delete_tray', () => {
  it('tombstones the tray, records an audit event, and sync pulls it as deleted', async () => {
    const tray = await newTray(farm, { batch_id: batchId });
    const response = await send('POST', '/delete_tray', farm.admin.token, { tray_id: tray.tray_id, company_id: farm.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.trayDeleted, tray_id: tray.tray_id });
    const events = await auditEvents(farm.companyId, `Deleted tray ${tray.tray_name}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.admin.id, batch_id: batchId });
    const documentId = `tray:${tray.tray_id}`;
    const documents = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (pulled) => pulled.get(documentId)?._deleted === true);
    expect(documents.get(documentId)?._deleted).toBe(true);
    // A deleted tray is missing: updating or deleting it again answers 404.
    expect((await send('POST', '/delete_tray', farm.admin.token, { tray_id: tray.tray_id, company_id: farm.companyId })).status).toBe(404);
    expect((await send('POST', '/update_tray', farm.regular.token, { tray_id: tray.tray_id, company_id: farm.companyId, tray_name: 'x' })).status).toBe(404);
  });

  it('answers the message without tray or company', async () => {
    expect((await send('POST', '/delete_tray', farm.admin.token, { company_id: farm.companyId })).body).toEqual(error(m.trayIdCompanyRequired));
    expect((await send('POST', '/delete_tray', farm.admin.token, { tray_id: 1 }, 'form')).body).toEqual(error(m.trayIdCompanyRequired));
    expect((await send('POST', '/delete_tray', farm.admin.token, {}, 'query')).body).toEqual(error(m.trayIdCompanyRequired));
  });

  it('answers 403 to a Regular user and for another company’s tray or company', async () => {
    const tray = await newTray(farm);
    const otherTray = await newTray(other);
    const anotherRegular = await createUser(server, farm.companyId, 'Regular');
    expect((await send('POST', '/delete_tray', anotherRegular.token, { tray_id: tray.tray_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('POST', '/delete_tray', farm.admin.token, { tray_id: otherTray.tray_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('POST', '/delete_tray', farm.admin.token, { tray_id: tray.tray_id, company_id: other.companyId })).status).toBe(403);
    const row = await server.database.db.selectFrom('trays').select('deleted_at').where('id', '=', tray.tray_id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });
});
