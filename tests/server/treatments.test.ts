import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_FIELDS_MAX_CHARS, treatmentMessages as m } from '../../common/messages/treatments';
import type { PushAnswer } from '../../common/schemas/sync';
import type { SprayApplicationRecord, SprayProductRecord, TreatmentRecord } from '../../common/schemas/treatments';
import { clientIdsOf, createGrid, createRoom, createSuperAdmin, createTenant, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let boxes: number[];
let otherBoxes: number[];

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  boxes = (await createGrid(server, farm.companyId, roomId, 3, 2)).boxIds;
  otherBoxes = (await createGrid(server, other.companyId, await createRoom(server, other.companyId), 2, 1)).boxIds;
});
afterAll(() => server.close());

type Fields = Record<string, unknown>;
/** The client sends JSON bodies; `form` (multipart) and `query` check the other ways the fields may come. */
const send = (method: string, path: string, token: string, fields: Fields = {}, way: 'json' | 'form' | 'query' = 'json', headers?: Record<string, string>, query?: RequestOptions['query']) => {
  const options: RequestOptions = { token, ...(headers ? { headers } : {}), ...(query ? { query } : {}) };
  if (way === 'json') options.json = fields;
  else if (way === 'form') options.form = fields as Record<string, string | number>;
  else options.query = { ...query, ...(fields as Record<string, string | number>) };
  return server.request(method, path, options);
};
const get = (path: string, token: string, query: Record<string, string | number> = {}) => server.request('GET', path, { token, query });

/** A body the test helper cannot build (repeated fields): multipart FormData or a urlencoded form. */
async function sendRaw(path: string, token: string, body: FormData | URLSearchParams, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body });
  return { status: response.status, body: (await response.json()) as Fields };
}

const error = (message: string) => ({ status: 'error', message });

const auditEvents = (companyId: number, title: string) =>
  server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).orderBy('id').execute();

/** Records as these calls answer them: named by the server's integer ids. */
type ProductBody = Omit<SprayProductRecord, 'product_id'> & { product_id: number };
type TreatmentBody = Omit<TreatmentRecord, 'treatment_id' | 'product_id'> & { treatment_id: number; product_id: number };
type ApplicationBody = Omit<SprayApplicationRecord, 'application_id'> & { application_id: number };

const productName = (prefix = 'Spray') => `${prefix} ${randomUUID().slice(0, 8)}`;

async function newProduct(tenant: Tenant, fields: Fields = {}) {
  const response = await send('POST', '/add_spray_product', tenant.admin.token, { ProductName: productName(), ...fields }, 'json', undefined, { company_id: tenant.companyId });
  expect(response.status).toBe(200);
  return response.body.product as ProductBody;
}

async function newTreatment(tenant: Tenant, productId: number, treatment_type = 'biological', data: Fields = { organism: 'Phytoseiulus persimilis' }) {
  const response = await send('POST', '/create_treatment', tenant.regular.token, { treatment_type, data: { ...data, product_id: productId } });
  expect(response.status).toBe(200);
  return response.body.treatment as TreatmentBody;
}

const spray = (tenant: Tenant, fields: Fields, headers?: Record<string, string>) => send('POST', '/link_treatment_products_gridboxes', tenant.regular.token, fields, 'json', headers);

