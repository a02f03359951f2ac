/**
 * Requests and answers of the trend and report calls (spec part 2 §5, §7; issue 15): weekly charts of
 * the plant problems and form answers the tablets recorded. Every period is asked with the fields of
 * report-dates.ts and answered as `period` and `weeks` (the Mondays of the weeks it touches); every
 * series has a point for each of those weeks, zeros included, so a chart has no gaps.
 *
 * A problem type is one series whatever the case it was written in: a catalogue problem is named by
 * its catalogue entry (`problem_slug`), a company's own type by its name, any case.
 */
import { z } from 'zod';
import { FIELD_TYPES, FORM_CATEGORIES } from '../messages/forms';
import { reportMessages as m } from '../messages/reports';
import { calendarDate, answer, timestamp } from './answers';
import { flag, requiredId } from './fields';
import { formFieldRecord } from './forms';
import { reportDateFields } from './report-dates';

/**
 * The period of the calls whose spec names no dates (cumulative, severity, single problem, gutter,
 * treatment effectiveness) when none are asked: the last 8 weeks, as the demo and the dashboard show.
 */
export const DEFAULT_REPORT_WEEKS = 8;

/**
 * Treatment effectiveness compares the problems seen on a spray's boxes this many days before it with
 * those seen this many days from it (the spray's own moment counts as after): two weeks, long enough
 * for a weekly scouting round on each side, short enough that the next spray rarely falls inside.
 */
export const TREATMENT_WINDOW_DAYS = 14;

/** The most rooms, problems and answers listed a call takes: a company's whole floor, with room to spare. */
const LIST_MAX = 1000;

const isAbsent = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && (value.trim() === '' || value.trim().toLowerCase() === 'null'));

/** JSON text as its value; text that is not JSON stays text (and fails the list's check). */
function jsonText(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * A list from the query: a JSON array's text (`[1,2]`), a comma-joined text (`1,2`: the spec joins room
 * ids with commas), repeated parameters, or a JSON array in a body. Absent or blank: undefined.
 */
function listOf(value: unknown): unknown {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) return jsonText(text);
    return text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  }
  if (typeof value === 'number') return [value];
  return value;
}

/** A list's check: `missing` when absent or empty, `invalid` when not a list (of at most LIST_MAX). */
const listCheck = <T extends z.ZodType>(item: T, missing: string, invalid: string) =>
  z
    .array(item, { error: (issue) => (issue.input === undefined ? missing : invalid) })
    .min(1, { error: missing })
    .max(LIST_MAX, { error: invalid });

const roomIdList = (missing: string) => z.preprocess(listOf, listCheck(requiredId(m.roomIdsArray), missing, m.roomIdsArray));
/** room_ids: ids as an array (or its text), or comma-joined (spec §9); optional (absent or empty: every room). */
const roomIds = z.preprocess((value) => {
  const list = listOf(value);
  return Array.isArray(list) && list.length === 0 ? undefined : list;
}, z.array(requiredId(m.roomIdsArray), { error: m.roomIdsArray }).max(LIST_MAX, { error: m.roomIdsArray }).optional());

const companyId = requiredId(m.companyIdRequired);
const optionalIdOf = (message: string) => z.preprocess((value) => (isAbsent(value) ? undefined : value), requiredId(message).optional());

/** A problem's name (or catalogue slug). */
const problemName = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string({ error: m.plantProblemsInvalid }).trim().min(1, { error: m.plantProblemsInvalid }).max(200, { error: m.plantProblemsInvalid }));

const CATEGORY_BY_LOWER = new Map(FORM_CATEGORIES.map((category) => [category.toLowerCase(), category]));
/** A form category, any case, as the catalogue of categories spells it. */
const formCategory = z.preprocess(
  (value) => (isAbsent(value) ? undefined : typeof value === 'string' ? (CATEGORY_BY_LOWER.get(value.trim().toLowerCase()) ?? value) : value),
  z.enum(FORM_CATEGORIES, { error: m.formCategoryInvalid }).optional(),
);

// ——— Requests ———

/** get_problem_trends: company_id, start_date and end_date (spec); a date_option and room_ids may narrow it. */
export const problemTrendsQuery = z.object({ company_id: companyId, room_ids: roomIds, ...reportDateFields });

