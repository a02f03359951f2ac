/**
 * A location's place and its days' weather, from the cache (cache.ts) where it holds them and from
 * Open-Meteo (open-meteo.ts) where it does not.
 *
 * Decisions (the spec shows none of this):
 * - Days older than ARCHIVE_LAG_DAYS come from the archive, the rest (recent days, today and the
 *   forecast) from the forecast: the archive's reanalysis arrives some 5 days late, and the forecast
 *   service keeps its recent past. One call per service covers the days it lacks.
 * - A day is kept for good once it was over everywhere on Earth when fetched (the day before yesterday
 *   in UTC or older: local days end at the latest 12 hours after UTC's) and had values: the weather of
 *   a past day no longer changes. Today and later days change as the forecast is revised, so they are
 *   fetched again an hour after: a dashboard opened on every tablet all day asks upstream once an hour.
 * - Points are rounded to 0.01° (about 1 km, finer than Open-Meteo's grid), so "52.001,4.2" and
 *   "52.0,4.2" share their cache and one upstream call.
 * - Place names are resolved once and kept: places do not move. A name that matches nothing is not
 *   kept (a place added to the gazetteer later is found).
 */
import type { FastifyRequest } from 'fastify';
import { weatherMessages as m } from '../../../common/messages/weather';
import { addDaysTo, todayUtc } from '../../../common/schemas/report-dates';
import { locationOf, type WeatherDay, type WeatherPlace } from '../../../common/schemas/weather';
import { badRequest } from '../../http/errors';
import { type CachedDay, type NewCachedDay, weatherQueries as q } from './cache';
import { type FetchedDay, openMeteoClient, type OpenMeteoSource } from './open-meteo';

/** Days at least this old (in UTC days before today) come from the archive. */
const ARCHIVE_LAG_DAYS = 5;
/** How long a day that is not final stays fresh. */
const NOT_FINAL_FRESH_MS = 60 * 60 * 1000;

/** A location resolved: the place as answered, and the rounded point its weather is cached at. */
export interface ResolvedLocation {
  /** The place as answered; `timezone` is null until the weather says it (coordinates, or geocoding without one). */
  place: Omit<WeatherPlace, 'timezone'> & { timezone: string | null };
  point: { latitude: number; longitude: number };
}

const rounded = (degrees: number) => Math.round(degrees * 100) / 100;
const pointOf = (latitude: number, longitude: number) => ({ latitude: rounded(latitude), longitude: rounded(longitude) });

/** The place a location text names: coordinates as they are, a place name through geocoding (cached). 400 when there is none. */
export async function resolveLocation(request: FastifyRequest, location: string): Promise<ResolvedLocation> {
  const named = locationOf(location);
  if ('error' in named) throw badRequest(named.error);
  if (named.kind === 'coordinates') {
    const { latitude, longitude } = named;
    return { place: { name: `${latitude},${longitude}`, country: null, latitude, longitude, timezone: null }, point: pointOf(latitude, longitude) };
  }
  const query = named.name.toLowerCase();
  let place = await q.placeByQuery(request.db, query);
  if (!place) {
    const found = await openMeteoClient(request.server.deps.config, request.log).geocode(named.name);
    if (!found) throw badRequest(m.placeNotFound(named.name));
    await q.savePlace(request.db, { query, ...found });
    place = { query, ...found, fetched_at: new Date() };
  }
  const { name, country, latitude, longitude, timezone } = place;
  return { place: { name, country, latitude, longitude, timezone }, point: pointOf(latitude, longitude) };
}

const isFresh = (day: CachedDay, now: number) => day.final || new Date(day.fetched_at).getTime() > now - NOT_FINAL_FRESH_MS;

/** A day's values, fetched or cached (none for a day Open-Meteo left out: all null). */
const valuesOf = (values: FetchedDay | CachedDay | undefined): Omit<WeatherDay, 'date'> => ({
  temperature_max: values?.temperature_max ?? null,
  temperature_min: values?.temperature_min ?? null,
  temperature_mean: values?.temperature_mean ?? null,
  humidity_mean: values?.humidity_mean ?? null,
  precipitation: values?.precipitation ?? null,
  weather_code: values?.weather_code ?? null,
});

/**
 * The weather of each day from `start` to `end` at the location, in order, and the place with its time
 * zone. Fetches what the cache lacks or holds stale; a failing service answers 502 (open-meteo.ts).
 */
export async function weatherDays(request: FastifyRequest, location: ResolvedLocation, start: string, end: string): Promise<{ place: WeatherPlace; days: WeatherDay[] }> {
  const { db } = request;
  const today = todayUtc();
  const now = Date.now();
  const archiveBefore = addDaysTo(today, -ARCHIVE_LAG_DAYS);
  const finalBefore = addDaysTo(today, -1);
  const dates: string[] = [];
  for (let date = start; date <= end; date = addDaysTo(date, 1)) dates.push(date);

  const byDate = new Map<string, CachedDay | FetchedDay>();
  let timezone = location.place.timezone;
  for (const day of await q.daysAt(db, location.point, start, end)) {
    if (!isFresh(day, now)) continue;
    byDate.set(day.day, day);
    timezone ??= day.timezone;
  }

  const missing = dates.filter((date) => !byDate.has(date));
  const sourceOf = (date: string): OpenMeteoSource => (date < archiveBefore ? 'archive' : 'forecast');
  const client = missing.length > 0 ? openMeteoClient(request.server.deps.config, request.log) : null;
  const fetched: NewCachedDay[] = [];
  for (const source of ['archive', 'forecast'] as const) {
    const wanted = missing.filter((date) => sourceOf(date) === source);
    const [first, last] = [wanted[0], wanted.at(-1)];
    if (!client || first === undefined || last === undefined) continue;
    const answer = await client.daily(source, location.point, first, last);
    timezone ??= answer.timezone;
    for (const day of answer.days) {
      if (day.date < first || day.date > last) continue;
      byDate.set(day.date, day);
      const final = day.date < finalBefore && day.temperature_max !== null;
      fetched.push({ ...location.point, day: day.date, timezone: answer.timezone, ...valuesOf(day), source, final, fetched_at: new Date(now) });
    }
  }
  await q.saveDays(db, fetched);

  return {
    place: { ...location.place, timezone: timezone ?? 'UTC' },
    days: dates.map((date) => ({ date, ...valuesOf(byDate.get(date)) })),
  };
}
