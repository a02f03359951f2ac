import { describe, expect, it } from 'vitest';
import { isClientId } from '../../../common/client-ids';
import { httpMessages } from '../../../common/messages/http';
import { PREHARVEST_DAYS_MAX, REENTRY_HOURS_MAX, treatmentMessages as m } from '../../../common/messages/treatments';
import { ApiError } from '../../../src/api/context';
import {
  addSprayProduct,
  createTreatment,
  deleteProduct,
  getAllTreatment,
  getProductDetails,
  getProductNames,
  getTreatment,
  sprayBoxes,
  toggleTreatment,
  updateSprayProduct,
  updateTreatment,
} from '../../../src/api/treatments';
import type { Tablet } from '../../support/client';
import { clientIdsOf, createGrid, createRoom } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const { tablet } = fleet;
let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}`;
const HOUR_MS = 3_600_000;

async function reconnect(device: Tablet) {
  await fleet.reconnect(device);
  expect(await device.outbox.count()).toBe(0);
}

const db = () => fleet.server.database.db;
const local = async (device: Tablet, id: string) => (await device.database.operations.findOne(id).exec())?.toMutableJSON() ?? null;
const ofKind = async (device: Tablet, kind: string) => (await device.database.operations.find({ selector: { kind } }).exec()).map((document) => document.toMutableJSON());

/** A product made on the server by the farm's Admin (as another tablet would), pulled by `device`: its integer id and its client id. */
async function serverProduct(device: Tablet, fields: Record<string, unknown> = {}) {
  const response = await fleet.server.request<{ product_id: number; client_id: string }>('POST', '/add_spray_product', {
    token: fleet.farm.admin.token,
    json: { company_id: fleet.farm.companyId, ProductName: unique('Product'), ReentryHours: 12, PreharvestDays: 7, ...fields },
  });
  expect(response.status).toBe(200);
  await device.engine.settle();
  return { id: response.body.product_id, key: response.body.client_id };
}

/** A grid of three boxes in a new room of the farm, pulled by `device`: the boxes' integer ids and client ids. */
async function threeBoxes(device: Tablet) {
  const room = await createRoom(fleet.server, fleet.farm.companyId);
  const grid = await createGrid(fleet.server, fleet.farm.companyId, room, 3, 1);
  await device.engine.syncNow();
  await device.engine.settle();
  return { ids: grid.boxIds, keys: await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds) };
}

describe('add_spray_product', () => {
  const input = () => ({ companyId: fleet.farm.companyId, productName: unique('Neem oil') });

  it('checks the company, the name and the amounts with the server’s messages', async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(addSprayProduct(device.context, { ...input(), companyId: undefined as never }), m.companyIdRequired);
    await rejects(addSprayProduct(device.context, { ...input(), productName: '   ' }), m.productNameRequired);
    await rejects(addSprayProduct(device.context, { ...input(), rate: -1 }), m.rateInvalid);
    await rejects(addSprayProduct(device.context, { ...input(), reentryHours: REENTRY_HOURS_MAX + 1 }), m.reentryInvalid);
    await rejects(addSprayProduct(device.context, { ...input(), preharvestDays: 'seven' }), m.preharvestInvalid);
    await rejects(addSprayProduct(device.context, { ...input(), preharvestDays: PREHARVEST_DAYS_MAX + 1 }), m.preharvestInvalid);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is in the local list at once under its client id, reaches the server once, and the server’s copy replaces it', async () => {
    const device = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    const name = unique('Neem oil');
    // Typed amounts arrive as text; blank ones are left out.
    const { product_id } = await addSprayProduct(device.context, { companyId: fleet.farm.companyId, productName: ` ${name} `, activeIngredient: 'Azadirachtin', rate: '2.5', rateUnit: 'ml/l', reentryHours: '12', preharvestDays: '' });
    expect(isClientId(product_id)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/add_spray_product',
      fallbackMessage: m.addProductFailed,
      body: { kind: 'json', data: { company_id: fleet.farm.companyId, ProductName: name, ActiveIngredient: 'Azadirachtin', Rate: 2.5, RateUnit: 'ml/l', ReentryHours: 12, client_id: product_id } },
    });
    expect(entry?.creates).toEqual([product_id]);
    const offline = await local(device, product_id);
    expect(offline).toMatchObject({ kind: 'spray_product', product_id, ProductName: name, Rate: 2.5, ReentryHours: 12, PreharvestDays: null });
    expect(offline).not.toHaveProperty('serverId');
    // The same name again (any case) is refused on the tablet, before it could fail in the outbox.
    await rejects(addSprayProduct(device.context, { companyId: fleet.farm.companyId, productName: name.toUpperCase() }), m.productNameTaken(name));

    await reconnect(device);
    const rows = await db().selectFrom('spray_products').selectAll().where('company_id', '=', fleet.farm.companyId).where('name', '=', name).execute();
    expect(rows.map((row) => [row.client_id, row.active_ingredient, row.rate, row.reentry_hours, row.preharvest_days])).toEqual([[product_id, 'Azadirachtin', 2.5, 12, null]]);
    expect(await local(device, product_id)).toMatchObject({ product_id, serverId: rows[0]?.id, ProductName: name });
    expect(await fleet.notFromServer(device)).toEqual([]);
  });
});

describe('update_spray_product and delete_product', () => {
  it('checks the product and the amounts', async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(updateSprayProduct(device.context, { productId: undefined as never, companyId: fleet.farm.companyId, rate: 1 }), m.productIdRequired);
    await rejects(updateSprayProduct(device.context, { productId: 1, companyId: fleet.farm.companyId, productName: ' ' }), m.productNameRequired);
    await rejects(updateSprayProduct(device.context, { productId: 1, companyId: fleet.farm.companyId, reentryHours: -1 }), m.reentryInvalid);
    await rejects(deleteProduct(device.context, { productId: undefined as never, companyId: fleet.farm.companyId }), m.productIdCompanyRequired);
    await rejects(deleteProduct(device.context, { productId: 1, companyId: undefined as never }), m.productIdCompanyRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('changes only the fields given (blank clears), at once and on the server; a deleted product takes its treatments', async () => {
    const device = await tablet(fleet.farm.admin);
    const product = await serverProduct(device, { ActiveIngredient: 'Spinosad', Rate: 1 });
    const other = await serverProduct(device);
    fleet.proxy.setOnline(false);
    await rejects(updateSprayProduct(device.context, { productId: product.key, companyId: fleet.farm.companyId, productName: (await local(device, other.key))?.ProductName as string }), m.productNameTaken((await local(device, other.key))?.ProductName as string));
    const name = unique('Renamed');
    await updateSprayProduct(device.context, { productId: product.key, companyId: fleet.farm.companyId, productName: name, rate: '', reentryHours: 24 });
    const [entry] = await device.outbox.all();
    expect(entry?.body).toEqual({ kind: 'json', data: { product_id: product.key, company_id: fleet.farm.companyId, ProductName: name, Rate: null, ReentryHours: 24 } });
    expect(await local(device, product.key)).toMatchObject({ ProductName: name, ActiveIngredient: 'Spinosad', Rate: null, ReentryHours: 24, PreharvestDays: 7 });

    const { treatment_id } = await createTreatment(device.context, { companyId: fleet.farm.companyId, productId: other.key, treatmentType: 'chemical', data: { notes: 'Spot only' } });
    await deleteProduct(device.context, { productId: other.key, companyId: fleet.farm.companyId });
    expect(await local(device, other.key)).toBeNull();
    expect(await local(device, treatment_id)).toBeNull();

    await reconnect(device);
    const row = await db().selectFrom('spray_products').selectAll().where('id', '=', product.id).executeTakeFirstOrThrow();
    expect([row.name, row.active_ingredient, row.rate, row.reentry_hours, row.preharvest_days]).toEqual([name, 'Spinosad', null, 24, 7]);
    const gone = await db().selectFrom('spray_products').select('deleted_at').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(gone.deleted_at).not.toBeNull();
    const treatments = await db().selectFrom('treatments').select(['client_id', 'deleted_at']).where('product_id', '=', other.id).execute();
    expect(treatments.map((treatment) => [treatment.client_id, treatment.deleted_at !== null])).toEqual([[treatment_id, true]]);
    expect(await local(device, other.key)).toBeNull();
    expect(await local(device, treatment_id)).toBeNull();
    expect(await local(device, product.key)).toMatchObject({ serverId: product.id, ProductName: name, Rate: null });
  });
});

describe('treatments', () => {
  it('check the type, the product and the data', async () => {
    const device = await tablet(fleet.farm.admin);
    const input = { companyId: fleet.farm.companyId, productId: 1, treatmentType: 'biological' };
    await rejects(createTreatment(device.context, { ...input, treatmentType: 'magic' }), m.treatmentTypeInvalid);
    await rejects(createTreatment(device.context, { ...input, productId: undefined as never }), m.productIdRequired);
    await rejects(createTreatment(device.context, { ...input, data: { notes: 'x'.repeat(20_001) } }), m.dataInvalid);
    await rejects(createTreatment(device.context, { ...input, subType: 'y'.repeat(101) }), m.subTypeInvalid);
    await rejects(updateTreatment(device.context, { ...input, productId: undefined as never, data: {} }), m.productIdCompanyRequired);
    await rejects(updateTreatment(device.context, { ...input, treatmentType: '', data: {} }), m.treatmentTypeInvalid);
    await rejects(toggleTreatment(device.context, { ...input, companyId: undefined as never }), m.productIdCompanyRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('made, edited, removed and restored offline (on a product made offline too) reach the server once', async () => {
    const device = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    const name = unique('Beneficial mites');
    const { product_id } = await addSprayProduct(device.context, { companyId: fleet.farm.companyId, productName: name, reentryHours: 0 });
    const { treatment_id, treatment } = await createTreatment(device.context, { companyId: fleet.farm.companyId, productId: product_id, treatmentType: ' Biological ', subType: 'Predatory mites', data: { notes: 'Release 50 per m²' } });
    expect(treatment).toMatchObject({ treatment_type: 'biological', sub_type: 'Predatory mites', product_id, removed: false, user_id: fleet.farm.admin.id });
    await rejects(createTreatment(device.context, { companyId: fleet.farm.companyId, productId: product_id, treatmentType: 'biological' }), m.treatmentExists('biological'));
    await updateTreatment(device.context, { companyId: fleet.farm.companyId, productId: product_id, treatmentType: 'biological', data: { notes: 'Release 100 per m²' } });
    expect(await local(device, treatment_id)).toMatchObject({ data: { notes: 'Release 100 per m²' }, sub_type: 'Predatory mites' });
    expect(await toggleTreatment(device.context, { companyId: fleet.farm.companyId, productId: product_id, treatmentType: 'biological' })).toEqual({ removed: true });
    expect(await local(device, treatment_id)).toMatchObject({ removed: true });
    expect(await toggleTreatment(device.context, { companyId: fleet.farm.companyId, productId: product_id, treatmentType: 'biological' })).toEqual({ removed: false });
    expect(await local(device, treatment_id)).toMatchObject({ removed: false, removed_at: null });
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.method, entry.path])).toEqual([
      ['POST', '/add_spray_product'],
      ['POST', '/create_treatment'],
      ['PUT', '/update_treatment'],
      ['PATCH', '/delete_treatment'],
      ['PATCH', '/delete_treatment'],
    ]);
    // Each toggle names the state it means, so a replay cannot undo it.
    expect(entries.slice(3).map((entry) => (entry.body as { data: { removed: boolean } }).data.removed)).toEqual([true, false]);

    await reconnect(device);
    const products = await db().selectFrom('spray_products').selectAll().where('name', '=', name).execute();
    expect(products.map((product) => product.client_id)).toEqual([product_id]);
    const rows = await db().selectFrom('treatments').selectAll().where('product_id', '=', products[0]!.id).execute();
    expect(rows.map((row) => [row.client_id, row.treatment_type, row.sub_type, row.data, row.removed_at])).toEqual([[treatment_id, 'biological', 'Predatory mites', { notes: 'Release 100 per m²' }, null]]);
    const audit = await db().selectFrom('audit_events').select('event_title').where('company_id', '=', fleet.farm.companyId).where('event_title', 'like', `%treatment for ${name}`).orderBy('id').execute();
    expect(audit.map((event) => event.event_title)).toEqual([
      `Created biological treatment for ${name}`,
      `Updated biological treatment for ${name}`,
      `Removed biological treatment for ${name}`,
      `Restored biological treatment for ${name}`,
    ]);
    expect(await local(device, treatment_id)).toMatchObject({ treatment_id, serverId: rows[0]?.id, product_id, removed: false, data: { notes: 'Release 100 per m²' } });
    expect(await fleet.notFromServer(device)).toEqual([]);
  });

  it('are read from the server: get_treatment, get_all_treatment, get_product_names, get_product_details', async () => {
    const device = await tablet();
    const product = await serverProduct(device);
    const made = await fleet.server.request<{ treatment_id: number }>('POST', '/create_treatment', {
      token: fleet.farm.regular.token,
      json: { treatment_type: 'cultural', data: { notes: 'Remove lower leaves' }, product_id: product.id, company_id: fleet.farm.companyId },
    });
    expect(made.status).toBe(200);
    const byType = await getTreatment(device.context, { companyId: fleet.farm.companyId, treatmentType: 'cultural', productId: product.id });
    expect(byType.data.map((treatment) => [treatment.treatment_id, treatment.data])).toEqual([[made.body.treatment_id, { notes: 'Remove lower leaves' }]]);
    expect((await getAllTreatment(device.context, { companyId: fleet.farm.companyId })).data.map((treatment) => treatment.treatment_id)).toContain(made.body.treatment_id);
    const name = (await local(device, product.key))?.ProductName as string;
    expect((await getProductNames(device.context, { companyId: fleet.farm.companyId })).productNames).toContain(name);
    expect((await getProductDetails(device.context, { companyId: fleet.farm.companyId })).products.find((each) => each.product_id === product.id)).toMatchObject({ ProductName: name, ReentryHours: 12, PreharvestDays: 7 });
    await rejects(getTreatment(device.context, { companyId: fleet.farm.companyId, treatmentType: 'weeding' }), m.treatmentTypeInvalid);
    await rejects(getProductNames(device.context, { companyId: undefined as never }), m.companyIdRequired);

    fleet.proxy.setOnline(false);
    await rejects(getTreatment(device.context, { companyId: fleet.farm.companyId, treatmentType: 'cultural' }), m.fetchTreatmentFailed, ApiError);
    await rejects(getAllTreatment(device.context, { companyId: fleet.farm.companyId }), m.fetchAllTreatmentFailed, ApiError);
    await rejects(getProductNames(device.context, { companyId: fleet.farm.companyId }), m.fetchProductNamesFailed, ApiError);
    await rejects(getProductDetails(device.context, { companyId: fleet.farm.companyId }), m.fetchProductDetailsFailed, ApiError);
  });

  it('a Regular user’s removal is refused by the server and kept as failed, with its message', async () => {
    const device = await tablet();
    const product = await serverProduct(device);
    await createTreatment(device.context, { companyId: fleet.farm.companyId, productId: product.key, treatmentType: 'biological' });
    await device.engine.settle();
    await toggleTreatment(device.context, { companyId: fleet.farm.companyId, productId: product.key, treatmentType: 'biological' });
    await device.engine.settle();
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ path: '/delete_treatment', state: 'failed' });
    expect(entry?.error).toBe(httpMessages.roleForbidden);
    const row = await db().selectFrom('treatments').select('removed_at').where('product_id', '=', product.id).executeTakeFirstOrThrow();
    expect(row.removed_at).toBeNull();
  });
});

describe('link_treatment_products_gridboxes', () => {
  it('checks the boxes, the quantity, the product and the date', async () => {
    const device = await tablet();
    const input = { companyId: fleet.farm.companyId, productId: 1, quantityUsed: 2, gridBoxIds: [1] };
    await rejects(sprayBoxes(device.context, { ...input, gridBoxIds: [] }), m.gridBoxesRequired);
    for (const quantityUsed of [0, -1, '', 'lots']) await rejects(sprayBoxes(device.context, { ...input, quantityUsed }), m.quantityInvalid);
    await rejects(sprayBoxes(device.context, { ...input, productId: null }), m.productRequired);
    await rejects(sprayBoxes(device.context, { ...input, productId: null, productName: '  ' }), m.productRequired);
    await rejects(sprayBoxes(device.context, { ...input, applicationDate: '2025-05-01' }), m.applicationDateInvalid);
    expect(await device.outbox.count()).toBe(0);
  });

  it('a spray made offline shows at once with its re-entry end, keeps its time, and reaches the server once', async () => {
    const device = await tablet();
    const product = await serverProduct(device);
    const boxes = await threeBoxes(device);
    fleet.proxy.setOnline(false);
    const { application_id, application } = await sprayBoxes(device.context, { companyId: fleet.farm.companyId, productId: product.key, quantityUsed: '1.5', quantityUnit: 'l', notes: 'Whole bench', gridBoxIds: boxes.keys });
    const sprayedAt = new Date(application.ApplicationDate).getTime();
    expect(application).toMatchObject({ product_id: product.key, QuantityUsed: 1.5, QuantityUnit: 'l', Grid_boxIDs: boxes.keys, user_id: fleet.farm.regular.id });
    expect(new Date(application.reentry_until ?? '').getTime()).toBe(sprayedAt + 12 * HOUR_MS);
    expect(new Date(application.preharvest_until ?? '').getTime()).toBe(sprayedAt + 7 * 24 * HOUR_MS);
    expect(await local(device, application_id)).toMatchObject({ kind: 'spray_application', application_id, Grid_boxIDs: boxes.keys, reentry_until: application.reentry_until });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/link_treatment_products_gridboxes', creates: [application_id], fallbackMessage: m.linkProductsFailed });
    expect(entry?.body).toEqual({
      kind: 'json',
      data: { company_id: fleet.farm.companyId, product_id: product.key, QuantityUsed: 1.5, QuantityUnit: 'l', Notes: 'Whole bench', ApplicationDate: application.ApplicationDate, Grid_boxIDs: boxes.keys, client_id: application_id },
    });

    await reconnect(device);
    const rows = await db().selectFrom('spray_applications').selectAll().where('client_id', '=', application_id).execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect([row.product_id, row.quantity_used, row.quantity_unit, row.notes, [...row.grid_box_ids].sort((a, b) => a - b)]).toEqual([product.id, 1.5, 'l', 'Whole bench', [...boxes.ids].sort((a, b) => a - b)]);
    // The spray keeps the moment the grower recorded it, not the sync's.
    expect(row.application_date.getTime()).toBe(sprayedAt);
    expect(row.reentry_until?.getTime()).toBe(sprayedAt + 12 * HOUR_MS);
    const stored = await local(device, application_id);
    expect(stored).toMatchObject({ serverId: row.id, product_id: product.key, ApplicationDate: application.ApplicationDate, reentry_until: application.reentry_until, preharvest_until: application.preharvest_until });
    expect([...(stored?.Grid_boxIDs as string[])].sort()).toEqual([...boxes.keys].sort());
    expect((await ofKind(device, 'spray_application')).filter((document) => document.application_id === application_id)).toHaveLength(1);
    expect(await fleet.notFromServer(device)).toEqual([]);
  });

  it('keeps a date given, and a product named by a name the company has not is free text without intervals', async () => {
    const device = await tablet();
    const boxes = await threeBoxes(device);
    const yesterday = new Date(Date.now() - 24 * HOUR_MS);
    yesterday.setMilliseconds(0);
    fleet.proxy.setOnline(false);
    const name = unique('Garlic tea');
    const { application_id, application } = await sprayBoxes(device.context, { companyId: fleet.farm.companyId, productName: name, quantityUsed: 3, applicationDate: yesterday.toISOString(), gridBoxIds: [boxes.keys[0]!] });
    expect(application).toMatchObject({ product_id: null, ProductName: name, ApplicationDate: yesterday.toISOString(), reentry_until: null, preharvest_until: null });

    await reconnect(device);
    const row = await db().selectFrom('spray_applications').selectAll().where('client_id', '=', application_id).executeTakeFirstOrThrow();
    expect([row.product_id, row.product_name, row.application_date.getTime(), row.reentry_until, row.grid_box_ids]).toEqual([null, name, yesterday.getTime(), null, [boxes.ids[0]]]);
    expect(await local(device, application_id)).toMatchObject({ serverId: row.id, ProductName: name, reentry_until: null });
  });
});
