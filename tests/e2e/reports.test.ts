/**
 * Saved reports on the tablet and through a shared link, in a real Chromium against the real server
 * (issue 15): a report saved through the API reaches the tablet's reports collection and opens with
 * its chart and table, offline too; an Admin's link opens it without an account, and nothing once
 * revoked. Nothing is mocked.
 */
import { readFile } from 'node:fs/promises';
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
        // A type of its own (saved through the API, not by the builder): it shows the data it was saved
        // with, never read again, so what the tablet, offline and the link show is that data.
        report_type: 'weekly_mite_counts',
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

    // The Admin revokes it from the report's screen; the link opens nothing at once.
    await page.getByRole('button', { name: 'Show its links' }).click();
    const links = page.getByRole('list', { name: 'Links to this report' });
    await expect.poll(() => links.getByRole('listitem').count(), { timeout: 15_000 }).toBe(1);
    await links.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => links.getByText('No link opens this report.').count(), { timeout: 15_000 }).toBe(1);
    await visitorApp.reload();
    await expect.poll(() => visitor.page.getByRole('alert').innerText(), { timeout: 15_000 }).toBe('This report link does not exist or has been revoked.');
    expect(await sharedTable.count()).toBe(0);

    // Read in Spanish (this tablet's own choice), the chart describes itself in Spanish too, pointing to
    // the table's numbers (ECharts' own description would read each week's index and a missing one as "NaN").
    await page.evaluate(() => localStorage.setItem('growroom-language', JSON.stringify({ tablet: 'es', company: null })));
    await app.reload();
    await expect.poll(() => page.locator('.report-canvas').getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^.+: gráfico de .+; la tabla de abajo tiene sus cifras\.$/);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it('a manager builds a trend of two rooms over 8 weeks, exports it, saves it, renames it, puts it on the dashboard and reads it there offline, dated', async () => {
    const farm = await createTenant(e2e.server);
    const flower = await createRoom(e2e.server, farm.companyId, 'Flower 2');
    const veg = await createRoom(e2e.server, farm.companyId, 'Veg 1');
    const dry = await createRoom(e2e.server, farm.companyId, 'Dry room');
    const flowerGrid = await createGrid(e2e.server, farm.companyId, flower, 2, 1);
    const vegGrid = await createGrid(e2e.server, farm.companyId, veg, 1, 1);
    const dryGrid = await createGrid(e2e.server, farm.companyId, dry, 1, 1);
    const lastWeek = thursdayNoon(1);
    const justNow = new Date(Date.now() - 60_000);
    const seen: Array<[number, Date]> = [
      [flowerGrid.boxIds[0]!, lastWeek],
      [flowerGrid.boxIds[1]!, justNow],
      [vegGrid.boxIds[0]!, justNow],
      // In a room not chosen: counted nowhere in this report.
      [dryGrid.boxIds[0]!, justNow],
    ];
    for (const [box, at] of seen) {
      const recorded = await e2e.server.request('POST', '/create_gridbox_problem', {
        token: farm.regular.token,
        json: { GridBoxID: box, problem_type: 'Night weevil', severity: 2, user_id: farm.regular.id },
        headers: { 'X-Acted-At': at.toISOString() },
      });
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    }
    const weeks = Array.from({ length: 8 }, (_, index) => mondayOf(thursdayNoon(7 - index)));
    const expectedRows = ['Week\tFlower 2\tVeg 1', ...weeks.map((week) => `${week}\t${week === mondayOf(justNow) ? '1\t1' : week === mondayOf(lastWeek) ? '1\t0' : '0\t0'}`)];

    const { page, context, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/reports');
    await page.getByRole('combobox', { name: /^Report/ }).selectOption('trends_report_graph');
    await expect.poll(() => page.getByLabel('Number of weeks').inputValue(), { timeout: 15_000 }).toBe('8');
    await page.getByLabel('Flower 2').check();
    await page.getByLabel('Veg 1').check();
    await page.getByRole('button', { name: 'Show report' }).click();
    const built = page.getByRole('table', { name: 'Problems by room' });
    await expect.poll(() => built.getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(expectedRows);
    await app.checkScreen('report-builder');

    // Exports: the table's numbers as CSV, the drawn chart as PNG.
    const csvDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    expect((await readFile(await csv.path())).toString('utf8').trim().split(/\r?\n/)).toEqual(expectedRows.map((row) => row.replaceAll('\t', ',')));
    const pngDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PNG' }).click();
    const png = await pngDownload;
    expect(png.suggestedFilename()).toMatch(/\.png$/);
    expect((await readFile(await png.path())).subarray(1, 4).toString('latin1')).toBe('PNG');

    await page.getByLabel('Report name').fill('Weevils');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByRole('link', { name: /Weevils/ }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Weevils' }).getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(expectedRows);

    // Renamed, and put on the dashboard, from its screen. Its managing part shows once the signed-in user
    // is read, after the chart: until then "Report name" may still be the builder's field, on its way out.
    await page.getByRole('button', { name: 'Rename' }).waitFor();
    await page.getByLabel('Report name').fill('Weevils in Flower 2 and Veg 1');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 }).toBe('Weevils in Flower 2 and Veg 1');
    await page.getByLabel('On the dashboard').selectOption('1');
    // The select follows the report's document: '1' once the change is recorded (with its effect), so
    // the wait for sync below is not over before the change is in the outbox.
    await expect.poll(() => page.getByLabel('On the dashboard').inputValue(), { timeout: 15_000 }).toBe('1');
    await app.synced();
    const saved = await e2e.server.database.db.selectFrom('saved_reports').select(['id', 'report_name', 'report_type', 'room_ids', 'created_by']).where('company_id', '=', farm.companyId).execute();
    expect(saved.map((report) => ({ ...report, room_ids: [...report.room_ids].sort((one, other) => one - other) }))).toEqual([
      { id: expect.any(Number), report_name: 'Weevils in Flower 2 and Veg 1', report_type: 'trends_report_graph', room_ids: [flower, veg].sort((one, other) => one - other), created_by: farm.admin.id },
    ]);
    const dashboard = await e2e.server.request<{ report_id1: number | null }>('GET', '/get_dashboard_reports', { token: farm.regular.token, query: { company_id: farm.companyId } });
    expect(dashboard.body.report_id1).toBe(saved[0]!.id);

    // The overview shows it under the counts, read again online.
    await app.open('/dashboard/overview');
    const onDashboard = page.getByRole('table', { name: 'Weevils in Flower 2 and Veg 1' });
    await expect.poll(() => onDashboard.getByRole('row').allInnerTexts(), { timeout: 30_000 }).toEqual(expectedRows);
    await expect.poll(() => page.getByText('Up to date.').count(), { timeout: 15_000 }).toBe(1);
    await app.checkScreen('dashboard-reports');
    // A week back: the same report, its eight weeks ending last week.
    await page.getByRole('button', { name: 'Previous week' }).click();
    await expect.poll(() => onDashboard.getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(['Week\tFlower 2\tVeg 1', ...[mondayOf(thursdayNoon(8)), ...weeks.slice(0, 7)].map((week) => `${week}\t${week === mondayOf(lastWeek) ? '1\t0' : '0\t0'}`)]);

    // Offline, once the tablet says it is ready to be: the data it last showed, with when it was computed.
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    await app.reload();
    await expect.poll(() => onDashboard.getByRole('row').allInnerTexts(), { timeout: 30_000 }).toEqual(expectedRows);
    await expect.poll(() => page.getByText(/Offline: this is the data this tablet last had/).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByText(/data of /).first().innerText()).toContain(new Date().getFullYear().toString());
    await context.setOffline(false);
    expect(errors).toEqual([]);
  });
  it('on the dashboard refresh themselves while the page is visible when the company has auto refresh on', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower 3');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1);
    const record = async (box: number) => {
      const recorded = await e2e.server.request('POST', '/create_gridbox_problem', { token: farm.regular.token, json: { GridBoxID: box, problem_type: 'Fungus gnat', severity: 1, user_id: farm.regular.id } });
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    };
    await record(grid.boxIds[0]!);
    const saved = await e2e.server.request<{ report_id: number }>('POST', '/save_report', {
      token: farm.admin.token,
      json: { company_id: farm.companyId, report_name: 'Gnats', chart_type: 'bar', report_type: 'problem_trends', report_data: [], filters: { date_type: 'weeks_ago', weeks_ago: 1, category_label: 'Week', unit: 'problems' } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await e2e.server.request('POST', '/set_dashboard_reports', { token: farm.admin.token, json: { company_id: farm.companyId, report_id1: saved.body.report_id } })).status).toBe(200);
    expect((await e2e.server.request('POST', '/set_company_auto_refresh', { token: farm.admin.token, query: { company_id: farm.companyId, auto_refresh: 1 } })).status).toBe(200);

    const { page, context, errors } = await e2e.newPage();
    // The page's clock runs as time does, and is moved on past the refresh period below.
    await context.clock.install();
    const app = new AppPage(page);
    await app.signIn(farm.regular);
    await app.open('/dashboard/quickview');
    const table = page.getByRole('table', { name: 'Gnats' });
    const thisWeek = mondayOf(new Date());
    await expect.poll(() => table.getByRole('row').allInnerTexts(), { timeout: 30_000 }).toEqual(['Week\tFungus gnat', `${thisWeek}\t1`]);

    await record(grid.boxIds[1]!);
    await context.clock.fastForward('05:01');
    await expect.poll(() => table.getByRole('row').allInnerTexts(), { timeout: 15_000 }).toEqual(['Week\tFungus gnat', `${thisWeek}\t2`]);
    expect(errors).toEqual([]);
  });
});