/** get_trends_report_graph: company_id, room_ids (all the company's rooms when absent) and the period. */
export const trendsReportGraphQuery = z.object({ company_id: companyId, room_ids: roomIds, ...reportDateFields });

/**
 * get_trends_cumulative_report_graph: the spec sends room_id alone (the room names its company);
 * company_id, when sent, is checked as everywhere. Without a period: the room's whole history.
 */
export const cumulativeReportGraphQuery = z.object({
  room_id: z.preprocess((value) => (isAbsent(value) ? undefined : value), requiredId(m.roomIdRequired)),
  company_id: optionalIdOf(m.companyIdRequired),
  ...reportDateFields,
});

/** get_trends_with_severity (query not shown in the spec): as the trends report graph's. */
export const trendsWithSeverityQuery = z.object({ company_id: companyId, room_ids: roomIds, ...reportDateFields });

/** get_single_problem_trend: company and problem (a type's name or a catalogue slug); weeks_ago a number. */
export const singleProblemTrendQuery = z.object({
  company_id: companyId,
  problem: z.preprocess((value) => (isAbsent(value) ? undefined : value), z.string({ error: m.problemRequired }).trim().min(1, { error: m.problemRequired }).max(200, { error: m.problemRequired })),
  room_ids: roomIds,
  ...reportDateFields,
});

/** get_specific_trends: company_id, batch_id, the period, and optionally a category, a form, images only and a room. */
export const specificTrendsQuery = z.object({
  company_id: companyId,
  batch_id: z.preprocess((value) => (isAbsent(value) ? undefined : value), requiredId(m.batchIdRequired)),
  form_category: formCategory,
  /** A form template's id. */
  specificForm: optionalIdOf(m.specificFormInvalid),
  include_images_only: z.preprocess((value) => (isAbsent(value) ? undefined : value), flag(m.includeImagesOnlyInvalid).optional()),
  room_id: optionalIdOf(m.roomIdInvalid),
  ...reportDateFields,
});

/**
 * get_gutter_trends: company_id, batch_id (or the text NULL: every box), room_ids and plant_problems
 * (at least one each, spec §5). A period may be asked; without one, the last DEFAULT_REPORT_WEEKS weeks.
 */
export const gutterTrendsQuery = z.object({
  company_id: companyId,
  room_ids: roomIdList(m.gutterRoomsRequired),
  /** Names as an array (or its text), or comma-joined (a name holding a comma needs the array). */
  plant_problems: z.preprocess(listOf, listCheck(problemName, m.gutterProblemsRequired, m.plantProblemsInvalid)),
  batch_id: z.preprocess((value) => (isAbsent(value) ? null : value), requiredId(m.gutterBatchInvalid).nullable()),
  ...reportDateFields,
});

/** get_field_responses_report: company_id, FieldID, the period, and optionally room_id and batchid. */
export const fieldResponsesReportQuery = z.object({
  company_id: companyId,
  FieldID: z.preprocess((value) => (isAbsent(value) ? undefined : value), requiredId(m.fieldIdRequired)),
  room_id: optionalIdOf(m.roomIdInvalid),
  batchid: optionalIdOf(m.batchIdInvalid),
  ...reportDateFields,
});

/** get_treatment_effectiveness_report (query not shown in the spec): company_id, the period, room_ids, a product's name. */
export const treatmentEffectivenessQuery = z.object({
  company_id: companyId,
  room_ids: roomIds,
  product_name: z.preprocess((value) => (isAbsent(value) ? undefined : value), z.string({ error: m.productNameInvalid }).trim().max(200, { error: m.productNameInvalid }).optional()),
  ...reportDateFields,
});

export const reportInfoQuery = z.object({ company_id: companyId });

// ——— Answers ———

const count = z.number().int().min(0);

/** The period answered and its weeks (Mondays), in order. */
const periodShape = {
  period: z.object({ start_date: calendarDate, end_date: calendarDate }),
  weeks: z.array(calendarDate),
};

/** A problem type as a series names it. */
const problemShape = {
  /** The catalogue's name for a catalogue problem, else the company's own type as first written. */
  problem_type: z.string(),
  problem_slug: z.string().nullable(),
};

