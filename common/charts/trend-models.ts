/**
 * The trend calls' answers as the one chart model (chart-model.ts) the screens draw, table and save:
 * weeks along the x axis (their Mondays), a series per problem, room or severity, or, for gutters, a
 * row of the heat map per room, grid and row; treatments along the x axis for their effectiveness.
 *
 * Series names (and the treatments' categories) are unique within a model: a saved report's data is
 * kept as points named by category and series (chart-model.ts `reportDataOf`), so two rooms of the
 * same name would otherwise become one series when the report is drawn again.
 */
import type {
  CumulativeReportGraphAnswer,
  FieldResponsesReportAnswer,
  FieldWeek,
  GutterTrendsAnswer,
  ProblemTrendsAnswer,
  SingleProblemTrendAnswer,
  SpecificTrendsAnswer,
  TreatmentEffectivenessAnswer,
  TrendsReportGraphAnswer,
  TrendsWithSeverityAnswer,
} from '../schemas/reports';
import { todayUtc } from '../schemas/report-dates';
import type { ChartModel, ChartSeries } from './chart-model';

/**
 * Which rooms a report's call takes: any number (none: every room), at least one (the gutter call
 * needs one; the cumulative call is asked once per room), at most one (specific trends' `room_id`),
 * or none (a form field's report is the company's).
 */
export type RoomChoice = 'any' | 'at_least_one' | 'at_most_one' | 'none';

/** The report types the builder offers, each read from one trend call (the type's name is the call's, without `get_`). */
export const REPORT_TYPES = {
  problem_trends: { label: 'Problems by type', call: '/get_problem_trends', rooms: 'any' },
  trends_report_graph: { label: 'Problems by room', call: '/get_trends_report_graph', rooms: 'any' },
  trends_cumulative_report_graph: { label: 'Running total of problems by room', call: '/get_trends_cumulative_report_graph', rooms: 'at_least_one' },
  trends_with_severity: { label: 'Problems by severity', call: '/get_trends_with_severity', rooms: 'any' },
  single_problem_trend: { label: 'One problem over time', call: '/get_single_problem_trend', rooms: 'any' },
  gutter_trends: { label: 'Rows of a room (heat map)', call: '/get_gutter_trends', rooms: 'at_least_one' },
  treatment_effectiveness_report: { label: 'Treatment effectiveness', call: '/get_treatment_effectiveness_report', rooms: 'any' },
  field_responses_report: { label: 'A form field over time (e.g. a sticky-trap count)', call: '/get_field_responses_report', rooms: 'none' },
  specific_trends: { label: 'A batch’s form answers (specific trends)', call: '/get_specific_trends', rooms: 'at_most_one' },
} as const satisfies Record<string, { label: string; call: string; rooms: RoomChoice }>;

export type ReportType = keyof typeof REPORT_TYPES;
export const REPORT_TYPE_NAMES = Object.keys(REPORT_TYPES) as ReportType[];

const week = { categoryLabel: 'Week' };
const countsOf = (weeks: readonly string[], points: ReadonlyArray<{ week: string; count: number }>) => {
  const byWeek = new Map(points.map((point) => [point.week, point.count]));
  return weeks.map((monday) => byWeek.get(monday) ?? 0);
};

/** Names made unique in order: a repeated name gets its rank (`Flower`, `Flower (2)`). */
export function distinctNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let rank = 2; taken.has(unique); rank += 1) unique = `${name} (${rank})`;
    taken.add(unique);
    return unique;
  });
}

const distinctSeries = (series: readonly ChartSeries[]): ChartSeries[] => {
  const names = distinctNames(series.map((each) => each.name));
  return series.map((each, index) => ({ ...each, name: names[index]! }));
};

export function problemTrendsModel(answer: Pick<ProblemTrendsAnswer, 'weeks' | 'trends'>): ChartModel {
  return { ...week, unit: 'problems', categories: answer.weeks, series: distinctSeries(answer.trends.map((trend) => ({ name: trend.problem_type, values: countsOf(answer.weeks, trend.points) }))) };
}

export function roomTrendsModel(answer: Pick<TrendsReportGraphAnswer, 'weeks' | 'rooms'>): ChartModel {
  return { ...week, unit: 'problems', categories: answer.weeks, series: distinctSeries(answer.rooms.map((room) => ({ name: room.Name, values: countsOf(answer.weeks, room.points) }))) };
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
    series: distinctSeries(answer.data.flatMap((room) => room.grids.flatMap((grid) => grid.rows.map((row) => ({ name: `${room.Name} · ${grid.Name} · row ${row.Y}`, values: countsOf(answer.weeks, row.points) }))))),
  };
}

type ReportedField = Pick<FieldResponsesReportAnswer['field'], 'FieldName' | 'kind'>;

/**
 * A field's series over the weeks: a Number field's weekly sum, a choice field's count per answer (in
 * the order the answer lists them: the field's options, then others given), any other field's count of
 * answers. `named` names a series from the field's own name and, for a choice, the answer.
 */
