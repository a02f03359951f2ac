/**
 * Reading a report's trend from the server: the builder's "Show report", and a saved report refreshed
 * (its screen, the dashboard) with the choices it was saved with. Trends are computed from every
 * tablet's observations, so a read needs the connection; a saved report's stored data is what shows
 * without one.
 */
import { addDaysTo, lastWeeks, mondayOf, type ReportPeriod, todayUtc } from '../../../common/schemas/report-dates';
import type {
  CumulativeReportGraphAnswer,
  FieldResponsesReportAnswer,
  GutterTrendsAnswer,
  ProblemTrendsAnswer,
  SingleProblemTrendAnswer,
  SpecificTrendsAnswer,
  TreatmentEffectivenessAnswer,
  TrendsReportGraphAnswer,
  TrendsWithSeverityAnswer,
} from '../../../common/schemas/reports';
import { ValidationError } from '../../api/context';
import { type ReportPeriodChoice, savedFilters, trend } from '../../api/reports';
import type { ChartModel } from '../../../common/charts/chart-model';
import type { LocalReport } from './model';
import {
  cumulativeModel,
  fieldModel,
  gutterModel,
  problemTrendsModel,
  REPORT_TYPES,
  type ReportType,
  roomTrendsModel,
  severityModel,
  singleProblemModel,
  specificTrendsModel,
  treatmentEffectivenessModel,
} from '../../../common/charts/trend-models';

/** What a report asks for: its type, its period, its rooms (none: every room) and its type's own choices. */
export interface ReportQuery {
  type: ReportType;
  period: ReportPeriodChoice;
  /** Local ids of the rooms (client ids, or integer ids as text); as many as the type takes (REPORT_TYPES `rooms`). */
  roomIds: string[];
  choices: ReportChoices;
}

/** The type's own choices, kept in a saved report's filters under these names: the calls' parameter names. */
export interface ReportChoices {
  /** Gutter trends: the problems counted. */
  plant_problems?: string[];
  /** A form field's report: the field. */
  FieldID?: string | null;
  /** One problem's trend: a problem type's name, any case, or a catalogue slug. */
  problem?: string | null;
  /** Specific trends: the batch (required), and, to narrow it, a form category, a form (its template) and responses with photos only. */
  batch_id?: string | null;
  form_category?: string | null;
  specificForm?: string | null;
  include_images_only?: boolean;
  /**
   * Specific trends over the batch's own dates (date_option `batch_related_date`): the period asked is
   * not sent, the server reads the batch's start and end (or today while it grows). Saved as that
   * date_type, not under this name.
   */
  batch_dates?: boolean;
  /** Treatment effectiveness: one product's sprays (any case); none, every spray. */
  product_name?: string | null;
}

/** The choices each type takes; the others are neither sent nor saved. */
const CHOICES_OF: { [Type in ReportType]: ReadonlyArray<keyof ReportChoices> } = {
  problem_trends: [],
  trends_report_graph: [],
  trends_cumulative_report_graph: [],
  trends_with_severity: [],
  single_problem_trend: ['problem'],
  gutter_trends: ['plant_problems'],
  treatment_effectiveness_report: ['product_name'],
  field_responses_report: ['FieldID'],
  specific_trends: ['batch_id', 'form_category', 'specificForm', 'include_images_only', 'batch_dates'],
};

/** The choices of `type` among `choices`. */
export function choicesOf(type: ReportType, choices: ReportChoices): ReportChoices {
  return Object.fromEntries(CHOICES_OF[type].flatMap((name) => (choices[name] === undefined ? [] : [[name, choices[name]]]))) as ReportChoices;
}

/** A trend read: its chart and the period the server answered (the dates it resolved the choice to). */
export interface ReadReport {
  model: ChartModel;
  period: ReportPeriod;
}

/** Said before any call when a type that needs a room (REPORT_TYPES `rooms`: at_least_one) has none. */
export const ROOM_NEEDED = 'Choose at least one room for this report.';

type Answered = { period: { start_date: string; end_date: string } };

/**
 * The report's trend, read from its call (the cumulative one once per room: the call takes one room),
 * as its chart. The server's message when it refuses the choices ('batch_id is required.', …).
 */
