/**
 * A shared kiosk tablet in a real Chromium against the real server (issue 11): two growers of one
 * company on one tablet, switching by PIN, each making changes offline; one signs out fully with
 * changes waiting. Back online, each change lands once, under its own author, with the moment it was
 * done (not the moment it synced); the signed-out user's changes wait for their next sign-in, never
 * going out as someone else. And a new tablet says it is loading the company's data, with progress,
 * instead of showing an empty company.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant, createUser } from '../support/factories';
import { KioskPage } from './kiosk-page';

let e2e: E2E;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How the app names a user made by the factories (first name: the role; last name: the given name). */
const displayName = (name: string) => `Regular ${name}`;

describe.skipIf(skipBrowser)('a shared kiosk tablet in Chromium', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('two growers switch by PIN and work offline; each change lands once under its author with its own time; a signed-out user\'s changes wait for their sign-in', async () => {
    const farm = await createTenant(e2e.server);
    const stamp = Date.now().toString(36);
    const ana = await createUser(e2e.server, farm.companyId, 'Regular', `ana${stamp}`);
    const bea = await createUser(e2e.server, farm.companyId, 'Regular', `bea${stamp}`);
    const [anaName, beaName] = [displayName(`ana${stamp}`), displayName(`bea${stamp}`)];
    const roomName = `Kiosk room ${stamp}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 2, 'Bench');
    const [culledBoxId, renamedBoxId] = [grid.boxIds[0]!, grid.boxIds[1]!];

    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new KioskPage(page);

    // Ana signs in with her password and, switching away for the first time, sets her PIN.
    await app.signIn(ana);
    await app.openRooms();
    await app.roomCard(roomName).waitFor({ timeout: 30_000 });
    await app.userMenu().getByText(anaName).waitFor({ timeout: 30_000 });
    await app.switchUser();
    await app.setPinForm().waitFor();
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-set-pin');
    await app.setPin('1234', '1243');
    await expect.poll(() => app.setPinForm().getByRole('alert').textContent()).toBe('The two PINs are not the same. Type the PIN again.');
    await app.setPin('1234');
    await app.rendered('Switch user');
    await app.member(anaName).waitFor();

    // Bea signs in with her password (that needs the network), sets her PIN, and hands back to Ana by PIN.
    await app.anotherUser(bea);
    await app.userMenu().getByText(beaName).waitFor({ timeout: 30_000 });
    await app.switchUser();
    await app.setPin('5678');
    await app.rendered('Switch user');
    await app.member(beaName).waitFor();
    await app.switchTo(anaName, '1234');

    // Offline, Ana culls a box and marks the grid scanned.
    await context.setOffline(true);
    await app.openRooms();
    await app.openRoom(roomName);
    await app.openBox('Bench', 1, 1);
    const culledFrom = Date.now();
    await app.panel().getByRole('button', { name: 'Cull plant' }).click();
    await app.panel().getByRole('button', { name: 'Un-cull plant' }).waitFor();
    const culledUntil = Date.now();
    await app.closePanel();
    const scannedFrom = Date.now();
    await app.grid('Bench').getByRole('button', { name: 'Mark grid scanned' }).click();
    await app.grid('Bench').locator('.scan-state.scanned').waitFor();
    const scannedUntil = Date.now();
    const shownScan = await app.grid('Bench').locator('.scan-state.scanned').textContent();
    expect(shownScan).toContain(`by ${anaName}`);
    await expect.poll(() => app.pending()).toBe('2');
    // Time passes between the act and its sync: the server must record the act's time, not the sync's.
    await sleep(2_500);

    // Ana steps away (she has a PIN: parked at once); the switch screen counts her changes waiting.
    await app.switchUser();
    await app.rendered('Switch user');
    await expect.poll(() => app.member(anaName).textContent()).toContain('Changes waiting: 2');
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-switch');

    // Bea, by PIN (a wrong one first), renames a box offline.
    await app.enterPin(beaName, '0000');
    await expect.poll(() => app.pinForm(beaName).getByRole('alert').textContent()).toBe('Wrong PIN. 4 tries left.');
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-pin');
    await app.switchTo(beaName, '5678');
    await app.openRooms();
    await app.openRoom(roomName);
    await app.openBox('Bench', 2, 1);
    await app.panel().getByLabel('Custom name').fill('Kiosk mother');
    await app.panel().getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => app.panel().getByRole('heading', { level: 2 }).textContent()).toBe('Kiosk mother');
    await app.closePanel();
    await expect.poll(() => app.pending()).toBe('3');
    const panel = await app.syncPanel();
    await expect.poll(() => panel.locator(`.sync-user[data-user="${ana.id}"]`).textContent()).toContain(anaName);
    expect(await panel.locator(`.sync-user[data-user="${bea.id}"]`).getAttribute('data-pending')).toBe('1');
    // Over the room screen (checked by the rooms tests): the panel's own check is kiosk-sync-waiting's, below.
    await app.shot('kiosk-sync-per-user');
    await page.locator('.sync-chip').click();

    // Back to Ana by PIN; she signs out fully, offline, with her two changes waiting: she is told so.
    await app.switchUser();
    await app.switchTo(anaName, '1234');
    await app.userMenu().getByRole('button', { name: 'Sign out' }).click();
    const confirm = app.signOutPanel();
    await confirm.waitFor();
    expect(await confirm.locator('.sign-out-count').textContent()).toBe('You have 2 changes waiting to reach the server.');
    expect(await confirm.textContent()).toContain('never as someone else');
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-sign-out');
    await confirm.getByRole('button', { name: 'Sign out now' }).click();
    // Bea is still parked on the tablet: the switch screen, where Ana's changes are said to wait for her.
    await page.waitForURL((url) => url.pathname === '/switchUser');
    await app.rendered('Switch user');
    await app.member(beaName).waitFor();
    expect(await app.member(anaName).count()).toBe(0);
    await page.getByRole('region', { name: 'Waiting for their authors to sign in' }).getByText(`${anaName}: 2 changes`).waitFor();
    await app.check('kiosk-switch-after-sign-out');

    // Bea switches in; the network returns. Her change lands under her; Ana's wait for Ana.
    await app.switchTo(beaName, '5678');
    await context.setOffline(false);
    const box = (id: number) => db().selectFrom('grid_boxes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const gridRow = () => db().selectFrom('grids').selectAll().where('id', '=', grid.id).executeTakeFirstOrThrow();
    await expect.poll(async () => (await box(renamedBoxId)).custom_name, { timeout: 30_000 }).toBe('Kiosk mother');
    expect((await box(renamedBoxId)).updated_by).toBe(bea.id);
    await expect.poll(() => app.outboxCount(), { timeout: 30_000 }).toBe(2);
    await sleep(3_000);
    expect((await box(culledBoxId)).culled).toBe(false);
    expect((await gridRow()).scanned).toBe(false);
    const waiting = await app.syncPanel();
    await waiting.getByText(`Waiting for ${anaName} to sign in on this tablet.`).waitFor();
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-sync-waiting');
    await page.locator('.sync-chip').click();

    // Bea steps away; Ana signs in with her password: her changes land, under her, with their own times.
    await app.switchUser();
    await app.rendered('Switch user');
    await app.anotherUser(ana);
    await app.synced();
    const culled = await box(culledBoxId);
    expect([culled.culled, culled.culled_by, culled.updated_by]).toEqual([true, ana.id, ana.id]);
    const scanned = await gridRow();
    expect([scanned.scanned, scanned.last_scanned_by, scanned.updated_by]).toEqual([true, ana.id, ana.id]);
    // Within a second of the act on the tablet (the sync came many seconds later).
    const at = (value: unknown) => new Date(value as string | Date).getTime();
    expect(at(scanned.scanned_at)).toBeGreaterThanOrEqual(scannedFrom - 1_000);
    expect(at(scanned.scanned_at)).toBeLessThanOrEqual(scannedUntil + 1_000);
    expect(at(culled.culled_at)).toBeGreaterThanOrEqual(culledFrom - 1_000);
    expect(at(culled.culled_at)).toBeLessThanOrEqual(culledUntil + 1_000);

    // Each change once, under its author, at its own time.
    const events = await db().selectFrom('audit_events').select(['event_title', 'user_id', 'created_at']).where('company_id', '=', farm.companyId).orderBy('id').execute();
    const byTitle = (title: string) => events.filter((event) => event.event_title === title);
    expect(byTitle('Culled plant').map((event) => event.user_id)).toEqual([ana.id]);
    expect(byTitle('Marked grid Bench scanned').map((event) => event.user_id)).toEqual([ana.id]);
    expect(byTitle('Renamed plant to Kiosk mother').map((event) => event.user_id)).toEqual([bea.id]);
    expect(at(byTitle('Marked grid Bench scanned')[0]!.created_at)).toBeLessThanOrEqual(scannedUntil + 1_000);

    // The screen shows the scan at the time it was done, as it did offline.
    await app.openRooms();
    await app.openRoom(roomName);
    await expect.poll(() => app.grid('Bench').locator('.scan-state.scanned').textContent(), { timeout: 30_000 }).toBe(shownScan);

    // Five wrong PINs in a row lock PIN switching for Bea: she signs in with her password, and PINs work again.
    // (Ana's full sign-out took her PIN off the tablet: she sets one again to step away.)
    await app.switchUser();
    await app.setPin('4321');
    await app.rendered('Switch user');
    for (const left of [4, 3, 2, 1]) {
      await app.enterPin(beaName, '0000');
      await expect.poll(() => app.pinForm(beaName).getByRole('alert').textContent()).toBe(`Wrong PIN. ${left} ${left === 1 ? 'try' : 'tries'} left.`);
    }
    await app.enterPin(beaName, '0000');
    await expect.poll(() => app.pinForm(beaName).getByRole('alert').textContent()).toBe('Too many wrong PINs. Sign in with your password.');
    expect(await app.pinForm(beaName).getByLabel('PIN', { exact: true }).count()).toBe(0);
    expect(await app.accessibilityProblems()).toEqual([]);
    await app.check('kiosk-locked');
    await app.pinForm(beaName).getByRole('button', { name: 'Sign in with your password' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await page.getByLabel('Email').fill(bea.email);
    await page.getByLabel('Password').fill(bea.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await app.userMenu().getByText(beaName).waitFor({ timeout: 30_000 });
    await app.switchUser();
    await app.switchTo(anaName, '4321');
    await app.switchUser();
    await app.switchTo(beaName, '5678');

    // The sign-in screen opened while Bea is at the tablet says so; Ana's password sign-in parks Bea
    // (she has a PIN here) instead of dropping her session: Bea comes back by PIN.
    await app.open('/signIn');
    await page.getByRole('status').filter({ hasText: 'Someone is signed in on this tablet' }).waitFor();
    await page.getByLabel('Email').fill(ana.email);
    await page.getByLabel('Password').fill(ana.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await app.userMenu().getByText(anaName).waitFor({ timeout: 30_000 });
    await app.switchUser();
    await app.rendered('Switch user');
    await app.switchTo(beaName, '5678');
    await app.userMenu().getByText(beaName).waitFor({ timeout: 30_000 });
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a new tablet shows the loading progress of the company\'s data, never "No rooms yet", until the rooms arrive', async () => {
    const farm = await createTenant(e2e.server);
    const rooms: string[] = [];
    for (let index = 1; index <= 3; index += 1) {
      const name = `Loaded room ${index}`;
      rooms.push(name);
      const roomId = await createRoom(e2e.server, farm.companyId, name);
      // Enough plant positions that the first pull takes a moment.
      for (let gridIndex = 1; gridIndex <= 2; gridIndex += 1) await createGrid(e2e.server, farm.companyId, roomId, 20, 20, `Grid ${index}.${gridIndex}`);
    }

    const { context, page, errors, console: messages } = await e2e.newPage();
    // A slow network: each page of the pull takes a moment longer, so the progress is there to see.
    await context.route('**/api/sync/pull?**', async (route) => {
      await sleep(300);
      await route.continue();
    });
    // Watches every change of the page from its first script: what it said before the rooms showed.
    await page.addInitScript(() => {
      const seen = { emptyBeforeList: false, progress: false, list: false };
      (window as unknown as { kioskSeen: typeof seen }).kioskSeen = seen;
      const look = () => {
        const text = document.body?.textContent ?? '';
        if (document.querySelector('ul.room-list > li')) seen.list = true;
        if (!seen.list && text.includes('No rooms yet')) seen.emptyBeforeList = true;
        if (text.includes("Loading your company's data")) seen.progress = true;
      };
      new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const app = new KioskPage(page);
    await app.signIn(farm.regular, { waitForData: false });
    // Where a grower lands: the counts wait for the data, with its progress in collections and records.
    const progress = page.getByRole('status').filter({ hasText: /Loading your company's data… \(\d+ of \d+ collections, [\d,]+ records?\)/ });
    await progress.waitFor({ timeout: 15_000 });
    await app.checkScreen('kiosk-loading');
    await app.openRooms();
    await app.roomCard(rooms[2]!).waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (window as unknown as { kioskSeen: { emptyBeforeList: boolean; progress: boolean; list: boolean } }).kioskSeen);
    expect(seen).toEqual({ emptyBeforeList: false, progress: true, list: true });
    // Once loaded, the dashboard counts the company's data.
    await app.open('/dashboard/quickview');
    await app.rendered('Quick view');
    await expect.poll(() => app.count('plants'), { timeout: 30_000 }).toBe('2400');
    await app.checkScreen('kiosk-loaded-quickview');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
