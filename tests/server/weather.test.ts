/**
 * Weather (issue 18; server/domains/weather) over HTTP on a real database, with Open-Meteo's three
 * services stood in for by a local server (tests/support/open-meteo.ts) that counts its requests. The
 * test server allows private addresses (ALLOW_PRIVATE_WEBHOOKS) so it may call the stand-in on 127.0.0.1.
 * Each test asks for points of its own: the cache is shared by the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { WEATHER_RANGE_MAX_DAYS, weatherMessages as m } from '../../common/messages/weather';
import { addDaysTo, todayUtc } from '../../common/schemas/report-dates';
import type { WeatherDay, WeatherPlace } from '../../common/schemas/weather';
import { createTenant, type Tenant } from '../support/factories';
import { KNOWN_PLACES, startOpenMeteo, weatherAt } from '../support/open-meteo';
import { type ApiResponse, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let openMeteo: Awaited<ReturnType<typeof startOpenMeteo>>;

beforeAll(async () => {
  openMeteo = await startOpenMeteo();
  server = await startServer({
    openMeteoForecastUrl: openMeteo.base,
    openMeteoArchiveUrl: openMeteo.base,
    openMeteoGeocodingUrl: `${openMeteo.base}/`,
  });
  farm = await createTenant(server);
});
afterAll(async () => {
  await server?.close();
  await openMeteo?.close();
});

interface RangeAnswer {
  status: 'success';
  place: WeatherPlace;
  start: string;
  end: string;
  days: WeatherDay[];
}
interface TodayAnswer {
  status: 'success';
  place: WeatherPlace;
  date: string;
  weather: WeatherDay;
}

const today = todayUtc();
/** `token` '' asks without a session. */
const range = (query: Record<string, string | undefined>, token: string = farm.regular.token) => server.request<RangeAnswer>('GET', '/weather/weather_range', { token, query });
const todays = (query: Record<string, string | undefined>, token: string = farm.regular.token) => server.request<TodayAnswer>('GET', '/weather/todays_weather', { token, query });

const ok = <T>(response: ApiResponse<T>): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const refused = (response: ApiResponse<unknown>, status: number, message: string) => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { status: 'error', message } });
};

/** The day the stand-in answers at (rounded) coordinates, as the server answers it. */
const expectedDay = (latitude: number, longitude: number, date: string): WeatherDay => {
  const values = weatherAt(latitude, longitude, date);
  return {
    date,
    temperature_max: values.temperature_2m_max,
    temperature_min: values.temperature_2m_min,
    temperature_mean: values.temperature_2m_mean,
    humidity_mean: values.relative_humidity_2m_mean,
    precipitation: values.precipitation_sum,
    weather_code: values.weather_code,
  };
};

describe('the spec’s messages', () => {
  it('weather_range needs start, end and location', async () => {
    refused(await range({ end: today, location: '52.0,4.2' }), 400, m.startRequired);
    refused(await range({ start: '', end: today, location: '52.0,4.2' }), 400, m.startRequired);
    refused(await range({ start: today, location: '52.0,4.2' }), 400, m.endRequired);
    refused(await range({ start: today, end: today }), 400, m.locationRequired);
    refused(await range({ start: today, end: today, location: '   ' }), 400, m.locationRequired);
  });

  it('todays_weather needs datetoday and location', async () => {
    refused(await todays({ location: '52.0,4.2' }), 400, m.dateTodayRequired);
    refused(await todays({ datetoday: today }), 400, m.locationRequired);
  });

  it('refuses dates that are not YYYY-MM-DD and coordinates off the globe', async () => {
    refused(await range({ start: '15/01/2026', end: today, location: '52.0,4.2' }), 400, m.startInvalid);
    refused(await range({ start: today, end: '2026-02-30', location: '52.0,4.2' }), 400, m.endInvalid);
    refused(await todays({ datetoday: 'today', location: '52.0,4.2' }), 400, m.dateTodayInvalid);
    refused(await todays({ datetoday: today, location: '95,4.2' }), 400, m.coordinatesInvalid);
    refused(await todays({ datetoday: today, location: 'x'.repeat(201) }), 400, m.locationTooLong);
  });
});

describe('who may ask', () => {
  it('answers 401 without a session', async () => {
    refused(await range({ start: today, end: today, location: '52.0,4.2' }, ''), 401, httpMessages.unauthenticated);
    refused(await todays({ datetoday: today, location: '52.0,4.2' }, ''), 401, httpMessages.unauthenticated);
  });

  it('answers any signed-in role', async () => {
    ok(await todays({ datetoday: today, location: '10.0,10.0' }, farm.admin.token));
    ok(await todays({ datetoday: today, location: '10.0,10.0' }, farm.regular.token));
  });
});

