/**
 * What the real server serves besides the app's screens, from its production build: the web app's
 * files precompressed and without source maps, and the API's browsable description
 * (server/http/openapi.ts), which opens in Chromium with the app's security headers.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E, webAppBuild } from '../support/browser';

let e2e: E2E;

describe.skipIf(skipBrowser)('what the server serves, in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('/api/docs shows the calls, each with its path, without errors', async () => {
    const { page, errors, console: messages } = await e2e.newPage();
    await page.goto('/api/docs', { waitUntil: 'load' });
    await page.getByRole('heading', { name: /Grow Room API/ }).waitFor({ timeout: 20_000 });
    // The calls are listed by area, each area opened on demand; an area lists its calls by method and path.
    const areas = page.locator('.opblock-tag');
    await areas.first().waitFor();
    expect((await areas.allInnerTexts()).map((text) => text.split('\n')[0]?.trim())).toEqual(expect.arrayContaining(['Rooms', 'Grids', 'Batches', 'Forms', 'Plant problems', 'Treatments', 'Sync']));
    await page.locator('.opblock-tag', { hasText: /^Rooms/ }).click();
    await page.locator('.opblock-summary-path', { hasText: '/api/create_room' }).first().waitFor();
    await page.locator('.opblock-tag', { hasText: /^Plant problems/ }).click();
    await page.locator('.opblock-summary-path', { hasText: '/api/get_unresolved_problems_for_room' }).first().waitFor();
    // The two areas opened: the rooms' calls and the 19 of plant problems.
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('sends the app’s files brotli- or gzip-compressed as the browser accepts, and no source maps', async () => {
    const index = await fetch(`${e2e.server.url}/`, { headers: { 'accept-encoding': 'br' } });
    expect(index.headers.get('content-encoding')).toBe('br');
    const html = await index.text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const asset = await fetch(`${e2e.server.url}${script}`, { headers: { 'accept-encoding': encoding } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe(encoding);
      expect(asset.headers.get('content-type')).toContain('javascript');
    }
    const plain = await fetch(`${e2e.server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(1000);
    const maps = readdirSync(await webAppBuild(), { recursive: true }).map(String).filter((name) => name.endsWith('.map'));
    expect(maps).toEqual([]);
    expect((await fetch(`${e2e.server.url}${script}.map`)).status).toBe(404);
  });
});
