/**
 * A stand-in for Open-Meteo on 127.0.0.1 (a random port): /v1/forecast, /v1/archive and /v1/search
 * answer the documented shapes (daily series under `daily` beside `time`, geocoding's `results` left
 * out when nothing matches, `{error: true, reason}` on a refusal). The weather is made up but
 * deterministic, derived from the point and the date (`weatherAt`), so a test knows what to expect.
 * Every request is recorded (to prove the cache), and `failing` makes every answer a 500.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInPlace {
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  timezone: string;
}

/** Places the stand-in's geocoding knows, by the name asked (lower case). */
export const KNOWN_PLACES: Record<string, StandInPlace> = {
  'westland, nl': { name: 'Westland', country: 'Netherlands', latitude: 51.99167, longitude: 4.20833, timezone: 'Europe/Amsterdam' },
  leamington: { name: 'Leamington', country: 'Canada', latitude: 42.05009, longitude: -82.59981, timezone: 'America/Toronto' },
};

export interface StandInRequest {
  path: string;
  params: Record<string, string>;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The made-up weather of a day at a point (the values the stand-in answers). */
export function weatherAt(latitude: number, longitude: number, date: string) {
  const dayNumber = Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  const max = round1(12 + (Math.abs(latitude) % 10) + (dayNumber % 7));
  const min = round1(max - 6 - (dayNumber % 3));
  return {
    temperature_2m_max: max,
    temperature_2m_min: min,
    temperature_2m_mean: round1((max + min) / 2),
    relative_humidity_2m_mean: Math.round(55 + (Math.abs(longitude * 10) % 30)),
    precipitation_sum: round1((dayNumber % 4) * 1.5),
    weather_code: [0, 2, 3, 61, 80][dayNumber % 5] ?? 0,
  };
}

const json = (response: ServerResponse, status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

function datesFrom(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let moment = Date.parse(`${start}T00:00:00Z`); moment <= Date.parse(`${end}T00:00:00Z`); moment += 86_400_000) dates.push(new Date(moment).toISOString().slice(0, 10));
  return dates;
}

export async function startOpenMeteo() {
  const requests: StandInRequest[] = [];
  const state = { failing: false };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://open-meteo.test');
    const params = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, params });
    if (state.failing) return json(response, 500, { error: true, reason: 'The stand-in is failing on purpose' });
    if (url.pathname === '/v1/search') {
      const place = KNOWN_PLACES[(params.name ?? '').toLowerCase()];
      // Nothing found: Open-Meteo leaves `results` out.
      if (!place) return json(response, 200, { generationtime_ms: 0.4 });
      return json(response, 200, { results: [{ id: 2_743_000, elevation: 1, feature_code: 'PPLA2', country_code: 'NL', admin1: 'South Holland', ...place }], generationtime_ms: 0.6 });
    }
    if (url.pathname === '/v1/forecast' || url.pathname === '/v1/archive') {
      const latitude = Number(params.latitude);
      const longitude = Number(params.longitude);
      const { start_date: start, end_date: end } = params;
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || !start || !end || !params.daily) {
        return json(response, 400, { error: true, reason: 'latitude, longitude, daily, start_date and end_date are required' });
      }
      const variables = params.daily.split(',') as Array<keyof ReturnType<typeof weatherAt>>;
      const dates = datesFrom(start, end);
      const daily: Record<string, unknown[]> = { time: dates };
      for (const variable of variables) daily[variable] = dates.map((date) => weatherAt(latitude, longitude, date)[variable] ?? null);
      return json(response, 200, {
        latitude,
        longitude,
        generationtime_ms: 0.2,
        utc_offset_seconds: 3600,
        timezone: params.timezone === 'auto' ? 'Europe/Amsterdam' : (params.timezone ?? 'GMT'),
        timezone_abbreviation: 'GMT+1',
        elevation: 2,
        daily_units: Object.fromEntries(variables.map((variable) => [variable, variable.startsWith('temperature') ? '°C' : variable.startsWith('relative') ? '%' : variable === 'weather_code' ? 'wmo code' : 'mm'])),
        daily,
      });
    }
    return json(response, 404, { error: true, reason: `No ${url.pathname}` });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** Every request so far, in order. */
    requests,
    /** Every answer a 500 while true. */
    state,
    /** The requests to `path` so far. */
    requestsTo: (path: string) => requests.filter((request) => request.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
