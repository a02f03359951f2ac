/** A report's echarts option, with the outdoor weather laid over a weekly trend (issues 15, 18). */
import * as echarts from 'echarts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHART_TYPES } from '../messages/reports';
import { WEATHER_DAYS_AHEAD, WEATHER_RANGE_MAX_DAYS, weatherMessages } from '../messages/weather';
import { addDaysTo, weeksOf } from '../schemas/report-dates';
import { daysBetween, type WeatherDay, weatherRangeProblem } from '../schemas/weather';
import type { ChartModel } from './chart-model';
import { chartOption, rainAxisMax, WEATHER_COLOURS } from './chart-option';
import { weatherOverlayNotes as overlayNotes } from '../messages/weather';
import { clipWeatherPeriod, daysOfWeeks, isWeekly, WEATHER_SERIES_NAMES, weatherOverlayOf, weatherPeriodOf } from './weather-overlay';

const model: ChartModel = {
  categoryLabel: 'Week',
  categories: ['2026-11-02', '2026-11-09'],
  series: [
    { name: 'Two-spotted spider mite', values: [3, 5] },
    { name: 'Powdery mildew', values: [1, 0] },
  ],
  unit: 'problems',
};

const day = (date: string, values: Partial<WeatherDay> = {}): WeatherDay => ({
  date,
  temperature_max: 14,
  temperature_min: 6,
  temperature_mean: 10,
  humidity_mean: 80,
  precipitation: 1.5,
  weather_code: 61,
  ...values,
});

/** The option's parts a test reads (echarts' option type is open). */
type Drawn = {
  xAxis: Array<{ data: string[]; boundaryGap: boolean; show?: boolean }> | { data: string[]; boundaryGap: boolean };
  yAxis: Array<{ name: string; min?: number; max?: number; position?: string; splitLine?: { show: boolean } }> | { name: string };
  series: Array<{ name: string; type: string; data: Array<number | null>; xAxisIndex?: number; yAxisIndex?: number; stack?: string; z?: number; color?: string }>;
  grid: { right: number; bottom: number };
  legend: Array<{ data: string[] }> | { data?: string[] };
};

describe('how a chart describes itself', () => {
  it('leaves it to the screen, whatever its kind: ECharts writes no label of its own over the screen’s', () => {
    for (const kind of CHART_TYPES) {
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 768, height: 400 });
      // ECharts writes its description on the element it draws in (none when drawn without a page).
      const written = new Map<string, string>();
      (chart.getZr() as { dom?: unknown }).dom = { setAttribute: (name: string, value: string) => written.set(name, value) };
      chart.setOption(chartOption(model, kind));
      expect(written.get('aria-label'), kind).toBeUndefined();
      chart.dispose();
    }
  });
});

describe('which charts take the weather', () => {
  it('weeks in a row (their Mondays) do; anything else does not', () => {
    expect(isWeekly(model.categories)).toBe(true);
    expect(isWeekly(['2026-11-02'])).toBe(true);
    expect(isWeekly([])).toBe(false);
    // A Tuesday, a week missing, treatments, a date that does not exist.
    expect(isWeekly(['2026-11-03', '2026-11-10'])).toBe(false);
    expect(isWeekly(['2026-11-02', '2026-11-16'])).toBe(false);
    expect(isWeekly(['Spinosad · 2026-11-04'])).toBe(false);
    expect(isWeekly(['2026-02-30'])).toBe(false);
  });

  it('a weekly chart’s days are its weeks’, Monday to Sunday, seven per week', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 60 }), (offset, weeks) => {
        const categories = weeksOf({ start: addDaysTo('2020-01-06', 7 * offset), end: addDaysTo('2020-01-06', 7 * (offset + weeks - 1)) });
        const days = daysOfWeeks(categories);
        expect(days).toHaveLength(7 * categories.length);
        // Day 7k is week k's Monday: the week's band holds its own seven days.
        categories.forEach((monday, index) => expect(days[7 * index]).toBe(monday));
        expect(days.at(-1)).toBe(addDaysTo(categories.at(-1)!, 6));
      }),
    );
  });
});