function fieldSeries(field: ReportedField, points: readonly FieldWeek[], weeks: readonly string[], named: (part: { sum?: true; answer?: string }) => string): ChartSeries[] {
  const byWeek = new Map(points.map((point) => [point.week, point]));
  if (field.kind === 'number') return [{ name: named({ sum: true }), values: weeks.map((monday) => byWeek.get(monday)?.sum ?? 0) }];
  if (field.kind === 'choice') {
    const answers = [...new Set(points.flatMap((point) => point.answers.map((each) => each.answer)))];
    return answers.map((answer) => ({ name: named({ answer }), values: weeks.map((monday) => byWeek.get(monday)?.answers.find((each) => each.answer === answer)?.count ?? 0) }));
  }
  return [{ name: named({}), values: weeks.map((monday) => byWeek.get(monday)?.count ?? 0) }];
}

/** A Number field: its weekly sum (a trap's count); a choice field: how many chose each answer. */
export function fieldModel(answer: Pick<FieldResponsesReportAnswer, 'weeks' | 'field' | 'grouped_data'>): ChartModel {
  const { field } = answer;
  const series = fieldSeries(field, answer.grouped_data, answer.weeks, (part) => (part.sum ? `${field.FieldName} (sum)` : (part.answer ?? field.FieldName)));
  return { ...week, unit: field.kind === 'number' ? field.FieldName : 'answers', categories: answer.weeks, series };
}

/**
 * Running totals, a series per room (one answer per room asked: the call takes one room): the room's
 * problems of every type up to each week's end, counted from its first problem, so a line starts at
 * what the room had seen before the period.
 */
export function cumulativeModel(answers: ReadonlyArray<Pick<CumulativeReportGraphAnswer, 'weeks' | 'room' | 'totals'>>): ChartModel {
  // The rooms were asked the same period, so they answer the same weeks.
  const weeks = answers[0]?.weeks ?? [];
  const series = answers.map((answer) => {
    const byWeek = new Map(answer.totals.map((point) => [point.week, point.cumulative]));
    return { name: answer.room.Name, values: weeks.map((monday) => byWeek.get(monday) ?? 0) };
  });
  return { ...week, unit: 'problems (running total)', categories: weeks, series: distinctSeries(series) };
}

/**
 * One problem: its weekly count over the rooms asked (`Total`), then in each room where it was seen
 * (rooms without it have no series: they would only be lines of zeros). Counts, not mean severity:
 * both on one axis would read as one scale.
 */
export function singleProblemModel(answer: Pick<SingleProblemTrendAnswer, 'weeks' | 'data'>): ChartModel {
  const { data, weeks } = answer;
  const series = [{ name: 'Total', values: countsOf(weeks, data.points) }, ...data.rooms.map((room) => ({ name: room.Name, values: countsOf(weeks, room.points) }))];
  return { ...week, unit: `problems (${data.problem_type})`, categories: weeks, series: distinctSeries(series) };
}

/**
 * Specific trends: the batch's responses by week, then each answered field's series as in a field's
 * report (fieldModel), named by the field (and by its form when the fields come from several forms).
 */
export function specificTrendsModel(answer: Pick<SpecificTrendsAnswer, 'weeks' | 'responses' | 'fields'>): ChartModel {
  const { weeks } = answer;
  const severalForms = new Set(answer.fields.map((field) => field.TemplateID)).size > 1;
  const fields = answer.fields.flatMap((field) => {
    const name = severalForms ? `${field.TemplateName}: ${field.FieldName}` : field.FieldName;
    return fieldSeries(field, field.points, weeks, (part) => (part.sum ? `${name} (sum)` : part.answer !== undefined ? `${name}: ${part.answer}` : `${name} (answers)`));
  });
  return { ...week, unit: 'responses and answers', categories: weeks, series: distinctSeries([{ name: 'Responses', values: countsOf(weeks, answer.responses) }, ...fields]) };
}

/** The groups and moments a treatment's effectiveness is drawn with, in the series' order. */
const EFFECTIVENESS_SERIES = [
  { name: 'Treated boxes, before', group: 'treated', moment: 'per_box_before' },
  { name: 'Treated boxes, after', group: 'treated', moment: 'per_box_after' },
  { name: 'Untreated boxes, before', group: 'untreated', moment: 'per_box_before' },
  { name: 'Untreated boxes, after', group: 'untreated', moment: 'per_box_after' },
] as const;

/**
 * Treatment effectiveness: a category per treatment (its product and day) and four series, the
 * problems per box on the treated boxes before and after it and on the same rooms' untreated boxes
 * over the same days. Why this shape: a manager compares bars side by side per treatment (grouped
 * bars, the builder's bar chart), and a drop on the treated boxes means something only beside what
 * the untreated ones did meanwhile (the weather, a scouting round missed), so the untreated boxes
 * keep their own before and after rather than one bar. Per box, not counts: the two groups differ in
 * size (a spray on 2 boxes of a room of 40). Efficacy (%) stays out: another unit on the same axis
 * would read as problems. A group without boxes (a spray that reached the whole room) draws 0.
 */
export function treatmentEffectivenessModel(answer: Pick<TreatmentEffectivenessAnswer, 'applications'>): ChartModel {
  const { applications } = answer;
  // A treatment's day as the calendar day (UTC) of its moment, as the weeks of every report are.
  const categories = distinctNames(applications.map((application) => `${application.ProductName} · ${todayUtc(new Date(application.ApplicationDate))}`));
  return {
    categoryLabel: 'Treatment',
    unit: 'problems per box',
    categories,
    series: EFFECTIVENESS_SERIES.map(({ name, group, moment }) => ({ name, values: applications.map((application) => application[group][moment] ?? 0) })),
  };
}
