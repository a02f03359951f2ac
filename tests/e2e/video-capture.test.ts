/**
 * Video capture in real Chromium against the real server (issue 17): a grower with no signal picks a
 * box, records about two seconds from the tablet's camera (Chromium's fake camera), saves it and sees
 * it waiting for the network; back online, it uploads (the resumable upload of sync/replay.ts), shows
 * in the box's videos, plays, and a frame of it goes to the scan screen. The server has one WebM file
 * for that box. Screenshots at 768×1024 and axe on each state. Nothing is mocked.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, launchChromiumWith, newTabletPage, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;
let cameraBrowser: Browser;

/** The video screen, as a grower uses it. */
class VideoCapturePage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openScreen() {
    await this.open('/dashboard/videoCapture');
    await this.rendered('Video capture');
  }

  /** A select, by the start of its label (the label wraps the select, so its options follow in its name). */
  field(label: 'Room' | 'Box' | 'Grid' | 'Row'): Locator {
    return this.page.getByLabel(new RegExp(`^${label}`));
  }

  /** Chooses the option whose text starts with `text`, once it is there (the local store fills the lists). */
  async choose(label: 'Room' | 'Box' | 'Grid' | 'Row', text: string) {
    const select = this.field(label);
    const option = select.locator('option').filter({ hasText: text }).first();
    await option.waitFor({ state: 'attached', timeout: 30_000 });
    await select.selectOption((await option.getAttribute('value')) ?? '');
  }

  button(name: string) {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** What the camera panel says is happening. */
  status() {
    return this.page.locator('.video-status').textContent();
  }

  waitingVideos() {
    return this.page.locator('.video-waiting .video-item');
  }

  storedVideos() {
    return this.page.locator('.video-stored .video-item');
  }
}

describe.skipIf(skipBrowser)('video capture', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
    cameraBrowser = await launchChromiumWith(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  }, 300_000);
  afterAll(async () => {
    await cameraBrowser?.close();
    await e2e?.close();
  });

  it('a box recorded offline waits, uploads when the signal returns, plays, and a frame goes to a scan', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg room V');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench V');
    const tablet = await newTabletPage(cameraBrowser, e2e.server, { permissions: ['camera'] });
    const screen = new VideoCapturePage(tablet.page);
    await screen.signIn(farm.regular);
    await screen.openScreen();
    expect(await screen.activeServiceWorker()).not.toBeNull();

    // No signal in the grow room.
    await tablet.context.setOffline(true);
    await screen.choose('Room', 'Veg room V');
    await screen.choose('Box', 'Bench V · Box 1');
    const boxKey = await screen.field('Box').inputValue();
    const { grid_box_id: boxId } = await e2e.server.database.db.selectFrom('grid_box_client_ids').select('grid_box_id').where('client_id', '=', boxKey).executeTakeFirstOrThrow();
    expect(grid.boxIds).toContain(boxId);
    await screen.button('Open camera').click();
    await screen.button('Record').waitFor({ timeout: 20_000 });
    await expect.poll(() => screen.status()).toContain('Ready to record Bench V · Box 1');
    await screen.button('Record').click();
    await screen.button('Stop').waitFor();
    await expect.poll(() => screen.status()).toContain('Recording');
    await tablet.page.locator('.video-timer').waitFor();
    await screen.checkScreen('video-capture-recording');
    await tablet.page.waitForTimeout(2_200);
    await screen.button('Stop').click();
    await screen.button('Save').waitFor();
    await expect.poll(() => screen.status()).toContain('Watch it, then save or discard it');
    await screen.button('Save').click();

    // Kept on the tablet, waiting for the network; the server has nothing yet.
    await expect.poll(() => screen.waitingVideos().count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => screen.waitingVideos().first().locator('.video-upload-state').getAttribute('data-state')).toBe('offline');
    expect(await screen.waitingVideos().first().textContent()).toContain('Waiting for network');
    expect(await screen.waitingVideos().first().locator('h3').textContent()).toContain('Bench V · Box 1');
    await screen.checkScreen('video-capture-waiting');
    const onServer = () => e2e.server.database.db.selectFrom('box_videos').selectAll().where('company_id', '=', farm.companyId).execute();
    expect(await onServer()).toEqual([]);
    expect((await screen.outboxEntries()).map((entry) => entry.path)).toEqual(['/finish_video_upload']);

    // The signal returns: the video goes up, once, and shows among the box's videos.
    await tablet.context.setOffline(false);
    await screen.synced();
    await expect.poll(() => screen.waitingVideos().count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => screen.storedVideos().count(), { timeout: 30_000 }).toBe(1);
    const videos = await onServer();
    expect(videos).toHaveLength(1);
    const video = videos[0]!;
    expect(video).toMatchObject({ what: 'box', grid_box_id: boxId, grid_id: grid.id, room_id: roomId, content_type: 'video/webm', recorded_by: farm.regular.id });
    expect(video.duration_ms).toBeGreaterThan(1_000);
    const file = await fetch(`${e2e.server.url}/api/files/${video.file_id}`, { headers: { authorization: `Bearer ${farm.regular.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/webm');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.length).toBe(video.size_bytes);
    expect([...bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);

    // It plays from the server's copy; a frame of it goes to the scan screen.
    await screen.storedVideos().first().getByRole('button', { name: 'Play' }).click();
    const player = screen.storedVideos().first().locator('video');
    await player.waitFor({ timeout: 20_000 });
    await expect.poll(() => player.evaluate((element) => (element as HTMLVideoElement).readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await screen.checkScreen('video-capture-uploaded');
    await screen.button('Send this frame to a scan').click();
    await tablet.page.waitForURL((url) => url.pathname === '/dashboard/scanNow', { timeout: 15_000 });
    expect(tablet.errors).toEqual([]);
  });
});
