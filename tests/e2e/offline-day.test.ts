/**
 * A stretch of work with no signal, through the screens (issue 5): the page reloads from the service
 * worker, a room is created, a plant culled and a batch edited; the indicator counts 3 changes; when
 * the connection returns they reach the server and the count goes back to 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createGrid, createRoom, createTenant } from '../support/factories';
import { BatchesPage } from './batches-page';
import { RoomsPage } from './rooms-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('working offline', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a room, a cull and a batch edit made offline wait as 3 pending changes, then all reach the server', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room 2');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 2, 'Bench C');
    await createBatch(e2e.server, farm.companyId, 'DAY-1');
    const { context, page, errors, console: messages } = await e2e.newPage();
    const rooms = new RoomsPage(page);
    const batches = new BatchesPage(page);
    await rooms.signIn(farm.regular);
    await rooms.openRooms();
    await rooms.roomCard('Flower room 2').waitFor();
    await batches.openList();
    await batches.card('DAY-1').waitFor();
    await rooms.synced();
    // The service worker takes control of a page from its next load.
    expect(await rooms.activeServiceWorker()).not.toBeNull();
    await rooms.reload();
    await batches.rendered('Batches');

    await context.setOffline(true);
    const reloaded = await rooms.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await batches.rendered('Batches');
    await batches.checkScreen('offline-day-batches');

    // Edit the batch.
    let sheet = await batches.openBatch('DAY-1');
    await sheet.getByRole('button', { name: 'Edit' }).click();
    sheet = batches.sheet('Edit batch DAY-1');
    await sheet.getByLabel('Strain', { exact: true }).fill('Offline Haze');
    await sheet.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => batches.sheet('Batch DAY-1').textContent()).toContain('Offline Haze');
    await page.keyboard.press('Escape');
    await batches.sheet('Batch DAY-1').waitFor({ state: 'detached' });
    await batches.checkScreen('offline-day-batches-pending');

    // Create a room, and cull a plant in the other one.
    await rooms.openRooms();
    await rooms.createRoom('Clone room', 'Made with no signal');
    await rooms.openRoom('Flower room 2');
    await rooms.openBox('Bench C', 2, 2);
    await rooms.panel().getByRole('button', { name: 'Cull plant' }).click();
    await rooms.panel().getByRole('button', { name: 'Un-cull plant' }).waitFor();
    await rooms.closePanel();
    await expect.poll(() => rooms.pending()).toBe('3');

    await context.setOffline(false);
    await rooms.synced();
    const db = e2e.server.database.db;
    expect((await db.selectFrom('rooms').select('description').where('company_id', '=', farm.companyId).where('name', '=', 'Clone room').execute()).map((room) => room.description)).toEqual(['Made with no signal']);
    const box = await db.selectFrom('grid_boxes').select(['culled', 'culled_by']).where('id', '=', grid.boxIds[3] as number).executeTakeFirstOrThrow();
    expect(box).toEqual({ culled: true, culled_by: farm.regular.id });
    expect((await db.selectFrom('batches').select('strain_name').where('company_id', '=', farm.companyId).where('batch_number', '=', 'DAY-1').executeTakeFirstOrThrow()).strain_name).toBe('Offline Haze');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
