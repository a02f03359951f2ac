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
