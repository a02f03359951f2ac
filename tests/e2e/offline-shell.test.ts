/**
 * The app shell offline, and the sync worker filling the local database, in a real Chromium against
 * the real server serving the production build (tests/support/browser.ts). Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { login } from '../../src/api/session';
import { localSessionStore, SESSION_KEYS } from '../../src/api/session-store';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createRoom, createTenant, type SignedInUser } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;

/**
 * Signs in through the app's own `login` (POST /api/login) with the app's own session store over a
 * Map, and returns what that store wrote, for the page's localStorage.
 */
async function sessionEntries(user: SignedInUser): Promise<Map<string, string>> {
  const storage = new Map<string, string>();
  const client = createApiClient({ baseURL: `${e2e.server.url}/api`, session: localSessionStore(storage) });
  await login({ client }, { email: user.email, password: user.password });
  return storage;
}

describe.skipIf(skipBrowser)('the web app in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('registers its service worker, which then serves the app with no network, deep links included', async () => {
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new AppPage(page);

    await app.open('/');
    await app.rendered();
    expect(await app.activeServiceWorker()).toBe(`${e2e.server.url}/sw.js`);

    await app.reload();
    expect(await app.controller()).toBe(`${e2e.server.url}/sw.js`);

    await context.setOffline(true);
    const reloaded = await app.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await app.rendered();
    expect(await app.controller()).toBe(`${e2e.server.url}/sw.js`);

    // A deep link into a client-side route (signed out, the dashboard sends you to /signIn).
    const deepLink = await app.open('/signIn');
    expect(deepLink?.fromServiceWorker()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/signIn');
    await app.rendered('Sign in');

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('with a session, starts the sync worker, which pulls the company\'s rooms into the local database', async () => {
    const farm = await createTenant(e2e.server);
    const neighbour = await createTenant(e2e.server);
    const theirRoom = `Their room ${Date.now()}`;
    await createRoom(e2e.server, neighbour.companyId, theirRoom);
    const firstRoom = `Flower room ${Date.now()}`;
    const firstRoomId = await createRoom(e2e.server, farm.companyId, firstRoom);

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new AppPage(page);
    await app.open('/');
    // No session: nothing is synced.
    expect(await app.localDocuments('rooms')).toEqual([]);

    const session = await sessionEntries(farm.regular);
    expect(session.get(SESSION_KEYS.companyId)).toBe(String(farm.companyId));
    await app.storeSession(session);
    await app.reload();
    await app.rendered();

    const roomNames = async () => (await app.localDocuments('rooms')).map((room) => room.Name);
    await expect.poll(roomNames, { timeout: 30_000 }).toContain(firstRoom);
    const pulled = (await app.localDocuments('rooms')).find((room) => room.Name === firstRoom);
    // Named as the tablet names records: by client id, the server's integer id beside it.
    const firstRoomKey = await clientIdOf(e2e.server, 'rooms', firstRoomId);
    expect(pulled).toMatchObject({ id: firstRoomKey, RoomID: firstRoomKey, serverId: firstRoomId, CompanyID: farm.companyId });
    // Another company's room, created before this one, never reaches this tablet.
    expect(await roomNames()).not.toContain(theirRoom);

    // A room created while the app is open arrives too (the change stream tells the worker to pull).
    const laterRoom = `Veg room ${Date.now()}`;
    await createRoom(e2e.server, farm.companyId, laterRoom);
    await expect.poll(roomNames, { timeout: 30_000 }).toContain(laterRoom);

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a first visit is ready to work offline once the indicator says so: offline at once, a reload opens the app with the company\'s rooms', async () => {
    const farm = await createTenant(e2e.server);
    await createRoom(e2e.server, farm.companyId, 'Ready room');
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new AppPage(page);
    await app.signIn(farm.admin, { waitForData: false });
    // Not ready until the app is saved and the company's data pulled; then it says so.
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    expect(await page.locator('.offline-ready').textContent()).toBe('Ready offline');
    await app.checkScreen('offline-ready');

    await context.setOffline(true);
    await app.reload();
    await app.open('/dashboard/rooms');
    await page.getByRole('listitem', { name: 'Ready room' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.sync-chip').textContent()).toContain('Offline');
    await app.checkScreen('offline-ready-reloaded');
    await context.setOffline(false);

    expect(errors, messages.join('\n')).toEqual([]);
  });
});
