/**
 * One shape for every report's chart and table (issue 15): categories along the x axis (the Mondays of
 * the weeks, or a room's rows) and series of values, one value per category. A line, bar, stacked bar
 * or area chart draws each series; a heat map draws the series as rows (a grid's rows, gutter by
 * gutter) and the categories as columns. The table under a chart, its CSV and a saved report's data
 * (save_report's "report data array") are the same model, so a saved report shows offline exactly what
 * was saved.
 */

export interface ChartSeries {
  name: string;
  values: number[];
}

export interface ChartModel {
  /** What the categories are: the header of the table's first column. */
  categoryLabel: string;
  categories: string[];
  series: ChartSeries[];
  /** What a value counts ("problems", "thrips per trap"). */
  unit: string;
}

/** The table under a chart: a row per category, a column per series. */
export function tableOf(model: ChartModel): { header: string[]; rows: Array<Array<string | number>> } {
  return {
    header: [model.categoryLabel, ...model.series.map((series) => series.name)],
    rows: model.categories.map((category, index) => [category, ...model.series.map((series) => series.values[index] ?? 0)]),
  };
}

/**
 * A cell as CSV text (RFC 4180): quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an
 * apostrophe: a problem or field name typed by a grower must not become a formula in a manager's
 * spreadsheet. Numbers are written as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The model's table as CSV, lines ended by CRLF as RFC 4180 says. */
export function csvOf(model: ChartModel): string {
  const { header, rows } = tableOf(model);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A file name from a report's name: letters, digits and dashes. */
export function fileNameOf(name: string, extension: 'csv' | 'png'): string {
  const base = name.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-').toLowerCase() || 'report';
  return `${base.slice(0, 80)}.${extension}`;
}

/**
 * A saved report's data (save_report's "report data array"): one point per category and series, in
 * the table's order. Long rather than a row object per category: the database keeps an object's keys
 * in its own order, so columns would come back reordered.
 */
export interface ReportPoint {
  category: string;
  series: string;
  value: number;
}

export function reportDataOf(model: ChartModel): ReportPoint[] {
  return model.categories.flatMap((category, index) => model.series.map((series) => ({ category, series: series.name, value: series.values[index] ?? 0 })));
}

const isPoint = (value: unknown): value is ReportPoint =>
  typeof value === 'object' && value !== null && typeof (value as ReportPoint).category === 'string' && typeof (value as ReportPoint).series === 'string' && typeof (value as ReportPoint).value === 'number';

/** A saved report's data drawn again; anything that is not a point (an older or another client's shape) is left out. */
export function modelOfReportData(data: readonly unknown[], labels: { categoryLabel: string; unit: string }): ChartModel {
  const categories: string[] = [];
  const series = new Map<string, Map<string, number>>();
  for (const point of data.filter(isPoint)) {
    if (!categories.includes(point.category)) categories.push(point.category);
    if (!series.has(point.series)) series.set(point.series, new Map());
    series.get(point.series)!.set(point.category, point.value);
  }
  return {
    ...labels,
    categories,
    series: [...series].map(([name, values]) => ({ name, values: categories.map((category) => values.get(category) ?? 0) })),
  };
}