describe('add_spray_product', () => {
  it('adds a product from JSON with its intervals; other fields are kept as details; audited', async () => {
    const name = productName('Abamectin');
    const response = await send(
      'POST',
      '/add_spray_product',
      farm.admin.token,
      { ProductName: ` ${name} `, ActiveIngredient: 'abamectin', Rate: 0.5, RateUnit: 'ml/L', ReentryHours: 12, PreharvestDays: 7, Supplier: 'Agro Ltd', EPA: '100-898' },
      'json',
      undefined,
      { company_id: farm.companyId },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.productAdded,
      product: { ProductName: name, ActiveIngredient: 'abamectin', Rate: 0.5, RateUnit: 'ml/L', ReentryHours: 12, PreharvestDays: 7, details: { Supplier: 'Agro Ltd', EPA: '100-898' }, company_id: farm.companyId },
    });
    const product = response.body.product as ProductBody;
    expect(response.body.product_id).toBe(product.product_id);
    expect(response.body.client_id).toEqual(expect.any(String));
    const events = await auditEvents(farm.companyId, `Added spray product ${name}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.admin.id });
  });

  it('takes its fields from a multipart form (the spec’s way) or the query; blank fields are absent', async () => {
    const name = productName('Neem');
    const fromForm = await send('POST', '/add_spray_product', farm.admin.token, { ProductName: name, Rate: '2', ReentryHours: '', Crop: 'basil' }, 'form', undefined, { company_id: farm.companyId });
    expect(fromForm.status).toBe(200);
    expect(fromForm.body.product).toMatchObject({ ProductName: name, Rate: 2, ReentryHours: null, PreharvestDays: null, ActiveIngredient: null, details: { Crop: 'basil' } });
    const fromQuery = await send('POST', '/add_spray_product', farm.admin.token, { ProductName: productName(), company_id: farm.companyId, PreharvestDays: '3' }, 'query');
    expect(fromQuery.body).toMatchObject({ status: 'success', product: { PreharvestDays: 3, details: {} } });
  });

  it.each([
    [{ company_id: undefined }, m.companyIdRequired],
    [{ ProductName: undefined }, m.productNameRequired],
    [{ ProductName: '   ' }, m.productNameRequired],
    [{ Rate: -1 }, m.rateInvalid],
    [{ Rate: 'lots' }, m.rateInvalid],
    [{ ReentryHours: 9000 }, m.reentryInvalid],
    [{ ReentryHours: -2 }, m.reentryInvalid],
    [{ PreharvestDays: 366 }, m.preharvestInvalid],
    [{ PreharvestDays: 'soon' }, m.preharvestInvalid],
    [{ Notes: 'x'.repeat(FREE_FIELDS_MAX_CHARS) }, m.detailsTooLarge],
    [{ client_id: 'not-a-uuid' }, 'client_id must be a UUID.'],
  ])('answers %o with "%s"', async (fields, message) => {
    const response = await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: productName(), ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 409 for a name the company already uses, whatever its case; another company may use it', async () => {
    const product = await newProduct(farm);
    const again = await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: product.ProductName.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error(m.productNameTaken(product.ProductName)));
    expect((await send('POST', '/add_spray_product', other.admin.token, { company_id: other.companyId, ProductName: product.ProductName })).status).toBe(200);
  });

  it('answers 403 to a Regular user and for another company', async () => {
    const name = productName();
    expect((await send('POST', '/add_spray_product', farm.regular.token, { company_id: farm.companyId, ProductName: name })).status).toBe(403);
    expect((await send('POST', '/add_spray_product', farm.admin.token, { company_id: other.companyId, ProductName: name })).status).toBe(403);
    const rows = await server.database.db.selectFrom('spray_products').select('id').where('name', '=', name).execute();
    expect(rows).toHaveLength(0);
  });

  it('adds one product for a repeated request with the same Idempotency-Key', async () => {
    const key = randomUUID();
    const fields = { company_id: farm.companyId, ProductName: productName('Replayed') };
    const first = await send('POST', '/add_spray_product', farm.admin.token, fields, 'json', { 'Idempotency-Key': key });
    const second = await send('POST', '/add_spray_product', farm.admin.token, fields, 'json', { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const rows = await server.database.db.selectFrom('spray_products').select('id').where('name', '=', fields.ProductName).execute();
    expect(rows).toHaveLength(1);
    expect(await auditEvents(farm.companyId, `Added spray product ${fields.ProductName}`)).toHaveLength(1);
  });

  it('keeps the client id a tablet chose, and answers 409 for one already taken', async () => {
    const clientId = randomUUID();
    const response = await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: productName(), client_id: clientId });
    expect(response.body.client_id).toBe(clientId);
    expect((await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: productName(), client_id: clientId })).status).toBe(409);
  });
});

describe('update_spray_product', () => {
  it('changes only the fields sent (multipart), clears blank ones, merges details, and records an audit event', async () => {
    const product = await newProduct(farm, { ActiveIngredient: 'spinosad', Rate: 1, RateUnit: 'ml/L', ReentryHours: 4, PreharvestDays: 1, Supplier: 'A', Lot: '7' });
    const response = await send('POST', '/update_spray_product', farm.admin.token, { ReentryHours: '24', RateUnit: '', Lot: '', Batch: 'B-2' }, 'form', undefined, { product_id: product.product_id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.productUpdated,
      product: { product_id: product.product_id, ProductName: product.ProductName, ActiveIngredient: 'spinosad', Rate: 1, RateUnit: null, ReentryHours: 24, PreharvestDays: 1, details: { Supplier: 'A', Batch: 'B-2' } },
    });
    expect((response.body.product as ProductBody).details).not.toHaveProperty('Lot');
    const events = await auditEvents(farm.companyId, `Updated spray product ${product.ProductName}`);
    expect(events).toHaveLength(1);
    expect(events[0]?.details).toMatchObject({ product_id: product.product_id });
  });

  it('renames a product (JSON), and answers 409 for a name another product has', async () => {
    const product = await newProduct(farm);
    const taken = await newProduct(farm);
    const renamed = productName('Renamed');
    expect((await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id, ProductName: renamed })).body).toMatchObject({ product: { ProductName: renamed } });
    // Its own name in another case is no clash.
    expect((await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id, ProductName: renamed.toUpperCase() })).status).toBe(200);
    const clash = await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id, ProductName: taken.ProductName.toLowerCase() });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual(error(m.productNameTaken(taken.ProductName)));
  });

  it('changes and records nothing when no field is sent', async () => {
    const product = await newProduct(farm);
    const response = await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id });
    expect(response.body).toMatchObject({ status: 'success', message: m.productUnchanged, product: { ProductName: product.ProductName } });
    expect(await auditEvents(farm.companyId, `Updated spray product ${product.ProductName}`)).toHaveLength(0);
  });

  it.each([
    [{ product_id: undefined }, m.productIdRequired],
    [{ product_id: 'x' }, m.productIdRequired],
    [{ ProductName: ' ' }, m.productNameRequired],
    [{ Rate: -3 }, m.rateInvalid],
    [{ ReentryHours: 'long' }, m.reentryInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const product = await newProduct(farm);
    const response = await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id, ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 to a Regular user and for another company’s product, 404 for a missing one', async () => {
    const product = await newProduct(farm);
    const theirs = await newProduct(other);
    expect((await send('POST', '/update_spray_product', farm.regular.token, { product_id: product.product_id, Rate: 1 })).status).toBe(403);
    expect((await send('POST', '/update_spray_product', farm.admin.token, { product_id: theirs.product_id, Rate: 1 })).status).toBe(403);
    expect((await send('POST', '/update_spray_product', farm.admin.token, { product_id: 2_000_000_000, Rate: 1 })).status).toBe(404);
  });
});

describe('delete_product', () => {
  it('soft-deletes the product with its treatments, frees its name, keeps past sprays, and records an audit event', async () => {
    const product = await newProduct(farm, { ReentryHours: 12 });
    const treatment = await newTreatment(farm, product.product_id);
    const sprayed = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]] });
    const response = await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: farm.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.productDeleted, product_id: product.product_id });
    const names = await get('/get_product_names', farm.regular.token, { company_id: farm.companyId });
    expect(names.body.productNames).not.toContain(product.ProductName);
    const treatments = await get('/get_all_treatment', farm.regular.token, { company_id: farm.companyId });
    expect((treatments.body.data as TreatmentBody[]).map((row) => row.treatment_id)).not.toContain(treatment.treatment_id);
    const events = await auditEvents(farm.companyId, `Deleted spray product ${product.ProductName}`);
    expect(events).toHaveLength(1);
    expect(events[0]?.details).toMatchObject({ product_id: product.product_id, treatment_ids: [treatment.treatment_id] });
    const application = await server.database.db.selectFrom('spray_applications').selectAll().where('id', '=', (sprayed.body.application as ApplicationBody).application_id).executeTakeFirstOrThrow();
    expect(application).toMatchObject({ deleted_at: null, product_name: product.ProductName });
    // A deleted product is missing; its name is free.
    expect((await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: farm.companyId })).status).toBe(404);
    expect((await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: product.ProductName })).status).toBe(200);
  });

  it('takes its fields from the query too', async () => {
    const product = await newProduct(farm);
    expect((await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: farm.companyId }, 'query')).status).toBe(200);
  });

  it.each([[{ product_id: undefined }], [{ company_id: undefined }]])('answers %o with the message', async (fields) => {
    const product = await newProduct(farm);
    const response = await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: farm.companyId, ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(m.productIdCompanyRequired));
  });

  it('answers 403 to a Regular user and for another company’s product or company', async () => {
    const product = await newProduct(farm);
    const theirs = await newProduct(other);
    expect((await send('DELETE', '/delete_product', farm.regular.token, { product_id: product.product_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('DELETE', '/delete_product', farm.admin.token, { product_id: theirs.product_id, company_id: farm.companyId })).status).toBe(403);
    expect((await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: other.companyId })).status).toBe(403);
    const row = await server.database.db.selectFrom('spray_products').select('deleted_at').where('id', '=', theirs.product_id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });
});

describe('get_product_names and get_product_details', () => {
  it('list the company’s live products to any member: names alphabetically, details with every field', async () => {
    const tenant = await createTenant(server);
    const zinc = await newProduct(tenant, { ProductName: 'zinc spray', ReentryHours: 4 });
    const bacillus = await newProduct(tenant, { ProductName: 'Bacillus thuringiensis', PreharvestDays: 0, Strain: 'kurstaki' });
    const dropped = await newProduct(tenant, { ProductName: 'Copper' });
    await send('DELETE', '/delete_product', tenant.admin.token, { product_id: dropped.product_id, company_id: tenant.companyId });
    await newProduct(other);
    const names = await get('/get_product_names', tenant.regular.token, { company_id: tenant.companyId });
    expect(names.body).toEqual({ status: 'success', productNames: ['Bacillus thuringiensis', 'zinc spray'] });
    const details = await get('/get_product_details', tenant.regular.token, { company_id: tenant.companyId });
    expect(details.body).toEqual({ status: 'success', products: [bacillus, zinc] });
    expect((details.body.products as ProductBody[])[0]).toMatchObject({ PreharvestDays: 0, details: { Strain: 'kurstaki' } });
  });

  it.each(['/get_product_names', '/get_product_details'])('%s answers the message without a company, and 403 for another company', async (path) => {
    expect((await get(path, farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get(path, farm.regular.token, { company_id: other.companyId })).status).toBe(403);
  });
});

describe('create_treatment', () => {
  it('creates a treatment from {treatment_type, data} with the product and sub-type inside data; any member; audited', async () => {
    const product = await newProduct(farm);
    const response = await send('POST', '/create_treatment', farm.regular.token, {
      treatment_type: 'biological',
      data: { product_id: product.product_id, sub_type: 'predatory mites', company_id: farm.companyId, organism: 'Amblyseius swirskii', release_rate: 50 },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.treatmentCreated,
      treatment: {
        treatment_type: 'biological',
        sub_type: 'predatory mites',
        product_id: product.product_id,
        data: { organism: 'Amblyseius swirskii', release_rate: 50 },
        removed: false,
        removed_at: null,
        company_id: farm.companyId,
        user_id: farm.regular.id,
      },
    });
    const treatment = response.body.treatment as TreatmentBody;
    expect(treatment.data).not.toHaveProperty('product_id');
    expect(response.body.treatment_id).toBe(treatment.treatment_id);
    const events = await auditEvents(farm.companyId, `Created biological treatment for ${product.ProductName}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id });
  });

  it('takes the product beside data (it wins over one inside), and data as JSON text from a form', async () => {
    const product = await newProduct(farm);
    const elsewhere = await newProduct(farm);
    const beside = await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'Chemical', product_id: product.product_id, data: { product_id: elsewhere.product_id, dose: '2 ml' } });
    expect(beside.body).toMatchObject({ treatment: { treatment_type: 'chemical', product_id: product.product_id, data: { dose: '2 ml' } } });
    const fromForm = await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'cultural', data: JSON.stringify({ product_id: product.product_id, step: 'remove lower leaves' }) }, 'form');
    expect(fromForm.body).toMatchObject({ treatment: { treatment_type: 'cultural', product_id: product.product_id, data: { step: 'remove lower leaves' }, sub_type: null } });
  });

  it.each([
    [{ treatment_type: undefined }, m.treatmentTypeInvalid],
    [{ treatment_type: 'magic' }, m.treatmentTypeInvalid],
    [{ data: undefined }, m.dataInvalid],
    [{ data: [1, 2] }, m.dataInvalid],
    [{ data: 'not json' }, m.dataInvalid],
    [{ data: { note: 'x'.repeat(FREE_FIELDS_MAX_CHARS) } }, m.dataInvalid],
    [{ product_id: undefined }, m.productIdRequired],
    [{ sub_type: 'x'.repeat(101) }, m.subTypeInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const product = await newProduct(farm);
    const response = await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'mechanical', data: {}, product_id: product.product_id, ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 409 for a second treatment of the type for the product (removed or not); another type is another treatment', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'chemical');
    const again = await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', data: { product_id: product.product_id } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error(m.treatmentExists('chemical')));
    await send('PATCH', '/delete_treatment', farm.admin.token, { treatment_type: 'chemical', company_id: farm.companyId, product_id: product.product_id });
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', data: { product_id: product.product_id } })).status).toBe(409);
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'biological', data: { product_id: product.product_id } })).status).toBe(200);
  });

  it('answers 403 for another company’s product (beside or inside data) or company, 404 for a missing product', async () => {
    const theirs = await newProduct(other);
    const product = await newProduct(farm);
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', data: { product_id: theirs.product_id } })).status).toBe(403);
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', product_id: theirs.product_id, data: {} })).status).toBe(403);
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', product_id: product.product_id, company_id: other.companyId, data: {} })).status).toBe(403);
    expect((await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', data: { product_id: 2_000_000_000 } })).status).toBe(404);
    const rows = await server.database.db.selectFrom('treatments').select('id').where('product_id', '=', theirs.product_id).execute();
    expect(rows).toHaveLength(0);
  });

  it('names the product by its client id too', async () => {
    const response = await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: productName() });
    const created = await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'chemical', data: { product_id: response.body.client_id } });
    expect(created.body).toMatchObject({ status: 'success', treatment: { product_id: response.body.product_id } });
  });
});

