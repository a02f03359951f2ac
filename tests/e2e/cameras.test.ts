/**
 * Automated cameras in real Chromium against the real server (issue 17): an Admin adds a phone camera
 * and makes its device link; a phone (a second browser whose camera is Chromium's fake device) opens
 * /camera with the link, captures at a test interval, keeps its photos while offline and sends them
 * when the network returns; the camera's detail screen shows the images and plays the time-lapse;
 * the Admin revokes the link and the phone stops and says so. Screenshots of both screens at 768×1024
 * and axe on each. Nothing is mocked.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraMessages } from '../../common/messages/cameras';
import type { CameraImageRecord, CameraRecord } from '../../common/schemas/cameras';
import { type E2E, launchChromiumWith, newTabletPage, skipBrowser, startE2E } from '../support/browser';
import { createRoom, createTenant } from '../support/factories';
import { AppPage } from './app-page';

// The server (its own process, or in-process) lets cameras capture every few seconds (README "Settings").
process.env.CAMERA_MIN_INTERVAL_SECONDS = '2';

let e2e: E2E;
let phoneBrowser: Browser;

describe.skipIf(skipBrowser)('automated cameras', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
    phoneBrowser = await launchChromiumWith(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  }, 300_000);
  afterAll(async () => {
    await phoneBrowser?.close();
    await e2e?.close();
  });

  it('an Admin adds a phone camera and its link; the phone captures, keeps photos offline, sends them; the detail shows them; a revoked link stops the phone', async () => {
    const farm = await createTenant(e2e.server);
    await createRoom(e2e.server, farm.companyId, 'Flower 1');
    const camerasOnServer = async () => {
      const answer = await e2e.server.request<{ cameras: CameraRecord[] }>('GET', '/get_cameras', { token: farm.admin.token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.cameras;
    };
    const imagesOnServer = async (cameraId: number) => {
      const answer = await e2e.server.request<{ images: CameraImageRecord[]; total: number }>('GET', '/get_camera_images', { token: farm.admin.token, query: { camera_id: cameraId, per_page: 200 } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };

    // The Admin's tablet: the list, empty, then the new camera.
    const tablet = await e2e.newPage();
    const admin = new AppPage(tablet.page);
    await admin.signIn(farm.admin);
    await admin.open('/dashboard/automatedcameras');
    await admin.rendered('Automated cameras');
    await tablet.page.getByText('No cameras yet.', { exact: false }).waitFor({ timeout: 15_000 });
    await tablet.page.getByRole('button', { name: 'Add camera' }).click();
    const form = tablet.page.getByRole('form', { name: 'New camera' });
    await form.getByLabel('Name').fill('Phone over bench A');
    await form.getByLabel('Kind').selectOption('device');
    await form.getByLabel('Room').selectOption({ label: 'Flower 1' });
    await form.getByLabel(/^Every/).fill('0.05');
    await admin.checkScreen('cameras-new');
    await form.getByRole('button', { name: 'Add camera' }).click();
    const card = tablet.page.getByRole('listitem').filter({ has: tablet.page.getByRole('heading', { name: 'Phone over bench A' }) });
    await card.waitFor({ timeout: 15_000 });
    const [camera] = await camerasOnServer();
    expect(camera).toMatchObject({ kind: 'device', name: 'Phone over bench A', interval_seconds: 3, room_name: 'Flower 1', state: 'waiting' });

    // Its device link, shown once as text and as a QR code.
    await card.getByRole('button', { name: /^Device links/ }).click();
    await card.getByRole('button', { name: 'Make a device link' }).click();
    const link = card.locator('.device-link-url a');
    await link.waitFor({ timeout: 15_000 });
    const url = new URL(await link.innerText());
    expect(url.pathname).toBe('/camera');
    expect(url.searchParams.get('token')).toBeTruthy();
    await card.getByRole('img', { name: /^QR code of the device link/ }).waitFor();
    await admin.checkScreen('cameras-device-link');

    // The phone opens the link: the token leaves the address, the camera opens and photos go out.
    const phone = await newTabletPage(phoneBrowser, e2e.server, { permissions: ['camera'] });
    const phoneApp = new AppPage(phone.page);
    await phone.page.goto(`${url.pathname}${url.search}`, { waitUntil: 'load' });
    await phoneApp.rendered('Phone over bench A');
    expect(phone.page.url()).not.toContain('token=');
    await phone.page.getByRole('status').filter({ hasText: 'Capturing every 3 seconds' }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await imagesOnServer(camera!.camera_id)).total, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => phone.page.locator('.camera-page-facts dd').nth(2).innerText(), { timeout: 15_000 }).not.toBe('never');
    // The page opened no local database of the app and started no sync worker: only its own store.
    const databases = await phone.page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name));
    expect(databases).toEqual(['growroom-camera']);
    await phoneApp.checkScreen('camera-phone');

    // Offline: photos wait on the phone, then go out in order when the network returns, with their times.
    await phone.context.setOffline(true);
    await phone.page.getByText('Offline: photos are kept on this phone', { exact: false }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => Number(await phone.page.locator('.camera-page-facts dd').nth(1).innerText()), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const beforeReturn = (await imagesOnServer(camera!.camera_id)).total;
    await phoneApp.screenshot('camera-phone-offline');
    const offlineSince = Date.now();
    await phone.context.setOffline(false);
    await expect.poll(async () => Number(await phone.page.locator('.camera-page-facts dd').nth(1).innerText()), { timeout: 60_000 }).toBe(0);
    const after = await imagesOnServer(camera!.camera_id);
    expect(after.total).toBeGreaterThanOrEqual(beforeReturn + 2);
    // Photos taken offline kept the phone's capture time (before the network returned).
    expect(after.images.filter((image) => image.source === 'device' && Date.parse(image.captured_at) < offlineSince && Date.parse(image.received_at) >= offlineSince).length).toBeGreaterThanOrEqual(2);

    // The detail screen: the timeline, newest first, and the time-lapse.
    await admin.open(`/dashboard/automatedcameradetail/${camera!.camera_id}`);
    await admin.rendered('Phone over bench A');
    const timeline = tablet.page.getByRole('region', { name: 'Images' });
    await expect.poll(() => timeline.getByRole('listitem').filter({ has: tablet.page.locator('.timeline-time') }).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const timeLapse = tablet.page.getByRole('region', { name: 'Time-lapse' });
    await timeLapse.getByRole('img', { name: /^Phone over bench A at / }).waitFor({ timeout: 30_000 });
    const firstFrame = await timeLapse.locator('.time-lapse-time').innerText();
    expect(firstFrame).toMatch(/frame 1 of \d+/);
    await timeLapse.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => timeLapse.locator('.time-lapse-time').innerText(), { timeout: 15_000 }).not.toBe(firstFrame);
    await timeLapse.getByRole('button', { name: 'Pause' }).click();
    await admin.checkScreen('camera-detail');

    // Revoked: the phone stops at its next call and says so.
    await admin.open('/dashboard/automatedcameras');
    await admin.rendered('Automated cameras');
    const again = tablet.page.getByRole('listitem').filter({ has: tablet.page.getByRole('heading', { name: 'Phone over bench A' }) });
    await again.getByRole('button', { name: /^Device links/ }).click();
    await again.getByRole('button', { name: /^Revoke/ }).click();
    await again.locator('.device-link.revoked').waitFor({ timeout: 15_000 });
    await phone.page.getByRole('alert').filter({ hasText: cameraMessages.deviceTokenInvalid }).waitFor({ timeout: 30_000 });
    expect(await phone.page.locator('video').count()).toBe(0);
    await phoneApp.checkScreen('camera-phone-revoked');

    expect(tablet.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
  });
});
