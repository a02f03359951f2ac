/**
 * Sending queued changes with the app closed (issue 19), in real Chromium with a fresh profile (its
 * context outlives its pages, so the service worker can run with none open): a grower creates a room
 * offline, every page of the app is closed, the network returns and Chromium fires the service
 * worker's Background Sync event (dispatched here through the DevTools protocol, as Chromium does when
 * the connection returns). The service worker sends the room under the grower's session; the server
 * holds it once, and the app opened again finds its outbox empty and the room there once.
 *
 * Before that, with a page of the app open, the same event sends nothing: the page's sync worker owns
 * the replay (here it cannot reach the API, so the change waits for the page and not for the event).
 *
 * A browser with neither Background Sync nor periodic sync (Safari, Firefox; here Chromium with its
 * SyncManager removed before the app loads) says so: the sync panel and the sign-out panel tell that
 * changes wait until the app is opened again, and closing the page with changes waiting asks first.
 */
import type { CDPSession, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_SYNC_TAG } from '../../sync/background-replay';
import { type E2E, newTabletProfile, skipBrowser, startE2E } from '../support/browser';
import { createTenant } from '../support/factories';
import { RoomsPage } from './rooms-page';

let e2e: E2E;

/** The service worker registrations Chromium reports (ServiceWorker.workerRegistrationUpdated), by scope. */
async function watchRegistrations(devtools: CDPSession): Promise<Map<string, string>> {
  const registrations = new Map<string, string>();
  devtools.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }: { registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> }) => {
    for (const registration of updated) {
      if (registration.isDeleted) registrations.delete(registration.scopeURL);
      else registrations.set(registration.scopeURL, registration.registrationId);
    }
  });
  await devtools.send('ServiceWorker.enable');
  return registrations;
}

describe.skipIf(skipBrowser)('sending with the app closed (Background Sync)', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('the service worker sends a change queued offline once every page is closed, and the server holds it once', async () => {
    const farm = await createTenant(e2e.server);
    const { context, page, errors, console: messages } = await newTabletProfile(e2e.server);
    const origin = new URL(e2e.server.url).origin;
    const app = new RoomsPage(page);
    await app.signIn(farm.admin);
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    expect(await app.activeServiceWorker(30_000)).toMatch(/\/sw\.js$/);

    // A page of another origin hosts the DevTools session: it stays open when every page of the app is closed.
    const host = await context.newPage();
    const devtools = await context.newCDPSession(host);
    const registrations = await watchRegistrations(devtools);
    await expect.poll(() => registrations.get(`${origin}/`), { timeout: 15_000 }).toBeTruthy();
    const fireSync = () => devtools.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: registrations.get(`${origin}/`) ?? '', tag: BACKGROUND_SYNC_TAG, lastChance: false });
    const fromServiceWorker: string[] = [];
    context.on('request', (request: Request) => {
      if (request.serviceWorker() && request.url().includes('/api/')) fromServiceWorker.push(request.url());
    });

    await context.setOffline(true);
    await app.openRooms();
    const name = `Sent with the app closed ${Date.now()}`;
    await app.createRoom(name, 'Queued offline, sent by the service worker');
    await expect.poll(() => app.outboxCount(), { timeout: 15_000 }).toBe(1);

    // With the app open, the event sends nothing: the page's worker replays (it cannot reach the API here).
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await context.setOffline(false);
    await fireSync();
    await page.waitForTimeout(3_000);
    expect(fromServiceWorker).toEqual([]);
    expect(await app.outboxCount()).toBe(1);

    // Every page of the app closed, the network back: the service worker sends it.
    for (const open of context.pages()) if (open !== host) await open.close();
    await fireSync();
    const roomsNamed = () => e2e.server.database.db.selectFrom('rooms').select(['id', 'created_by']).where('company_id', '=', farm.companyId).where('name', '=', name).execute();
    await expect.poll(async () => (await roomsNamed()).length, { timeout: 30_000 }).toBe(1);
    expect(fromServiceWorker.some((url) => url.includes('/api/sync/push'))).toBe(true);
    const [room] = await roomsNamed();
    expect(room?.created_by).toBe(farm.admin.id);

    // The app opened again: nothing waits, the room is there once, and the server still holds it once.
    const reopened = new RoomsPage(await context.newPage());
    await reopened.open('/dashboard/rooms');
    await reopened.rendered('Rooms');
    expect(await reopened.outboxCount()).toBe(0);
    await expect.poll(() => reopened.roomCard(name).count(), { timeout: 15_000 }).toBe(1);
    await reopened.synced();
    expect(await roomsNamed()).toHaveLength(1);

    expect(errors, messages.join('\n')).toEqual([]);
    await context.close();
  });

  it('without Background Sync, the app says changes wait for it to be opened again and asks before closing with changes waiting', async () => {
    const farm = await createTenant(e2e.server);
    const { context, page, errors, console: messages } = await e2e.newPage();
    // As in Safari and Firefox: no Background Sync (periodic sync is not granted to a page that is not installed).
    await page.addInitScript(() => {
      delete (window as { SyncManager?: unknown }).SyncManager;
    });
    const app = new RoomsPage(page);
    await app.signIn(farm.admin);
    await context.setOffline(true);
    await app.openRooms();
    await app.createRoom(`Waits for the app ${Date.now()}`, 'Queued offline in a browser without Background Sync');
    await expect.poll(() => app.pending(), { timeout: 15_000 }).toBe('1');

    await page.locator('.sync-chip').click();
    await page.getByRole('dialog', { name: 'Changes waiting to reach the server' }).getByText('This browser sends changes only while the app is open: closed now, they would wait on this tablet until the app is opened again.').waitFor();
    await page.locator('.sync-chip').click();
    await page.getByRole('group', { name: /^Signed in/ }).getByRole('button', { name: 'Sign out' }).click();
    const signOutPanel = page.getByRole('dialog', { name: 'Sign out with changes waiting?' });
    await signOutPanel.getByText('This browser sends changes only while the app is open: the ones left on this tablet wait until the app is opened again.').waitFor();
    await signOutPanel.getByRole('button', { name: 'Stay signed in' }).click();

    // Closing the page asks first (the browser's own "leave the page?"); staying keeps the app open.
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    expect(await app.pending()).toBe('1');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