export async function readReportAnswer(context: Parameters<typeof trend>[0], companyId: number, query: ReportQuery): Promise<ReadReport> {
  const { type, period, roomIds } = query;
  const choices = choicesOf(type, query.choices);
  if (REPORT_TYPES[type].rooms === 'at_least_one' && roomIds.length === 0) throw new ValidationError(ROOM_NEEDED);
  const ask = <A extends Answered>(parameters: Record<string, unknown>) => trend<A>(context, { path: REPORT_TYPES[type].call, companyId, period, query: parameters });
  const read = async <A extends Answered>(parameters: Record<string, unknown>, modelOf: (answer: A) => ChartModel): Promise<ReadReport> => {
    const answer = await ask<A>(parameters);
    return { model: modelOf(answer), period: { start: answer.period.start_date, end: answer.period.end_date } };
  };
  const rooms = { room_ids: JSON.stringify(roomIds) };
  switch (type) {
    case 'problem_trends':
      return read<ProblemTrendsAnswer>(rooms, problemTrendsModel);
    case 'trends_report_graph':
      return read<TrendsReportGraphAnswer>(rooms, roomTrendsModel);
    case 'trends_cumulative_report_graph': {
      const answers = await Promise.all(roomIds.map((room_id) => ask<CumulativeReportGraphAnswer>({ room_id })));
      return { model: cumulativeModel(answers), period: { start: answers[0]!.period.start_date, end: answers[0]!.period.end_date } };
    }
    case 'trends_with_severity':
      return read<TrendsWithSeverityAnswer>(rooms, severityModel);
    case 'single_problem_trend':
      return read<SingleProblemTrendAnswer>({ ...rooms, problem: choices.problem ?? undefined }, singleProblemModel);
    case 'gutter_trends':
      return read<GutterTrendsAnswer>({ ...rooms, batch_id: 'NULL', plant_problems: JSON.stringify(choices.plant_problems ?? []) }, gutterModel);
    case 'treatment_effectiveness_report':
      return read<TreatmentEffectivenessAnswer>({ ...rooms, product_name: choices.product_name || undefined }, treatmentEffectivenessModel);
    case 'field_responses_report':
      return read<FieldResponsesReportAnswer>({ FieldID: choices.FieldID ?? '' }, fieldModel);
    case 'specific_trends':
      return read<SpecificTrendsAnswer>(
        {
          batch_id: choices.batch_id ?? undefined,
          form_category: choices.form_category || undefined,
          specificForm: choices.specificForm || undefined,
          include_images_only: choices.include_images_only ? 1 : undefined,
          // The call takes one room: a report saved through the API with more is read for its first.
          room_id: roomIds[0],
          // Undefined leaves the period asked out of the query (axios drops it).
          ...(choices.batch_dates ? { date_option: 'batch_related_date', weeks_ago: undefined, start_date: undefined, end_date: undefined } : {}),
        },
        specificTrendsModel,
      );
  }
}

/** The report's trend as its chart (readReportAnswer without the period). */
export async function readReport(context: Parameters<typeof trend>[0], companyId: number, query: ReportQuery): Promise<ChartModel> {
  return (await readReportAnswer(context, companyId, query)).model;
}

/**
 * The filters a report is saved with (save_report's `filters`): its period, its type's choices under
 * the calls' parameter names and its chart's labels; queryOfSaved reads them back. Over the batch's
 * dates, the dates kept are those answered (date_type batch_related_date needs them), and reading the
 * report again asks the batch's dates anew, so a growing batch's report grows with it.
 */
export function savedFiltersOf(query: ReportQuery, read: ReadReport): Record<string, unknown> {
  const { batch_dates, ...choices } = choicesOf(query.type, query.choices);
  const kept = { ...choices, category_label: read.model.categoryLabel, unit: read.model.unit };
  if (batch_dates) return { ...savedFilters(read.period, kept), date_type: 'batch_related_date' };
  return savedFilters(query.period, kept);
}

const isReportType = (value: unknown): value is ReportType => typeof value === 'string' && Object.hasOwn(REPORT_TYPES, value);
const textList = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
/** An id as a saved report keeps it: the server's integer (an answer's, or once the server resolved it), or a client id. */
const idOf = (value: unknown) => (typeof value === 'number' ? String(value) : textOf(value));
const idList = (value: unknown) => (Array.isArray(value) ? value.map(idOf).filter((id) => id !== null) : []);

/**
 * What a saved report asks for, to read it again: null for a report the builder does not make (saved
 * through the API with a type of its own), which shows its stored data only.
 */
export function queryOfSaved(report: Pick<LocalReport, 'report_type' | 'filters' | 'room_ids'>): ReportQuery | null {
  const { filters } = report;
  if (!isReportType(report.report_type) || !filters) return null;
  const period: ReportPeriodChoice | null =
    filters.date_type === 'weeks_ago' && filters.weeks_ago ? { weeks: filters.weeks_ago } : filters.date_range ? { start: filters.date_range.start_date, end: filters.date_range.end_date } : null;
  if (!period) return null;
  return {
    type: report.report_type,
    period,
    roomIds: idList(report.room_ids),
    choices: choicesOf(report.report_type, {
      plant_problems: textList(filters.plant_problems),
      FieldID: idOf(filters.FieldID),
      problem: textOf(filters.problem),
      batch_id: idOf(filters.batch_id),
      form_category: textOf(filters.form_category),
      specificForm: idOf(filters.specificForm),
      include_images_only: filters.include_images_only === true,
      batch_dates: filters.date_type === 'batch_related_date',
      product_name: textOf(filters.product_name),
    }),
  };
}

/**
 * A period moved back by whole weeks (the dashboard's week selector: 7 days per offset, spec part 2
 * §2): "the last N weeks" becomes the N weeks that end `weeksBack` weeks before this one; a date range
 * moves by as many days. (A specific trend over its batch's dates does not move: it reads the batch's.)
 */
export function periodWeeksBack(period: ReportPeriodChoice, weeksBack: number, today = todayUtc()): ReportPeriodChoice {
  if (weeksBack === 0) return period;
  const days = -7 * weeksBack;
  if ('weeks' in period) {
    const last = lastWeeks(period.weeks, addDaysTo(mondayOf(today), days));
    return { start: last.start, end: last.end };
  }
  return { start: addDaysTo(period.start, days), end: addDaysTo(period.end, days) };
}
