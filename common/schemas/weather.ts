/**
 * Requests and answers of weather (spec part 2 "Weather"; issue 18): `weather/weather_range` (start,
 * end, location) and `weather/todays_weather` (datetoday, location), answered per day from Open-Meteo
 * through the server (server/domains/weather), which caches them per location and day.
 *
 * A location is a place name ("Westland, NL", as `update_location` keeps it) or coordinates
 * ("52.0,4.2": latitude, then longitude). The rules both sides apply (what a location is, which ranges
 * may be asked for) are here, so a tablet can refuse what the server would.
 */
import { z } from 'zod';
import { WEATHER_DAYS_AHEAD, WEATHER_FIRST_DATE, WEATHER_LOCATION_MAX_CHARS, WEATHER_RANGE_MAX_DAYS, weatherMessages as m } from '../messages/weather';
import { answer, calendarDate } from './answers';
import { addDaysTo } from './report-dates';

/** Blank text and null count as absent, so they get the spec's "required" message. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** A date as yyyy-mm-dd that exists; absent or blank answers `required`. */
const dateField = (required: string, invalid: string) =>
  z.preprocess((value) => blankToUndefined(typeof value === 'string' ? value.trim() : value), z.iso.date({ error: (issue) => (issue.input === undefined ? required : invalid) }));

const locationField = z.preprocess(
  blankToUndefined,
  z
    .string({ error: m.locationRequired })
    .trim()
    .max(WEATHER_LOCATION_MAX_CHARS, { error: m.locationTooLong })
    // Spaces in a place name are one space: "Westland,  NL" and "Westland, NL" are one place (and one cache entry).
    .transform((text) => text.replace(/\s+/g, ' ')),
);

// ——— Requests ———

/** weather_range: the days from `start` to `end`, both included, at `location`. */
export const weatherRangeQuery = z.object({
  start: dateField(m.startRequired, m.startInvalid),
  end: dateField(m.endRequired, m.endInvalid),
  location: locationField,
});

/** todays_weather: the day `datetoday` (the tablet's today, which may differ from the server's) at `location`. */
export const todaysWeatherQuery = z.object({
  datetoday: dateField(m.dateTodayRequired, m.dateTodayInvalid),
  location: locationField,
});

// ——— The rules of a location and a range ———

export type WeatherLocation = { kind: 'coordinates'; latitude: number; longitude: number } | { kind: 'place'; name: string };

const COORDINATES = /^([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)$/;

/**
 * What a location text names: two numbers separated by a comma are coordinates (latitude first, as
 * maps write them), anything else a place name. Coordinates outside the globe answer the message.
 */
export function locationOf(text: string): WeatherLocation | { error: string } {
  const numbers = COORDINATES.exec(text);
  if (!numbers) return { kind: 'place', name: text };
  const latitude = Number(numbers[1]);
  const longitude = Number(numbers[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return { error: m.coordinatesInvalid };
  return { kind: 'coordinates', latitude, longitude };
}

/** The number of days from `start` to `end`, both counted. */
export const daysBetween = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * Why the days from `start` to `end` cannot be asked for as of `today` (yyyy-mm-dd), or null: end
 * before start, more than WEATHER_RANGE_MAX_DAYS days, or a day Open-Meteo does not know (before its
 * archive begins, or past its forecast).
 */
export function weatherRangeProblem(start: string, end: string, today: string): string | null {
  if (end < start) return m.endBeforeStart;
  if (daysBetween(start, end) > WEATHER_RANGE_MAX_DAYS) return m.rangeTooLong;
  if (start < WEATHER_FIRST_DATE || end > addDaysTo(today, WEATHER_DAYS_AHEAD)) return m.outsideKnownDays(today);
  return null;
}

// ——— Answers ———

/** Where the weather is for: the place a name was resolved to, or the coordinates asked for. */
export const weatherPlace = z.object({
  /** The place's name ("Westland"), or the coordinates as asked ("52.0,4.2"). */
  name: z.string(),
  /** The place's country; null for coordinates. */
  country: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  /** The place's time zone (IANA, "Europe/Amsterdam"): its days are local days there. */
  timezone: z.string(),
});

/** One day's weather; a value Open-Meteo does not have (yet) is null. */
export const weatherDay = z.object({
  date: calendarDate,
  /** °C at 2 m. */
  temperature_max: z.number().nullable(),
  temperature_min: z.number().nullable(),
  temperature_mean: z.number().nullable(),
  /** Relative humidity at 2 m, the day's mean, in %. */
  humidity_mean: z.number().nullable(),
  /** The day's sum, in mm. */
  precipitation: z.number().nullable(),
  /** The WMO weather code of the day's most severe weather (0 clear sky … 99 thunderstorm with hail). */
  weather_code: z.number().int().nullable(),
});

export const weatherRangeAnswer = answer({ place: weatherPlace, start: calendarDate, end: calendarDate, days: z.array(weatherDay) });
export const todaysWeatherAnswer = answer({ place: weatherPlace, date: calendarDate, weather: weatherDay });

export type WeatherPlace = z.infer<typeof weatherPlace>;
export type WeatherDay = z.infer<typeof weatherDay>;
