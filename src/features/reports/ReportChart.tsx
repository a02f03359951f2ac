/**
 * A report's chart with its table under it (issue 15): echarts, loaded with the reports' routes only
 * (never in the first load), drawing the one chart model (chart-model.ts) as a line, bar, stacked bar,
 * area or heat map. The table is the chart's data for screen readers, printing and anyone who wants the
 * numbers; CSV and PNG are downloaded from the same model and the drawn chart. Printing hides the
 * controls (reports.css).
 *
 * Given `weather` (a signed-in screen: the builder's preview, a saved report), a weekly trend offers
 * its outdoor weather as an overlay (report-weather.ts); the shared page, without a user, has none.
 */
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartType } from '../../../common/messages/reports';
import type { ReportPeriod } from '../../../common/schemas/report-dates';
import { type ChartModel, csvOf, fileNameOf, tableOf } from '../../../common/charts/chart-model';
import { chartOption } from '../../../common/charts/chart-option';
import { type ReportWeather, useReportWeather } from './report-weather';
import { ReportWeatherToggle, WeatherTable } from './ReportWeatherToggle';
import { reportsTexts, shownModel, weatherSeriesNames } from './texts';
import './reports.css';

echarts.use([LineChart, BarChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, CanvasRenderer]);

type Named = { name?: unknown; data?: unknown };

/** The option with the weather's series and legend named in the reader's language (chart-option.ts names them in English). */
function withWeatherNames(option: EChartsCoreOption): EChartsCoreOption {
  const names = weatherSeriesNames();
  const rename = (name: unknown) => (typeof name === 'string' ? (names.get(name) ?? name) : name);
  const { series, legend } = option as { series?: unknown; legend?: unknown };
  return {
    ...option,
    series: Array.isArray(series) ? series.map((each: Named & { xAxisIndex?: unknown }) => (each.xAxisIndex === 1 ? { ...each, name: rename(each.name) } : each)) : series,
    // The weather's own legend is the second (chart-option.ts); the report's series keep their names.
    legend: Array.isArray(legend) ? legend.map((each: Named, index) => (index === 1 && Array.isArray(each.data) ? { ...each, data: each.data.map(rename) } : each)) : legend,
  };
}

/** The names of the weather's series an option draws (on the days' axis, chart-option.ts). */
function weatherDrawnIn(option: EChartsCoreOption): string[] {
  const { series } = option as { series?: unknown };
  return Array.isArray(series) ? series.flatMap((each: Named & { xAxisIndex?: unknown }) => (each.xAxisIndex === 1 && typeof each.name === 'string' ? [each.name] : [])) : [];
}

function download(href: string, fileName: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/** The overlay's choice and the report's own dates (none: its weeks'), as the screen holding the chart keeps them. */
export interface WeatherChoice {
  period: ReportPeriod | null;
  on: boolean;
  setOn: (on: boolean) => void;
}

interface ChartProps {
  model: ChartModel;
  kind: ChartType;
  title: string;
}

export function ReportChart({ weather, ...props }: ChartProps & { weather?: WeatherChoice }) {
  return weather ? <ChartWithWeather {...props} choice={weather} /> : <ChartBody {...props} weather={null} />;
}

function ChartWithWeather({ choice, ...props }: ChartProps & { choice: WeatherChoice }) {
  const weather = useReportWeather({ model: props.model, kind: props.kind, ...choice });
  return <ChartBody {...props} weather={weather} />;
}

function ChartBody({ model: saved, kind, title, weather }: ChartProps & { weather: ReportWeather | null }) {
  const { t, i18n } = useTranslation(reportsTexts);
  // The app's words of the model (its labels, unit and own series names) in the reader's language.
  const language = i18n.resolvedLanguage;
  const model = useMemo(() => (language ? shownModel(saved) : saved), [saved, language]);
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!holder.current) return;
    const drawn = echarts.init(holder.current, undefined, { renderer: 'canvas' });
    chart.current = drawn;
    const resize = () => drawn.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      drawn.dispose();
      chart.current = null;
    };
  }, []);

  const overlay = weather?.overlay ?? null;
  const option = useMemo(() => withWeatherNames(chartOption(model, kind, overlay)), [model, kind, overlay]);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  // What a screen reader hears of the chart: the series drawn, the weather's when it is (the table has the numbers).
  const drawn = [...model.series.map((series) => series.name), ...weatherDrawnIn(option)];

  const table = tableOf(model);
  const empty = model.series.length === 0 || model.categories.length === 0;
  return (
    <section className="report-chart" aria-label={title}>
      <div className="report-actions no-print">
        <button type="button" className="button" onClick={() => download(URL.createObjectURL(new Blob([csvOf(model)], { type: 'text/csv;charset=utf-8' })), fileNameOf(title, 'csv'))}>
          {t('chart.downloadCsv')}
        </button>
        <button type="button" className="button" disabled={empty} onClick={() => chart.current && download(chart.current.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }), fileNameOf(title, 'png'))}>
          {t('chart.downloadPng')}
        </button>
        <button type="button" className="button" onClick={() => window.print()}>
          {t('chart.print')}
        </button>
      </div>
      {weather && !empty && <ReportWeatherToggle weather={weather} />}
      {empty ? <p className="muted">{t('chart.nothing')}</p> : null}
      <div ref={holder} className="report-canvas" role="img" aria-label={t('chart.canvas', { title, unit: model.unit, series: drawn.join(', ') })} hidden={empty} />
      <div className="report-table-scroll">
        <table className="report-table">
          <caption>{title}</caption>
          <thead>
            <tr>
              {table.header.map((cell, index) => (
                <th key={index} scope="col">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={String(row[0])}>
                {row.map((cell, index) =>
                  index === 0 ? (
                    <th key={index} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={index}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {weather && !empty && <WeatherTable weather={weather} />}
    </section>
  );
}
