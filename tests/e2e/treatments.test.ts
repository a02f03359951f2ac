/**
 * Treatments through their screen in a real Chromium against the real server: an Admin adds a spray
 * product (re-entry 12 h, pre-harvest 7 d) and a biological treatment for it, removes and restores the
 * treatment; a grower, offline, sprays three boxes picked on the grid: the spray shows at once as
 * waiting, with its re-entry end, and reaches the server once when the connection returns. A product
 * the server refuses (its name taken meanwhile) is marked on its card and in the screen's banner.
 * Every state is checked (screenshot and axe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treatmentMessages as m } from '../../common/messages/treatments';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { TreatmentsPage } from './treatments-page';

let e2e: E2E;
const HOUR_MS = 3_600_000;

describe.skipIf(skipBrowser)('treatments in Chromium', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('an Admin adds a product and a biological treatment, removes and restores it; a grower sprays three boxes offline', async () => {
    const farm = await createTenant(e2e.server);
    const room = await createRoom(e2e.server, farm.companyId, 'Flower room');
    const grid = await createGrid(e2e.server, farm.companyId, room, 3, 2, 'Bench A');

    // ——— The Admin ———
    const admin = await e2e.newPage();
    const app = new TreatmentsPage(admin.page);
    await app.signIn(farm.admin);
    await app.openTreatments();
    await app.page.getByText('No spray products yet. Add the first with “Add product”.').waitFor();
    expect(await app.typePicker().getByRole('radio', { name: 'Biological' }).isChecked()).toBe(true);
    await app.check('treatments-empty');

    // A product without a name: the server's own message under the form.
    await app.addProduct({ Rate: '2' });
    await expect.poll(() => app.productForm().getByRole('alert').textContent()).toBe(m.productNameRequired);
    await app.check('treatments-product-error');
    await app.productForm().getByRole('button', { name: 'Cancel' }).click();

    await app.addProduct({ 'Product name': 'Pyrethrin', 'Active ingredient': 'Pyrethrins', Rate: '2', 'Rate unit': 'ml/l', 'Re-entry interval (hours)': '12', 'Pre-harvest interval (days)': '7' });
    await app.product('Pyrethrin').waitFor();
    await expect.poll(() => app.product('Pyrethrin').textContent()).toContain('12 hours');
    await expect.poll(() => app.product('Pyrethrin').textContent()).toContain('7 days');
    await app.synced();
    const productRow = () => db().selectFrom('spray_products').selectAll().where('company_id', '=', farm.companyId).where('name', '=', 'Pyrethrin').where('deleted_at', 'is', null).execute();
    const [product] = await productRow();
    expect([product?.active_ingredient, product?.rate, product?.rate_unit, product?.reentry_hours, product?.preharvest_days]).toEqual(['Pyrethrins', 2, 'ml/l', 12, 7]);
    await expect.poll(() => app.product('Pyrethrin').getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);

    // Its biological treatment.
    const card = app.treatment('Biological', 'Pyrethrin');
    await card.getByRole('button', { name: 'Add biological treatment' }).click();
    const form = app.page.getByRole('form', { name: 'New biological treatment for Pyrethrin' });
    await form.getByLabel('Sub-type').fill('Predatory mites');
    await form.getByLabel('Notes').fill('Release 50 Amblyseius per m² after the spray has dried.');
    await app.check('treatments-treatment-form');
    await form.getByRole('button', { name: 'Add treatment' }).click();
    await expect.poll(() => card.textContent()).toContain('Predatory mites');
    await app.synced();
    const treatmentRows = () => db().selectFrom('treatments').selectAll().where('product_id', '=', product!.id).execute();
    expect((await treatmentRows()).map((row) => [row.treatment_type, row.sub_type, row.data, row.removed_at])).toEqual([
      ['biological', 'Predatory mites', { notes: 'Release 50 Amblyseius per m² after the spray has dried.' }, null],
    ]);
    await app.check('treatments-treatment');

    // Removed: still listed, as removed, with Restore; restored.
    await card.getByRole('button', { name: 'Remove' }).click();
    await card.getByText('Removed', { exact: true }).waitFor();
    await app.synced();
    expect((await treatmentRows()).map((row) => row.removed_at !== null)).toEqual([true]);
    await app.check('treatments-removed');
    await card.getByRole('button', { name: 'Restore' }).click();
    await card.getByRole('button', { name: 'Remove' }).waitFor();
    await app.synced();
    expect((await treatmentRows()).map((row) => row.removed_at)).toEqual([null]);
    // Another type shows what the product lacks.
    await app.typePicker().getByText('Chemical').click();
    await app.treatment('Chemical', 'Pyrethrin').getByRole('button', { name: 'Add chemical treatment' }).waitFor();
    await app.check('treatments-chemical');

    // ——— A grower, offline ———
    const grower = await e2e.newPage();
    const floor = new TreatmentsPage(grower.page);
    await floor.signIn(farm.regular);
    await floor.openTreatments();
    await floor.product('Pyrethrin').waitFor({ timeout: 30_000 });
    // A grower reads products: no Admin buttons.
    expect(await floor.page.getByRole('button', { name: 'Add product' }).count()).toBe(0);
    expect(await floor.product('Pyrethrin').getByRole('button').count()).toBe(0);
    await floor.recentSprays().or(floor.page.getByText('No sprays recorded yet.')).first().waitFor();

    await grower.context.setOffline(true);
    await floor.page.locator('.banner.offline').waitFor();
    await floor.choose(floor.sprayField('Room'), 'Flower room');
    await expect.poll(() => floor.sprayField('Grid').inputValue()).not.toBe('');
    for (const box of ['Box 1', 'Box 2', 'Box 3']) await floor.box(box).click();
    await floor.choose(floor.sprayField('Product'), 'Pyrethrin');
    await floor.sprayField('Quantity').fill('1.5');
    await floor.sprayField('Unit').fill('l');
    await floor.sprayField('Notes').fill('Against thrips');
    await floor.check('treatments-spray-filled');
    const before = Date.now();
    await floor.sprayForm().getByRole('button', { name: 'Spray 3 boxes' }).click();
    const spray = floor.recentSprays().getByRole('listitem').first();
    await spray.getByText('Waiting to sync').waitFor();
    await expect.poll(() => spray.textContent()).toContain('Re-entry until');
    await expect.poll(() => spray.textContent()).toContain('3 boxes');
    await expect.poll(() => floor.pending()).toBe('1');
    // The sprayed boxes now show their re-entry interval on the picker.
    await expect.poll(() => floor.box('Box 1').textContent()).toContain('REI until');
    expect(await floor.box('Box 4').textContent()).toBe('Box 4');
    await floor.check('treatments-spray-offline');

    await grower.context.setOffline(false);
    await floor.synced();
    // Boxes 1 to 3 are the first row (the company's grid order is by rows).
    const firstRow = (await db().selectFrom('grid_boxes').select('id').where('grid_id', '=', grid.id).where('y', '=', 1).execute()).map((box) => box.id);
    const sprays = await db().selectFrom('spray_applications').selectAll().where('company_id', '=', farm.companyId).execute();
    expect(sprays).toHaveLength(1);
    const row = sprays[0]!;
    expect([row.product_id, row.product_name, row.quantity_used, row.quantity_unit, row.notes, [...row.grid_box_ids].sort((a, b) => a - b)]).toEqual([
      product!.id,
      'Pyrethrin',
      1.5,
      'l',
      'Against thrips',
      firstRow.sort((a, b) => a - b),
    ]);
    // Sprayed when the grower pressed the button, offline, not when it synced.
    expect(row.application_date.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(row.reentry_until?.getTime()).toBe(row.application_date.getTime() + 12 * HOUR_MS);
    expect(row.preharvest_until?.getTime()).toBe(row.application_date.getTime() + 7 * 24 * HOUR_MS);
    await expect.poll(() => spray.getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    await floor.check('treatments-spray-synced');

    // ——— A product refused by the server: its name was taken while the Admin was offline ———
    await admin.context.setOffline(true);
    await app.page.locator('.banner.offline').waitFor();
    const taken = await e2e.server.request('POST', '/add_spray_product', { token: farm.admin.token, json: { company_id: farm.companyId, ProductName: 'Neem oil' } });
    expect(taken.status).toBe(200);
    await app.addProduct({ 'Product name': 'Neem oil' });
    await app.product('Neem oil').getByText('Waiting to sync').waitFor();
    await app.check('treatments-offline');
    await admin.context.setOffline(false);
    const refused = app.products().getByRole('listitem').filter({ hasText: `Not accepted: ${m.productNameTaken('Neem oil')}` });
    await refused.waitFor({ timeout: 30_000 });
    await expect.poll(() => app.page.locator('.banner.error').textContent()).toContain('not accepted by the server');
    await app.check('treatments-refused');
    expect((await db().selectFrom('spray_products').select('id').where('company_id', '=', farm.companyId).where('name', '=', 'Neem oil').execute()).length).toBe(1);

    expect(admin.errors).toEqual([]);
    expect(grower.errors).toEqual([]);
  });
});
