/**
 * Scanning a batch's printed QR label (issue 17, "Scan a label") in a real Chromium against the real
 * server: Chromium's fake camera plays a Y4M video of the label drawn in the test
 * (tests/support/fake-camera.ts), the scanner reads it from the live picture and opens the batch, offline
 * too; any other code is refused with a message while scanning goes on; without a camera, a photo of
 * the label is read instead. The camera file is fixed at launch, so each camera test has a browser of
 * its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, launchChromiumWith, newTabletPage, skipBrowser, startE2E } from '../support/browser';
import { fakeCameraArgs, qrFrames, writeY4m } from '../support/fake-camera';
import { createBatch, createTenant } from '../support/factories';
import { BatchesPage } from './batches-page';

let e2e: E2E;
let workDirectory: string;
const browsers: Browser[] = [];

/** A Chromium whose camera shows the QR code of `text`, and a tablet page in it granted the camera. */
async function tabletWithCameraShowing(name: string, text: string) {
  const video = join(workDirectory, `${name}.y4m`);
  writeY4m(video, qrFrames(text));
  const browser = await launchChromiumWith(fakeCameraArgs(video));
  browsers.push(browser);
  return newTabletPage(browser, e2e.server, { permissions: ['camera'] });
}

/** The scanner's panel, opened from the Batches screen. */
async function openScanner(app: BatchesPage) {
  await app.page.getByRole('button', { name: 'Scan a label', exact: true }).click();
  const sheet = app.sheet('Scan a label');
  await sheet.waitFor();
  return sheet;
}

describe.skipIf(skipBrowser)('scanning a batch label', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    workDirectory = mkdtempSync(join(tmpdir(), 'label-scan-'));
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    for (const browser of browsers) await browser.close().catch(() => undefined);
    await e2e?.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('offline, the camera reads a printed label and opens that batch from the tablet’s copy', async () => {
    const farm = await createTenant(e2e.server);
    const batchId = await createBatch(e2e.server, farm.companyId, 'LBL-1');
    await createBatch(e2e.server, farm.companyId, 'LBL-2');
    // What the server prints on the label (server/domains/batches/routes.ts batchInfoUrl), on the test server's address.
    const { context, page, errors, console: messages } = await tabletWithCameraShowing('label', `${e2e.server.url}/dashboard/batch-info/${batchId}`);
    const app = new BatchesPage(page);
    await app.signIn(farm.regular);
    await app.openList();
    await app.card('LBL-1').waitFor();
    // The service worker holds the app's code, the scanner's lazily loaded chunk included.
    expect(await app.activeServiceWorker()).not.toBeNull();
    await expect.poll(() => app.controller()).not.toBeNull();

    await context.setOffline(true);
    await page.getByText('Offline: you see this tablet’s copy').waitFor();
    await openScanner(app);
    await page.waitForURL((url) => url.pathname === `/dashboard/batch-info/${batchId}`, { timeout: 30_000 });
    await app.rendered('Batch LBL-1');
    await page.getByText('This tablet’s copy: changes made here show at once').waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Summary' }).textContent()).toContain('Test strain');
    // The scanner closed with the Batches screen, and with it the camera.
    expect(await page.locator('video').count()).toBe(0);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a code that is not a batch label is refused with a message while scanning goes on', async () => {
    const farm = await createTenant(e2e.server);
    await createBatch(e2e.server, farm.companyId, 'LBL-3');
    const { page, errors, console: messages } = await tabletWithCameraShowing('not-a-label', 'https://example.com/products/grow-light');
    const app = new BatchesPage(page);
    await app.signIn(farm.regular);
    await app.openList();
    const sheet = await openScanner(app);
    await expect.poll(() => sheet.getByRole('alert').textContent(), { timeout: 30_000 }).toBe('This code is not a batch label.');
    // Still scanning: the live picture and the instruction stay, and the screen did not change.
    expect(await sheet.getByRole('status').first().textContent()).toBe('Hold the batch’s QR label inside the frame. It opens by itself when it is read.');
    expect(await sheet.locator('video').evaluate((video: HTMLVideoElement) => video.srcObject !== null && !video.paused)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard/batches');
    await app.checkScreen('label-scan-not-a-label');

    // Close lets go of the camera.
    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    await sheet.waitFor({ state: 'detached' });
    expect(await page.locator('video').count()).toBe(0);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('without a camera, a photo of the label is read: other files and other companies’ labels are refused, a label from another address opens its batch', async () => {
    const farm = await createTenant(e2e.server);
    const batchId = await createBatch(e2e.server, farm.companyId, 'LBL-4');
    const neighbour = await createTenant(e2e.server);
    const theirBatchId = await createBatch(e2e.server, neighbour.companyId, 'THEIRS-1');
    // The suite's own browser has no camera at all.
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.regular);
    await app.openList();
    const sheet = await openScanner(app);
    const photo = sheet.getByLabel('Take a photo of the label');
    await expect.poll(() => sheet.getByRole('status').first().textContent(), { timeout: 30_000 }).toMatch(/take a photo of the label/i);
    await app.checkScreen('label-scan-no-camera');

    await photo.setInputFiles({ name: 'label.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a picture at all') });
    await expect.poll(() => sheet.getByRole('alert').textContent()).toBe('This file is not a photo the tablet can read.');

    const labelPhoto = (text: string) => QRCode.toBuffer(text, { type: 'png', width: 512, margin: 2, errorCorrectionLevel: 'M' });
    await photo.setInputFiles({ name: 'theirs.png', mimeType: 'image/png', buffer: await labelPhoto(`${e2e.server.url}/dashboard/batch-info/${theirBatchId}`) });
    await expect.poll(() => sheet.getByRole('alert').textContent()).toBe('This batch label was read, but the batch is not on this tablet. It may have been deleted, or it belongs to another company.');
    expect(new URL(page.url()).pathname).toBe('/dashboard/batches');

    // Printed while the company's public address was another one: the path names the batch.
    await photo.setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: await labelPhoto(`https://grow.old-address.example/app/dashboard/batch-info/${batchId}`) });
    await page.waitForURL((url) => url.pathname === `/dashboard/batch-info/${batchId}`, { timeout: 30_000 });
    await app.rendered('Batch LBL-4');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