describe('the days the weather is asked for', () => {
  it('are the weeks shown, narrowed to the report’s own dates when it has them', () => {
    expect(weatherPeriodOf(model.categories, null)).toEqual({ start: '2026-11-02', end: '2026-11-15' });
    expect(weatherPeriodOf(model.categories, { start: '2026-11-04', end: '2026-11-12' })).toEqual({ start: '2026-11-04', end: '2026-11-12' });
    // Dates that miss the weeks shown (data kept from before a move): the weeks.
    expect(weatherPeriodOf(model.categories, { start: '2026-12-01', end: '2026-12-10' })).toEqual({ start: '2026-11-02', end: '2026-11-15' });
    expect(weatherPeriodOf([], null)).toBeNull();
  });

  it('are clipped to what weather_range answers, and say so', () => {
    const today = '2026-11-20';
    expect(clipWeatherPeriod({ start: '2026-11-02', end: '2026-11-15' }, today)).toEqual({ period: { start: '2026-11-02', end: '2026-11-15' }, notes: [] });
    const lastForecast = addDaysTo(today, WEATHER_DAYS_AHEAD);
    expect(clipWeatherPeriod({ start: '2026-11-16', end: '2026-12-27' }, today)).toEqual({ period: { start: '2026-11-16', end: lastForecast }, notes: [overlayNotes.afterForecast(lastForecast)] });
    expect(clipWeatherPeriod({ start: '2024-01-01', end: '2026-11-15' }, today)).toEqual({ period: { start: '2025-11-15', end: '2026-11-15' }, notes: [overlayNotes.tooLong('2025-11-15')] });
    expect(clipWeatherPeriod({ start: '1939-12-25', end: '1940-01-07' }, today)).toEqual({ period: { start: '1940-01-01', end: '1940-01-07' }, notes: [overlayNotes.beforeArchive] });
    expect(clipWeatherPeriod({ start: '2027-01-04', end: '2027-01-17' }, today)).toEqual({ period: null, notes: [overlayNotes.noneKnown(today)] });
  });

  it('once clipped, are always a range the server takes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -40_000, max: 2_000 }), fc.integer({ min: 0, max: 3_000 }), (from, length) => {
        const today = '2026-11-20';
        const start = addDaysTo(today, from);
        const { period } = clipWeatherPeriod({ start, end: addDaysTo(start, length) }, today);
        if (period) {
          expect(weatherRangeProblem(period.start, period.end, today)).toBeNull();
          expect(daysBetween(period.start, period.end)).toBeLessThanOrEqual(WEATHER_RANGE_MAX_DAYS);
        } else expect(weatherRangeProblem(start, addDaysTo(start, length), today)).toBe(length + 1 > WEATHER_RANGE_MAX_DAYS ? weatherMessages.rangeTooLong : weatherMessages.outsideKnownDays(today));
      }),
    );
  });
});

