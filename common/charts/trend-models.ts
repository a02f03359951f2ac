/**
 * The trend calls' answers as the one chart model (chart-model.ts) the screens draw, table and save:
 * weeks along the x axis (their Mondays), a series per problem, room or severity, or, for gutters, a
 * row of the heat map per room, grid and row.
 */
import type { FieldResponsesReportAnswer, GutterTrendsAnswer, ProblemTrendsAnswer, TrendsReportGraphAnswer, TrendsWithSeverityAnswer } from '../schemas/reports';
import type { ChartModel } from './chart-model';

/** The report types the builder offers, each read from one trend call. */
export const REPORT_TYPES = {
  problem_trends: { label: 'Problems by type', call: '/get_problem_trends' },
  trends_report_graph: { label: 'Problems by room', call: '/get_trends_report_graph' },
  trends_with_severity: { label: 'Problems by severity', call: '/get_trends_with_severity' },
  gutter_trends: { label: 'Rows of a room (heat map)', call: '/get_gutter_trends' },
  field_responses_report: { label: 'A form field over time (e.g. a sticky-trap count)', call: '/get_field_responses_report' },
} as const;

export type ReportType = keyof typeof REPORT_TYPES;
export const REPORT_TYPE_NAMES = Object.keys(REPORT_TYPES) as ReportType[];

const week = { categoryLabel: 'Week' };
const countsOf = (weeks: string[], points: ReadonlyArray<{ week: string; count: number }>) => {
  const byWeek = new Map(points.map((point) => [point.week, point.count]));
  return weeks.map((monday) => byWeek.get(monday) ?? 0);
};

export function problemTrendsModel(answer: Pick<ProblemTrendsAnswer, 'weeks' | 'trends'>): ChartModel {
  return { ...week, unit: 'problems', categories: answer.weeks, series: answer.trends.map((trend) => ({ name: trend.problem_type, values: countsOf(answer.weeks, trend.points) })) };
}

export function roomTrendsModel(answer: Pick<TrendsReportGraphAnswer, 'weeks' | 'rooms'>): ChartModel {
  return { ...week, unit: 'problems', categories: answer.weeks, series: answer.rooms.map((room) => ({ name: room.Name, values: countsOf(answer.weeks, room.points) })) };
}

export function severityModel(answer: Pick<TrendsWithSeverityAnswer, 'weeks' | 'totals'>): ChartModel {
  const byWeek = new Map(answer.totals.map((point) => [point.week, point.severities]));
  return {
    ...week,
    unit: 'problems',
    categories: answer.weeks,
    series: (['1', '2', '3', '4', '5'] as const).map((severity) => ({ name: `Severity ${severity}`, values: answer.weeks.map((monday) => byWeek.get(monday)?.[severity] ?? 0) })),
  };
}

export function gutterModel(answer: Pick<GutterTrendsAnswer, 'weeks' | 'data'>): ChartModel {
  return {
    ...week,
    unit: 'problems',
    categories: answer.weeks,
    series: answer.data.flatMap((room) => room.grids.flatMap((grid) => grid.rows.map((row) => ({ name: `${room.Name} · ${grid.Name} · row ${row.Y}`, values: countsOf(answer.weeks, row.points) })))),
  };
}

/** A Number field: its weekly sum (a trap's count); a choice field: how many chose each answer. */
export function fieldModel(answer: Pick<FieldResponsesReportAnswer, 'weeks' | 'field' | 'grouped_data'>): ChartModel {
  const byWeek = new Map(answer.grouped_data.map((point) => [point.week, point]));
  if (answer.field.kind === 'number') {
    return { ...week, unit: answer.field.FieldName, categories: answer.weeks, series: [{ name: `${answer.field.FieldName} (sum)`, values: answer.weeks.map((monday) => byWeek.get(monday)?.sum ?? 0) }] };
  }
  if (answer.field.kind === 'choice') {
    const names = [...new Set(answer.grouped_data.flatMap((point) => point.answers.map((each) => each.answer)))];
    return {
      ...week,
      unit: 'answers',
      categories: answer.weeks,
      series: names.map((name) => ({ name, values: answer.weeks.map((monday) => byWeek.get(monday)?.answers.find((each) => each.answer === name)?.count ?? 0) })),
    };
  }
  return { ...week, unit: 'answers', categories: answer.weeks, series: [{ name: answer.field.FieldName, values: answer.weeks.map((monday) => byWeek.get(monday)?.count ?? 0) }] };
}
