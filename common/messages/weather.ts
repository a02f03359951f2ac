/**
 * Messages and limits of weather (spec part 2 "Weather": weather_range and todays_weather by location).
 * The four "required" messages are the spec's words; the rest say the rule in the calls' field names
 * (the spec shows no failure messages for weather).
 */

/** The longest range weather_range answers, in days (both ends counted): a year, leap day included. */
export const WEATHER_RANGE_MAX_DAYS = 366;

/** The first day Open-Meteo's archive holds (its reanalysis starts in 1940). */
export const WEATHER_FIRST_DATE = '1940-01-01';

/** How far ahead Open-Meteo's forecast reaches, in days after today. */
export const WEATHER_DAYS_AHEAD = 16;

/** The longest location text taken: a place name with its country, or two coordinates. */
export const WEATHER_LOCATION_MAX_CHARS = 200;

export const weatherMessages = {
  // Spec part 2, its words.
  startRequired: 'Start date is required.',
  endRequired: 'End date is required.',
  locationRequired: 'Location is required.',
  dateTodayRequired: 'datetoday is required.',
  // The rules of the calls, in their field names.
  startInvalid: 'start must be a date as YYYY-MM-DD.',
  endInvalid: 'end must be a date as YYYY-MM-DD.',
  dateTodayInvalid: 'datetoday must be a date as YYYY-MM-DD.',
  locationTooLong: `location must be a place name or coordinates of at most ${WEATHER_LOCATION_MAX_CHARS} characters.`,
  coordinatesInvalid: 'Coordinates must be a latitude from -90 to 90 and a longitude from -180 to 180, as "52.0,4.2".',
  endBeforeStart: 'end must not be before start.',
  rangeTooLong: `A weather range may span at most ${WEATHER_RANGE_MAX_DAYS} days.`,
  outsideKnownDays: (today: string) => `Weather is known from ${WEATHER_FIRST_DATE} until ${WEATHER_DAYS_AHEAD} days after today (${today}).`,
  placeNotFound: (name: string) => `No place named "${name}" was found.`,
  /** An upstream failure (502): what went wrong, in a few words ("it answered HTTP 500", "no answer"). */
  serviceFailed: (why: string) => `The weather could not be fetched from Open-Meteo (${why}). Please try again later.`,
} as const;

/** What a tablet's weather read says when the server gives no message of its own (no answer, a refusal without one). */
export const weatherClientMessages = {
  fetchFailed: 'The weather could not be fetched. Please try again later.',
} as const;

/**
 * The WMO weather codes Open-Meteo answers (its documentation's table: 0 to 99, of which it uses
 * these), as growers read them. A code outside the table still says what it is (weatherCodeText).
 */
export const WMO_WEATHER_TEXTS: Readonly<Record<number, string>> = {
  0: 'Clear sky',
  1: 'Mainly clear',
  2: 'Partly cloudy',
  3: 'Overcast',
  45: 'Fog',
  48: 'Freezing fog',
  51: 'Light drizzle',
  53: 'Drizzle',
  55: 'Heavy drizzle',
  56: 'Light freezing drizzle',
  57: 'Freezing drizzle',
  61: 'Light rain',
  63: 'Rain',
  65: 'Heavy rain',
  66: 'Light freezing rain',
  67: 'Freezing rain',
  71: 'Light snow',
  73: 'Snow',
  75: 'Heavy snow',
  77: 'Snow grains',
  80: 'Light rain showers',
  81: 'Rain showers',
  82: 'Violent rain showers',
  85: 'Light snow showers',
  86: 'Snow showers',
  95: 'Thunderstorm',
  96: 'Thunderstorm with light hail',
  99: 'Thunderstorm with hail',
};

/** The words of a day's WMO weather code; null (no code yet) has none. */
export function weatherCodeText(code: number | null): string | null {
  if (code === null) return null;
  return WMO_WEATHER_TEXTS[code] ?? `Weather code ${code}`;
}

/** Why the outdoor weather beside a report (common/charts/weather-overlay.ts) covers less than the report's period, in words. */
export const weatherOverlayNotes = {
  noneKnown: (today: string) => `No outdoor weather is known for this period: it is known from ${WEATHER_FIRST_DATE} until ${WEATHER_DAYS_AHEAD} days after today (${today}).`,
  tooLong: (start: string) => `Outdoor weather from ${start} only: a weather range spans at most ${WEATHER_RANGE_MAX_DAYS} days.`,
  afterForecast: (end: string) => `Outdoor weather until ${end} only: the forecast reaches ${WEATHER_DAYS_AHEAD} days ahead.`,
  beforeArchive: `Outdoor weather from ${WEATHER_FIRST_DATE} only: the weather archive begins then.`,
} as const;