describe('the weather laid over a weekly trend', () => {
  const overlay = weatherOverlayOf(model.categories, [day('2026-11-04'), day('2026-11-05', { precipitation: 12.5, humidity_mean: null }), day('2026-12-01')]);

  it('has a value per day of the weeks: the day’s answer, null where none was asked or known', () => {
    expect(overlay.days).toHaveLength(14);
    expect(overlay.values.high).toEqual([null, null, 14, 14, null, null, null, null, null, null, null, null, null, null]);
    expect(overlay.values.rain.slice(2, 4)).toEqual([1.5, 12.5]);
    expect(overlay.values.humidity.slice(2, 4)).toEqual([80, null]);
  });

  it('draws the report’s series as before and the weather on its own axes, named in the legend', () => {
    const plain = chartOption(model, 'line') as Drawn;
    const drawn = chartOption(model, 'line', overlay) as Drawn;
    expect(Array.isArray(plain.xAxis)).toBe(false);

    // The report's own: first, on the first axes, unchanged values.
    expect(drawn.series.slice(0, 2)).toEqual(plain.series);
    expect(drawn.series.slice(0, 2).every((series) => series.xAxisIndex === undefined && series.yAxisIndex === undefined)).toBe(true);
    expect((drawn.yAxis as Array<{ name: string }>)[0]).toEqual(plain.yAxis);

    // The weather's: four series over the days, under the report's series, on °C, % and mm axes at the right.
    const weather = drawn.series.slice(2);
    expect(weather.map((series) => [series.name, series.type, series.xAxisIndex, series.yAxisIndex])).toEqual([
      [WEATHER_SERIES_NAMES.high, 'line', 1, 1],
      [WEATHER_SERIES_NAMES.low, 'line', 1, 1],
      [WEATHER_SERIES_NAMES.humidity, 'line', 1, 2],
      [WEATHER_SERIES_NAMES.rain, 'bar', 1, 3],
    ]);
    expect(weather.map((series) => series.data)).toEqual([overlay.values.high, overlay.values.low, overlay.values.humidity, overlay.values.rain]);
    expect(weather.every((series) => series.z === 1 && series.stack === undefined)).toBe(true);
    expect(weather.map((series) => series.color)).toEqual([WEATHER_COLOURS.high, WEATHER_COLOURS.low, WEATHER_COLOURS.humidity, WEATHER_COLOURS.rain]);
    const axes = drawn.yAxis as Array<{ name: string; min?: number; max?: number; position?: string; splitLine?: { show: boolean } }>;
    expect(axes.slice(1).map((axis) => [axis.name, axis.position, axis.splitLine?.show])).toEqual([
      ['°C', 'right', false],
      ['%', 'right', false],
      ['mm', 'right', false],
    ]);
    expect(axes[2]).toMatchObject({ min: 0, max: 100 });
    expect(axes[3]).toMatchObject({ min: 0, max: 25 });
    expect(drawn.grid.right).toBeGreaterThan(plain.grid.right);
    // The legend names them, in a row of their own under the report's series.
    expect((drawn.legend as Array<{ data: string[] }>).map((legend) => legend.data)).toEqual([model.series.map((series) => series.name), Object.values(WEATHER_SERIES_NAMES)]);
    expect(drawn.grid.bottom).toBeGreaterThan(plain.grid.bottom);

    // The days on a hidden axis; the weeks as bands holding them, so a line's weeks sit at their bands' middles.
    const [weeks, days] = drawn.xAxis as Array<{ data: string[]; boundaryGap: boolean; show?: boolean }>;
    expect(weeks).toMatchObject({ data: model.categories, boundaryGap: true });
    expect(days).toMatchObject({ data: overlay.days, boundaryGap: true, show: false });
  });

  it('leaves a stacked chart’s stack to the report’s series, and takes no weather over a heat map', () => {
    const stacked = chartOption(model, 'stacked_bar', overlay) as Drawn;
    expect(stacked.series.map((series) => series.stack)).toEqual(['all', 'all', undefined, undefined, undefined, undefined]);
    expect(chartOption(model, 'heatmap', overlay)).toEqual(chartOption(model, 'heatmap'));
    // No days (an empty chart): nothing laid over it.
    expect(chartOption(model, 'bar', { days: [], values: { high: [], low: [], humidity: [], rain: [] } })).toEqual(chartOption(model, 'bar'));
  });

  it('scales rain so that the wettest day reaches half the chart at most', () => {
    expect(rainAxisMax([])).toBe(10);
    expect(rainAxisMax([null, 0.4, 3])).toBe(10);
    expect(rainAxisMax([12.5])).toBe(25);
    expect(rainAxisMax([31])).toBe(65);
  });
});
