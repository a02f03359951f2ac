/**
 * The screens no other browser test walks through, each checked as every screen is (AppPage.checkScreen:
 * a screenshot at the tablet's size and no serious or critical axe violation, issue 13): the public
 * pages, the dashboards with a company's data, the placeholder screens, and the shell's sync panel with
 * a change the server refused. Signed in as an Admin of a small factory company; the room screens,
 * audit trail, grid templates and plant moves have tests of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createGrid, createRoom, createTenant } from '../support/factories';
import { BatchesPage } from './batches-page';

let e2e: E2E;
const db = () => e2e.server.database.db;

/** The placeholder ("Upcoming") screens inside the dashboard, by path and heading. */
const UPCOMING = [
  // Not placeholders any more (tests/e2e/reports.test.ts, tasks.test.ts and automations.test.ts use them): a company with no saved report, and a
  // report not on this tablet; no task, and a task not on this tablet; no automation.
  ['/dashboard/reports', 'Reports'],
  ['/dashboard/reports/1', 'Report'],
  ['/dashboard/tasks', 'Tasks'],
  ['/dashboard/tasks/1', 'Task'],
  ['/dashboard/automations', 'Automations'],
  ['/dashboard/scanNow', 'Scan now'],
  ['/dashboard/scanHistory', 'Scan history'],
  ['/dashboard/scanHistory/disease/1', 'Scan'],
  ['/dashboard/automatedcameras', 'Automated cameras'],
  ['/dashboard/automatedcameradetail/1', 'Camera'],
  // tests/e2e/consultants.test.ts uses it; here, with no consultant invited.
  ['/dashboard/consultants', 'Consultants'],
  ['/dashboard/videoCapture', 'Video capture'],
] as const;

/** The placeholder screens outside the dashboard (their own pages). */
// The payment screens need a session and are checked by tests/e2e/payments.test.ts.
const STANDALONE = [
  ['/camera', 'Camera'],
  // A report link without its token (tests/e2e/reports.test.ts opens real ones): it says the link holds no report.
  ['/reporting', 'Report'],
] as const;

const screenName = (path: string) => `screens${path.replace(/\//g, '-')}`;

describe.skipIf(skipBrowser)('every other screen, checked', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('the public pages, signed out', async () => {
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.open('/');
    await app.rendered('Grow Room');
    await app.checkScreen('screens-home');
    await app.open('/signIn');
    await app.rendered('Sign in');
    await app.checkScreen('screens-sign-in');
    // Without the invitation link, the code is asked for.
    await app.open('/signUp');
    await app.rendered('Create your account');
    await page.getByLabel('Invitation code').waitFor();
    await app.checkScreen('screens-sign-up-code');
    await app.open('/NewPassword');
    await app.rendered('Set a new password');
    await app.checkScreen('screens-new-password-no-token');
    await app.open('/404');
    await page.getByText('Page Not Found: The page you are looking for does not exist.').waitFor();
    await app.checkScreen('screens-404');
    await app.open('/unauthorized');
    await app.rendered('Access denied');
    await app.checkScreen('screens-unauthorized-signed-out');
    // Nobody parked on this tablet: the switch screen says so.
    await app.open('/switchUser');
    await app.rendered('Switch user');
    await page.getByText('Nobody is signed in on this tablet.').waitFor();
    await app.checkScreen('screens-switch-user-empty');
    for (const [path, heading] of STANDALONE) {
      await app.open(path);
      await app.rendered(heading);
      await app.checkScreen(screenName(path));
    }
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('the dashboards with a company’s data, the placeholder screens, and the sync panel with a refused change', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room A');
    await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench 1');
    await createRoom(e2e.server, farm.companyId, 'Veg room');
    const sick = await createBatch(e2e.server, farm.companyId, 'SCR-1');
    await createBatch(e2e.server, farm.companyId, 'SCR-2');
    const reported = await e2e.server.request('POST', '/grid/create_batch_problem', {
      token: farm.admin.token,
      json: { batch_id: sick, problem_type: 'Powdery mildew', severity: 3, company_id: farm.companyId, user_id: farm.admin.id },
    });
    expect(reported.status).toBe(200);

    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new BatchesPage(page);
    await app.signIn(farm.admin);
    await app.rendered('Dashboard');
    await expect.poll(() => page.locator('[data-count="problems"]').getAttribute('data-value')).toBe('1');
    await page.getByRole('list', { name: 'Batches with open problems' }).getByText('SCR-1').waitFor();
    await app.checkScreen('screens-dashboard');
    await app.open('/dashboard/overview');
    await app.rendered('Overview');
    await page.getByRole('row', { name: /Flower room A/ }).waitFor();
    await app.checkScreen('screens-overview');
    await app.open('/dashboard/quickview');
    await app.rendered('Quick view');
    await page.getByRole('list', { name: 'Rooms not scanned' }).getByText('Veg room').waitFor();
    await app.checkScreen('screens-quickview');
    await app.open('/');
    await app.rendered('Grow Room');
    await app.checkScreen('screens-home-signed-in');
    for (const [path, heading] of UPCOMING) {
      await app.open(path);
      await app.rendered(heading);
      await app.checkScreen(screenName(path));
    }

    // The sync panel, all saved.
    await app.synced();
    await page.locator('.sync-chip').click();
    await page.getByRole('dialog', { name: 'Changes waiting to reach the server' }).getByText('Connected to the server.').waitFor();
    await app.checkScreen('screens-sync-panel');
    await page.locator('.sync-chip').click();

    // A change the server refuses: a batch edited offline that was deleted meanwhile. The dashboard says so,
    // and the panel offers to retry or discard it.
    await app.openList();
    await app.card('SCR-2').waitFor();
    await context.setOffline(true);
    let sheet = await app.openBatch('SCR-2');
    await sheet.getByRole('button', { name: 'Edit' }).click();
    sheet = app.sheet('Edit batch SCR-2');
    await sheet.getByLabel('Strain', { exact: true }).fill('Never arrives');
    await sheet.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => app.pending()).toBe('1');
    await page.keyboard.press('Escape');
    await db().updateTable('batches').set({ deleted_at: new Date() }).where('company_id', '=', farm.companyId).where('batch_number', '=', 'SCR-2').execute();
    await context.setOffline(false);
    await expect.poll(() => page.locator('.sync-chip').getAttribute('class'), { timeout: 30_000 }).toContain('failed');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Quick view' }).click();
    await app.rendered('Quick view');
    await page.getByRole('alert').filter({ hasText: 'could not be saved on the server' }).waitFor();
    await app.checkScreen('screens-quickview-failed');
    await page.locator('.sync-chip').click();
    const panel = page.getByRole('dialog', { name: 'Changes waiting to reach the server' });
    await panel.getByRole('list', { name: 'Changes the server refused' }).getByRole('button', { name: 'Discard' }).waitFor();
    await app.checkScreen('screens-sync-panel-failed');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