describe('get_treatment and get_all_treatment', () => {
  it('list the company’s treatments by type and product, removed ones with removed: true', async () => {
    const tenant = await createTenant(server);
    const first = await newProduct(tenant);
    const second = await newProduct(tenant);
    const bioFirst = await newTreatment(tenant, first.product_id, 'biological');
    const bioSecond = await newTreatment(tenant, second.product_id, 'biological');
    const chemFirst = await newTreatment(tenant, first.product_id, 'chemical');
    await send('PATCH', '/delete_treatment', tenant.admin.token, { treatment_type: 'biological', company_id: tenant.companyId, product_id: second.product_id });
    await newTreatment(other, (await newProduct(other)).product_id);

    const biological = await get('/get_treatment', tenant.regular.token, { treatment_type: 'biological', company_id: tenant.companyId });
    expect(biological.status).toBe(200);
    expect(biological.body).toEqual({
      status: 'success',
      data: [bioFirst, { ...bioSecond, removed: true, removed_at: expect.any(String), updated_at: expect.any(String) }],
    });
    const ofProduct = await get('/get_treatment', tenant.regular.token, { treatment_type: 'chemical', company_id: tenant.companyId, product_id: first.product_id });
    expect(ofProduct.body).toEqual({ status: 'success', data: [chemFirst] });
    const none = await get('/get_treatment', tenant.regular.token, { treatment_type: 'mechanical', company_id: tenant.companyId, product_id: first.product_id });
    expect(none.body).toEqual({ status: 'success', data: [] });

    const all = await get('/get_all_treatment', tenant.regular.token, { company_id: tenant.companyId });
    expect((all.body.data as TreatmentBody[]).map((row) => [row.treatment_id, row.removed])).toEqual([
      [bioFirst.treatment_id, false],
      [bioSecond.treatment_id, true],
      [chemFirst.treatment_id, false],
    ]);
  });

  it('answer the messages, and 403 for another company or its product', async () => {
    const theirs = await newProduct(other);
    expect((await get('/get_treatment', farm.regular.token, { company_id: farm.companyId })).body).toEqual(error(m.treatmentTypeInvalid));
    expect((await get('/get_treatment', farm.regular.token, { treatment_type: 'fire', company_id: farm.companyId })).body).toEqual(error(m.treatmentTypeInvalid));
    expect((await get('/get_treatment', farm.regular.token, { treatment_type: 'biological' })).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_treatment', farm.regular.token, { treatment_type: 'biological', company_id: other.companyId })).status).toBe(403);
    expect((await get('/get_treatment', farm.regular.token, { treatment_type: 'biological', company_id: farm.companyId, product_id: theirs.product_id })).status).toBe(403);
    expect((await get('/get_all_treatment', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_all_treatment', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
  });
});

describe('update_treatment', () => {
  it('replaces data (body) of the treatment named by the query, keeps its sub-type unless sent; any member; audited', async () => {
    const product = await newProduct(farm);
    await send('POST', '/create_treatment', farm.regular.token, { treatment_type: 'biological', sub_type: 'nematodes', data: { product_id: product.product_id, organism: 'Steinernema feltiae', rate: 1 } });
    const response = await send('PUT', '/update_treatment', farm.regular.token, { treatment_type: 'biological', data: { organism: 'Steinernema feltiae', rate: 2 } }, 'json', undefined, {
      company_id: farm.companyId,
      product_id: product.product_id,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.treatmentUpdated, treatment: { sub_type: 'nematodes', data: { organism: 'Steinernema feltiae', rate: 2 } } });
    const cleared = await send('PUT', '/update_treatment', farm.regular.token, { treatment_type: 'biological', data: {}, sub_type: '' }, 'json', undefined, { company_id: farm.companyId, product_id: product.product_id });
    expect(cleared.body).toMatchObject({ treatment: { sub_type: null, data: {} } });
    expect(await auditEvents(farm.companyId, `Updated biological treatment for ${product.ProductName}`)).toHaveLength(2);
  });

  it('edits a removed treatment too, which stays removed', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'mechanical');
    await send('PATCH', '/delete_treatment', farm.admin.token, { treatment_type: 'mechanical', company_id: farm.companyId, product_id: product.product_id });
    const response = await send('PUT', '/update_treatment', farm.regular.token, { treatment_type: 'mechanical', data: { tool: 'vacuum' } }, 'json', undefined, { company_id: farm.companyId, product_id: product.product_id });
    expect(response.body).toMatchObject({ treatment: { removed: true, data: { tool: 'vacuum' } } });
  });

  it('answers the messages, and 404 for a type the product has no treatment of', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'biological');
    const update = (fields: Fields, query: Fields) => send('PUT', '/update_treatment', farm.regular.token, fields, 'json', undefined, query as RequestOptions['query']);
    const here = { company_id: farm.companyId, product_id: product.product_id };
    expect((await update({ data: {} }, here)).body).toEqual(error(m.treatmentTypeInvalid));
    expect((await update({ treatment_type: 'biological' }, here)).body).toEqual(error(m.dataInvalid));
    expect((await update({ treatment_type: 'biological', data: {} }, { company_id: farm.companyId })).body).toEqual(error(m.productIdCompanyRequired));
    expect((await update({ treatment_type: 'biological', data: {} }, { product_id: product.product_id })).body).toEqual(error(m.productIdCompanyRequired));
    const missing = await update({ treatment_type: 'chemical', data: {} }, here);
    expect(missing.status).toBe(404);
  });

  it('answers 403 for another company’s product or company', async () => {
    const theirs = await newProduct(other);
    await newTreatment(other, theirs.product_id);
    const product = await newProduct(farm);
    const update = (query: Fields) => send('PUT', '/update_treatment', farm.regular.token, { treatment_type: 'biological', data: { x: 1 } }, 'json', undefined, query as RequestOptions['query']);
    expect((await update({ company_id: farm.companyId, product_id: theirs.product_id })).status).toBe(403);
    expect((await update({ company_id: other.companyId, product_id: product.product_id })).status).toBe(403);
    const row = await server.database.db.selectFrom('treatments').select('data').where('product_id', '=', theirs.product_id).executeTakeFirstOrThrow();
    expect(row.data).not.toHaveProperty('x');
  });
});

