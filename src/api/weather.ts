/**
 * Domain functions of weather (spec part 2 "Weather"; issue 18): today's weather and a range of days at
 * a location (a place name or coordinates), as the server answers them from Open-Meteo
 * (server/domains/weather).
 *
 * Both are online reads: the weather is not company data, so it is not in the local store; the last
 * answer a screen showed is kept on the tablet by the screen's hook (src/features/weather). Input is
 * checked first with the server's own schemas and rules (common/schemas/weather.ts), so the spec's
 * messages ('datetoday is required.', 'Location is required.', …) come before any call.
 */
import type { z } from 'zod';
import { weatherClientMessages as cm } from '../../common/messages/weather';
import { todayUtc } from '../../common/schemas/report-dates';
import {
  locationOf,
  type todaysWeatherAnswer,
  todaysWeatherQuery,
  type WeatherDay,
  type WeatherPlace,
  type weatherRangeAnswer,
  weatherRangeProblem,
  weatherRangeQuery,
} from '../../common/schemas/weather';
import { type ApiContext, check, online, ValidationError } from './context';

export type { WeatherDay, WeatherPlace };

/** Today's weather at a place: the place as the server resolved it, the day asked for and its weather. */
export type TodaysWeather = Omit<z.infer<typeof todaysWeatherAnswer>, 'status' | 'message'>;

/** The weather of each day of a range, in order, at a place. */
export type WeatherRange = Omit<z.infer<typeof weatherRangeAnswer>, 'status' | 'message'>;

/**
 * The rules the server applies before it fetches anything: a location it can read (coordinates on the
 * globe) and days Open-Meteo knows, counted from the server's today (UTC), as the server counts them.
 */
function assertAskable(location: string, start: string, end: string) {
  const named = locationOf(location);
  if ('error' in named) throw new ValidationError(named.error);
  const problem = weatherRangeProblem(start, end, todayUtc());
  if (problem) throw new ValidationError(problem);
}

/**
 * GET /weather/todays_weather (datetoday, location): the weather of `date` (the tablet's today, as
 * yyyy-mm-dd: the grower's day, which may differ from the server's) at `location`.
 */
export async function getTodaysWeather(context: Pick<ApiContext, 'client'>, input: { location: string; date: string }): Promise<TodaysWeather> {
  const query = check(todaysWeatherQuery, { datetoday: input.date, location: input.location });
  assertAskable(query.location, query.datetoday, query.datetoday);
  const { place, date, weather } = await online<z.infer<typeof todaysWeatherAnswer>>(context, { path: '/weather/todays_weather', query }, cm.fetchFailed);
  return { place, date, weather };
}

/** GET /weather/weather_range (start, end, location): each day from `start` to `end` (yyyy-mm-dd, both included) at `location`. */
export async function getWeatherRange(context: Pick<ApiContext, 'client'>, input: { location: string; start: string; end: string }): Promise<WeatherRange> {
  const query = check(weatherRangeQuery, { start: input.start, end: input.end, location: input.location });
  assertAskable(query.location, query.start, query.end);
  const { place, start, end, days } = await online<z.infer<typeof weatherRangeAnswer>>(context, { path: '/weather/weather_range', query }, cm.fetchFailed);
  return { place, start, end, days };
}
