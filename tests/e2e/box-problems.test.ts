/**
 * Plant problems in the box panel (issue 14 "Problems on plants", "Offline") in a real Chromium against
 * the real server: a grower with no signal records a problem from the catalogue on a box, it shows at
 * once as waiting to sync and reaches the server once the connection returns; an Admin resolves it from
 * the same box's panel on another tablet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant, type SignedInUser } from '../support/factories';
import { RoomsPage } from './rooms-page';

let e2e: E2E;

const db = () => e2e.server.database.db;
const PROBLEM = 'Two-spotted spider mite';

describe.skipIf(skipBrowser)('plant problems in the box panel in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  async function inRoom(user: SignedInUser, room: string, grid: string) {
    const opened = await e2e.newPage();
    const app = new RoomsPage(opened.page);
    await app.signIn(user);
    await app.openRooms();
    await app.openRoom(room);
    await expect.poll(() => app.grid(grid).locator('.grid-box').count(), { timeout: 30_000 }).toBe(3);
    return { ...opened, app };
  }

  it('a grower offline records a catalogue problem on a box, it shows at once and reaches the server once; an Admin resolves it', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room P');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 1, 'Bench P');
    const rows = () => db().selectFrom('plant_problems').select(['grid_box_id', 'problem_type', 'problem_slug', 'severity', 'user_id', 'status', 'status_by']).where('company_id', '=', farm.companyId).execute();

    // The grower opens the room with signal, the app is saved on the tablet, then the signal goes.
    const grower = await inRoom(farm.regular, 'Flower room P', 'Bench P');
    await grower.app.synced();
    expect(await grower.app.activeServiceWorker()).not.toBeNull();
    await expect.poll(() => grower.app.controller()).not.toBeNull();
    await grower.context.setOffline(true);
    await grower.app.openBox('Bench P', 2, 1);
    const panel = grower.app.panel();
    await panel.getByText('No open problems on this box.').waitFor();
    await panel.getByRole('button', { name: 'Record a problem' }).click();
    const form = panel.getByRole('form', { name: 'Record a problem' });
    // Severity is required: the server's own message, before anything is queued.
    await form.getByLabel('Problem type').fill('spider');
    await form.getByRole('list', { name: 'Catalogue matches' }).getByRole('button', { name: new RegExp(`^${PROBLEM}`) }).click();
    await expect.poll(() => form.getByText(`From the catalogue: ${PROBLEM} (pest).`).isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Save problem' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Missing required fields: GridBoxID, problem_type, severity, user_id');
    await form.getByRole('button', { name: 'Severity 3' }).click();
    expect(await form.getByRole('button', { name: 'Severity 3' }).getAttribute('aria-pressed')).toBe('true');
    await form.getByLabel('Notes (optional)').fill('Webbing on the top leaves');
    await form.getByRole('button', { name: 'Save problem' }).click();

    // At once, offline: listed as open and waiting to sync; nothing on the server yet.
    const item = panel.getByRole('list', { name: 'Open problems' }).getByRole('listitem', { name: `${PROBLEM}, severity 3` });
    await item.waitFor();
    expect(await item.getByText('Waiting to sync').isVisible()).toBe(true);
    expect(await item.getByText('Open', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => grower.app.pending()).toBe('1');
    expect(await rows()).toEqual([]);

    // Back online: it reaches the server once, and the tablet shows the server's copy.
    await grower.context.setOffline(false);
    await grower.app.synced();
    expect(await rows()).toEqual([{ grid_box_id: grid.boxIds[1], problem_type: PROBLEM, problem_slug: 'two-spotted-spider-mite', severity: 3, user_id: farm.regular.id, status: 'unresolved', status_by: null }]);
    await expect.poll(() => item.getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    expect(grower.errors, grower.console.join('\n')).toEqual([]);

    // The Admin, on another tablet, resolves it from the box's panel.
    const admin = await inRoom(farm.admin, 'Flower room P', 'Bench P');
    await admin.app.openBox('Bench P', 2, 1);
    const adminItem = admin.app.panel().getByRole('list', { name: 'Open problems' }).getByRole('listitem', { name: `${PROBLEM}, severity 3` });
    await adminItem.waitFor({ timeout: 30_000 });
    expect(await adminItem.getByText('Webbing on the top leaves').isVisible()).toBe(true);
    await admin.app.shot('box-panel-problems');
    await adminItem.getByRole('button', { name: `Resolve: ${PROBLEM}` }).click();
    await admin.app.panel().getByText('No open problems on this box.').waitFor();
    await admin.app.panel().getByText('Closed problems (1)').click();
    await admin.app.panel().getByRole('list', { name: 'Closed problems' }).getByRole('button', { name: `Reopen: ${PROBLEM}` }).waitFor();
    await admin.app.synced();
    expect(await rows()).toMatchObject([{ status: 'resolved', status_by: farm.admin.id }]);
    await admin.app.shot('box-panel-problems-closed');
    expect(admin.errors, admin.console.join('\n')).toEqual([]);
  });

  it('a part of the app not yet saved on the tablet waits for the connection, says so, and opens when it returns', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room Q');
    await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench Q');
    // The problems' chunk cannot be fetched (the service worker cannot save the app either), as on a
    // first visit that loses its signal before the app was saved.
    const opened = await e2e.newPage();
    const chunk = '**/assets/BoxProblems-*.js';
    await opened.context.route(chunk, (route) => route.abort('internetdisconnected'));
    const app = new RoomsPage(opened.page);
    await app.signIn(farm.regular, { appSaved: false });
    await app.openRooms();
    await app.openRoom('Flower room Q');
    await expect.poll(() => app.grid('Bench Q').locator('.grid-box').count(), { timeout: 30_000 }).toBe(2);
    // The panel opens; its problems wait, and say why once the signal goes.
    await app.openBox('Bench Q', 1, 1);
    await app.panel().getByText("Loading the box's problems…").waitFor();
    await opened.context.setOffline(true);
    await app.panel().getByText('This part of the app is not saved on this tablet yet: it opens when the connection returns.').waitFor();

    await opened.context.unroute(chunk);
    await opened.context.setOffline(false);
    await app.panel().getByText('No open problems on this box.').waitFor({ timeout: 30_000 });
  });
});
