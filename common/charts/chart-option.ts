/**
 * The echarts option of a report's chart (issue 15): the chart model (chart-model.ts) drawn as a line,
 * bar, stacked bar, area or heat map, and, over a weekly trend, the outdoor weather (issue 18,
 * weather-overlay.ts) on axes of its own. Plain data, so it is tested without a page.
 */
import type { EChartsCoreOption } from 'echarts/core';
import type { ChartType } from '../messages/reports';
import type { ChartModel } from './chart-model';
import { WEATHER_SERIES_NAMES, type WeatherOverlay } from './weather-overlay';

/**
 * The weather's colours, apart from echarts' palette, which the report's own series keep; thin dashed
 * and dotted lines without symbols and pale bars set the weather apart as much as its colours do.
 */
export const WEATHER_COLOURS = { high: '#b45309', low: '#475569', humidity: '#0f766e', rain: '#94a3b8' } as const;

/** The rain axis's text: darker than its bars, to be read on white. */
const RAIN_AXIS_TEXT = '#64748b';

/** Room on the right for the weather's three axes (°C, %, mm), each AXIS_GAP px beside the last. */
const AXIS_GAP = 46;

/** A rain axis tall enough that a day's bar reaches at most half the chart: rain stands under the report, not over it. */
export function rainAxisMax(rain: ReadonlyArray<number | null>): number {
  const most = Math.max(0, ...rain.map((value) => value ?? 0));
  return Math.max(10, Math.ceil((most * 2) / 5) * 5);
}

/** The weather's axes and series, on the second x axis (the days) and y axes 1 to 3. */
function weatherParts(overlay: WeatherOverlay) {
  const side = (index: number, name: string, colour: string) => ({
    type: 'value',
    name,
    position: 'right',
    offset: index * AXIS_GAP,
    splitLine: { show: false },
    axisLine: { show: true, lineStyle: { color: colour } },
    axisLabel: { color: colour, fontSize: 12 },
    nameTextStyle: { color: colour, fontSize: 12 },
  });
  const line = (key: 'high' | 'low' | 'humidity', yAxisIndex: number, type: 'dashed' | 'dotted') => ({
    name: WEATHER_SERIES_NAMES[key],
    type: 'line',
    xAxisIndex: 1,
    yAxisIndex,
    data: overlay.values[key],
    color: WEATHER_COLOURS[key],
    lineStyle: { width: 1.5, type },
    symbol: 'none',
    // Drawn under the report's own series (z 2), which stay what the chart is about.
    z: 1,
  });
  return {
    yAxes: [
      { ...side(0, '°C', WEATHER_COLOURS.high), scale: true },
      { ...side(1, '%', WEATHER_COLOURS.humidity), min: 0, max: 100 },
      { ...side(2, 'mm', RAIN_AXIS_TEXT), min: 0, max: rainAxisMax(overlay.values.rain) },
    ],
    series: [
      line('high', 1, 'dashed'),
      line('low', 1, 'dashed'),
      line('humidity', 2, 'dotted'),
      { name: WEATHER_SERIES_NAMES.rain, type: 'bar', xAxisIndex: 1, yAxisIndex: 3, data: overlay.values.rain, color: WEATHER_COLOURS.rain, itemStyle: { opacity: 0.6 }, barCategoryGap: '20%', z: 1 },
    ],
  };
}

/**
 * The echarts option for a model drawn as `kind`, with `overlay` (a weekly trend's weather) laid over
 * it. A heat map takes no overlay: its rows are not values on an axis.
 */
export function chartOption(model: ChartModel, kind: ChartType, overlay: WeatherOverlay | null = null): EChartsCoreOption {
  const common = {
    // The screen labels the chart itself (ReportChart, pointing to the table of its numbers). ECharts'
    // own description would replace that label with each value's category index beside it and a
    // stacked chart's inner sums, "NaN" among them.
    aria: { enabled: false },
    animation: false,
    tooltip: { trigger: kind === 'heatmap' ? 'item' : 'axis' },
    textStyle: { fontSize: 14 },
  };
  if (kind === 'heatmap') {
    const data = model.series.flatMap((series, row) => model.categories.map((_, column) => [column, row, series.values[column] ?? 0]));
    const max = Math.max(1, ...data.map((cell) => cell[2] ?? 0));
    return {
      ...common,
      grid: { left: 120, right: 24, top: 16, bottom: 80 },
      xAxis: { type: 'category', data: model.categories },
      yAxis: { type: 'category', data: model.series.map((series) => series.name) },
      visualMap: { min: 0, max, calculable: false, orient: 'horizontal', left: 'center', bottom: 8, inRange: { color: ['#f3f7f2', '#f2c14e', '#c2410c'] } },
      series: [{ type: 'heatmap', name: model.unit, data, label: { show: model.categories.length <= 16 } }],
    };
  }
  const weather = overlay && overlay.days.length > 0 ? { days: overlay.days, ...weatherParts(overlay) } : null;
  const categoryAxis = {
    type: 'category',
    data: model.categories,
    // With the weather, every week is a band holding its seven days (weather-overlay.ts), lines included.
    boundaryGap: weather !== null || (kind !== 'line' && kind !== 'area'),
  };
  const valueAxis = { type: 'value', name: model.unit, minInterval: 1 };
  const own = model.series.map((series) => ({
    name: series.name,
    type: kind === 'line' || kind === 'area' ? 'line' : 'bar',
    data: series.values,
    ...(kind === 'stacked_bar' || kind === 'area' ? { stack: 'all' } : {}),
    ...(kind === 'area' ? { areaStyle: {} } : {}),
  }));
  if (!weather) {
    return { ...common, legend: { type: 'scroll', bottom: 0 }, grid: { left: 48, right: 24, top: 40, bottom: 64 }, xAxis: categoryAxis, yAxis: valueAxis, series: own };
  }
  return {
    ...common,
    // Two legends: the report's own series (scrolling when there are many) above the weather's four,
    // which always show whole, so each weather series is named at 768 px.
    legend: [
      { type: 'scroll', bottom: 30, data: own.map((series) => series.name) },
      { type: 'plain', bottom: 0, data: weather.series.map((series) => series.name), itemGap: 8, textStyle: { fontSize: 13 } },
    ],
    grid: { left: 48, right: 24 + 2 * AXIS_GAP + 40, top: 40, bottom: 96 },
    xAxis: [categoryAxis, { type: 'category', data: weather.days, boundaryGap: true, show: false }],
    yAxis: [valueAxis, ...weather.yAxes],
    series: [...own, ...weather.series],
  };
}
