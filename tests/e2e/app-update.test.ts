/**
 * A new version of the app reaching a tablet with changes queued (issue 19), in real Chromium against
 * the real server: the app is served from a copy of the build, a grower creates a room while the API
 * cannot be reached (the change waits in the outbox), and a new version is deployed into the copy
 * (its index.html changed and its service worker rebuilt, as `npm run build` does). The tablet keeps
 * running the version it has and says a new one is ready, with the change still waiting; the grower
 * reloads when asked, the new version runs, and once the API answers again the room reaches the server
 * exactly once.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E, webAppBuild } from '../support/browser';
import { createTenant } from '../support/factories';
import { RoomsPage } from './rooms-page';

let e2e: E2E;
let deployed: string;

/**
 * Deploys "a new version" into the served copy as `npm run build` would leave it: a changed
 * index.html, the service worker rebuilt over it, and both compressed again (the server sends the
 * .br and .gz copies).
 */
async function deployNewVersion(directory: string, version: string) {
  const index = join(directory, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</head>', `<meta name="app-version" content="${version}" />\n  </head>`));
  for (const script of ['build-service-worker.mjs', 'compress-assets.mjs']) await promisify(execFile)(process.execPath, [join(process.cwd(), 'scripts', script), directory]);
}

describe.skipIf(skipBrowser)('a new version of the app, with changes queued', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    deployed = mkdtempSync(join(tmpdir(), 'growroom-deployed-'));
    cpSync(await webAppBuild(), deployed, { recursive: true });
    e2e = await startE2E({ webRoot: deployed });
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
    if (deployed) rmSync(deployed, { recursive: true, force: true });
  });

  it('keeps the queued change through the update the grower chooses, and sends it once', async () => {
    const farm = await createTenant(e2e.server);
    const { page, context, errors, console: messages } = await e2e.newPage();
    const app = new RoomsPage(page);
    await app.signIn(farm.admin);
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    const version = () => page.evaluate(() => document.querySelector('meta[name="app-version"]')?.getAttribute('content') ?? 'first');
    expect(await version()).toBe('first');

    // The API cannot be reached (the app's files still can): the new room waits in the outbox.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await app.openRooms();
    await app.createRoom('Update room', 'Made before the update');
    await expect.poll(() => app.outboxCount(), { timeout: 15_000 }).toBe(1);

    // A new version is deployed; the tablet finds it (as it does on coming back to the foreground) and waits for the grower.
    await deployNewVersion(deployed, 'second');
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const offer = page.locator('.update-offer');
    await offer.getByRole('button', { name: 'Reload now' }).waitFor({ timeout: 30_000 });
    expect(await offer.innerText()).toContain('your 1 change waiting is kept and sent by the new version');
    expect(await version()).toBe('first');
    expect(await app.outboxCount()).toBe(1);
    await app.checkScreen('app-update-ready');

    // The grower reloads: the new version runs, the change still waits.
    await offer.getByRole('button', { name: 'Reload now' }).click();
    await expect.poll(() => version(), { timeout: 30_000 }).toBe('second');
    await app.rendered('Rooms');
    expect(await app.outboxCount()).toBe(1);
    expect(await offer.count()).toBe(0);

    // The API answers again: the new version sends the room, once.
    await context.unroute('**/api/**');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await app.synced();
    const rooms = await e2e.server.database.db.selectFrom('rooms').select('id').where('company_id', '=', farm.companyId).where('name', '=', 'Update room').execute();
    expect(rooms).toHaveLength(1);
    await app.checkScreen('app-update-reloaded');

    expect(errors, messages.join('\n')).toEqual([]);
  });
});
