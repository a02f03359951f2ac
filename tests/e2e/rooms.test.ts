/**
 * Rooms, a room's grids and boxes, and the dashboards, through the screens in a real Chromium against
 * the real server (tests/support/browser.ts): what the grower sees, and what the server then has.
 * Offline, changes show at once, the sync indicator counts them, and they reach the server when the
 * connection returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createGrid, createRoom, createTenant, type SignedInUser } from '../support/factories';
import { RoomsPage } from './rooms-page';

let e2e: E2E;

/** A 1×1 PNG, for the image uploads. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');


describe.skipIf(skipBrowser)('rooms, grids and boxes in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  async function signedIn(user: SignedInUser) {
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new RoomsPage(page);
    await app.signIn(user);
    return { context, page, app, errors, messages };
  }

  const db = () => e2e.server.database.db;

  it('creates a room and a 4×6 grid, renames, culls and links boxes to a batch; offline a room and a cull show at once and reach the server', async () => {
    const farm = await createTenant(e2e.server);
    const batchNumber = `B-${Date.now()}`;
    const batchId = await createBatch(e2e.server, farm.companyId, batchNumber);
    const { context, page, app, errors, messages } = await signedIn(farm.admin);
    await page.waitForURL((url) => url.pathname === '/dashboard');

    // Rooms: the create form gives the spec's messages, then the room shows at once.
    await app.openRooms();
    await expect.poll(() => page.getByText('No rooms yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'New room' }).click();
    const form = page.getByRole('form', { name: 'New room' });
    await form.getByRole('button', { name: 'Create room' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Room name is required.');
    await form.getByLabel('Name', { exact: true }).fill('Flower room 1');
    await form.getByRole('button', { name: 'Create room' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Room description is required.');
    await form.getByLabel('Description').fill('North side, 12 benches');
    await form.getByRole('button', { name: 'Create room' }).click();
    await app.roomCard('Flower room 1').waitFor();
    const roomRow = () => db().selectFrom('rooms').selectAll().where('company_id', '=', farm.companyId).where('name', '=', 'Flower room 1').executeTakeFirst();
    await expect.poll(async () => (await roomRow())?.description, { timeout: 30_000 }).toBe('North side, 12 benches');
    const room = (await roomRow())!;
    await app.shot('rooms-list');

    // A 4×6 grid: 24 boxes, numbered row by row (the default grid order).
    await app.openRoom('Flower room 1');
    await page.getByRole('button', { name: 'Add grid' }).click();
    const gridForm = page.getByRole('form', { name: 'New grid' });
    await gridForm.getByLabel('Grid name').fill('Bench A');
    await gridForm.getByLabel('Columns (X)').fill('4');
    await gridForm.getByLabel('Rows (Y)').fill('6');
    await gridForm.getByRole('button', { name: 'Create grid' }).click();
    await expect.poll(() => app.grid('Bench A').locator('.grid-box').count()).toBe(24);
    expect(await app.box('Bench A', 4, 6).locator('.box-name').textContent()).toBe('24');
    const gridRow = () => db().selectFrom('grids').selectAll().where('room_id', '=', room.id).executeTakeFirst();
    await expect.poll(async () => (await gridRow())?.name, { timeout: 30_000 }).toBe('Bench A');
    const grid = (await gridRow())!;
    expect([grid.nx, grid.ny]).toEqual([4, 6]);
    await expect.poll(async () => (await db().selectFrom('grid_boxes').select('id').where('grid_id', '=', grid.id).execute()).length).toBe(24);
    const boxAt = async (x: number, y: number) => db().selectFrom('grid_boxes').selectAll().where('grid_id', '=', grid.id).where('x', '=', x).where('y', '=', y).executeTakeFirstOrThrow();

    // Rename one box, cull another.
    await app.openBox('Bench A', 1, 1);
    await app.panel().getByLabel('Custom name').fill('Mother 1');
    await app.panel().getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => app.panel().getByRole('heading', { level: 2 }).textContent()).toBe('Mother 1');
    // The batch made on the server arrives with the pull; link the box to it.
    const batchOption = app.panel().getByLabel('Batch', { exact: true }).locator('option', { hasText: batchNumber });
    await expect.poll(() => batchOption.count(), { timeout: 30_000 }).toBe(1);
    await app.panel().getByLabel('Batch', { exact: true }).selectOption({ label: `${batchNumber} — Test strain` });
    await app.panel().getByRole('button', { name: 'Link to batch' }).click();
    await app.panel().getByRole('list', { name: 'Linked batches' }).getByText(batchNumber).waitFor();
    // A problem seen at this box is reported from here: for its batch, in this room, the box named in the notes.
    await app.panel().getByRole('button', { name: 'Report a problem' }).click();
    await app.panel().getByLabel('Problem type').fill('Spider mites');
    await app.panel().getByLabel('Severity').fill('3');
    await app.shot('rooms-box-panel-problem');
    await app.panel().getByRole('button', { name: 'Report problem' }).click();
    const problems = () => db().selectFrom('batch_problems').select(['problem_type', 'severity', 'notes', 'room_id']).where('batch_id', '=', batchId).execute();
    await expect.poll(async () => (await problems()).map((problem) => ({ ...problem, severity: Number(problem.severity) })), { timeout: 30_000 }).toEqual([
      { problem_type: 'Spider mites', severity: 3, notes: 'Seen at Bench A · Mother 1.', room_id: room.id },
    ]);
    await app.shot('rooms-box-panel');
    await app.closePanel();
    expect(await app.box('Bench A', 1, 1).locator('.box-name').textContent()).toBe('Mother 1');
    expect(await app.box('Bench A', 1, 1).locator('.box-batch').textContent()).toBe(batchNumber);

    await app.openBox('Bench A', 2, 1);
    await app.panel().getByRole('button', { name: 'Cull plant' }).click();
    await app.panel().getByRole('button', { name: 'Un-cull plant' }).waitFor();
    await app.closePanel();
    expect(await app.box('Bench A', 2, 1).getAttribute('data-culled')).toBe('true');

    await page.getByRole('button', { name: 'Mark room scanned' }).click();
    await page.locator('.room-summary .scan-state.scanned').waitFor();
    const serverState = async () => {
      const [named, culled] = [await boxAt(1, 1), await boxAt(2, 1)];
      const links = await db().selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).execute();
      const scanned = await db().selectFrom('rooms').select(['scanned', 'last_scanned_by']).where('id', '=', room.id).executeTakeFirstOrThrow();
      return { name: named.custom_name, culled: [culled.culled, culled.culled_by], linked: links.map((link) => link.grid_box_id), scanned: [scanned.scanned, scanned.last_scanned_by] };
    };
    const namedBox = (await boxAt(1, 1)).id;
    await expect.poll(serverState, { timeout: 30_000 }).toEqual({ name: 'Mother 1', culled: [true, farm.admin.id], linked: [namedBox], scanned: [true, farm.admin.id] });
    await app.synced();
    await app.shot('rooms-room');

    // Offline: reload (the service worker serves the app), create a room and cull a box.
    await context.setOffline(true);
    await app.reload();
    await app.rendered('Flower room 1');
    await app.box('Bench A', 3, 1).waitFor();
    await app.openBox('Bench A', 3, 1);
    await app.panel().getByRole('button', { name: 'Cull plant' }).click();
    await app.panel().getByRole('button', { name: 'Un-cull plant' }).waitFor();
    await app.closePanel();
    expect(await app.box('Bench A', 3, 1).getAttribute('data-culled')).toBe('true');
    await app.openRooms();
    await app.createRoom('Veg room offline', 'Made with no signal');
    await expect.poll(() => app.pending()).toBe('2');
    // The room made offline opens under its client id, which stays its address once it has synced.
    await app.openRoom('Veg room offline');
    const offlineAddress = new URL(page.url()).pathname;
    expect(offlineAddress).toMatch(/^\/dashboard\/rooms\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await page.getByText('No grids in this room yet.').waitFor();

    await context.setOffline(false);
    await app.synced();
    const offlineRoom = await db().selectFrom('rooms').selectAll().where('company_id', '=', farm.companyId).where('name', '=', 'Veg room offline').executeTakeFirstOrThrow();
    expect(offlineAddress).toBe(`/dashboard/rooms/${offlineRoom.client_id}`);
    expect(new URL(page.url()).pathname).toBe(offlineAddress);
    await page.getByText('No grids in this room yet.').waitFor();
    expect(offlineRoom.description).toBe('Made with no signal');
    expect((await boxAt(3, 1)).culled).toBe(true);

    // The dashboards count from the local store.
    await app.open('/dashboard/overview');
    await app.rendered('Overview');
    await expect.poll(() => app.count('rooms')).toBe('2');
    expect(await app.count('grids')).toBe('1');
    expect(await app.count('plants')).toBe('24');
    expect(await app.count('culled')).toBe('2');
    expect(await app.count('batches')).toBe('1');
    expect(await app.count('pending')).toBe('0');
    await app.shot('rooms-overview');
    await app.open('/dashboard/quickview');
    await app.rendered('Quick view');
    const toScan = page.getByRole('list', { name: 'Rooms not scanned' });
    await toScan.getByText('Veg room offline').waitFor();
    expect(await toScan.getByText('Flower room 1').count()).toBe(0);
    await app.shot('rooms-quickview');
    await app.open('/dashboard');
    await app.rendered('Dashboard');
    await expect.poll(() => app.count('plants')).toBe('24');
    await page.getByRole('list', { name: 'Rooms not scanned' }).getByText('Veg room offline').waitFor();
    await app.shot('rooms-dashboard');
    // The landscape tablet (1280×800) too.
    await page.setViewportSize({ width: 1280, height: 800 });
    await app.open(`/dashboard/rooms/${room.id}`);
    await app.rendered('Flower room 1');
    await app.box('Bench A', 4, 6).waitFor();
    await app.shot('rooms-room-1280x800');

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a grower divides a box and uploads the whiteboard and a grid background, with the company\'s grid order and opacity; only Admins reset scans and delete rooms, after confirming', async () => {
    const farm = await createTenant(e2e.server);
    const roomName = `Dry room ${Date.now()}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    await createGrid(e2e.server, farm.companyId, roomId, 2, 2, 'Rack 1');
    // The company numbers its boxes as a snake, row by row, and dims their colour to half.
    const token = farm.admin.token;
    expect((await e2e.server.request('POST', '/set_company_grid_order', { token, query: { company_id: farm.companyId }, form: { grid_order: 'snake_row' } })).status).toBe(200);
    expect((await e2e.server.request('POST', '/set_grid_opacity', { token, query: { company_id: farm.companyId, grid_opacity: 0.5 } })).status).toBe(200);

    const grower = await signedIn(farm.regular);
    await grower.page.waitForURL((url) => url.pathname === '/dashboard/quickview');
    await grower.app.openRooms();
    await grower.app.roomCard(roomName).waitFor({ timeout: 30_000 });
    expect(await grower.app.roomCard(roomName).getByRole('button', { name: 'Delete' }).count()).toBe(0);

    await grower.app.openRoom(roomName);
    expect(await grower.page.getByRole('button', { name: 'Reset scanned status' }).count()).toBe(0);
    await expect.poll(() => grower.app.box('Rack 1', 1, 2).locator('.box-name').textContent(), { timeout: 30_000 }).toBe('4');
    expect(await grower.app.box('Rack 1', 2, 2).locator('.box-name').textContent()).toBe('3');
    // The company's grid opacity dims the box's fill (its ::before), not its text.
    expect(await grower.app.box('Rack 1', 1, 1).evaluate((box) => [getComputedStyle(box, '::before').opacity, getComputedStyle(box.querySelector('.box-name') as Element).opacity])).toEqual(['0.5', '1']);
    await grower.app.openBox('Rack 1', 1, 1);
    await grower.app.panel().getByLabel('Columns', { exact: true }).fill('3');
    await grower.app.panel().getByLabel('Rows', { exact: true }).fill('1');
    await grower.app.panel().getByRole('button', { name: 'Divide box' }).click();
    await expect.poll(() => grower.app.panel().getByRole('list', { name: 'Sub-gridboxes of this box' }).getByRole('listitem').count()).toBe(3);
    await grower.app.closePanel();
    await grower.page.getByLabel('Whiteboard image file').setInputFiles({ name: 'whiteboard.png', mimeType: 'image/png', buffer: PNG });
    await grower.page.getByLabel('Background image file of Rack 1').setInputFiles({ name: 'rack.png', mimeType: 'image/png', buffer: PNG });
    // The picked background shows at once, before it reaches the server.
    await grower.app.grid('Rack 1').locator('.grid-boxes.with-image').waitFor();
    const subs = () => db().selectFrom('sub_gridboxes').select(['subx', 'suby', 'plant_id']).where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).orderBy('subx').execute();
    await expect.poll(async () => (await subs()).map((sub) => [sub.subx, sub.suby]), { timeout: 30_000 }).toEqual([[1, 1], [2, 1], [3, 1]]);
    expect((await subs()).every((sub) => /^P-/.test(sub.plant_id ?? ''))).toBe(true);
    await expect.poll(() => db().selectFrom('whiteboard_images').select(['uploaded_by']).where('room_id', '=', roomId).execute(), { timeout: 30_000 }).toEqual([{ uploaded_by: farm.regular.id }]);
    await expect.poll(async () => (await db().selectFrom('grids').select('image_name').where('room_id', '=', roomId).executeTakeFirstOrThrow()).image_name, { timeout: 30_000 }).toMatch(/files\//);
    await grower.app.synced();
    // The history (server-only) lists it, with its image.
    await grower.page.getByRole('list', { name: 'Whiteboard history' }).locator('img').waitFor({ timeout: 30_000 });

    // The grower names a sub-gridbox and gives it a status; deleting one is for Admins.
    await grower.app.openBox('Rack 1', 1, 1);
    const subList = grower.app.panel().getByRole('list', { name: 'Sub-gridboxes of this box' });
    expect(await subList.getByRole('button', { name: 'Delete Sub-2-1' }).count()).toBe(0);
    await subList.getByRole('button', { name: 'Edit Sub-2-1' }).click();
    const subForm = grower.app.panel().getByRole('form', { name: 'Edit Sub-2-1' });
    await subForm.getByLabel('Name').fill('Mother A');
    await subForm.getByLabel('Status').fill('Rooted');
    await subForm.getByRole('button', { name: 'Save' }).click();
    await subList.getByText('Mother A').waitFor();
    await grower.app.screenshot('rooms-box-subgridboxes');
    await grower.app.closePanel();
    const subDetails = () => db().selectFrom('sub_gridboxes').select(['subx', 'custom_name', 'status']).where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).orderBy('subx').execute();
    await expect.poll(async () => (await subDetails()).find((sub) => sub.subx === 2), { timeout: 30_000 }).toEqual({ subx: 2, custom_name: 'Mother A', status: 'Rooted' });

    // An Admin marks the grid scanned, then resets every scanned status (after confirming).
    const admin = await signedIn(farm.admin);
    await admin.app.openRooms();
    const card = admin.app.roomCard(roomName);
    await card.waitFor({ timeout: 30_000 });
    await admin.app.openRoom(roomName);
    // The Admin deletes a sub-gridbox, after confirming.
    await admin.app.openBox('Rack 1', 1, 1);
    const adminSubs = admin.app.panel().getByRole('list', { name: 'Sub-gridboxes of this box' });
    await adminSubs.getByRole('button', { name: 'Delete Sub-3-1' }).click({ timeout: 30_000 });
    await adminSubs.getByRole('button', { name: 'Keep' }).click();
    await adminSubs.getByRole('button', { name: 'Delete Sub-3-1' }).click();
    await adminSubs.getByRole('group', { name: 'Delete Sub-3-1?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => adminSubs.getByRole('listitem').count()).toBe(2);
    await admin.app.closePanel();
    await expect.poll(async () => (await subDetails()).map((sub) => sub.subx), { timeout: 30_000 }).toEqual([1, 2]);
    await admin.app.grid('Rack 1').getByRole('button', { name: 'Mark grid scanned' }).click();
    await admin.app.grid('Rack 1').locator('.scan-state.scanned').waitFor();
    await expect.poll(async () => (await db().selectFrom('grids').select('scanned').where('room_id', '=', roomId).executeTakeFirstOrThrow()).scanned, { timeout: 30_000 }).toBe(true);
    await admin.page.getByRole('button', { name: 'Reset scanned status' }).click();
    await admin.page.getByRole('button', { name: 'Reset all' }).click();
    await admin.app.grid('Rack 1').locator('.scan-state.not-scanned').waitFor();
    await expect.poll(async () => (await db().selectFrom('grids').select('scanned').where('room_id', '=', roomId).executeTakeFirstOrThrow()).scanned, { timeout: 30_000 }).toBe(false);
    await admin.app.openRooms();
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Keep it' }).click();
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Delete room' }).click();
    await card.waitFor({ state: 'detached' });
    await expect.poll(async () => (await db().selectFrom('rooms').select('deleted_at').where('id', '=', roomId).executeTakeFirstOrThrow()).deleted_at, { timeout: 30_000 }).not.toBeNull();

    expect([...grower.errors, ...admin.errors], [...grower.messages, ...admin.messages].join('\n')).toEqual([]);
  });
  it('a room of 2,000 plants: every box is a button, a box far down opens its panel, names wrap whole, the box size is kept, and "Start here" is where the room opens on every tablet', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower hall');
    await createGrid(e2e.server, farm.companyId, roomId, 40, 25, 'North');
    const south = await createGrid(e2e.server, farm.companyId, roomId, 40, 25, 'South');
    const lastBox = south.boxIds.at(-1) as number;
    await db().updateTable('grid_boxes').set({ custom_name: 'Mother 1000 of the south bench' }).where('id', '=', lastBox).execute();
    const { page, app, errors, messages } = await signedIn(farm.admin);
    await app.open(`/dashboard/rooms/${roomId}`);
    await app.rendered('Flower hall');
    await expect.poll(() => page.locator('.grid-box').count(), { timeout: 30_000 }).toBe(2000);
    await app.checkScreen('room-2000-boxes');

    // The last box of the last grid: reachable, numbered as everywhere else, its name whole (not "M…").
    const far = app.box('South', 40, 25);
    await far.scrollIntoViewIfNeeded();
    await expect.poll(() => far.locator('.box-name').textContent()).toBe('Mother 1000 of the south bench');
    await far.click();
    await app.panel().waitFor();
    await expect.poll(() => app.panel().getByRole('heading', { level: 2 }).innerText()).toContain('Mother 1000 of the south bench');
    await app.checkScreen('room-2000-boxes-panel');
    await app.closePanel();

    // Box size: small fits more of a grid; kept on this tablet after a reload.
    const width = () => far.evaluate((box) => box.getBoundingClientRect().width);
    const medium = await width();
    await page.getByRole('toolbar', { name: 'Room view' }).getByRole('button', { name: 'Small' }).click();
    await expect.poll(width).toBeLessThan(medium);
    await app.screenshot('room-2000-boxes-small');

    // "Start here": the room's StartScroll on the server, and where the room opens on another tablet.
    await page.mouse.wheel(0, 900);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // The wheel's scroll can still be moving by a pixel when first seen: read the place once it has settled.
    let settled = -1;
    await expect.poll(async () => {
      const now = await page.evaluate(() => Math.round(window.scrollY));
      const still = now === settled;
      settled = now;
      return still;
    }, { interval: 250 }).toBe(true);
    const position = settled;
    await page.getByRole('toolbar', { name: 'Room view' }).getByRole('button', { name: 'Start here' }).click();
    await expect.poll(async () => (await db().selectFrom('rooms').select('start_scroll').where('id', '=', roomId).executeTakeFirstOrThrow()).start_scroll, { timeout: 30_000 }).toBe(position);
    await app.reload();
    await expect.poll(() => page.locator('.grid-box').count(), { timeout: 30_000 }).toBe(2000);
    expect(await page.locator('.room-grids').getAttribute('data-box-size')).toBe('small');
    const other = await signedIn(farm.regular);
    await other.app.open(`/dashboard/rooms/${roomId}`);
    await expect.poll(() => other.page.locator('.grid-box').count(), { timeout: 30_000 }).toBe(2000);
    await expect.poll(() => other.page.evaluate(() => Math.round(window.scrollY))).toBe(position);

    expect([...errors, ...other.errors], [...messages, ...other.messages].join('\n')).toEqual([]);
    // Two tablets each pull 2,000 boxes and axe walks them: minutes on a loaded 2-core machine.
  }, 300_000);
});