describe('delete_treatment', () => {
  it('is a toggle: removes at the act’s time, restores on a second call; each audited', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'chemical');
    const fields = { treatment_type: 'chemical', company_id: farm.companyId, product_id: product.product_id };
    const actedAt = new Date(Date.now() - 20 * 60_000).toISOString();
    const removed = await send('PATCH', '/delete_treatment', farm.admin.token, fields, 'json', { 'X-Acted-At': actedAt });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ status: 'success', message: m.treatmentRemoved, removed: true, treatment: { removed: true, removed_at: actedAt } });
    const restored = await send('PATCH', '/delete_treatment', farm.admin.token, fields, 'query');
    expect(restored.body).toMatchObject({ status: 'success', message: m.treatmentRestored, removed: false, treatment: { removed: false, removed_at: null } });
    expect(await auditEvents(farm.companyId, `Removed chemical treatment for ${product.ProductName}`)).toHaveLength(1);
    expect(await auditEvents(farm.companyId, `Restored chemical treatment for ${product.ProductName}`)).toHaveLength(1);
  });

  it('sets the state `removed` names, changing (and recording) nothing when it is already so', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'cultural');
    const fields = { treatment_type: 'cultural', company_id: farm.companyId, product_id: product.product_id, removed: true };
    expect((await send('PATCH', '/delete_treatment', farm.admin.token, fields)).body).toMatchObject({ removed: true, treatment: { removed: true } });
    expect((await send('PATCH', '/delete_treatment', farm.admin.token, fields)).body).toMatchObject({ removed: true, message: m.treatmentRemoved, treatment: { removed: true } });
    expect(await auditEvents(farm.companyId, `Removed cultural treatment for ${product.ProductName}`)).toHaveLength(1);
    expect((await send('PATCH', '/delete_treatment', farm.admin.token, { ...fields, removed: 'false' }, 'form')).body).toMatchObject({ removed: false });
  });

  it('answers the messages, 404 for a treatment that is not there, 403 to a Regular user and for another company’s product', async () => {
    const product = await newProduct(farm);
    await newTreatment(farm, product.product_id, 'biological');
    const theirs = await newProduct(other);
    await newTreatment(other, theirs.product_id, 'biological');
    const toggle = (token: string, fields: Fields) => send('PATCH', '/delete_treatment', token, { treatment_type: 'biological', company_id: farm.companyId, product_id: product.product_id, ...fields });
    expect((await toggle(farm.admin.token, { treatment_type: undefined })).body).toEqual(error(m.treatmentTypeInvalid));
    expect((await toggle(farm.admin.token, { product_id: undefined })).body).toEqual(error(m.productIdCompanyRequired));
    expect((await toggle(farm.admin.token, { company_id: undefined })).body).toEqual(error(m.productIdCompanyRequired));
    expect((await toggle(farm.admin.token, { removed: 'maybe' })).body).toEqual(error(m.removedInvalid));
    expect((await toggle(farm.admin.token, { treatment_type: 'chemical' })).status).toBe(404);
    expect((await toggle(farm.regular.token, {})).status).toBe(403);
    expect((await toggle(farm.admin.token, { product_id: theirs.product_id })).status).toBe(403);
    const row = await server.database.db.selectFrom('treatments').select('removed_at').where('product_id', '=', theirs.product_id).executeTakeFirstOrThrow();
    expect(row.removed_at).toBeNull();
  });
});