describe('a location', () => {
  it('by place name: resolved through geocoding, once', async () => {
    const before = openMeteo.requestsTo('/v1/search').length;
    const body = ok(await todays({ datetoday: today, location: 'Westland,   NL' }));
    const westland = KNOWN_PLACES['westland, nl']!;
    expect(body.place).toEqual(westland);
    expect(body.date).toBe(today);
    expect(body.weather).toEqual(expectedDay(51.99, 4.21, today));
    const searches = openMeteo.requestsTo('/v1/search').slice(before);
    expect(searches.map((request) => request.params)).toEqual([{ name: 'Westland, NL', count: '1', language: 'en', format: 'json' }]);

    // The same name again, spelled otherwise: the place is cached.
    ok(await range({ start: addDaysTo(today, -2), end: today, location: 'westland, nl' }));
    expect(openMeteo.requestsTo('/v1/search').length).toBe(before + 1);
  });

  it('by coordinates: no geocoding, the time zone from the weather', async () => {
    const before = openMeteo.requestsTo('/v1/search').length;
    const body = ok(await todays({ datetoday: today, location: '48.853, 2.35' }));
    expect(body.place).toEqual({ name: '48.853,2.35', country: null, latitude: 48.853, longitude: 2.35, timezone: 'Europe/Amsterdam' });
    // Asked upstream at the point rounded to 0.01°, as cached.
    expect(body.weather).toEqual(expectedDay(48.85, 2.35, today));
    expect(openMeteo.requestsTo('/v1/search').length).toBe(before);
    const forecast = openMeteo.requestsTo('/v1/forecast').at(-1)!;
    expect(forecast.params).toMatchObject({ latitude: '48.85', longitude: '2.35', timezone: 'auto', start_date: today, end_date: today });
    expect(forecast.params.daily!.split(',')).toEqual(
      expect.arrayContaining(['temperature_2m_max', 'temperature_2m_min', 'temperature_2m_mean', 'relative_humidity_2m_mean', 'precipitation_sum', 'weather_code']),
    );
  });

  it('answers 400 for a place nobody knows', async () => {
    refused(await todays({ datetoday: today, location: 'Atlantis' }), 400, m.placeNotFound('Atlantis'));
  });
});

describe('a range', () => {
  it('takes older days from the archive and recent and coming ones from the forecast, each day once', async () => {
    const [start, end] = [addDaysTo(today, -20), addDaysTo(today, 3)];
    const before = openMeteo.requests.length;
    const body = ok(await range({ start, end, location: '40.5,-3.7' }));
    expect(body.start).toBe(start);
    expect(body.end).toBe(end);
    expect(body.days.map((day) => day.date)).toHaveLength(24);
    for (const day of body.days) expect(day).toEqual(expectedDay(40.5, -3.7, day.date));

    const calls = openMeteo.requests.slice(before);
    expect(calls.map((call) => call.path)).toEqual(['/v1/archive', '/v1/forecast']);
    const [archive, forecast] = calls;
    expect(archive!.params).toMatchObject({ start_date: start, end_date: addDaysTo(today, -6) });
    expect(forecast!.params).toMatchObject({ start_date: addDaysTo(today, -5), end_date: end });
  });

  it('is answered from the cache the second time: no request upstream', async () => {
    const query = { start: addDaysTo(today, -30), end: addDaysTo(today, 2), location: '-33.9,18.4' };
    const first = ok(await range(query));
    const before = openMeteo.requests.length;
    const second = ok(await range(query));
    expect(second).toEqual(first);
    expect(openMeteo.requests.length).toBe(before);

    // A range inside it, and today alone, are in the cache as well.
    ok(await range({ ...query, start: addDaysTo(today, -10), end: addDaysTo(today, -3) }));
    ok(await todays({ datetoday: today, location: query.location }));
    expect(openMeteo.requests.length).toBe(before);

    // A wider range asks only for the days the cache lacks.
    ok(await range({ ...query, start: addDaysTo(today, -32) }));
    expect(openMeteo.requests.slice(before).map((call) => [call.path, call.params.start_date, call.params.end_date])).toEqual([
      ['/v1/archive', addDaysTo(today, -32), addDaysTo(today, -31)],
    ]);
  });

  it('answers 400 for an end before its start, a range too long, and days nobody knows', async () => {
    refused(await range({ start: today, end: addDaysTo(today, -1), location: '52.0,4.2' }), 400, m.endBeforeStart);
    refused(await range({ start: addDaysTo(today, -WEATHER_RANGE_MAX_DAYS), end: today, location: '52.0,4.2' }), 400, m.rangeTooLong);
    refused(await range({ start: '1939-12-31', end: '1940-01-02', location: '52.0,4.2' }), 400, m.outsideKnownDays(today));
    refused(await todays({ datetoday: addDaysTo(today, 17), location: '52.0,4.2' }), 400, m.outsideKnownDays(today));
  });

  it(`answers a range of ${WEATHER_RANGE_MAX_DAYS} days`, async () => {
    const body = ok(await range({ start: addDaysTo(today, -(WEATHER_RANGE_MAX_DAYS - 1)), end: today, location: '60.1,24.9' }));
    expect(body.days).toHaveLength(WEATHER_RANGE_MAX_DAYS);
  });
});

describe('Open-Meteo failing', () => {
  it('answers 502 in the envelope, and caches nothing of it', async () => {
    openMeteo.state.failing = true;
    try {
      refused(await todays({ datetoday: today, location: '35.7,139.7' }), 502, m.serviceFailed('it answered HTTP 500: The stand-in is failing on purpose'));
      refused(await todays({ datetoday: today, location: 'Leamington' }), 502, m.serviceFailed('it answered HTTP 500: The stand-in is failing on purpose'));
    } finally {
      openMeteo.state.failing = false;
    }
    const before = openMeteo.requests.length;
    const body = ok(await todays({ datetoday: today, location: 'Leamington' }));
    expect(body.place.name).toBe('Leamington');
    expect(openMeteo.requests.slice(before).map((call) => call.path)).toEqual(['/v1/search', '/v1/forecast']);
  });

  it('answers 502 when the service cannot be reached', async () => {
    const unreachable = await startServer();
    try {
      const tenant = await createTenant(unreachable);
      const response = await unreachable.request('GET', '/weather/todays_weather', { token: tenant.regular.token, query: { datetoday: today, location: '52.0,4.2' } });
      refused(response, 502, m.serviceFailed('no answer'));
    } finally {
      await unreachable.close();
    }
  });
});