const roomShape = { RoomID: z.number().int(), Name: z.string() };

const countPoint = z.object({ week: calendarDate, count });
/** Problems seen in the week and their mean severity (null when none). */
const severityPoint = countPoint.extend({ mean_severity: z.number().nullable() });

/** get_problem_trends: a line per problem type (count and mean severity by week), and all types together. */
export const problemTrendsAnswer = answer({
  ...periodShape,
  trends: z.array(z.object({ ...problemShape, total: count, mean_severity: z.number().nullable(), points: z.array(severityPoint) })),
  totals: z.array(severityPoint),
});

const problemSeries = z.object({ ...problemShape, total: count, points: z.array(countPoint) });

/** get_trends_report_graph: a line per room (and per problem in it), and a line per problem over the rooms. */
export const trendsReportGraphAnswer = answer({
  ...periodShape,
  rooms: z.array(z.object({ ...roomShape, total: count, points: z.array(countPoint), problems: z.array(problemSeries) })),
  problems: z.array(problemSeries),
});

/** Seen in the week, and seen up to the week's end since the room's first problem. */
const cumulativePoint = countPoint.extend({ cumulative: count });

/** get_trends_cumulative_report_graph: per problem type, the running total by week; and of all types. */
export const cumulativeReportGraphAnswer = answer({
  ...periodShape,
  room: z.object(roomShape),
  series: z.array(z.object({ ...problemShape, total: count, points: z.array(cumulativePoint) })),
  totals: z.array(cumulativePoint),
});

/** Problems by severity 1 to 5 (a fractional severity counts at its nearest whole, halves up). */
const severities = z.object({ '1': count, '2': count, '3': count, '4': count, '5': count });
const stackedPoint = z.object({ week: calendarDate, count, severities });

/** get_trends_with_severity: per problem type and week, the count at each severity (stacked bars). */
export const trendsWithSeverityAnswer = answer({
  ...periodShape,
  trends: z.array(z.object({ ...problemShape, total: count, points: z.array(stackedPoint) })),
  totals: z.array(stackedPoint),
});

/** get_single_problem_trend: the problem's weekly count and mean severity, over the rooms and in each room where seen. */
export const singleProblemTrendAnswer = answer({
  ...periodShape,
  data: z.object({
    ...problemShape,
    total: count,
    mean_severity: z.number().nullable(),
    points: z.array(severityPoint),
    rooms: z.array(z.object({ ...roomShape, total: count, mean_severity: z.number().nullable(), points: z.array(severityPoint) })),
  }),
});

/** How a field's answers are summed up: numbers (sum, mean, min, max), choices (count per answer), or only counted. */
export const FIELD_SUMMARY_KINDS = ['number', 'choice', 'count'] as const;
export type FieldSummaryKind = (typeof FIELD_SUMMARY_KINDS)[number];

/**
 * A field's answers in one week: how many (non-blank), and for a Number field their sum, mean, least
 * and greatest (answers that are not numbers are counted, not summed), for a choice field how many
 * chose each answer (a Checkbox answer counts once for each option chosen): every option of the field,
 * zeros included, then any other answer given.
 */
export const fieldWeek = z.object({
  week: calendarDate,
  count,
  sum: z.number().nullable(),
  mean: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  answers: z.array(z.object({ answer: z.string(), count })),
});
export type FieldWeek = z.infer<typeof fieldWeek>;

const fieldShape = {
  FieldID: z.number().int(),
  FieldName: z.string(),
  FieldType: z.enum(FIELD_TYPES),
  FieldOptions: z.array(z.string()),
  TemplateID: z.number().int(),
  TemplateName: z.string(),
  FormCategory: z.enum(FORM_CATEGORIES),
  kind: z.enum(FIELD_SUMMARY_KINDS),
};

/** get_specific_trends: the batch's responses by week, and each answered field's summary by week. */
export const specificTrendsAnswer = answer({
  ...periodShape,
  batch: z.object({ BatchID: z.number().int(), BatchNumber: z.string(), StartDate: calendarDate.nullable(), EndDate: calendarDate.nullable() }),
  responses: z.array(countPoint),
  fields: z.array(z.object({ ...fieldShape, total: count, points: z.array(fieldWeek) })),
});