describe('link_treatment_products_gridboxes', () => {
  it('records a spray of a product on boxes (multipart, repeated Grid_boxIDs) with its re-entry and pre-harvest ends; each box audited', async () => {
    const product = await newProduct(farm, { ReentryHours: 12, PreharvestDays: 2 });
    const form = new FormData();
    form.append('ApplicationDate', '2026-03-02T08:30:00+01:00');
    form.append('product_id', String(product.product_id));
    form.append('QuantityUsed', '1.5');
    form.append('QuantityUnit', 'L');
    form.append('Notes', 'Morning, fans off');
    form.append('Grid_boxIDs', String(boxes[0]));
    form.append('Grid_boxIDs', String(boxes[1]));
    const response = await sendRaw('/link_treatment_products_gridboxes', farm.regular.token, form);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.productsLinked,
      application: {
        ApplicationDate: '2026-03-02T07:30:00.000Z',
        product_id: product.product_id,
        ProductName: product.ProductName,
        QuantityUsed: 1.5,
        QuantityUnit: 'L',
        Notes: 'Morning, fans off',
        Grid_boxIDs: [boxes[0], boxes[1]],
        reentry_until: '2026-03-02T19:30:00.000Z',
        preharvest_until: '2026-03-04T07:30:00.000Z',
        company_id: farm.companyId,
        user_id: farm.regular.id,
      },
    });
    const application = response.body.application as ApplicationBody;
    expect(response.body.application_id).toBe(application.application_id);
    const events = await auditEvents(farm.companyId, `Sprayed ${product.ProductName} (1.5 L)`);
    expect(events.map((event) => [event.grid_box_id, event.room_id, event.user_id])).toEqual([
      [boxes[0], roomId, farm.regular.id],
      [boxes[1], roomId, farm.regular.id],
    ]);
  });

  it('takes Grid_boxIDs as a JSON array, a comma list, a JSON array’s text or repeated urlencoded fields, once each', async () => {
    const product = await newProduct(farm);
    const asArray = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0], boxes[2], boxes[0]] });
    expect(asArray.body).toMatchObject({ application: { Grid_boxIDs: [boxes[0], boxes[2]] } });
    const asList = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: `${boxes[1]}, ${boxes[3]}` });
    expect(asList.body).toMatchObject({ application: { Grid_boxIDs: [boxes[1], boxes[3]] } });
    const asText = await send('POST', '/link_treatment_products_gridboxes', farm.regular.token, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: JSON.stringify([boxes[4]]) }, 'form');
    expect(asText.body).toMatchObject({ application: { Grid_boxIDs: [boxes[4]] } });
    const repeated = new URLSearchParams([
      ['product_id', String(product.product_id)],
      ['QuantityUsed', '3'],
      ['Grid_boxIDs', String(boxes[4])],
      ['Grid_boxIDs', String(boxes[5])],
    ]);
    expect((await sendRaw('/link_treatment_products_gridboxes', farm.regular.token, repeated)).body).toMatchObject({ application: { Grid_boxIDs: [boxes[4], boxes[5]] } });
  });

  it('names a product by ProductName (any case), or keeps an unknown name as free text without intervals', async () => {
    const product = await newProduct(farm, { ReentryHours: 4 });
    const byName = await spray(farm, { ProductName: product.ProductName.toUpperCase(), QuantityUsed: 2, Grid_boxIDs: [boxes[0]], ApplicationDate: '2026-03-01T10:00:00Z' });
    expect(byName.body).toMatchObject({ application: { product_id: product.product_id, ProductName: product.ProductName, reentry_until: '2026-03-01T14:00:00.000Z', preharvest_until: null } });
    const freeText = await spray(farm, { ProductName: 'Garlic tea (home-made)', QuantityUsed: 2, Grid_boxIDs: [boxes[0]] });
    expect(freeText.body).toMatchObject({ application: { product_id: null, ProductName: 'Garlic tea (home-made)', reentry_until: null, preharvest_until: null } });
  });

  it('keeps X-Acted-At as the application date when none is given', async () => {
    const product = await newProduct(farm, { ReentryHours: 1 });
    const actedAt = new Date(Date.now() - 45 * 60_000);
    const response = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]] }, { 'X-Acted-At': actedAt.toISOString() });
    expect(response.body).toMatchObject({
      application: { ApplicationDate: actedAt.toISOString(), reentry_until: new Date(actedAt.getTime() + 3_600_000).toISOString(), created_at: actedAt.toISOString() },
    });
    const events = await auditEvents(farm.companyId, `Sprayed ${product.ProductName} (1)`);
    expect(events.map((event) => event.created_at.toISOString())).toEqual([actedAt.toISOString()]);
  });

  it('keeps the intervals a spray was given when its product changes later', async () => {
    const product = await newProduct(farm, { ReentryHours: 48 });
    const sprayed = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]], ApplicationDate: '2026-03-01T00:00:00Z' });
    await send('POST', '/update_spray_product', farm.admin.token, { product_id: product.product_id, ReentryHours: 4 });
    const row = await server.database.db.selectFrom('spray_applications').select('reentry_until').where('id', '=', (sprayed.body.application as ApplicationBody).application_id).executeTakeFirstOrThrow();
    expect(row.reentry_until?.toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });

  it('names boxes and the product by their client ids too', async () => {
    const response = await send('POST', '/add_spray_product', farm.admin.token, { company_id: farm.companyId, ProductName: productName() });
    const boxClientIds = await clientIdsOf(server, 'grid_boxes', [boxes[1]!, boxes[2]!]);
    const sprayed = await spray(farm, { product_id: response.body.client_id, QuantityUsed: 1, Grid_boxIDs: boxClientIds });
    expect(sprayed.body).toMatchObject({ status: 'success', application: { product_id: response.body.product_id, Grid_boxIDs: [boxes[1], boxes[2]] } });
  });

  it.each([
    [{ product_id: undefined, ProductName: undefined }, m.productRequired],
    [{ product_id: undefined, ProductName: '  ' }, m.productRequired],
    [{ QuantityUsed: undefined }, m.quantityInvalid],
    [{ QuantityUsed: 0 }, m.quantityInvalid],
    [{ QuantityUsed: 'some' }, m.quantityInvalid],
    [{ Grid_boxIDs: undefined }, m.gridBoxesRequired],
    [{ Grid_boxIDs: [] }, m.gridBoxesRequired],
    [{ Grid_boxIDs: 'abc' }, m.gridBoxesRequired],
    [{ ApplicationDate: '2026-03-01' }, m.applicationDateInvalid],
    [{ ApplicationDate: '2026-03-01T10:00:00' }, m.applicationDateInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const product = await newProduct(farm);
    const response = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]], ...fields });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers 403 for another company’s boxes, product or company, and 404 for a missing box', async () => {
    const product = await newProduct(farm);
    const theirs = await newProduct(other);
    expect((await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0], otherBoxes[0]] })).status).toBe(403);
    expect((await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: `${boxes[0]},${otherBoxes[1]}` })).status).toBe(403);
    expect((await spray(farm, { product_id: theirs.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]] })).status).toBe(403);
    expect((await spray(farm, { product_id: product.product_id, company_id: other.companyId, QuantityUsed: 1, Grid_boxIDs: [boxes[0]] })).status).toBe(403);
    expect((await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [2_000_000_000] })).status).toBe(404);
    const rows = await server.database.db.selectFrom('spray_applications').select('id').where('product_id', 'in', [product.product_id, theirs.product_id]).execute();
    expect(rows).toHaveLength(0);
  });

  it('a SuperAdmin naming another company’s boxes for a company finds no such boxes there', async () => {
    const superAdmin = await createSuperAdmin(server);
    const response = await send('POST', '/link_treatment_products_gridboxes', superAdmin.token, { company_id: farm.companyId, ProductName: 'Water', QuantityUsed: 1, Grid_boxIDs: [otherBoxes[0]] });
    expect(response.status).toBe(404);
    const own = await send('POST', '/link_treatment_products_gridboxes', superAdmin.token, { company_id: farm.companyId, ProductName: 'Water', QuantityUsed: 1, Grid_boxIDs: [boxes[0]] });
    expect(own.body).toMatchObject({ status: 'success', application: { company_id: farm.companyId, user_id: superAdmin.id } });
  });

  it('records one spray for a repeated request with the same Idempotency-Key', async () => {
    const product = await newProduct(farm, { ReentryHours: 6 });
    const key = randomUUID();
    const fields = { product_id: product.product_id, QuantityUsed: 7, QuantityUnit: 'ml', Grid_boxIDs: [boxes[0], boxes[1]] };
    const first = await spray(farm, fields, { 'Idempotency-Key': key });
    const second = await spray(farm, fields, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const rows = await server.database.db.selectFrom('spray_applications').select('id').where('product_id', '=', product.product_id).execute();
    expect(rows).toHaveLength(1);
    expect(await auditEvents(farm.companyId, `Sprayed ${product.ProductName} (7 ml)`)).toHaveLength(2);
  });
});

