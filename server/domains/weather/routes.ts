/**
 * Weather (spec part 2 "Weather"; issue 18): a range of days and today's weather at a location (a place
 * name or coordinates), for any signed-in user. The weather is public and shared: no company's data is
 * read or written, so nothing is audited. How days are fetched and cached: days.ts.
 *
 * Decisions (the spec shows no failure messages for weather): dates are YYYY-MM-DD; a range is at most
 * WEATHER_RANGE_MAX_DAYS days, from Open-Meteo's first archived day to the last forecast one (400
 * otherwise, before anything is fetched); a place that geocoding does not know answers 400; Open-Meteo
 * failing (no answer, an error, an unreadable answer) answers 502 with what went wrong.
 */
import { todayUtc } from '../../../common/schemas/report-dates';
import { todaysWeatherAnswer, todaysWeatherQuery, weatherRangeAnswer, weatherRangeProblem, weatherRangeQuery } from '../../../common/schemas/weather';
import { badRequest } from '../../http/errors';
import { type App, type RequestOf, success } from '../../http/route';
import { resolveLocation, weatherDays } from './days';

const rangeSchema = { querystring: weatherRangeQuery, response: { 200: weatherRangeAnswer } };
const todaySchema = { querystring: todaysWeatherQuery, response: { 200: todaysWeatherAnswer } };

/** 400 for a range that cannot be asked for (common/schemas/weather.ts: the tablet applies the same rule). */
function assertRange(start: string, end: string) {
  const problem = weatherRangeProblem(start, end, todayUtc());
  if (problem) throw badRequest(problem);
}

async function weatherRange(request: RequestOf<typeof rangeSchema>) {
  const { start, end, location } = request.query;
  assertRange(start, end);
  const { place, days } = await weatherDays(request, await resolveLocation(request, location), start, end);
  return success({ place, start, end, days });
}

async function todaysWeather(request: RequestOf<typeof todaySchema>) {
  const { datetoday, location } = request.query;
  assertRange(datetoday, datetoday);
  const { place, days } = await weatherDays(request, await resolveLocation(request, location), datetoday, datetoday);
  const [weather] = days;
  // weatherDays answers one day per date asked: one here.
  if (!weather) throw new Error(`No weather answered for ${datetoday}`);
  return success({ place, date: datetoday, weather });
}

export async function weatherRoutes(app: App) {
  app.get('/weather/weather_range', { schema: rangeSchema }, weatherRange);
  app.get('/weather/todays_weather', { schema: todaySchema }, todaysWeather);
}
