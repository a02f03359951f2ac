/**
 * A kiosk pinned to one room (issue 19), in real Chromium against the real server: an Admin pins the
 * tablet to a room on the settings screen; a grower who then signs in on it lands on that room's
 * screen, with the top bar saying so; the Admin still lands on the dashboard, and unpins it, after which
 * the grower lands on the quick view again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { KioskPage } from './kiosk-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('a kiosk pinned to a room', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('starts everyone but an Admin on the pinned room, until an Admin unpins it', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower 3');
    await createGrid(e2e.server, farm.companyId, roomId, 2, 2, 'Bench C');
    await createRoom(e2e.server, farm.companyId, 'Mother room');

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new KioskPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/settings');
    await app.rendered('Settings');
    const pin = page.getByLabel('Room this tablet is pinned to');
    await expect.poll(() => pin.locator('option').allInnerTexts()).toEqual(['Not pinned', 'Flower 3', 'Mother room']);
    await pin.selectOption({ label: 'Flower 3' });
    const chip = page.locator('.pinned-room');
    await expect.poll(() => chip.innerText()).toBe('Pinned to Flower 3');
    await app.checkScreen('kiosk-pin-settings');

    // The grower signs in on the pinned tablet: the room's screen, not the quick view.
    await app.userMenu().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await app.signIn(farm.regular);
    await app.rendered('Flower 3');
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/rooms\//);
    await expect.poll(() => chip.innerText()).toBe('Pinned to Flower 3');
    await app.checkScreen('kiosk-pin-room');
    // The brand link takes the grower home: the pinned room again.
    await page.locator('.brand').click();
    await app.rendered('Flower 3');

    // An Admin lands on the dashboard as always, and unpins the tablet.
    await app.userMenu().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await app.signIn(farm.admin);
    await app.rendered('Dashboard');
    await app.open('/dashboard/settings');
    await app.rendered('Settings');
    await page.getByLabel('Room this tablet is pinned to').selectOption({ label: 'Not pinned' });
    await expect.poll(() => chip.count()).toBe(0);
    await app.userMenu().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await app.signIn(farm.regular);
    await app.rendered('Quick view');

    expect(errors, messages.join('\n')).toEqual([]);
  });
});
