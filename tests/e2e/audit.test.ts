/**
 * The audit trail screen in a real Chromium against the real server (spec part 2 §3, §7): the trail
 * made by changes over HTTP, its filters (room, batch, user, days, and days older than the tablet's
 * 90-day window, read from the server), paging, an event recorded by hand online and offline, an
 * Admin's correction and deletion, and a Regular user's view without them. What the screen shows and
 * what the server's database then holds. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createRoom, createTenant, type SignedInUser } from '../support/factories';
import { AuditPage } from './audit-page';

let e2e: E2E;

const db = () => e2e.server.database.db;
const eventRow = (companyId: number, title: string) => db().selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).executeTakeFirst();

/** A moment `days` ago at noon, the tablet's time (the test and Chromium share the machine's zone), and its day. */
function daysAgo(days: number): Date {
  const date = new Date();
  date.setDate(date.getDate() - days);
  date.setHours(12, 0, 0, 0);
  return date;
}
const dayOf = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

async function addEvent(user: SignedInUser, title: string, links: { room?: number; batch?: number } = {}) {
  const response = await e2e.server.request<{ event: { EventID: number } }>('POST', '/add_audit_event', {
    token: user.token,
    json: { CompanyID: user.companyId, UserID: user.id, EventTitle: title, RoomID: links.room ?? null, BatchID: links.batch ?? null },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.event.EventID;
}

/** Moves an event back in time, as if it had been recorded then (its `updated_at` stays now: the change trigger sets it). */
async function backdate(companyId: number, titlePattern: string, at: Date) {
  await db().updateTable('audit_events').set({ created_at: at }).where('company_id', '=', companyId).where('event_title', 'like', titlePattern).execute();
}

/** An event recorded (and last changed) long ago, written straight to the table: the pull's window leaves it on the server. */
async function insertOldEvent(user: SignedInUser, title: string, roomId: number, at: Date) {
  await db()
    .insertInto('audit_events')
    .values({ company_id: user.companyId, user_id: user.id, event_title: title, room_id: roomId, created_by: user.id, updated_by: user.id, created_at: at, updated_at: at })
    .execute();
}

describe.skipIf(skipBrowser)('the audit trail screen', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('shows, filters, pages, records, corrects and deletes events; offline too; Regular users only read and record', async () => {
    const farm = await createTenant(e2e.server);
    const roomA = await createRoom(e2e.server, farm.companyId, 'Flower room A');
    const roomB = await createRoom(e2e.server, farm.companyId, 'Veg room B');
    const batch = await createBatch(e2e.server, farm.companyId, 'B-7');

    // Changes over HTTP: a tray made and changed by the grower, events recorded by both users.
    const tray = await e2e.server.request<{ tray_id: number }>('POST', '/create_tray', {
      token: farm.regular.token,
      json: { tray_name: 'Seedling tray', company_id: farm.companyId, user_id: farm.regular.id, number_of_plants: 12, batch_id: batch },
    });
    expect(tray.status).toBe(200);
    const updated = await e2e.server.request('POST', '/update_tray', { token: farm.regular.token, json: { tray_id: tray.body.tray_id, company_id: farm.companyId, number_of_plants: 20 } });
    expect(updated.status).toBe(200);
    await addEvent(farm.admin, 'Checked irrigation lines', { room: roomA });
    await addEvent(farm.regular, 'Scouted veg room', { room: roomB, batch });
    await addEvent(farm.admin, 'Sprayed neem oil', { room: roomA, batch });
    for (let index = 1; index <= 55; index += 1) await addEvent(farm.admin, `Routine check ${index}`);
    // Earlier days: one event 20 days back, one 200 days back (older than the tablet's 90-day window: never pulled).
    await backdate(farm.companyId, 'Sprayed neem oil', daysAgo(20));
    await backdate(farm.companyId, 'Routine check %', daysAgo(2));
    await insertOldEvent(farm.admin, 'Old inspection', roomA, daysAgo(200));

    const { page, context, errors, console: messages } = await e2e.newPage();
    const app = new AuditPage(page);
    await app.signIn(farm.admin);
    await app.openTrail();

    // Newest first, 50 at a time; who, where and the details in words.
    await app.event('Checked irrigation lines').waitFor();
    const titles = await app.titles();
    expect(titles).toHaveLength(50);
    expect(titles.slice(0, 4)).toEqual(['Scouted veg room', 'Checked irrigation lines', 'Updated tray Seedling tray', 'Created tray Seedling tray (12 plants)']);
    expect(titles[4]).toMatch(/^Created company /);
    expect(await app.event(titles[4]!).textContent()).toContain('System');
    expect(titles).not.toContain('Old inspection');
    const scouted = app.event('Scouted veg room');
    expect(await scouted.textContent()).toContain('Room Veg room B');
    expect(await scouted.textContent()).toContain('Batch B-7');
    expect(await scouted.textContent()).toContain('Regular regular-');
    const trayChange = await app.event('Updated tray Seedling tray').textContent();
    expect(trayChange).toContain('Number of plants');
    expect(trayChange).toContain('20');
    expect(trayChange).not.toMatch(/[{}"]/);
    expect(await app.event('Checked irrigation lines').getByRole('button', { name: 'Correct' }).count()).toBe(1);
    await app.checkScreen('audit-trail');

    // Show more: the rest of the tablet's events (everything in the window: all but the 200-day-old one).
    const inWindow = (await db().selectFrom('audit_events').select('id').where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute()).length - 1;
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(async () => (await app.titles()).length).toBe(inWindow);
    await app.event('Sprayed neem oil').waitFor();
    expect(await app.titles()).not.toContain('Old inspection');

    // By room: the room's events; older ones than the window come from the server when asked for.
    await app.filterBy('Room', 'Flower room A');
    await expect.poll(() => app.titles()).toEqual(['Checked irrigation lines', 'Sprayed neem oil']);
    await page.getByRole('button', { name: 'Show older events' }).click();
    await expect.poll(() => app.titles()).toEqual(['Checked irrigation lines', 'Sprayed neem oil', 'Old inspection']);
    expect(await app.windowNote().textContent()).toContain('1 older event was read from the server');
    await app.checkScreen('audit-trail-filtered');

    // By batch, by user, by days.
    await app.clearFilters();
    await app.filterBy('Batch', 'B-7');
    await expect.poll(async () => (await app.titles()).sort()).toEqual(['Created tray Seedling tray (12 plants)', 'Scouted veg room', 'Sprayed neem oil', 'Updated tray Seedling tray']);
    await app.clearFilters();
    await app.filterBy('User', (await regularName(farm.regular.id))!);
    await expect.poll(async () => (await app.titles()).sort()).toEqual(['Created tray Seedling tray (12 plants)', 'Scouted veg room', 'Updated tray Seedling tray']);
    await app.clearFilters();
    await app.filterDays(dayOf(daysAgo(25)), dayOf(daysAgo(15)));
    await expect.poll(() => app.titles()).toEqual(['Sprayed neem oil']);
    // Days before the window: read from the server at once.
    await app.filterDays(dayOf(daysAgo(210)), dayOf(daysAgo(190)));
    await expect.poll(() => app.titles()).toEqual(['Old inspection']);
    await app.checkScreen('audit-trail-older');
    await app.clearFilters();

    // Recorded by hand: shows at once, reaches the server's table.
    await app.recordEvent('Cleaned the drip lines', { room: 'Flower room A', batch: 'B-7 · Test strain' });
    await app.event('Cleaned the drip lines').waitFor();
    expect((await app.titles())[0]).toBe('Cleaned the drip lines');
    await expect.poll(async () => (await eventRow(farm.companyId, 'Cleaned the drip lines'))?.user_id ?? null, { timeout: 30_000 }).toBe(farm.admin.id);
    expect(await eventRow(farm.companyId, 'Cleaned the drip lines')).toMatchObject({ room_id: roomA, batch_id: batch, deleted_at: null });
    const recordedId = (await eventRow(farm.companyId, 'Cleaned the drip lines'))!.id;

    // Corrected by the Admin: the server has the new title, and the trail records the correction in words.
    await app.event('Cleaned the drip lines').getByRole('button', { name: 'Correct' }).click();
    const correction = page.getByRole('form', { name: 'Correct event Cleaned the drip lines' });
    await correction.getByLabel('Title').fill('Cleaned the drip lines in room A');
    await app.checkScreen('audit-trail-correct');
    await correction.getByRole('button', { name: 'Save correction' }).click();
    await app.event('Cleaned the drip lines in room A').waitFor();
    await expect
      .poll(async () => (await db().selectFrom('audit_events').select('event_title').where('id', '=', recordedId).executeTakeFirstOrThrow()).event_title, { timeout: 30_000 })
      .toBe('Cleaned the drip lines in room A');
    const trace = app.event(`Edited audit event ${recordedId}`);
    await expect.poll(() => trace.textContent(), { timeout: 30_000 }).toContain('Title before');
    expect(await trace.textContent()).toContain('“Cleaned the drip lines in room A”');

    // Deleted by the Admin, after asking in place: gone from the trail, a tombstone on the server.
    await app.event('Scouted veg room').getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('group', { name: 'Delete the event “Scouted veg room”?' });
    await app.checkScreen('audit-trail-delete');
    await question.getByRole('button', { name: 'Delete' }).click();
    await app.event('Scouted veg room').waitFor({ state: 'detached' });
    await expect.poll(async () => (await eventRow(farm.companyId, 'Scouted veg room'))?.deleted_at ?? null, { timeout: 30_000 }).not.toBeNull();

    // Offline: an event recorded shows at once, marked as waiting; older events need the connection.
    await app.synced();
    await context.setOffline(true);
    await app.recordEvent('Checked sticky traps offline');
    const offline = app.event('Checked sticky traps offline');
    await expect.poll(() => offline.textContent()).toContain('Waiting to sync');
    await app.checkScreen('audit-trail-offline');
    await app.filterDays(dayOf(daysAgo(210)), dayOf(daysAgo(190)));
    await expect.poll(() => app.windowNote().textContent()).toContain('showing them needs a connection');
    await app.checkScreen('audit-trail-offline-older');
    expect(await eventRow(farm.companyId, 'Checked sticky traps offline')).toBeUndefined();
    await app.clearFilters();
    await context.setOffline(false);
    await app.synced();
    await expect.poll(async () => (await eventRow(farm.companyId, 'Checked sticky traps offline'))?.user_id ?? null, { timeout: 30_000 }).toBe(farm.admin.id);
    await expect.poll(() => offline.textContent(), { timeout: 30_000 }).not.toContain('Waiting to sync');
    expect(errors, messages.join('\n')).toEqual([]);

    // A Regular user reads the trail and records, but has no correct or delete buttons.
    const grower = await e2e.newPage();
    const growerApp = new AuditPage(grower.page);
    await growerApp.signIn(farm.regular);
    await growerApp.openTrail();
    await growerApp.event('Checked sticky traps offline').waitFor();
    expect(await grower.page.getByRole('button', { name: 'Correct' }).count()).toBe(0);
    expect(await grower.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await growerApp.recordEvent('Watered the mothers');
    await expect.poll(async () => (await eventRow(farm.companyId, 'Watered the mothers'))?.user_id ?? null, { timeout: 30_000 }).toBe(farm.regular.id);
    await growerApp.checkScreen('audit-trail-regular');
    expect(grower.errors, grower.console.join('\n')).toEqual([]);
  });
});

/** A user's name as the screen shows it (first and last name). */
async function regularName(userId: number) {
  const user = await db().selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
  return user ? `${user.first_name} ${user.last_name}` : null;
}
