/**
 * Saved reports on the tablet and through a shared link, in a real Chromium against the real server
 * (issue 15): a report saved through the API reaches the tablet's reports collection and opens with
 * its chart and table, offline too; an Admin's link opens it without an account, and nothing once
 * revoked. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedReportRecord } from '../../common/schemas/saved-reports';
import { reportDataOf } from '../../common/charts/chart-model';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;

const DAY_MS = 86_400_000;
/** Noon UTC on the Thursday of the week `weeksAgo` weeks before this one (weeks run Monday to Sunday). */
function thursdayNoon(weeksAgo: number): Date {
  const today = new Date();
  const monday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - ((today.getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday - weeksAgo * 7 * DAY_MS + 3 * DAY_MS + 12 * 3_600_000);
}
const mondayOf = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) - ((date.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);

const chart = {
  categoryLabel: 'Week',
  categories: ['2026-11-02', '2026-11-09', '2026-11-16'],
  series: [
    { name: 'Two-spotted spider mite', values: [3, 7, 12] },
    { name: 'Powdery mildew', values: [1, 0, 2] },
  ],
  unit: 'problems',
};

describe.skipIf(skipBrowser)('saved reports', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('open on the tablet with their chart and table, offline too, and read-only through a link until it is revoked', async () => {
    const farm = await createTenant(e2e.server);
    const saved = await e2e.server.request<{ report: SavedReportRecord & { report_id: number } }>('POST', '/save_report', {
      token: farm.admin.token,
      json: {
        company_id: farm.companyId,
        report_name: 'Mites in Flower 1',
        chart_type: 'stacked_bar',
        report_type: 'trends_report_graph',
        report_data: reportDataOf(chart),
        filters: { date_type: 'date_range', date_range: { start_date: '2026-11-02', end_date: '2026-11-22' }, category_label: 'Week', unit: 'problems' },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const reportKey = await clientIdOf(e2e.server, 'saved_reports', saved.body.report.report_id);

    const { page, context, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/reports');
    await page.getByRole('link', { name: /Mites in Flower 1/ }).click();
    await page.waitForURL((url) => url.pathname === `/dashboard/reports/${reportKey}`);
    const table = page.getByRole('table', { name: 'Mites in Flower 1' });
    await expect.poll(() => table.getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(['Week\tTwo-spotted spider mite\tPowdery mildew', '2026-11-02\t3\t1', '2026-11-09\t7\t0', '2026-11-16\t12\t2']);
    await expect.poll(() => page.locator('.report-canvas canvas').count(), { timeout: 15_000 }).toBe(1);
    await app.checkScreen('report-saved');

    // Offline, once the tablet says it is ready to be: the tablet's copy.
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    await app.reload();
    await expect.poll(() => table.getByRole('row').count(), { timeout: 30_000 }).toBe(4);
    await context.setOffline(false);

    // A link for someone without an account.
    const shared = await e2e.server.request<{ token: string; path: string; share: { share_id: number } }>('POST', '/share_report', { token: farm.admin.token, json: { report_id: saved.body.report.report_id } });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const visitor = await e2e.newPage();
    const visitorApp = new AppPage(visitor.page);
    await visitorApp.open(shared.body.path);
    const sharedTable = visitor.page.getByRole('table', { name: 'Mites in Flower 1' });
    await expect.poll(() => sharedTable.getByRole('row').count(), { timeout: 15_000 }).toBe(4);
    await expect.poll(() => visitor.page.getByText('shared read-only').count(), { timeout: 15_000 }).toBe(1);
    await visitorApp.checkScreen('report-shared');

    expect((await e2e.server.request('POST', '/revoke_report_share', { token: farm.admin.token, json: { share_id: shared.body.share.share_id } })).status).toBe(200);
    await visitorApp.reload();
    await expect.poll(() => visitor.page.getByRole('alert').innerText(), { timeout: 15_000 }).toBe('This report link does not exist or has been revoked.');
    expect(await sharedTable.count()).toBe(0);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it('are built from the server’s trends, drawn with their table, and saved for every tablet', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower 2');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1);
    const lastWeek = thursdayNoon(1);
    const justNow = new Date(Date.now() - 60_000);
    for (const [box, at] of [[grid.boxIds[0]!, lastWeek], [grid.boxIds[0]!, justNow], [grid.boxIds[1]!, justNow]] as const) {
      const seen = await e2e.server.request('POST', '/create_gridbox_problem', {
        token: farm.regular.token,
        json: { GridBoxID: box, problem_type: 'Night weevil', severity: 2, user_id: farm.regular.id },
        headers: { 'X-Acted-At': at.toISOString() },
      });
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    }

    const { page, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/reports');
    await page.getByLabel('Number of weeks').fill('2');
    await page.getByRole('button', { name: 'Show report' }).click();
    const table = page.getByRole('table', { name: 'Problems by type' });
    await expect.poll(() => table.getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(['Week\tNight weevil', `${mondayOf(lastWeek)}\t1`, `${mondayOf(justNow)}\t2`]);
    await app.checkScreen('report-builder');

    await page.getByLabel('Report name').fill('Weevils in Flower 2');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByRole('link', { name: /Weevils in Flower 2/ }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Weevils in Flower 2' }).getByRole('row').count(), { timeout: 15_000 }).toBe(3);
    await app.synced();
    const saved = await e2e.server.database.db.selectFrom('saved_reports').select(['report_name', 'report_type', 'created_by']).where('company_id', '=', farm.companyId).execute();
    expect(saved).toEqual([{ report_name: 'Weevils in Flower 2', report_type: 'problem_trends', created_by: farm.admin.id }]);
    expect(errors).toEqual([]);
  });
});
