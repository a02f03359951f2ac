/**
 * Today's weather on the dashboards in real Chromium against the real server (issue 18), whose
 * Open-Meteo services are a local stand-in (tests/support/open-meteo.ts: made-up but known weather
 * per point and day): an Admin with a location sees its weather on the dashboard; a grower without
 * one sets it from the card and sees that place's weather; offline after the visit, a reload shows the
 * weather kept on the tablet with the time it was fetched, and says it cannot be refreshed.
 * Screenshots at 768×1024 and axe on each state. No test reaches the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createTenant } from '../support/factories';
import { startOpenMeteo, weatherAt } from '../support/open-meteo';
import { expectedCard, WeatherPage } from './weather-page';

let e2e: E2E;
let openMeteo: Awaited<ReturnType<typeof startOpenMeteo>>;

describe.skipIf(skipBrowser)('weather on the dashboards', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    openMeteo = await startOpenMeteo();
    e2e = await startE2E({ openMeteoUrl: openMeteo.base });
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
    await openMeteo?.close();
  });

  it('the dashboard shows today’s weather at the user’s place, from the stand-in', async () => {
    const farm = await createTenant(e2e.server);
    const located = await e2e.server.request('PUT', '/update_location', { token: farm.admin.token, json: { user_id: farm.admin.id, location: 'Leamington' } });
    expect(located.status, JSON.stringify(located.body)).toBe(200);

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new WeatherPage(page);
    await app.signIn(farm.admin);
    await app.rendered('Dashboard');
    const today = await app.tabletToday();
    // The server asks for the place's point rounded to 0.01° (server/domains/weather/days.ts).
    const expected = expectedCard('Leamington, Canada', weatherAt(42.05, -82.6, today));
    await expect.poll(() => app.weatherShown(), { timeout: 30_000 }).toEqual(expected);
    expect(await app.status().innerText()).toMatch(/^Weather fetched /);
    const forecast = openMeteo.requestsTo('/v1/forecast').at(-1);
    expect(forecast?.params).toMatchObject({ latitude: '42.05', longitude: '-82.6', start_date: today, end_date: today });
    await app.checkScreen('weather-dashboard');

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a grower without a location sets one from the card and sees its weather; offline after the visit, the kept weather shows with its time', async () => {
    const farm = await createTenant(e2e.server);
    const location = () => e2e.server.database.db.selectFrom('users').select('location').where('id', '=', farm.regular.id).executeTakeFirstOrThrow();

    const { page, context, errors, console: messages } = await e2e.newPage();
    const app = new WeatherPage(page);
    await app.signIn(farm.regular);
    await app.rendered('Quick view');
    await expect.poll(() => app.status().innerText(), { timeout: 15_000 }).toBe('Set your location to see today’s weather here.');
    await app.checkScreen('weather-no-location');

    await app.setLocation('Westland, NL');
    const today = await app.tabletToday();
    const expected = expectedCard('Westland, Netherlands', weatherAt(51.99, 4.21, today));
    await expect.poll(() => app.weatherShown(), { timeout: 30_000 }).toEqual(expected);
    await expect.poll(async () => (await location()).location, { timeout: 20_000 }).toBe('Westland, NL');
    const kept = await app.kept(farm.regular.id);
    expect(kept).toMatchObject({ location: 'Westland, NL', date: today, place: { name: 'Westland' } });
    expect(await app.fetchedAt()).toBe(kept!.fetchedAt);

    // Offline once the tablet is ready for it: a reload shows what was kept, and says why it is not refreshed.
    await page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });
    const asked = openMeteo.requests.length;
    await context.setOffline(true);
    await app.reload();
    await app.rendered('Quick view');
    await expect.poll(() => app.status().innerText(), { timeout: 15_000 }).toMatch(/^Offline: showing the weather fetched .+\. It cannot be refreshed until the connection returns\.$/);
    expect(await app.fetchedAt()).toBe(kept!.fetchedAt);
    expect(await app.weatherShown()).toEqual(expected);
    expect(await app.card().getByRole('button', { name: 'Refresh' }).count()).toBe(0);
    await app.checkScreen('weather-offline');
    expect(openMeteo.requests.length).toBe(asked);
    await context.setOffline(false);

    expect(errors, messages.join('\n')).toEqual([]);
  });
});
