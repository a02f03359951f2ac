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
