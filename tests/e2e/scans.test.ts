/**
 * scanNow end to end (issue 17), in real Chromium against the real server: with no signal, a grower
 * scans a grid's sticky traps, corrects the counter's marks by tapping, and saves; a disease scan
 * with the built-in leaf-colour analysis records a confirmed finding as a problem. Back online, the
 * server has each box's photo, the trap's counts as a Sticky Trap response and the problem, each once;
 * the history lists the scans and the detail shows the marks.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticTrap } from '../../common/vision/synthetic-trap';
import type { RgbaImage } from '../../common/vision/image';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { tinyColourClassifier } from '../support/onnx-model';
import { ScansPage } from './scans-page';

let e2e: E2E;

async function jpeg(image: RgbaImage): Promise<Buffer> {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 4 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe.skipIf(skipBrowser)('scans', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a sticky-trap scan made offline, its marks corrected by tapping, reaches the server once with its counts', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Propagation 2');
    const { id: gridId } = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Trap bench');
    const db = e2e.server.database.db;
    // The built-in forms, with the Sticky Trap form the counts fill.
    expect((await e2e.server.request('PUT', '/reset_all_templates', { token: farm.admin.token, json: { company_id: farm.companyId } })).status).toBe(200);
    const trap = syntheticTrap({ width: 1600, height: 1200, seed: 17, colour: 'yellow', insects: { thrips: 12, whitefly_aphid: 6, gnat_fly: 3 }, blur: 0.8, noise: 3 });
    const photo = { name: 'trap.jpg', mimeType: 'image/jpeg', buffer: await jpeg(trap.image) };

    const { page, context } = await e2e.newPage();
    const scans = new ScansPage(page);
    await scans.signIn(farm.regular);
    await scans.openScanNow();
    await scans.synced();
    expect(await scans.activeServiceWorker()).not.toBeNull();
    await context.setOffline(true);

    await scans.start({ scan: 'Sticky-trap count', room: 'Propagation 2', grid: 'Trap bench' });
    await scans.takePhoto(photo);
    await scans.analysed();
    expect(await scans.status()).toMatch(/^Found a yellow trap and \d+ insects/);
    await scans.marksDrawn();
    const found = await scans.marks().count();
    // The counter's own accuracy is tested on 12 photos in common/vision; here it only has to be close.
    expect(Math.abs(found - 21)).toBeLessThanOrEqual(3);
    await scans.checkScreen('scan-now-trap');

    // A tap on a mark removes it; a tap on bare card adds a thrips-sized one.
    const first = await scans.markAt(0);
    await scans.tapPhoto(first.x, first.y);
    await expect.poll(() => scans.marks().count()).toBe(found - 1);
    const thripsBefore = await scans.count('thrips');
    await scans.tapPhoto(0.02, 0.02);
    await expect.poll(() => scans.count('thrips')).toBe(thripsBefore + 1);
    const counts = { thrips: await scans.count('thrips'), whitefly_aphid: await scans.count('whitefly_aphid'), gnat_fly: await scans.count('gnat_fly') };
    await scans.saveBox();
    await page.getByRole('heading', { name: /^Box 2/ }).waitFor();
    await scans.finish();
    await page.getByText('The photo is on this tablet, waiting to upload.').waitFor();

    await context.setOffline(false);
    await scans.synced();
    const scanRows = await db.selectFrom('scans').selectAll().where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute();
    expect(scanRows).toHaveLength(1);
    expect(scanRows[0]).toMatchObject({ scan_type: 'sticky_trap', grid_id: gridId });
    const boxes = await db.selectFrom('scan_boxes').selectAll().where('scan_id', '=', scanRows[0]!.id).execute();
    expect(boxes).toHaveLength(1);
    expect(boxes[0]!.counts).toEqual(counts);
    expect(boxes[0]!.file_id).not.toBeNull();
    const responses = await db
      .selectFrom('form_responses')
      .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
      .select('form_templates.form_category')
      .where('form_responses.company_id', '=', farm.companyId)
      .where('form_responses.deleted_at', 'is', null)
      .execute();
    expect(responses).toEqual([{ form_category: 'Sticky Trap' }]);
    const grid = await db.selectFrom('grids').select(['scanned', 'scanned_at']).where('id', '=', gridId).executeTakeFirstOrThrow();
    expect(grid.scanned).toBe(true);

    // The detail shows the photo from the server with the marks as saved.
    await page.getByRole('img', { name: /^Trap of / }).waitFor({ timeout: 30_000 });
    await expect.poll(() => scans.marks().count(), { timeout: 15_000 }).toBe(counts.thrips + counts.whitefly_aphid + counts.gnat_fly);
    await scans.checkScreen('scan-detail-trap');
    await scans.open('/dashboard/scanHistory');
    await page.getByRole('link', { name: /Sticky-trap count · Propagation 2 · Trap bench/ }).waitFor();
    await scans.checkScreen('scan-history');
  });

  it('an Admin uploads an ONNX classifier in Settings and a disease scan runs it in the tablet, offline, recording a confirmed finding as a problem with its photo once', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg 1');
    await createGrid(e2e.server, farm.companyId, roomId, 1, 1, 'Bench V');
    const db = e2e.server.database.db;

    const { page, context } = await e2e.newPage();
    const scans = new ScansPage(page);
    await scans.signIn(farm.admin);
    await scans.open('/dashboard/settings');
    await scans.rendered('Settings');
    await page.getByRole('button', { name: 'Upload a model' }).click();
    await page.getByLabel('Name').fill('Colour check');
    // Labels as an Admin pastes them; green names a catalogue problem so a confirmed finding is one.
    await page.getByLabel('Labels').fill(JSON.stringify([{ label: 'red', problem_slug: null }, { label: 'green', problem_slug: 'powdery-mildew' }, { label: 'blue', problem_slug: null }]));
    await page.getByLabel('Model file (.onnx)').setInputFiles({ name: 'colour.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from(tinyColourClassifier()) });
    await page.getByRole('button', { name: 'Upload model' }).click();
    await page.getByRole('button', { name: 'Delete Colour check' }).waitFor({ timeout: 30_000 });
    await page.getByRole('combobox', { name: 'AI model' }).selectOption({ label: 'Colour check (version 1)' });
    await scans.synced();
    await scans.checkScreen('settings-ai-model');
    expect((await db.selectFrom('companies').select('ai_model').where('id', '=', farm.companyId).executeTakeFirstOrThrow()).ai_model).toBe('custom-colour-check');

    // The scan screen warms the model while online; then the signal goes.
    await scans.openScanNow();
    await scans.start({ scan: 'Disease scan', room: 'Veg 1', grid: 'Bench V' });
    await page.waitForFunction(async () => (await caches.keys()).includes('ai-models'), null, { timeout: 30_000 });
    await context.setOffline(true);
    const green = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 170, b: 60 } } }).png().toBuffer();
    await scans.takePhoto({ name: 'leaf.png', mimeType: 'image/png', buffer: green });
    await scans.analysed();
    expect(await scans.status()).toMatch(/^\d+ findings? \(in \d+ ms\)/);
    const first = page.locator('.finding').first();
    expect(await first.locator('strong').textContent()).toBe('green');
    expect(await first.getByRole('checkbox').isChecked()).toBe(true);
    await scans.checkScreen('scan-now-findings');
    await scans.saveBox();
    await scans.finish();

    await context.setOffline(false);
    await scans.synced();
    const problems = await db.selectFrom('plant_problems').selectAll().where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: 'scan', status: 'unresolved' });
    expect(problems[0]!.image_name).toMatch(/^\/api\/files\//);
    expect(problems[0]!.notes).toContain('Colour check');
  });
});
