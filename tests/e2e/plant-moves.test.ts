/**
 * Plant moves through their screen in a real Chromium against the real server: a plant moves from one
 * box's position to another box's free position (the server's sub-gridbox then has its new parent and
 * position, and a movement history row); the history lists it and filters by room and by day; offline,
 * a move shows at once as waiting, and reaches the server when the connection returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgridMessages as m } from '../../common/messages/subgrids';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { PlantMovesPage } from './plant-moves-page';

let e2e: E2E;

interface Sub {
  Sub_gridboxID: number;
  SubX: number;
  SubY: number;
  PlantID: string;
}

/** The UTC day (yyyy-mm-dd) of a moment: the history's days. */
const utcDay = (moment: Date) => moment.toISOString().slice(0, 10);

describe.skipIf(skipBrowser)('plant moves in Chromium', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('moves a plant to another box’s free position, lists and filters the history, and moves one offline', async () => {
    const farm = await createTenant(e2e.server);
    const token = farm.admin.token;
    const vegRoom = await createRoom(e2e.server, farm.companyId, 'Veg room');
    const flowerRoom = await createRoom(e2e.server, farm.companyId, 'Flower room');
    const bench = await createGrid(e2e.server, farm.companyId, vegRoom, 2, 1, 'Bench A');
    const flower = await createGrid(e2e.server, farm.companyId, flowerRoom, 1, 1, 'Bench F');
    const [boxA1, boxA2] = bench.boxIds as [number, number];
    const boxF1 = flower.boxIds[0]!;
    const divide = async (box: number, nx: number, ny: number) => {
      const response = await e2e.server.request<{ sub_gridboxes: Sub[] }>('POST', '/create_sub_gridboxes', { token, query: { parent_gridbox_id: box, user_id: farm.admin.id, nx, ny } });
      expect(response.status).toBe(200);
      return response.body.sub_gridboxes;
    };
    const a1 = await divide(boxA1, 2, 2);
    await divide(boxA2, 1, 1);
    const plant = (index: number) => a1[index]!.PlantID;
    // A move ten days ago (a tablet's queued move keeps the day it was made): Sub-2-2 of Box 1 to Box 2's (2, 1).
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    const old = await e2e.server.request('POST', '/move_plant', {
      token,
      headers: { 'X-Acted-At': tenDaysAgo.toISOString() },
      json: { plant_uid: plant(3), target_parent_gridbox_id: boxA2, user_id: farm.admin.id, target_position: { subx: 2, suby: 1 }, movement_reason: 'Spacing' },
    });
    expect(old.status).toBe(200);

    const { context, page, errors } = await e2e.newPage();
    const app = new PlantMovesPage(page);
    await app.signIn(farm.admin);
    await app.openMoves();
    await expect.poll(() => app.listedPlants(), { timeout: 30_000 }).toEqual([plant(3)]);
    await expect.poll(() => app.historyItem(plant(3)).textContent()).toContain('Veg room · Bench A · Box 1 · Sub-2-2');
    await expect.poll(() => app.historyItem(plant(3)).textContent()).toContain('Veg room · Bench A · Box 2 · Sub-2-1');
    await app.check('plant-moves');

    // Nothing chosen: the spec's message under the form.
    await app.form().getByRole('button', { name: 'Move plant' }).click();
    await expect.poll(() => app.form().getByRole('alert').textContent()).toBe(m.plantUidRequired);
    await app.check('plant-moves-error');

    // Box 1's Sub-1-1 to Flower room's empty box: its first position is preselected.
    await app.choose(app.field('Room'), 'Veg room');
    await app.choose(app.field('Box'), 'Bench A · Box 1');
    expect(await app.chosen(app.field('Box'))).toBe('Bench A · Box 1 (3 plants)');
    await app.choose(app.field('Plant'), `Sub-1-1 · ${plant(0)}`);
    await app.choose(app.field('Target room'), 'Flower room');
    await app.choose(app.field('Target box'), 'Bench F · Box 1');
    expect(await app.chosen(app.field('Position'))).toBe('Sub-1-1');
    await app.field('Reason').fill('Flowering');
    await app.field('Notes').fill('Moved for the flip');
    await app.check('plant-moves-filled');
    await app.form().getByRole('button', { name: 'Move plant' }).click();
    // The plant leaves its box's list at once.
    await expect.poll(() => app.chosen(app.field('Box'))).toBe('Bench A · Box 1 (2 plants)');

    const subOf = (plantId: string) => db().selectFrom('sub_gridboxes').select(['parent_gridbox_id', 'subx', 'suby']).where('plant_id', '=', plantId).where('deleted_at', 'is', null).executeTakeFirst();
    await expect.poll(() => subOf(plant(0)), { timeout: 30_000 }).toEqual({ parent_gridbox_id: boxF1, subx: 1, suby: 1 });
    const moveRow = (plantId: string) => db().selectFrom('plant_moves').selectAll().where('company_id', '=', farm.companyId).where('plant_uid', '=', plantId).executeTakeFirst();
    expect(await moveRow(plant(0))).toMatchObject({ from_parent_gridbox_id: boxA1, to_parent_gridbox_id: boxF1, from_subx: 1, from_suby: 1, to_subx: 1, to_suby: 1, movement_reason: 'Flowering', notes: 'Moved for the flip', user_id: farm.admin.id });
    await app.synced();

    // The history: newest first; by room; by day.
    await expect.poll(() => app.listedPlants(), { timeout: 30_000 }).toEqual([plant(0), plant(3)]);
    await expect.poll(() => app.historyItem(plant(0)).textContent()).toContain('Flower room · Bench F · Box 1 · Sub-1-1');
    await expect.poll(() => app.historyItem(plant(0)).textContent()).toContain('Flowering');
    await app.historyField('Room').selectOption({ label: 'Flower room' });
    await expect.poll(() => app.listedPlants()).toEqual([plant(0)]);
    await app.check('plant-moves-history-room');
    await app.historyField('Room').selectOption({ label: 'Veg room' });
    await expect.poll(() => app.listedPlants()).toEqual([plant(0), plant(3)]);
    await app.historyField('Room').selectOption({ label: 'All rooms' });
    await app.historyField('From day').fill(utcDay(new Date()));
    await expect.poll(() => app.listedPlants()).toEqual([plant(0)]);
    await app.historyField('From day').fill(utcDay(tenDaysAgo));
    await app.historyField('To day').fill(utcDay(tenDaysAgo));
    await expect.poll(() => app.listedPlants()).toEqual([plant(3)]);
    await app.check('plant-moves-history-days');
    await app.historyField('From day').fill(utcDay(new Date()));
    await expect.poll(() => app.history().getByRole('alert').textContent()).toBe(m.dateRangeInvalid);
    await app.history().getByRole('button', { name: 'Clear filters' }).click();
    await app.historyField('Sort by').selectOption({ label: 'Date moved' });
    await app.historyField('Order').selectOption({ label: 'Oldest first' });
    await expect.poll(() => app.listedPlants()).toEqual([plant(3), plant(0)]);
    await app.historyField('Order').selectOption({ label: 'Newest first' });

    // Offline: Box 1's Sub-1-2 to the Flower room box, now full in its one position: a new row.
    await context.setOffline(true);
    await page.locator('.banner.offline').waitFor();
    await app.choose(app.field('Plant'), `Sub-1-2 · ${plant(2)}`);
    await app.choose(app.field('Target room'), 'Flower room');
    await app.choose(app.field('Target box'), 'Bench F · Box 1');
    expect(await app.chosen(app.field('Position'))).toBe('Sub-1-2 (new row)');
    await app.form().getByRole('button', { name: 'Move plant' }).click();
    await expect.poll(() => app.pending()).toBe('1');
    await app.history().getByText('Offline: this is the history as this tablet last synced it.', { exact: false }).waitFor();
    await expect.poll(() => app.listedPlants()).toEqual([plant(2), plant(0), plant(3)]);
    await app.historyItem(plant(2)).getByText('Waiting to sync').waitFor();
    await expect.poll(() => app.historyItem(plant(2)).textContent()).toContain('Flower room · Bench F · Box 1 · Sub-1-2');
    await app.check('plant-moves-offline');

    await context.setOffline(false);
    await app.synced();
    await expect.poll(() => subOf(plant(2)), { timeout: 30_000 }).toEqual({ parent_gridbox_id: boxF1, subx: 1, suby: 2 });
    expect(await moveRow(plant(2))).toMatchObject({ from_parent_gridbox_id: boxA1, to_parent_gridbox_id: boxF1, to_subx: 1, to_suby: 2, movement_reason: 'Flowering' });
    // Back online, the server's history lists it, no longer waiting.
    await expect.poll(() => app.listedPlants(), { timeout: 30_000 }).toEqual([plant(2), plant(0), plant(3)]);
    await expect.poll(() => app.historyItem(plant(2)).getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    expect(await app.history().locator('.history-source').count()).toBe(0);
    await app.check('plant-moves-synced');

    expect(errors).toEqual([]);
  });
});