describe('sync: products, treatments and sprays travel in the operations collection', () => {
  it('to the company’s tablets only, with removals and deletions', async () => {
    const product = await newProduct(farm, { ReentryHours: 12, PreharvestDays: 3 });
    const treatment = await newTreatment(farm, product.product_id, 'chemical');
    const sprayed = await spray(farm, { product_id: product.product_id, QuantityUsed: 1, Grid_boxIDs: [boxes[0]], ApplicationDate: '2026-03-01T06:00:00Z' });
    const application = sprayed.body.application as ApplicationBody;
    const ids = { product: `spray_product:${product.product_id}`, treatment: `treatment:${treatment.treatment_id}`, application: `spray_application:${application.application_id}` };
    const pulled = await pullUntil(server, farm.regular.token, 'operations', (documents) => Object.values(ids).every((id) => documents.has(id)));
    expect(pulled.get(ids.product)).toMatchObject({ kind: 'spray_product', _deleted: false, ProductName: product.ProductName, ReentryHours: 12, PreharvestDays: 3 });
    expect(pulled.get(ids.treatment)).toMatchObject({ kind: 'treatment', _deleted: false, treatment_type: 'chemical', product_id: product.product_id, removed: false });
    expect(pulled.get(ids.application)).toMatchObject({
      kind: 'spray_application',
      _deleted: false,
      Grid_boxIDs: [boxes[0]],
      reentry_until: '2026-03-01T18:00:00.000Z',
      preharvest_until: '2026-03-04T06:00:00.000Z',
    });
    const elsewhere = await pullUntil(server, other.regular.token, 'operations', () => true);
    expect(Object.values(ids).some((id) => elsewhere.has(id))).toBe(false);

    await send('PATCH', '/delete_treatment', farm.admin.token, { treatment_type: 'chemical', company_id: farm.companyId, product_id: product.product_id });
    const afterRemoval = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (documents) => documents.get(ids.treatment)?.removed === true);
    expect(afterRemoval.get(ids.treatment)).toMatchObject({ removed: true, _deleted: false });

    await send('DELETE', '/delete_product', farm.admin.token, { product_id: product.product_id, company_id: farm.companyId });
    const afterDeletion = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (documents) => documents.get(ids.product)?._deleted === true && documents.get(ids.treatment)?._deleted === true);
    expect(afterDeletion.get(ids.product)?._deleted).toBe(true);
    expect(afterDeletion.get(ids.treatment)?._deleted).toBe(true);
    expect(afterDeletion.get(ids.application)?._deleted).toBe(false);
  });
});

