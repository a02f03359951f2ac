/**
 * The API's browsable description (server/http/openapi.ts) opens in Chromium from the real server, with
 * the app's security headers, and lists the calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';

let e2e: E2E;

describe.skipIf(skipBrowser)('the API description in Chromium', { timeout: 60_000 }, () => {
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
    // Operations are listed by method and path.
    await page.locator('.opblock-summary-path', { hasText: '/api/create_room' }).first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(120);
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
