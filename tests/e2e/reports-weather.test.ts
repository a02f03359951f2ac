/**
 * A report's outdoor weather in real Chromium against the real server (issue 18, the report overlay),
 * whose Open-Meteo services are a local stand-in (tests/support/open-meteo.ts: made-up but known
 * weather per point and day). A manager opens a saved trend and turns "Outdoor weather" on: the chart
 * draws the four weather series beside the report's own, with the stand-in's values for each day of
 * the report's weeks; the choice is remembered on the tablet, and offline a reload shows the weather
 * kept with the time it was fetched, while a period never fetched says it needs the connection. A
 * grower without a location is told to set one; the builder's preview hands its choice to the report
 * it saves. Screenshots at 768×1024 and axe on each state; no
 * test reaches the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEATHER_SERIES_NAMES } from '../../common/charts/weather-overlay';
import { addDaysTo, lastWeeks, todayUtc } from '../../common/schemas/report-dates';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startOpenMeteo, weatherAt } from '../support/open-meteo';
import { ReportWeatherPage } from './reports-weather-page';

let e2e: E2E;
let openMeteo: Awaited<ReturnType<typeof startOpenMeteo>>;

/** A value as the weather's table writes it (one decimal at most). */
const cell = (value: number) => String(Math.round(value * 10) / 10);