describe('offline: one push carries a product, its treatment and a spray that name each other by client id', () => {
  it('applies them in order, each once, and answers their documents', async () => {
    const productClientId = randomUUID();
    const boxClientIds = await clientIdsOf(server, 'grid_boxes', [boxes[2]!, boxes[3]!]);
    const actedAt = new Date(Date.now() - 30 * 60_000).toISOString();
    const name = productName('Pushed');
    const entries = [
      { id: randomUUID(), method: 'POST', path: '/add_spray_product', query: { company_id: farm.companyId }, body: { kind: 'json', data: { ProductName: name, ReentryHours: 2, client_id: productClientId } } },
      { id: randomUUID(), method: 'POST', path: '/create_treatment', body: { kind: 'json', data: { treatment_type: 'biological', data: { product_id: productClientId, organism: 'Orius' } } } },
      {
        id: randomUUID(),
        method: 'POST',
        path: '/link_treatment_products_gridboxes',
        actedAt,
        body: {
          kind: 'multipart',
          parts: [
            { name: 'product_id', value: productClientId },
            { name: 'QuantityUsed', value: '4' },
            ...boxClientIds.map((value) => ({ name: 'Grid_boxIDs', value })),
          ],
        },
      },
    ];
    const answer = await server.request<PushAnswer>('POST', '/sync/push', { token: farm.admin.token, json: { entries } });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((result) => result.status)).toEqual([200, 200, 200]);
    const product = await server.database.db.selectFrom('spray_products').select('id').where('client_id', '=', productClientId).executeTakeFirstOrThrow();
    const applications = await server.database.db.selectFrom('spray_applications').selectAll().where('product_id', '=', product.id).execute();
    expect(applications).toHaveLength(1);
    expect(applications[0]).toMatchObject({ grid_box_ids: [boxes[2], boxes[3]], quantity_used: 4 });
    expect(applications[0]?.application_date.toISOString()).toBe(actedAt);
    expect(applications[0]?.reentry_until?.toISOString()).toBe(new Date(Date.parse(actedAt) + 2 * 3_600_000).toISOString());
    const kinds = (answer.body.documents.operations ?? []).map((document) => document.kind);
    expect(kinds).toEqual(expect.arrayContaining(['spray_product', 'treatment', 'spray_application']));
  });
});
