/**
 * Outdoor weather beside a report's trend (issue 18, "the report overlay"): the days of the report's
 * weeks, each with its outdoor high and low (°C), humidity (%) and rain (mm), drawn over the chart
 * (chart-option.ts) on axes of their own.
 *
 * Only a weekly trend takes it: categories that are consecutive Mondays (every trend model's weeks,
 * trend-models.ts). A heat map's rows, a treatment's bars or a chart saved through the API with
 * categories of its own have no days to lay weather beside.
 *
 * The days are laid on a second category axis of 7 days per week: with both axes drawn with a
 * boundary gap, a week's band holds exactly its seven days, so a day's rain stands under its week.
 */
import { WEATHER_DAYS_AHEAD, WEATHER_FIRST_DATE, WEATHER_RANGE_MAX_DAYS, weatherOverlayNotes as overlayNotes } from '../messages/weather';
import { isCalendarDate } from '../schemas/fields';
import { addDaysTo, mondayOf, type ReportPeriod } from '../schemas/report-dates';
import type { WeatherDay } from '../schemas/weather';

/** The legend's names of the weather series, in the order they are drawn. */
export const WEATHER_SERIES_NAMES = {
  high: 'Outdoor high (°C)',
  low: 'Outdoor low (°C)',
  humidity: 'Outdoor humidity (%)',
  rain: 'Outdoor rain (mm)',
} as const;

export type WeatherSeriesKey = keyof typeof WEATHER_SERIES_NAMES;

/** The weather laid over a weekly chart: every day of its weeks, a value per day (null: none known or asked). */
export interface WeatherOverlay {
  days: string[];
  values: Record<WeatherSeriesKey, Array<number | null>>;
}

/** Whether a chart's categories are weeks the weather can be laid beside: consecutive Mondays (yyyy-mm-dd). */
export function isWeekly(categories: readonly string[]): boolean {
  const first = categories[0];
  if (first === undefined || !isCalendarDate(first) || mondayOf(first) !== first) return false;
  return categories.every((category, index) => category === addDaysTo(first, 7 * index));
}

/** Every day of a weekly chart's weeks, from its first Monday to its last Sunday. */
export function daysOfWeeks(categories: readonly string[]): string[] {
  const first = categories[0];
  if (first === undefined) return [];
  return Array.from({ length: 7 * categories.length }, (_, index) => addDaysTo(first, index));
}

/**
 * The days to ask the weather for: the chart's weeks, narrowed to the report's own period when it has
 * dates of its own (a date range that starts or ends mid-week: its counts stop there, so does its
 * weather). A stated period that misses the weeks shown (data kept from before it moved) is ignored.
 */
export function weatherPeriodOf(categories: readonly string[], stated: ReportPeriod | null): ReportPeriod | null {
  const days = daysOfWeeks(categories);
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return null;
  const start = stated && stated.start > first ? stated.start : first;
  const end = stated && stated.end < last ? stated.end : last;
  return start <= end ? { start, end } : { start: first, end: last };
}

/**
 * The part of `period` the weather can be asked for as of `today` (weather_range's rule,
 * common/schemas/weather.ts `weatherRangeProblem`): up to the forecast's last day, from the archive's
 * first, and at most WEATHER_RANGE_MAX_DAYS days, the latest kept (a report looks back from now). Null
 * when none of it can; `notes` say what was left out.
 */
export function clipWeatherPeriod(period: ReportPeriod, today: string): { period: ReportPeriod | null; notes: string[] } {
  const lastKnown = addDaysTo(today, WEATHER_DAYS_AHEAD);
  if (period.start > lastKnown || period.end < WEATHER_FIRST_DATE) return { period: null, notes: [overlayNotes.noneKnown(today)] };
  const notes: string[] = [];
  let { start, end } = period;
  if (end > lastKnown) {
    end = lastKnown;
    notes.push(overlayNotes.afterForecast(end));
  }
  if (start < WEATHER_FIRST_DATE) {
    start = WEATHER_FIRST_DATE;
    notes.push(overlayNotes.beforeArchive);
  }
  const earliest = addDaysTo(end, -(WEATHER_RANGE_MAX_DAYS - 1));
  if (start < earliest) {
    start = earliest;
    notes.push(overlayNotes.tooLong(start));
  }
  return { period: { start, end }, notes };
}

/**
 * The weather of a weekly chart's days: each day of its weeks with the value answered for it, null for
 * a day not asked (outside the period) or not known (Open-Meteo's null).
 */
export function weatherOverlayOf(categories: readonly string[], weather: readonly WeatherDay[]): WeatherOverlay {
  const days = daysOfWeeks(categories);
  const byDay = new Map(weather.map((day) => [day.date, day]));
  const valuesOf = (pick: (day: WeatherDay) => number | null) => days.map((day) => {
    const found = byDay.get(day);
    return found ? pick(found) : null;
  });
  return {
    days,
    values: {
      high: valuesOf((day) => day.temperature_max),
      low: valuesOf((day) => day.temperature_min),
      humidity: valuesOf((day) => day.humidity_mean),
      rain: valuesOf((day) => day.precipitation),
    },
  };
}
