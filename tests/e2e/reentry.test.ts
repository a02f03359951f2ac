/**
 * Re-entry and pre-harvest flags (issue 14) in a real Chromium against the real server: sprays
 * recorded through the server's API reach the tablet in its local store; the room marks exactly the
 * sprayed boxes with when their re-entry interval ends (also offline, after a reload with no network),
 * and harvesting a batch on those boxes warns with the date it becomes safe and asks to confirm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SprayApplicationRecord, SprayProductRecord } from '../../common/schemas/treatments';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createGrid, createRoom, createTenant } from '../support/factories';
import { BatchesPage } from './batches-page';
import { RoomsPage } from './rooms-page';

let e2e: E2E;

const db = () => e2e.server.database.db;

/** "HH:MM" on the tablet's clock (the browser runs in this machine's time zone, as the test does). */
const clock = (iso: string) => {
  const date = new Date(iso);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

describe.skipIf(skipBrowser)('re-entry markers and the pre-harvest warning in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('marks exactly the sprayed boxes with the re-entry end, also offline, and warns before harvesting their batch', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room R');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench R');
    const batchId = await createBatch(e2e.server, farm.companyId, 'PHI-1');
    const [first, second] = grid.boxIds as [number, number];
    const call = async <T,>(path: string, json: unknown, query?: Record<string, number>) => {
      const response = await e2e.server.request<T>('POST', path, { token: farm.admin.token, json, query });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    await call('/link_gridbox_batch', { batch_id: batchId, grid_box_ids: [first, second] });
    const { product } = await call<{ product: SprayProductRecord }>('/add_spray_product', { ProductName: 'Abamectin 1.8% EC', ReentryHours: 12, PreharvestDays: 7 }, { company_id: farm.companyId });
    const { application } = await call<{ application: SprayApplicationRecord }>('/link_treatment_products_gridboxes', {
      product_id: product.product_id,
      QuantityUsed: 2,
      QuantityUnit: 'L',
      Grid_boxIDs: [first, second],
    });
    const reentryUntil = application.reentry_until as string;
    const preharvestUntil = application.preharvest_until as string;
    expect(Date.parse(reentryUntil)).toBeGreaterThan(Date.now());

    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new RoomsPage(page);
    await app.signIn(farm.admin);
    await app.openRooms();
    await app.openRoom('Flower room R');

    // Exactly the two sprayed boxes carry the marker: the letters "REI" and the end, and their names say until when.
    const markers = app.grid('Bench R').locator('.box-reentry');
    await expect.poll(() => markers.count(), { timeout: 30_000 }).toBe(2);
    for (const [x, y] of [
      [1, 1],
      [2, 1],
    ] as const) {
      expect(await app.box('Bench R', x, y).locator('.box-reentry').textContent()).toMatch(new RegExp(`^REI .*${clock(reentryUntil)}$`));
      expect(await app.box('Bench R', x, y).getAttribute('aria-label')).toMatch(new RegExp(`re-entry until (.* )?${clock(reentryUntil)}$`));
    }
    for (const [x, y] of [
      [3, 1],
      [1, 2],
      [2, 2],
      [3, 2],
    ] as const) {
      expect(await app.box('Bench R', x, y).getAttribute('aria-label')).not.toContain('re-entry');
    }
    await app.shot('reentry-room');

    // The box panel says until when, first.
    await app.openBox('Bench R', 1, 1);
    const notice = app.panel().getByRole('region', { name: 'Re-entry' });
    expect(await notice.textContent()).toContain('Sprayed with Abamectin 1.8% EC: re-entry until');
    expect(await notice.locator('time').getAttribute('datetime')).toBe(reentryUntil);
    await app.checkScreen('reentry-box-panel');
    await app.closePanel();
    await app.openBox('Bench R', 3, 1);
    expect(await app.panel().getByRole('region', { name: 'Re-entry' }).count()).toBe(0);
    await app.closePanel();

    // Offline, after a reload: the markers come from the local store.
    expect(await app.activeServiceWorker()).not.toBeNull();
    await expect.poll(() => app.controller()).not.toBeNull();
    await context.setOffline(true);
    await app.reload();
    await app.rendered('Flower room R');
    await expect.poll(() => markers.count(), { timeout: 30_000 }).toBe(2);
    expect(await app.box('Bench R', 1, 1).getAttribute('aria-label')).toMatch(new RegExp(`re-entry until (.* )?${clock(reentryUntil)}$`));
    expect(await app.box('Bench R', 2, 1).locator('.box-reentry').count()).toBe(1);

    // Harvesting the batch, still offline: the warning with the date it becomes safe, and a question.
    const batches = new BatchesPage(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Batches' }).click();
    await batches.rendered('Batches');
    let sheet = await batches.openBatch('PHI-1');
    await sheet.getByRole('button', { name: 'Harvest', exact: true }).click();
    sheet = batches.sheet('Harvest batch PHI-1');
    const warning = sheet.getByRole('alert');
    await expect.poll(() => warning.textContent()).toContain('Abamectin 1.8% EC was sprayed on 2 of its plant positions: safe to harvest from');
    expect(await warning.locator('time').getAttribute('datetime')).toBe(preharvestUntil);
    expect(await sheet.getByText('Harvest batch PHI-1 anyway?').isVisible()).toBe(true);
    await batches.checkScreen('reentry-harvest-warning');

    // Cancelling leaves it unharvested.
    await sheet.getByRole('button', { name: 'Cancel' }).click();
    sheet = batches.sheet('Batch PHI-1');
    expect(await sheet.getByRole('button', { name: 'Harvest', exact: true }).isEnabled()).toBe(true);
    expect(await app.pending()).toBe('0');

    // Confirming harvests it: at once here, on the server when the connection returns.
    await sheet.getByRole('button', { name: 'Harvest', exact: true }).click();
    await batches.sheet('Harvest batch PHI-1').getByRole('button', { name: 'Harvest anyway' }).click();
    sheet = batches.sheet('Batch PHI-1');
    await expect.poll(() => sheet.getByRole('button', { name: 'Harvested' }).isDisabled()).toBe(true);
    await expect.poll(() => app.pending()).toBe('1');
    expect((await db().selectFrom('batches').select('harvested_at').where('id', '=', batchId).executeTakeFirstOrThrow()).harvested_at).toBeNull();
    await context.setOffline(false);
    await app.synced();
    expect(await db().selectFrom('batches').select(['batch_status', 'harvested_at']).where('id', '=', batchId).executeTakeFirstOrThrow()).toMatchObject({ batch_status: 'Harvested', harvested_at: expect.any(Date) });
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('asks plainly, without a warning, to harvest a batch whose boxes were not sprayed', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg room R');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench V');
    const batchId = await createBatch(e2e.server, farm.companyId, 'CLEAN-1');
    const linked = await e2e.server.request('POST', '/link_gridbox_batch', { token: farm.admin.token, json: { batch_id: batchId, grid_box_ids: [grid.boxIds[0]] } });
    expect(linked.status).toBe(200);
    const added = await e2e.server.request<{ product: SprayProductRecord }>('POST', '/add_spray_product', { token: farm.admin.token, json: { ProductName: 'Neem oil', ReentryHours: 4, PreharvestDays: 3 }, query: { company_id: farm.companyId } });
    // The other box of the grid is sprayed, not the batch's.
    const sprayed = await e2e.server.request('POST', '/link_treatment_products_gridboxes', { token: farm.admin.token, json: { product_id: added.body.product.product_id, QuantityUsed: 1, Grid_boxIDs: [grid.boxIds[1]] } });
    expect(sprayed.status).toBe(200);

    const { page, errors, console: messages } = await e2e.newPage();
    const batches = new BatchesPage(page);
    await batches.signIn(farm.admin);
    await batches.openList();
    let sheet = await batches.openBatch('CLEAN-1');
    await sheet.getByRole('button', { name: 'Harvest', exact: true }).click();
    sheet = batches.sheet('Harvest batch CLEAN-1');
    await sheet.getByText('Harvest batch CLEAN-1 now?').waitFor();
    expect(await sheet.getByRole('alert').count()).toBe(0);
    await sheet.getByRole('button', { name: 'Harvest', exact: true }).click();
    await expect.poll(async () => (await db().selectFrom('batches').select('batch_status').where('id', '=', batchId).executeTakeFirstOrThrow()).batch_status, { timeout: 30_000 }).toBe('Harvested');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
