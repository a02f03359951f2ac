/**
 * The batch screens in a real Chromium against the real server (spec part 1 §2–§9, part 2 §5 batch
 * problems): what a grower does through the screens, what the screen shows, and what the server then
 * has. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createGrid, createRoom, createTenant } from '../support/factories';
import { BatchesPage } from './batches-page';

let e2e: E2E;

/** The batch screens, named once for the tests. */

const db = () => e2e.server.database.db;
const batchRow = (companyId: number, batchNumber: string) =>
  db().selectFrom('batches').selectAll().where('company_id', '=', companyId).where('batch_number', '=', batchNumber).where('deleted_at', 'is', null).executeTakeFirst();

describe.skipIf(skipBrowser)('the batch screens', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('creates a batch, edits it, links it to two boxes, harvests it, and reports and resolves a problem', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room A');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench 1');
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    await page.getByText('No batches yet.').waitFor();
    await app.checkScreen('batches-empty');

    // Create, first with a field missing: the rule's own message.
    await page.getByRole('button', { name: 'New batch' }).click();
    const form = app.sheet('New batch');
    await form.getByRole('button', { name: 'Create batch' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('BatchNumber is required.');
    await app.checkScreen('batches-form-error');
    await form.getByLabel('Batch number').fill('B-101');
    await form.getByLabel('Number of plants').fill('24');
    await form.getByLabel('Strain', { exact: true }).fill('Blue Dream');
    await form.getByLabel('Status').selectOption('Vegetative');
    await form.getByLabel('Start date').fill('2026-03-02');
    await form.getByRole('radio', { name: 'Green' }).check();
    await app.checkScreen('batches-form');
    await form.getByRole('button', { name: 'Create batch' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => app.card('B-101').textContent()).toContain('Blue Dream');
    await expect.poll(async () => (await batchRow(farm.companyId, 'B-101'))?.number_of_plants, { timeout: 30_000 }).toBe(24);
    const created = await batchRow(farm.companyId, 'B-101');
    expect(created).toMatchObject({ strain_name: 'Blue Dream', batch_status: 'Vegetative', color: '#2e7d32', start_date: '2026-03-02', end_date: null });
    const batchId = created!.id;

    // Edit.
    let sheet = await app.openBatch('B-101');
    await sheet.getByRole('button', { name: 'Edit' }).click();
    sheet = app.sheet('Edit batch B-101');
    await app.checkScreen('batches-edit');
    await sheet.getByLabel('Number of plants').fill('30');
    await sheet.getByLabel('Strain', { exact: true }).fill('Blue Dream #2');
    await sheet.getByRole('button', { name: 'Save changes' }).click();
    sheet = app.sheet('Batch B-101');
    await expect.poll(() => sheet.textContent()).toContain('Blue Dream #2');
    await expect.poll(async () => (await batchRow(farm.companyId, 'B-101'))?.number_of_plants, { timeout: 30_000 }).toBe(30);
    expect((await batchRow(farm.companyId, 'B-101'))?.strain_name).toBe('Blue Dream #2');

    // Link to two boxes of the grid (room and grid were made on the server and pulled by the tablet).
    await sheet.getByRole('button', { name: 'Link to rooms, grids, plants' }).click();
    sheet = app.sheet('Link batch B-101');
    await sheet.getByRole('combobox', { name: /^Room/ }).selectOption({ label: 'Flower room A' });
    await sheet.getByRole('combobox', { name: /^Grid/ }).selectOption({ label: 'Bench 1' });
    await sheet.getByRole('button', { name: '1: column 1, row 1' }).click();
    await sheet.getByRole('button', { name: '2: column 2, row 1' }).click();
    await app.checkScreen('batches-link');
    await sheet.getByRole('button', { name: 'Link 2 boxes' }).click();
    sheet = app.sheet('Batch B-101');
    await expect.poll(() => sheet.textContent()).toContain('Flower room A');
    await app.checkScreen('batches-batch');
    await expect
      .poll(async () => (await db().selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).execute()).map((row) => row.grid_box_id).sort(), { timeout: 30_000 })
      .toEqual([grid.boxIds[0], grid.boxIds[1]].sort());

    // Harvest.
    await sheet.getByRole('button', { name: 'Harvest' }).click();
    await app.checkScreen('batches-harvest');
    await app.sheet('Harvest batch B-101').getByRole('button', { name: 'Harvest' }).click();
    sheet = app.sheet('Batch B-101');
    await expect.poll(() => sheet.getByRole('button', { name: 'Harvested' }).isDisabled()).toBe(true);
    await expect.poll(async () => (await batchRow(farm.companyId, 'B-101'))?.batch_status, { timeout: 30_000 }).toBe('Harvested');
    expect((await batchRow(farm.companyId, 'B-101'))?.harvested_at).not.toBeNull();

    // A problem: the spec's message when the severity is missing, then recorded and resolved.
    await sheet.getByRole('button', { name: /^Problems/ }).click();
    sheet = app.sheet('Problems of batch B-101');
    await sheet.getByLabel('Problem type').fill('Powdery mildew');
    await sheet.getByRole('button', { name: 'Report problem' }).click();
    await expect.poll(() => sheet.getByRole('alert').textContent()).toBe('Missing required fields: batch_id, problem_type, severity, company_id, user_id');
    await app.checkScreen('batches-problems-error');
    await sheet.getByLabel('Severity', { exact: true }).fill('3');
    await sheet.getByLabel('Room (optional)').selectOption({ label: 'Flower room A' });
    await sheet.getByLabel('Notes (optional)').fill('Lower leaves, bench 1');
    await sheet.getByRole('button', { name: 'Report problem' }).click();
    await expect.poll(() => sheet.getByRole('heading', { name: 'Open problems (1)' }).isVisible()).toBe(true);
    await app.checkScreen('batches-problems');
    const problems = () => db().selectFrom('batch_problems').selectAll().where('batch_id', '=', batchId).execute();
    await expect
      .poll(async () => (await problems()).map((problem) => [problem.problem_type, problem.severity, problem.room_id, problem.notes]), { timeout: 30_000 })
      .toEqual([['Powdery mildew', 3, roomId, 'Lower leaves, bench 1']]);
    await sheet.getByRole('button', { name: 'Resolve 1 problem' }).click();
    await expect.poll(() => sheet.getByRole('heading', { name: 'Open problems (0)' }).isVisible()).toBe(true);
    await app.checkScreen('batches-problems-resolved');
    await expect.poll(async () => (await problems())[0]?.resolved_at ?? null, { timeout: 30_000 }).not.toBeNull();

    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => app.card('B-101').textContent()).toContain('Harvested');
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('custom statuses, a status for several batches at once, the status filter, moving plants and deleting', async () => {
    const farm = await createTenant(e2e.server);
    const veg = await createRoom(e2e.server, farm.companyId, 'Veg room');
    await createRoom(e2e.server, farm.companyId, 'Flower room');
    const first = await createBatch(e2e.server, farm.companyId, 'M-1');
    await createBatch(e2e.server, farm.companyId, 'M-2');
    await createBatch(e2e.server, farm.companyId, 'M-3');
    await e2e.server.database.db.insertInto('batch_rooms').values({ batch_id: first, room_id: veg, company_id: farm.companyId, created_by: null, created_at: new Date() }).execute();
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    await app.card('M-3').waitFor();

    // A custom status (Admin).
    await page.getByRole('button', { name: 'Statuses' }).click();
    const statuses = app.sheet('Batch statuses');
    await statuses.getByLabel('New status').fill('Mother plants');
    await statuses.getByRole('button', { name: 'Add status' }).click();
    await expect.poll(() => statuses.getByText('Mother plants', { exact: true }).isVisible()).toBe(true);
    await app.checkScreen('batches-statuses');
    await expect
      .poll(async () => (await db().selectFrom('custom_batch_statuses').select('name').where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute()).map((row) => row.name), {
        timeout: 30_000,
      })
      .toEqual(['Mother plants']);
    await statuses.getByRole('button', { name: 'Close' }).click();

    // Two batches selected, given the custom status; the filter shows just them.
    await page.getByRole('checkbox', { name: 'Select batch M-1' }).check();
    await page.getByRole('checkbox', { name: 'Select batch M-2' }).check();
    await page.getByLabel('Status for the selected batches').selectOption('Mother plants');
    await page.getByRole('button', { name: 'Set status' }).click();
    const filter = page.getByRole('group', { name: 'Filter by status' });
    await filter.getByRole('button', { name: /^Mother plants/ }).click();
    await expect.poll(async () => (await page.getByRole('list', { name: 'Batches' }).getByRole('listitem').allTextContents()).length).toBe(2);
    await expect
      .poll(
        async () =>
          (await db().selectFrom('batches').select(['batch_number', 'batch_status']).where('company_id', '=', farm.companyId).orderBy('batch_number').execute()).map(
            (row) => `${row.batch_number}:${row.batch_status}`,
          ),
        { timeout: 30_000 },
      )
      .toEqual(['M-1:Mother plants', 'M-2:Mother plants', 'M-3:Vegetative']);
    await filter.getByRole('button', { name: /^All/ }).click();
    await page.getByRole('checkbox', { name: 'Select batch M-3' }).check();
    await app.checkScreen('batches-list');
    await page.setViewportSize({ width: 1280, height: 800 });
    await app.checkScreen('batches-list-1280x800');
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.getByRole('button', { name: 'Clear selection' }).click();

    // Move M-1's plants from the veg room to the flower room.
    let sheet = await app.openBatch('M-1');
    await sheet.getByRole('button', { name: 'Move plants' }).click();
    sheet = app.sheet('Move plants of batch M-1');
    await sheet.getByLabel('From room').selectOption({ label: 'Veg room' });
    await sheet.getByLabel('To room').selectOption({ label: 'Flower room' });
    await app.checkScreen('batches-move');
    await sheet.getByRole('button', { name: 'Move plants' }).click();
    sheet = app.sheet('Batch M-1');
    await expect.poll(() => sheet.textContent()).toContain('Flower room');
    const roomsOf = async (batchId: number) =>
      (await db().selectFrom('batch_rooms').innerJoin('rooms', 'rooms.id', 'batch_rooms.room_id').select('rooms.name').where('batch_rooms.batch_id', '=', batchId).execute()).map((row) => row.name);
    await expect.poll(() => roomsOf(first), { timeout: 30_000 }).toEqual(['Flower room']);

    // Delete (Admin, after a confirmation).
    await sheet.getByRole('button', { name: 'Delete' }).click();
    await app.checkScreen('batches-delete');
    await app.sheet('Delete batch M-1').getByRole('button', { name: 'Delete batch' }).click();
    await app.card('M-1').waitFor({ state: 'detached' });
    await expect.poll(async () => (await batchRow(farm.companyId, 'M-1')) ?? null, { timeout: 30_000 }).toBeNull();
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('offline: an edit shows at once, waits as pending, and reaches the server when the connection returns', async () => {
    const farm = await createTenant(e2e.server);
    await createBatch(e2e.server, farm.companyId, 'OFF-1');
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.regular);
    await app.openList();
    await app.card('OFF-1').waitFor();
    await expect.poll(() => app.pending()).toBe('0');
    // The service worker holds the app's code, so screens not opened yet still load offline.
    expect(await app.activeServiceWorker()).not.toBeNull();
    await expect.poll(() => app.controller()).not.toBeNull();

    await context.setOffline(true);
    await page.getByText('Offline: you see this tablet’s copy').waitFor();
    let sheet = await app.openBatch('OFF-1');
    await sheet.getByRole('button', { name: 'Edit' }).click();
    sheet = app.sheet('Edit batch OFF-1');
    await sheet.getByLabel('Strain', { exact: true }).fill('Offline Kush');
    await sheet.getByLabel('Status').selectOption('Flowering');
    await sheet.getByRole('button', { name: 'Save changes' }).click();
    sheet = app.sheet('Batch OFF-1');
    await expect.poll(() => sheet.textContent()).toContain('Offline Kush');
    await expect.poll(() => app.pending()).toBe('1');
    await expect.poll(() => app.card('OFF-1').textContent()).toContain('Flowering');
    await app.checkScreen('batches-batch-offline');

    // Batch info offline: the tablet's copy, and the QR code waits for the connection.
    await sheet.getByRole('link', { name: 'Batch info and QR label' }).click();
    await app.rendered('Batch OFF-1');
    await page.getByText('This tablet’s copy: changes made here show at once').waitFor();
    await expect.poll(() => page.getByText('Offline Kush').first().isVisible()).toBe(true);
    await page.getByText('it appears when the connection returns').waitFor();
    await app.checkScreen('batches-batch-info-offline');

    await context.setOffline(false);
    await expect.poll(() => app.pending(), { timeout: 30_000 }).toBe('0');
    expect(await batchRow(farm.companyId, 'OFF-1')).toMatchObject({ strain_name: 'Offline Kush', batch_status: 'Flowering' });
    // Back online, the QR label arrives.
    await expect.poll(() => page.getByRole('img', { name: 'QR code of batch OFF-1' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('batch info shows the batch at a glance with its QR label, which prints alone and downloads as a PNG', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Dry room');
    const batchId = await createBatch(e2e.server, farm.companyId, 'QR-7');
    await db().insertInto('batch_rooms').values({ batch_id: batchId, room_id: roomId, company_id: farm.companyId, created_by: null, created_at: new Date() }).execute();
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.regular);
    await app.open(`/dashboard/batch-info/${batchId}`);
    await app.rendered('Batch QR-7');
    await page.getByText('As the server has it now.').waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Summary' }).textContent()).toContain('Test strain');
    await expect.poll(() => page.locator('dl').filter({ hasText: 'Rooms' }).textContent()).toContain('Dry room');

    const label = page.getByTestId('qr-label');
    const qr = label.getByRole('img', { name: 'QR code of batch QR-7' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await label.textContent()).toContain('QR-7');
    expect(await label.textContent()).toContain('Test strain');
    await app.checkScreen('batches-batch-info');

    // Printing shows the label alone.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await page.locator('.bt-print-root img').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PNG' }).click();
    expect((await download).suggestedFilename()).toBe('batch-QR-7-qr.png');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
