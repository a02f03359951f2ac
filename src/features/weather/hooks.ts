/**
 * Today's weather at the signed-in user's location, for the dashboards' card. Read online (the server
 * asks Open-Meteo, src/api/weather.ts), and every read is kept on the tablet (kept-weather.ts): offline,
 * while a read runs and when it fails, the card shows the weather last fetched for that location, with
 * the time it was fetched. Back online, it reads again.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ReportPeriod } from '../../../common/schemas/report-dates';
import { deferred } from '../../app/deferred';
import { useServerRead, useSignedInUser } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { useCompany } from '../company/useCompany';
import { type KeptWeather, keepWeather, keptWeather } from './kept-weather';
import { type KeptWeatherRange, keepWeatherRange, keptWeatherRange } from './kept-weather-range';

// Loaded on the first read: the request schemas (zod) stay out of the dashboard's and a report's first paint (app/deferred.ts).
const getTodaysWeather = deferred(() => import('../../api/weather'), 'getTodaysWeather');
const getWeatherRange = deferred(() => import('../../api/weather'), 'getWeatherRange');

/**
 * How often an open dashboard reads again (a kiosk tablet shows it all day): the server fetches today's
 * weather again an hour after it last did (server/domains/weather/days.ts), so sooner brings nothing new.
 */
const REFRESH_MS = 60 * 60_000;

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * yyyy-mm-dd of now in the tablet's time zone: the grower's today, which todays_weather takes as
 * `datetoday`. (observations/model.ts `localDay` does the same, but importing it would bring the form
 * responses' schemas into the dashboard's first chunk.)
 */
function tabletToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * - `no-location`: the user has none: nothing can be read.
 * - `loading`: the first read runs and nothing is kept for this location.
 * - `refreshing`: a read runs; the kept weather shows meanwhile.
 * - `current`: the weather just read.
 * - `offline`: no read is possible; the kept weather shows, if any.
 * - `failed`: the read failed (`error` says why); the kept weather shows, if any.
 */
export type WeatherStatus = 'no-location' | 'loading' | 'refreshing' | 'current' | 'offline' | 'failed';

export interface TodaysWeatherRead {
  /** The weather shown: the one just read, else the last kept for this location; null when neither. */
  weather: KeptWeather | null;
  status: WeatherStatus;
  error: string | null;
  /** The tablet's today (yyyy-mm-dd): kept weather may be of an earlier day. */
  today: string;
  reload: () => void;
}

export function useTodaysWeather(userId: number | null, location: string | null): TodaysWeatherRead {
  const online = useSyncStatus((status) => status.online);
  const [today, setToday] = useState(tabletToday);
  const read = useServerRead<KeptWeather>(
    userId !== null && location
      ? async (context) => {
          const answer = await getTodaysWeather(context, { location, date: today });
          const fetched: KeptWeather = { ...answer, location, fetchedAt: new Date().toISOString() };
          keepWeather(userId, fetched);
          return fetched;
        }
      : null,
    `weather-${userId ?? ''}-${location ?? ''}-${today}`,
  );
  const { reload } = read;

  // A new hour may bring a revised forecast, a new day another day's weather.
  useEffect(() => {
    const timer = setInterval(() => {
      setToday(tabletToday());
      reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  // Parsed again when a read ends (it kept what it read), not on every render.
  const kept = useMemo(() => {
    const found = userId === null ? null : keptWeather(userId);
    return found && found.location === location ? found : null;
    // read.data is the sign that a read kept something new in local storage.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, location, read.data]);

  // A read of the location before (still shown by useServerRead while the next one runs) is not this one's.
  const fresh = read.data && read.data.location === location ? read.data : null;
  const weather = fresh ?? kept;
  let status: WeatherStatus;
  if (!location) status = 'no-location';
  else if (!online) status = 'offline';
  else if (read.loading) status = weather ? 'refreshing' : 'loading';
  else if (read.error !== null) status = 'failed';
  else status = fresh ? 'current' : 'loading';
  return { weather, status, error: read.error, today, reload };
}

/** The signed-in user's location (`update_location`, in the company's document with its users); `loading` until that document is read. */
export function useMyLocation(): { userId: number | null; location: string | null; loading: boolean } {
  const user = useSignedInUser();
  const company = useCompany(user?.companyId);
  const me = user ? company.document?.users?.find((candidate) => candidate.user_id === user.userId) : undefined;
  return { userId: user?.userId ?? null, location: me?.location?.trim() || null, loading: !user || company.loading };
}

export interface WeatherRangeRead {
  /** The days shown: the range just read, else the newest kept that covers the period at this location; null when neither. */
  weather: KeptWeatherRange | null;
  /** As today's weather's (`WeatherStatus`); `no-location` also when no period is asked. */
  status: WeatherStatus;
  error: string | null;
  reload: () => void;
}

/**
 * The weather of each day of `period` at the user's `location` (a report's outdoor weather), read
 * online and kept on the tablet (kept-weather-range.ts): offline, while a read runs and when it fails,
 * the range last fetched that covers the period shows, with the time it was fetched. Nothing is read
 * while `period` is null (the overlay is off).
 */
export function useWeatherRange(userId: number | null, location: string | null, period: ReportPeriod | null): WeatherRangeRead {
  const online = useSyncStatus((status) => status.online);
  const start = period?.start ?? null;
  const end = period?.end ?? null;
  const read = useServerRead<KeptWeatherRange>(
    userId !== null && location && start && end
      ? async (context) => {
          const answer = await getWeatherRange(context, { location, start, end });
          const fetched: KeptWeatherRange = { ...answer, location, fetchedAt: new Date().toISOString() };
          keepWeatherRange(userId, fetched);
          return fetched;
        }
      : null,
    `weather-range-${userId ?? ''}-${location ?? ''}-${start ?? ''}-${end ?? ''}`,
  );

  // Parsed again when a read ends (it kept what it read), not on every render.
  const kept = useMemo(
    () => (userId !== null && location && start && end ? keptWeatherRange(userId, location, start, end) : null),
    // read.data is the sign that a read kept something new in local storage.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [userId, location, start, end, read.data],
  );

  // A read of another period or place (still shown by useServerRead while the next one runs) is not this one's.
  const fresh = read.data && read.data.location === location && read.data.start === start && read.data.end === end ? read.data : null;
  const weather = fresh ?? kept;
  let status: WeatherStatus;
  if (!location || !start) status = 'no-location';
  else if (!online) status = 'offline';
  else if (read.loading) status = weather ? 'refreshing' : 'loading';
  else if (read.error !== null) status = 'failed';
  else status = fresh ? 'current' : 'loading';
  return { weather, status, error: read.error, reload: read.reload };
}
