/**
 * A report's chart with its table under it (issue 15): echarts, loaded with the reports' routes only
 * (never in the first load), drawing the one chart model (chart-model.ts) as a line, bar, stacked bar,
 * area or heat map. The table is the chart's data for screen readers, printing and anyone who wants the
 * numbers; CSV and PNG are downloaded from the same model and the drawn chart. Printing hides the
 * controls (reports.css).
 */
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { ChartType } from '../../../common/messages/reports';
import { type ChartModel, csvOf, fileNameOf, tableOf } from '../../../common/charts/chart-model';
import './reports.css';

echarts.use([LineChart, BarChart, HeatmapChart, GridComponent, TooltipComponent, LegendComponent, VisualMapComponent, AriaComponent, CanvasRenderer]);

export const CHART_TYPE_LABELS: Record<ChartType, string> = { line: 'Line', bar: 'Bars', stacked_bar: 'Stacked bars', area: 'Area', heatmap: 'Heat map' };

/** The echarts option for a model drawn as `kind`. */
export function chartOption(model: ChartModel, kind: ChartType): echarts.EChartsCoreOption {
  const common = {
    aria: { enabled: true },
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
  return {
    ...common,
    legend: { type: 'scroll', bottom: 0 },
    grid: { left: 48, right: 24, top: 40, bottom: 64 },
    xAxis: { type: 'category', data: model.categories, boundaryGap: kind !== 'line' && kind !== 'area' },
    yAxis: { type: 'value', name: model.unit, minInterval: 1 },
    series: model.series.map((series) => ({
      name: series.name,
      type: kind === 'line' || kind === 'area' ? 'line' : 'bar',
      data: series.values,
      ...(kind === 'stacked_bar' || kind === 'area' ? { stack: 'all' } : {}),
      ...(kind === 'area' ? { areaStyle: {} } : {}),
    })),
  };
}

function download(href: string, fileName: string) {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

export function ReportChart({ model, kind, title }: { model: ChartModel; kind: ChartType; title: string }) {
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

  useEffect(() => {
    chart.current?.setOption(chartOption(model, kind), { notMerge: true });
  }, [model, kind]);

  const table = tableOf(model);
  const empty = model.series.length === 0 || model.categories.length === 0;
  return (
    <section className="report-chart" aria-label={title}>
      <div className="report-actions no-print">
        <button type="button" className="button" onClick={() => download(URL.createObjectURL(new Blob([csvOf(model)], { type: 'text/csv;charset=utf-8' })), fileNameOf(title, 'csv'))}>
          Download CSV
        </button>
        <button type="button" className="button" disabled={empty} onClick={() => chart.current && download(chart.current.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }), fileNameOf(title, 'png'))}>
          Download PNG
        </button>
        <button type="button" className="button" onClick={() => window.print()}>
          Print
        </button>
      </div>
      {empty ? <p className="muted">Nothing recorded in this period.</p> : null}
      <div ref={holder} className="report-canvas" role="img" aria-label={`${title}: chart of ${model.unit}; the table below has its numbers.`} hidden={empty} />
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
    </section>
  );
}
