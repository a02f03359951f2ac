/**
 * Grid templates through their screen in a real Chromium against the real server: an Admin creates
 * Grid and SubGrid templates (bad input shows the spec's messages), filters them, lays a grid out in a
 * room and divides a box; a grower uses a template offline (the result shows at once, marked, and
 * reaches the server) and is offered no delete; an Admin deletes a template after confirming.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridTemplateMessages as m } from '../../common/messages/grid-templates';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant, type SignedInUser } from '../support/factories';
import { GridTemplatesPage } from './grid-templates-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('grid templates in Chromium', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  async function signedIn(user: SignedInUser) {
    const { context, page, errors } = await e2e.newPage();
    const app = new GridTemplatesPage(page);
    await app.signIn(user);
    return { context, page, app, errors };
  }

  const db = () => e2e.server.database.db;

  it('creates Grid and SubGrid templates, lays out a grid and divides a box; a grower uses one offline and cannot delete; an Admin deletes after confirming', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg room');
    const bench = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench A');
    const templateRow = (name: string) => db().selectFrom('grid_templates').selectAll().where('company_id', '=', farm.companyId).where('template_name', '=', name).executeTakeFirst();

    const admin = await signedIn(farm.admin);
    const { app, page } = admin;
    await app.openTemplates();
    await page.getByText('No grid templates yet.').waitFor();
    await app.check('grid-templates-empty');

    // Creating: the spec's messages under the form, in the order the fields are checked.
    await page.getByRole('button', { name: 'New template' }).click();
    const form = app.newTemplateForm();
    await form.getByRole('button', { name: 'Create template' }).click();
    await expect.poll(() => app.errorOf(form).textContent()).toBe(m.nameRequired);
    await app.submitTemplate({ name: 'Veg bench', type: 'Grid', columns: '', rows: '' });
    await expect.poll(() => app.errorOf(form).textContent()).toBe(m.rowsRequired);
    await app.submitTemplate({ name: 'Veg bench', columns: '', rows: '0' });
    await expect.poll(() => app.errorOf(form).textContent()).toBe(m.rowsInvalid);
    await app.submitTemplate({ name: 'Veg bench', columns: '', rows: '6' });
    await expect.poll(() => app.errorOf(form).textContent()).toBe(m.columnsRequired);
    await app.check('grid-templates-new-error');
    await app.submitTemplate({ name: 'Veg bench', columns: '4', rows: '6', description: 'Four benches wide' });
    await app.card('Veg bench').waitFor();
    expect(await app.card('Veg bench').locator('.template-size').textContent()).toBe('4 × 6 · 24 boxes');

    await page.getByRole('button', { name: 'New template' }).click();
    await app.submitTemplate({ name: 'Clone tray', type: 'SubGrid', columns: '3', rows: '2' });
    await app.card('Clone tray').waitFor();
    await expect.poll(async () => (await templateRow('Veg bench'))?.rows, { timeout: 30_000 }).toBe(6);
    expect(await templateRow('Veg bench')).toMatchObject({ template_type: 'Grid', rows: 6, columns: 4, description: 'Four benches wide', user_id: farm.admin.id });
    await expect.poll(async () => (await templateRow('Clone tray'))?.template_type, { timeout: 30_000 }).toBe('SubGrid');
    await app.synced();
    await app.check('grid-templates');

    // Filtering by type.
    await app.showType('Grid');
    await expect.poll(() => app.listedNames()).toEqual(['Veg bench']);
    await app.showType('SubGrid');
    await expect.poll(() => app.listedNames()).toEqual(['Clone tray']);
    await app.check('grid-templates-subgrid-filter');
    await app.showType('All');
    await expect.poll(() => app.listedNames()).toEqual(['Clone tray', 'Veg bench']);

    // A Grid template lays a 4 × 6 grid out in the room, named as asked.
    await app.card('Veg bench').getByRole('button', { name: 'Lay out a grid' }).click();
    const layOut = app.useForm('Lay out a grid from Veg bench');
    await app.choose(layOut.getByRole('combobox', { name: /^Room/ }), 'Veg room');
    await layOut.getByLabel('Grid name').fill('Bench B');
    await app.check('grid-templates-use-grid');
    await layOut.getByRole('button', { name: 'Lay out grid' }).click();
    const gridResult = page.getByRole('region', { name: 'Grid laid out' });
    await expect.poll(() => gridResult.locator('[data-boxes]').getAttribute('data-boxes')).toBe('24');
    const gridRow = () => db().selectFrom('grids').selectAll().where('room_id', '=', roomId).where('name', '=', 'Bench B').executeTakeFirst();
    await expect.poll(async () => (await gridRow())?.nx, { timeout: 30_000 }).toBe(4);
    const grid = (await gridRow())!;
    expect(grid.ny).toBe(6);
    expect((await db().selectFrom('grid_boxes').select('id').where('grid_id', '=', grid.id).execute()).length).toBe(24);
    await app.synced();
    await gridResult.locator('.chip.waiting').waitFor({ state: 'detached' });
    await app.check('grid-templates-grid-result');
    await gridResult.getByRole('button', { name: 'Done' }).click();

    // A SubGrid template divides a box into 3 × 2 positions, each given a plant id by the server.
    await app.card('Clone tray').getByRole('button', { name: 'Divide a box' }).click();
    const divide = app.useForm('Divide a box with Clone tray');
    await divide.getByRole('button', { name: 'Divide box' }).click();
    await expect.poll(() => app.errorOf(divide).textContent()).toBe(m.parentRequired);
    await app.choose(divide.getByRole('combobox', { name: /^Room/ }), 'Veg room');
    await app.choose(divide.getByRole('combobox', { name: /^Box/ }), 'Bench A · Box 1');
    expect(await divide.getByLabel('Auto initialize plants').isChecked()).toBe(true);
    await divide.getByRole('button', { name: 'Divide box' }).click();
    const subResult = page.getByRole('region', { name: 'Box divided' });
    await expect.poll(() => subResult.getByRole('listitem').count()).toBe(6);
    const firstBox = bench.boxIds[0]!;
    const subsOf = (boxId: number) => db().selectFrom('sub_gridboxes').select(['subx', 'suby', 'plant_id']).where('parent_gridbox_id', '=', boxId).where('deleted_at', 'is', null).orderBy('suby').orderBy('subx').execute();
    await expect.poll(async () => (await subsOf(firstBox)).length, { timeout: 30_000 }).toBe(6);
    expect((await subsOf(firstBox)).map((sub) => `${sub.subx}-${sub.suby}`)).toEqual(['1-1', '2-1', '3-1', '1-2', '2-2', '3-2']);
    expect((await subsOf(firstBox)).every((sub) => /^P-/.test(sub.plant_id ?? ''))).toBe(true);
    // The plant ids arrive with the pull.
    await expect.poll(() => subResult.getByText(/^P-/).count(), { timeout: 30_000 }).toBe(6);
    await app.check('grid-templates-subgrid-result');

    // The same box again: its positions are taken, and the form says so.
    await app.card('Clone tray').getByRole('button', { name: 'Divide a box' }).click();
    await app.choose(divide.getByRole('combobox', { name: /^Room/ }), 'Veg room');
    await app.choose(divide.getByRole('combobox', { name: /^Box/ }), 'Bench A · Box 1');
    expect(await divide.getByRole('combobox', { name: /^Box/ }).evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Bench A · Box 1 (6 positions already)');
    await divide.getByRole('button', { name: 'Divide box' }).click();
    await expect.poll(() => app.errorOf(divide).textContent()).toMatch(/^Already occupied in this grid box: 1-1, 2-1/);
    await divide.getByRole('button', { name: 'Cancel' }).click();

    // A grower: no New template and no Delete; offline, dividing the other box shows at once, marked.
    const grower = await signedIn(farm.regular);
    await grower.app.openTemplates();
    await grower.app.card('Clone tray').waitFor({ timeout: 30_000 });
    expect(await grower.page.getByRole('button', { name: 'New template' }).count()).toBe(0);
    expect(await grower.app.templateList().getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await grower.app.check('grid-templates-regular');
    await grower.context.setOffline(true);
    await grower.app.card('Clone tray').getByRole('button', { name: 'Divide a box' }).click();
    const growerDivide = grower.app.useForm('Divide a box with Clone tray');
    await grower.app.choose(growerDivide.getByRole('combobox', { name: /^Room/ }), 'Veg room');
    await grower.app.choose(growerDivide.getByRole('combobox', { name: /^Box/ }), 'Bench A · Box 2');
    await growerDivide.getByRole('button', { name: 'Divide box' }).click();
    const growerResult = grower.page.getByRole('region', { name: 'Box divided' });
    await expect.poll(() => growerResult.getByRole('listitem').count()).toBe(6);
    await growerResult.locator('.chip.waiting').waitFor();
    expect(await growerResult.getByText('plant id after sync').count()).toBe(6);
    await expect.poll(() => grower.app.pending()).toBe('1');
    await grower.app.check('grid-templates-offline-result');
    await grower.context.setOffline(false);
    await grower.app.synced();
    const secondBox = bench.boxIds[1]!;
    await expect.poll(async () => (await subsOf(secondBox)).length, { timeout: 30_000 }).toBe(6);
    await growerResult.locator('.chip.waiting').waitFor({ state: 'detached', timeout: 30_000 });
    await expect.poll(() => growerResult.getByText(/^P-/).count(), { timeout: 30_000 }).toBe(6);

    // The Admin deletes the SubGrid template, after confirming; what it made stays.
    await app.card('Clone tray').getByRole('button', { name: 'Delete' }).click();
    const question = app.card('Clone tray').getByRole('group', { name: 'Delete template Clone tray?' });
    await app.check('grid-templates-delete-confirm');
    await question.getByRole('button', { name: 'Keep' }).click();
    await app.card('Clone tray').getByRole('button', { name: 'Delete' }).click();
    await question.getByRole('button', { name: 'Delete' }).click();
    await app.card('Clone tray').waitFor({ state: 'detached' });
    await expect.poll(async () => (await templateRow('Clone tray'))?.deleted_at ?? null, { timeout: 30_000 }).not.toBeNull();
    expect((await subsOf(firstBox)).length).toBe(6);
    await grower.app.card('Clone tray').waitFor({ state: 'detached', timeout: 30_000 });
    await app.synced();

    expect(admin.errors).toEqual([]);
    expect(grower.errors).toEqual([]);
  });
});
