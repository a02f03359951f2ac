/**
 * The app as an installable tablet app (issue 19), in real Chromium with a fresh profile: the Web App
 * Manifest as Chromium parses it has what an install needs (id, start URL, scope, standalone display,
 * icons at 192 and 512 px and a maskable one, shortcuts), Chromium's own installability checks find
 * nothing missing once the service worker controls the page, and every icon the manifest names is a
 * PNG of the size it says.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, newTabletProfile, skipBrowser, startE2E } from '../support/browser';
import { AppPage } from './app-page';

let e2e: E2E;

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe.skipIf(skipBrowser)('installing the app', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('passes Chromium’s installability checks in a fresh profile, with its icons and shortcuts', async () => {
    const { page, context, errors, console: messages } = await newTabletProfile(e2e.server);
    const app = new AppPage(page);
    await app.open('/');
    await app.rendered('Grow Room');
    expect(await app.activeServiceWorker(30_000)).toMatch(/\/sw\.js$/);

    const devtools = await context.newCDPSession(page);
    const { url, errors: parseErrors, data } = (await devtools.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string }>; data?: string };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(parseErrors).toEqual([]);
    const manifest = JSON.parse(data ?? '{}') as { id: string; start_url: string; scope: string; display: string; icons: ManifestIcon[]; shortcuts: Array<{ name: string; url: string }> };
    expect(manifest).toMatchObject({ id: '/', start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
      ['Rooms', '/dashboard/rooms'],
      ['Observations', '/dashboard/observations'],
      ['Scan now', '/dashboard/scanNow'],
    ]);

    // Chromium's checks, as its install prompt applies them; they need the service worker to control the page.
    await expect.poll(() => app.controller(), { timeout: 30_000 }).not.toBeNull();
    const installability = (await devtools.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    expect(installability.installabilityErrors.map((error) => error.errorId)).toEqual([]);

    // Every icon is a PNG (or the SVG) of the size it says; the maskable one is there.
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable' && icon.sizes === '512x512')).toBe(true);
    for (const size of ['192x192', '512x512']) expect(manifest.icons.some((icon) => icon.sizes === size && (icon.purpose ?? 'any').includes('any'))).toBe(true);
    for (const icon of manifest.icons) {
      const answer = await page.request.get(icon.src);
      expect(answer.status(), icon.src).toBe(200);
      expect(answer.headers()['content-type'], icon.src).toContain(icon.type.split('+')[0]);
      if (icon.type !== 'image/png') continue;
      const { width, height } = await sharp(await answer.body()).metadata();
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }

    expect(errors, messages.join('\n')).toEqual([]);
    await context.close();
  });
});