/** get_gutter_trends: per room, grid and row (Y), the named problems seen by week: a heat map by row and week. */
export const gutterTrendsAnswer = answer({
  ...periodShape,
  batch_id: z.number().int().nullable(),
  plant_problems: z.array(z.object(problemShape)),
  data: z.array(
    z.object({
      ...roomShape,
      grids: z.array(z.object({ GridID: z.number().int(), Name: z.string(), rows: z.array(z.object({ Y: z.number().int(), total: count, points: z.array(countPoint) })) })),
    }),
  ),
});

/** get_field_responses_report: the field and its answers grouped by week (`grouped_data`), and over the period. */
export const fieldResponsesReportAnswer = answer({
  ...periodShape,
  field: z.object(fieldShape),
  grouped_data: z.array(fieldWeek),
  total: fieldWeek.omit({ week: true }),
});

/** Problems on a group of boxes in the days before a spray and from it. */
const boxGroup = z.object({
  boxes: count,
  problems_before: count,
  problems_after: count,
  per_box_before: z.number().nullable(),
  per_box_after: z.number().nullable(),
  /** (before − after) / before per box, in %; null when none were seen before. */
  reduction_pct: z.number().nullable(),
});

/**
 * get_treatment_effectiveness_report: each spray of the period, its boxes against the same rooms'
 * unsprayed boxes over the same days, and its efficacy by Henderson–Tilton: 100 × (1 − (Ta × Cb) / (Tb × Ca)),
 * T the sprayed and C the unsprayed boxes' problems, b before and a after (null when a term is 0).
 */
export const treatmentEffectivenessAnswer = answer({
  ...periodShape,
  window_days: z.number().int(),
  applications: z.array(
    z.object({
      application_id: z.number().int(),
      ApplicationDate: timestamp,
      ProductName: z.string(),
      product_id: z.number().int().nullable(),
      rooms: z.array(z.object(roomShape)),
      before_from: timestamp,
      after_until: timestamp,
      /** Whether the days after have all passed (otherwise the after counts are still growing). */
      after_complete: z.boolean(),
      treated: boxGroup,
      untreated: boxGroup,
      efficacy_pct: z.number().nullable(),
    }),
  ),
});

/** get_report_info: what the report screens offer to choose from. */
export const reportInfoAnswer = answer({
  rooms: z.array(z.object(roomShape)),
  problem_types: z.array(z.object({ ...problemShape, count, first_observed: calendarDate, last_observed: calendarDate })),
  form_categories: z.array(z.enum(FORM_CATEGORIES)),
  templates: z.array(z.object({ TemplateID: z.number().int(), TemplateName: z.string(), FormCategory: z.enum(FORM_CATEGORIES), fields: z.array(formFieldRecord) })),
  batches: z.array(z.object({ BatchID: z.number().int(), BatchNumber: z.string(), StrainName: z.string().nullable(), BatchStatus: z.string(), StartDate: calendarDate.nullable(), EndDate: calendarDate.nullable() })),
  product_names: z.array(z.string()),
  /** The first and last days a (live) problem was seen; null when none was. */
  first_observed: calendarDate.nullable(),
  last_observed: calendarDate.nullable(),
});

export type ProblemTrendsAnswer = z.infer<typeof problemTrendsAnswer>;
export type TrendsReportGraphAnswer = z.infer<typeof trendsReportGraphAnswer>;
export type CumulativeReportGraphAnswer = z.infer<typeof cumulativeReportGraphAnswer>;
export type TrendsWithSeverityAnswer = z.infer<typeof trendsWithSeverityAnswer>;
export type SingleProblemTrendAnswer = z.infer<typeof singleProblemTrendAnswer>;
export type SpecificTrendsAnswer = z.infer<typeof specificTrendsAnswer>;
export type GutterTrendsAnswer = z.infer<typeof gutterTrendsAnswer>;
export type FieldResponsesReportAnswer = z.infer<typeof fieldResponsesReportAnswer>;
export type TreatmentEffectivenessAnswer = z.infer<typeof treatmentEffectivenessAnswer>;
export type ReportInfoAnswer = z.infer<typeof reportInfoAnswer>;
