/**
 * The reports' texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. Also the
 * app's own words inside a chart model (common/charts: "Week", "problems", "Severity 3", "Treated
 * boxes, before"…) in the reader's language, for drawing: the model saved keeps them in English, as
 * every tablet and the server read it; names a grower typed (problems, rooms, fields) stay as typed.
 */
import type { ParseKeys } from 'i18next';
import type { ChartModel } from '../../../common/charts/chart-model';
import type { ReportType } from '../../../common/charts/trend-models';
import { WEATHER_SERIES_NAMES, type WeatherSeriesKey } from '../../../common/charts/weather-overlay';
import { CHART_TYPES, type ChartType } from '../../../common/messages/reports';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const reportsTexts = registerTexts('reports', en);

/** A report type's name ("Problems by room") in the reader's language. */
export const reportTypeName = (type: ReportType): string => i18next.t(`reportTypes.${type}`, { ns: reportsTexts });

/** The chart types' names, for the builder's choice. */
export const chartTypeLabels = (): Record<ChartType, string> => Object.fromEntries(CHART_TYPES.map((type) => [type, i18next.t(`chartTypes.${type}`, { ns: reportsTexts })])) as Record<ChartType, string>;

/** The weather series' legend names (weather-overlay.ts WEATHER_SERIES_NAMES) in the reader's language, by their English name. */
export function weatherSeriesNames(): ReadonlyMap<string, string> {
  return new Map((Object.keys(WEATHER_SERIES_NAMES) as WeatherSeriesKey[]).map((key) => [WEATHER_SERIES_NAMES[key], i18next.t(`weather.series.${key}`, { ns: reportsTexts })]));
}

/** One of the reports' texts in the reader's language. */
const t = (key: ParseKeys<typeof reportsTexts>, values: Record<string, unknown> = {}): string => i18next.t(key, { ...values, ns: reportsTexts });

const CATEGORY_LABELS: Readonly<Record<string, () => string>> = { Week: () => t('chart.week'), Treatment: () => t('chart.treatment') };

const UNITS: Readonly<Record<string, () => string>> = {
  count: () => t('chart.units.count'),
  problems: () => t('chart.units.problems'),
  answers: () => t('chart.units.answers'),
  'problems per box': () => t('chart.units.problemsPerBox'),
  'problems (running total)': () => t('chart.units.runningTotal'),
  'responses and answers': () => t('chart.units.responsesAndAnswers'),
};

const EFFECTIVENESS: Readonly<Record<string, () => string>> = {
  'Treated boxes, before': () => t('chart.series.treatedBefore'),
  'Treated boxes, after': () => t('chart.series.treatedAfter'),
  'Untreated boxes, before': () => t('chart.series.untreatedBefore'),
  'Untreated boxes, after': () => t('chart.series.untreatedAfter'),
};

const PROBLEM_OF = /^problems \((.+)\)$/;
const SEVERITY = /^Severity ([1-5])$/;
const GUTTER_ROW = /^(.+) · row (\S+)$/;
const SUM = /^(.+) \(sum\)$/;
const ANSWERS = /^(.+) \(answers\)$/;

/**
 * A chart model with the app's words in the reader's language, to draw and table: which series names
 * are the app's is known from the model's unit, as trend-models.ts names them (a problem, room or
 * field a grower named "Total" stays as typed in a report whose "Total" is not the app's).
 */
export function shownModel(model: ChartModel): ChartModel {
  if (i18next.resolvedLanguage === 'en' || !i18next.resolvedLanguage) return model;
  const { unit } = model;
  const problemOf = unit === 'problems (running total)' ? null : PROBLEM_OF.exec(unit);
  const seriesName = (name: string, index: number): string => {
    if (unit === 'problems') {
      const severity = SEVERITY.exec(name);
      if (severity) return t('chart.series.severity', { severity: severity[1] });
      const row = GUTTER_ROW.exec(name);
      if (row) return t('chart.series.row', { place: row[1], row: row[2] });
      return name;
    }
    if (problemOf) return index === 0 && name === 'Total' ? t('chart.series.total') : name;
    if (unit === 'problems per box') return EFFECTIVENESS[name]?.() ?? name;
    if (unit === 'responses and answers') {
      if (index === 0 && name === 'Responses') return t('chart.series.responses');
      const sum = SUM.exec(name);
      if (sum) return t('chart.series.sum', { name: sum[1] });
      const answers = ANSWERS.exec(name);
      return answers ? t('chart.series.answers', { name: answers[1] }) : name;
    }
    // A Number field's report: its unit is the field's name, its one series "<field> (sum)".
    return name === `${unit} (sum)` ? t('chart.series.sum', { name: unit }) : name;
  };
  return {
    ...model,
    categoryLabel: CATEGORY_LABELS[model.categoryLabel]?.() ?? model.categoryLabel,
    unit: UNITS[unit]?.() ?? (problemOf ? t('chart.units.problemsOf', { problem: problemOf[1] }) : unit),
    series: model.series.map((series, index) => ({ ...series, name: seriesName(series.name, index) })),
  };
}