/** A trend of the last `weeks` weeks (read again online, as the builder's reports are), saved through the API; its local id. */
async function saveTrend(farm: Tenant, name: string, weeks: number): Promise<string> {
  const saved = await e2e.server.request<{ report: { report_id: number } }>('POST', '/save_report', {
    token: farm.admin.token,
    json: { company_id: farm.companyId, report_name: name, chart_type: 'line', report_type: 'problem_trends', report_data: [], filters: { date_type: 'weeks_ago', weeks_ago: weeks, category_label: 'Week', unit: 'problems' } },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return clientIdOf(e2e.server, 'saved_reports', saved.body.report.report_id);
}

describe.skipIf(skipBrowser)('outdoor weather beside a report’s trend', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    openMeteo = await startOpenMeteo();
    e2e = await startE2E({ openMeteoUrl: openMeteo.base });
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
    await openMeteo?.close();
  });

  it('a manager turns it on: the weather series are drawn with the day’s values, remembered, and kept for offline with their time', async () => {
    const farm = await createTenant(e2e.server);
    const located = await e2e.server.request('PUT', '/update_location', { token: farm.admin.token, json: { user_id: farm.admin.id, location: 'Westland, NL' } });
    expect(located.status, JSON.stringify(located.body)).toBe(200);
    const room = await createRoom(e2e.server, farm.companyId, 'Flower 1');
    const grid = await createGrid(e2e.server, farm.companyId, room, 1, 1);
    const recorded = await e2e.server.request('POST', '/create_gridbox_problem', { token: farm.regular.token, json: { GridBoxID: grid.boxIds[0], problem_type: 'Thrips', severity: 2, user_id: farm.regular.id } });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const reportId = await saveTrend(farm, 'Thrips, 3 weeks', 3);
    const otherId = await saveTrend(farm, 'Thrips, 5 weeks', 5);
    // The report's weeks as the server counts them (UTC), every day of which has weather.
    const period = lastWeeks(3, todayUtc());

    const { page, context, errors, console: messages } = await e2e.newPage();
    const app = new ReportWeatherPage(page);
    await app.signIn(farm.admin);
    // The other report opened once online, without its weather: the tablet keeps the data it showed.
    await app.open(`/dashboard/reports/${otherId}`);
    await app.rendered('Thrips, 5 weeks');
    await expect.poll(() => app.table('Thrips, 5 weeks').getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    await expect.poll(() => page.getByText('Up to date.').count(), { timeout: 15_000 }).toBe(1);
    expect(await app.toggle().isChecked()).toBe(false);

    await app.open(`/dashboard/reports/${reportId}`);
    await app.rendered('Thrips, 3 weeks');
    await expect.poll(() => app.table('Thrips, 3 weeks').getByRole('row').count(), { timeout: 30_000 }).toBe(4);
    await expect.poll(() => page.getByText('Up to date.').count(), { timeout: 15_000 }).toBe(1);

    // Off by default: the report's weeks not asked of the weather (the dashboard's card asked today's), nothing drawn of it.
    const ofReport = () => openMeteo.requests.filter((request) => request.params.start_date === period.start);
    expect(await app.toggle().isChecked()).toBe(false);
    await expect.poll(() => app.chartDescription(), { timeout: 15_000 }).toContain('Thrips');
    expect(await app.chartDescription()).not.toContain('Outdoor');
    expect(ofReport()).toEqual([]);

    await app.toggle().check();
    await expect.poll(() => app.state().innerText(), { timeout: 30_000 }).toMatch(/^Outdoor weather at Westland, Netherlands, fetched .+\.$/);
    await expect.poll(() => app.chartDescription(), { timeout: 15_000 }).toContain(WEATHER_SERIES_NAMES.rain);
    const description = await app.chartDescription();
    for (const name of ['Thrips', ...Object.values(WEATHER_SERIES_NAMES)]) expect(description).toContain(name);
    // The server was asked the report's days at the place's point (rounded to 0.01°, server/domains/weather/days.ts).
    expect(ofReport().length).toBeGreaterThan(0);
    const asked = openMeteo.requests.filter((request) => request.path !== '/v1/search');
    expect(asked.every((request) => request.params.latitude === '51.99' && request.params.longitude === '4.21')).toBe(true);
    expect(asked.map((request) => request.params.start_date).sort()[0]).toBe(period.start);
    expect(asked.map((request) => request.params.end_date).sort().at(-1)).toBe(period.end);

    // Each day of the report's weeks with the stand-in's weather of that day and point.
    const days = Array.from({ length: 21 }, (_, index) => addDaysTo(period.start, index));
    const expected = days.map((date) => {
      const values = weatherAt(51.99, 4.21, date);
      return [date, cell(values.temperature_2m_max), cell(values.temperature_2m_min), cell(values.relative_humidity_2m_mean), cell(values.precipitation_sum)];
    });
    await app.checkScreen('report-weather-on');
    expect(await app.weatherByDay()).toEqual(expected);
    expect(await app.remembered(reportId)).toBe(true);
    await app.checkScreen('report-weather-by-day');
    const fetchedAt = await app.fetchedAt();
    expect(fetchedAt).not.toBeNull();

    // Offline, once the tablet is ready to be: the report opens with its weather on, the one kept, with its time.
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    const requestsBefore = openMeteo.requests.length;
    await context.setOffline(true);
    await app.reload();
    await app.rendered('Thrips, 3 weeks');
    await expect.poll(() => app.state().innerText(), { timeout: 30_000 }).toMatch(/^Offline: showing the outdoor weather at Westland, Netherlands, fetched .+\. It refreshes when the connection returns\.$/);
    expect(await app.toggle().isChecked()).toBe(true);
    expect(await app.fetchedAt()).toBe(fetchedAt);
    await expect.poll(() => app.chartDescription(), { timeout: 15_000 }).toContain(WEATHER_SERIES_NAMES.high);
    expect(await app.weatherByDay()).toEqual(expected);
    await app.checkScreen('report-weather-offline');

    // The other report's weather was never fetched on this tablet: it says the weather needs the connection.
    await app.open(`/dashboard/reports/${otherId}`);
    await app.rendered('Thrips, 5 weeks');
    await expect.poll(() => app.table('Thrips, 5 weeks').getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    expect(await app.toggle().isChecked()).toBe(false);
    await app.toggle().check();
    await expect.poll(() => app.state().innerText(), { timeout: 15_000 }).toBe('Offline: the outdoor weather needs a connection, and none for this period is kept on this tablet.');
    expect(await app.chartDescription()).not.toContain('Outdoor');
    await app.checkScreen('report-weather-offline-none');
    expect(openMeteo.requests.length).toBe(requestsBefore);
    await context.setOffline(false);

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('the builder’s preview offers it too, and the report saved keeps it on', async () => {
    const farm = await createTenant(e2e.server);
    const located = await e2e.server.request('PUT', '/update_location', { token: farm.admin.token, json: { user_id: farm.admin.id, location: 'Leamington' } });
    expect(located.status, JSON.stringify(located.body)).toBe(200);
    const room = await createRoom(e2e.server, farm.companyId, 'Flower 4');
    const grid = await createGrid(e2e.server, farm.companyId, room, 1, 1);
    const recorded = await e2e.server.request('POST', '/create_gridbox_problem', { token: farm.regular.token, json: { GridBoxID: grid.boxIds[0], problem_type: 'Botrytis', severity: 3, user_id: farm.regular.id } });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new ReportWeatherPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/reports');
    await app.rendered('Reports');
    await page.getByLabel('Number of weeks').fill('2');
    await page.getByRole('button', { name: 'Show report' }).click();
    await expect.poll(() => app.table('Problems by type').getByRole('row').count(), { timeout: 30_000 }).toBe(3);
    expect(await app.toggle().isChecked()).toBe(false);
    await app.toggle().check();
    await expect.poll(() => app.state().innerText(), { timeout: 30_000 }).toMatch(/^Outdoor weather at Leamington, Canada, fetched .+\.$/);
    await expect.poll(() => app.chartDescription(), { timeout: 15_000 }).toContain(WEATHER_SERIES_NAMES.humidity);
    await app.checkScreen('report-weather-builder');

    await page.getByLabel('Report name').fill('Botrytis and the weather');
    await page.getByRole('button', { name: 'Save report' }).click();
    await page.getByRole('link', { name: /Botrytis and the weather/ }).click();
    await app.rendered('Botrytis and the weather');
    await expect.poll(() => app.state().innerText(), { timeout: 30_000 }).toMatch(/^Outdoor weather at Leamington, Canada, fetched .+\.$/);
    expect(await app.toggle().isChecked()).toBe(true);
    await expect.poll(() => app.chartDescription(), { timeout: 15_000 }).toContain(WEATHER_SERIES_NAMES.rain);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a grower without a location is told to set one in the profile', async () => {
    const farm = await createTenant(e2e.server);
    const room = await createRoom(e2e.server, farm.companyId, 'Veg 2');
    const grid = await createGrid(e2e.server, farm.companyId, room, 1, 1);
    const recorded = await e2e.server.request('POST', '/create_gridbox_problem', { token: farm.regular.token, json: { GridBoxID: grid.boxIds[0], problem_type: 'Aphids', severity: 1, user_id: farm.regular.id } });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const reportId = await saveTrend(farm, 'Aphids', 2);

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new ReportWeatherPage(page);
    await app.signIn(farm.regular);
    await app.open(`/dashboard/reports/${reportId}`);
    await app.rendered('Aphids');
    await expect.poll(() => app.state().innerText(), { timeout: 30_000 }).toBe('Outdoor weather needs your location: set it in your profile.');
    expect(await app.toggle().isDisabled()).toBe(true);
    expect(await app.state().getByRole('link', { name: 'profile' }).getAttribute('href')).toBe('/dashboard/profile');
    await app.checkScreen('report-weather-no-location');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
