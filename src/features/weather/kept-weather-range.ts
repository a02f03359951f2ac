/**
 * The last weather ranges this tablet fetched for a user (a report's outdoor weather, issue 18), kept so
 * that a report shows its weather offline with the time it was fetched.
 *
 * Decision: kept in local storage under `growroom.weather-range.<userId>`, as kept-weather.ts keeps
 * today's weather: the weather is no company data and nothing syncs it. A range is kept with the
 * location it was asked for (another place's weather is never shown as the user's), newest first, at
 * most KEPT_RANGES of them: a year of days is some 40 kB, and a report of "the last weeks" asks a new
 * range each week, so older ones only take room.
 */
import type { WeatherRange } from '../../api/weather';
import { readKept, writeKept } from '../../app/kept';

const KEY_PREFIX = 'growroom.weather-range.';

/** How many ranges are kept per user: a dashboard's four reports and a few opened beside them. */
export const KEPT_RANGES = 8;

export interface KeptWeatherRange extends WeatherRange {
  /** The location text asked for (the user's `location` then). */
  location: string;
  /** When the tablet fetched it (ISO). */
  fetchedAt: string;
}

const keyOf = (userId: number) => `${KEY_PREFIX}${userId}`;

/** What a stored range must hold to be shown (one written by an older version of the app may not). */
function isKeptRange(value: unknown): value is KeptWeatherRange {
  if (!value || typeof value !== 'object') return false;
  const kept = value as Partial<KeptWeatherRange>;
  return (
    typeof kept.location === 'string' &&
    typeof kept.fetchedAt === 'string' &&
    typeof kept.start === 'string' &&
    typeof kept.end === 'string' &&
    typeof kept.place?.name === 'string' &&
    Array.isArray(kept.days)
  );
}

const isKeptRanges = (value: unknown): value is unknown[] => Array.isArray(value);

function keptRanges(userId: number): KeptWeatherRange[] {
  return (readKept(keyOf(userId), isKeptRanges) ?? []).filter(isKeptRange);
}

/** The newest range kept for the user at `location` that covers `start` to `end`, or null. */
export function keptWeatherRange(userId: number, location: string, start: string, end: string): KeptWeatherRange | null {
  const covering = keptRanges(userId).filter((kept) => kept.location === location && kept.start <= start && kept.end >= end);
  return covering.reduce<KeptWeatherRange | null>((newest, kept) => (newest && newest.fetchedAt >= kept.fetchedAt ? newest : kept), null);
}

/** Keeps a range first; the same range fetched before and the oldest beyond KEPT_RANGES leave. */
export function keepWeatherRange(userId: number, range: KeptWeatherRange): void {
  const others = keptRanges(userId).filter((kept) => !(kept.location === range.location && kept.start === range.start && kept.end === range.end));
  const kept = [range, ...others].slice(0, KEPT_RANGES);
  // Storage full (another report's data, a year of weather): the oldest ranges give way before this one
  // does; a refusal of even one (a private window): the weather still shows while online.
  for (let count = kept.length; count > 0 && !writeKept(keyOf(userId), kept.slice(0, count)); count -= 1);
}
