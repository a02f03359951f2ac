/**
 * The last weather this tablet fetched for a user, kept so that it shows offline with the time it was
 * fetched (issue 18: the spec persists the weather in the browser).
 *
 * Decision: kept in local storage under `growroom.weather.<userId>` (one small answer per user, as
 * reports/kept-data.ts keeps a report's last read), never in the local database: the weather is no
 * company data and nothing syncs it. It is kept with the location it was asked for, so a user who
 * changes their location is not shown another place's weather as theirs.
 */
import type { TodaysWeather, WeatherPlace } from '../../api/weather';
import { readKept, writeKept } from '../../app/kept';

const KEY_PREFIX = 'growroom.weather.';

export interface KeptWeather extends TodaysWeather {
  /** The location text asked for (the user's `location` then). */
  location: string;
  /** When the tablet fetched it (ISO). */
  fetchedAt: string;
}

/** A place as people read it ("Westland, Netherlands"); coordinates as asked. */
export const placeName = (place: WeatherPlace) => (place.country ? `${place.name}, ${place.country}` : place.name);

const keyOf = (userId: number) => `${KEY_PREFIX}${userId}`;

/** What a stored value must hold to be shown (one written by an older version of the app may not). */
function isKeptWeather(value: unknown): value is KeptWeather {
  if (!value || typeof value !== 'object') return false;
  const kept = value as Partial<KeptWeather>;
  return (
    typeof kept.location === 'string' &&
    typeof kept.fetchedAt === 'string' &&
    typeof kept.date === 'string' &&
    typeof kept.place?.name === 'string' &&
    typeof kept.weather === 'object' &&
    kept.weather !== null
  );
}

/** The weather last fetched on this tablet for the user, or null. */
export function keptWeather(userId: number): KeptWeather | null {
  return readKept(keyOf(userId), isKeptWeather);
}

/** Storage full or refused (a private window): the weather still shows while online. */
export function keepWeather(userId: number, kept: KeptWeather): void {
  writeKept(keyOf(userId), kept);
}
