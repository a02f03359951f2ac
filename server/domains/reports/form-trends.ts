/**
 * Trends of form answers (spec part 2 §7; issue 15): a batch's scouting answers by week (specific
 * trends) and one field's answers by week (the field responses report, e.g. a sticky trap's count).
 * Responses count in the week they were filled (`submitted_at`, the tablet's time), of live rooms.
 *
 * Decisions (the spec is silent):
 * - A Number field's answers are summed up (sum, mean, least, greatest, to two decimals for the mean);
 *   an answer that is not a number is counted but not summed. A Dropdown, Radio or Checkbox field's
 *   answers are counted per answer (a Checkbox answer once for each option chosen), every option of
 *   the field listed, zeros included, then any other answer given (an option since renamed). Other
 *   fields' answers are only counted. Blank answers are not answers.
 * - A batch's responses are those filed under it: responses for boxes that held the batch when the
 *   form was filled (form_responses.batch_id, as get_batch_form_responses reads them).
 */
import { type Kysely, sql } from 'kysely';
import { CHOICE_FIELD_TYPES, type FieldType, type FormCategory } from '../../../common/messages/forms';
import type { FieldResponsesReportAnswer, FieldSummaryKind, FieldWeek, SpecificTrendsAnswer } from '../../../common/schemas/reports';
import { httpMessages } from '../../../common/messages/http';
import type { DB } from '../../db/schema';
import { notFound } from '../../http/errors';
import { categoryOf, fieldTypeOf } from '../forms/queries';
import { askedPeriod, batchRelatedFields, type DateFields, type ResolvedPeriod } from './period';
import { Groups, twoDecimals } from './problem-counts';
import { type Payload, roomsOf } from './trends';

/** Which responses a form trend reads. */
interface ResponseScope {
  companyId: number;
  period: ResolvedPeriod;
  batchId?: number;
  roomId?: number;
  templateId?: number;
  category?: FormCategory;
  fieldId?: number;
  imagesOnly?: boolean;
}

/** The responses of the scope (alias `r`, its template `t`), of live rooms or of none. */
function responsesIn(scope: ResponseScope) {
  return sql`
    r.company_id = ${scope.companyId}
    AND r.deleted_at IS NULL
    AND r.submitted_at >= ${scope.period.from} AND r.submitted_at < ${scope.period.until}
    AND (r.room_id IS NULL OR r.room_id IN (SELECT id FROM rooms WHERE company_id = ${scope.companyId} AND deleted_at IS NULL))
    ${scope.batchId === undefined ? sql`` : sql`AND r.batch_id = ${scope.batchId}`}
    ${scope.roomId === undefined ? sql`` : sql`AND r.room_id = ${scope.roomId}`}
    ${scope.templateId === undefined ? sql`` : sql`AND r.template_id = ${scope.templateId}`}
    ${scope.category === undefined ? sql`` : sql`AND t.form_category = ${scope.category}`}
    ${scope.imagesOnly ? sql`AND EXISTS (SELECT 1 FROM form_response_images i WHERE i.response_id = r.id AND i.deleted_at IS NULL)` : sql``}`;
}

const weekOfResponse = sql<string>`to_char(date_trunc('week', r.submitted_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;

/** Responses by week. */
async function responsesByWeek(db: Kysely<DB>, scope: ResponseScope) {
  const { rows } = await sql<{ week: string; count: number }>`
    SELECT ${weekOfResponse} AS week, count(*)::int AS count
    FROM form_responses r JOIN form_templates t ON t.id = r.template_id
    WHERE ${responsesIn(scope)}
    GROUP BY 1`.execute(db);
  return new Map(rows.map((row) => [row.week, row.count]));
}

/** A field's answers in a week (`choice` null), or those of one choice (`choice` set). */
interface AnswerStatRow {
  field_id: number;
  week: string;
  choice: string | null;
  per_choice: boolean;
  count: number;
  numbers: number;
  sum: number | null;
  min: number | null;
  max: number | null;
}

/** A number as a grower types it in a Number field: digits, one point, a sign. */
const NUMBER_TEXT = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)$';

/** Every answered field's non-blank answers by week, and by choice for choice fields: one statement. */
async function answerStats(db: Kysely<DB>, scope: ResponseScope): Promise<AnswerStatRow[]> {
  const { rows } = await sql<AnswerStatRow>`
    WITH answers AS (
      SELECT a.id, a.field_id, ${weekOfResponse} AS week,
        CASE WHEN f.field_type = 'Number' AND trim(a.input_data) ~ ${NUMBER_TEXT} THEN trim(a.input_data)::float8 END AS value,
        trim(c.choice) AS choice
      FROM form_responses r
      JOIN form_templates t ON t.id = r.template_id
      JOIN form_field_responses a ON a.response_id = r.id AND a.deleted_at IS NULL
      JOIN form_fields f ON f.id = a.field_id
      LEFT JOIN LATERAL unnest(CASE WHEN f.field_type = 'Checkbox' THEN string_to_array(a.input_data, ', ')
                                    WHEN f.field_type IN ('Radio', 'Dropdown') THEN ARRAY[a.input_data] END) AS c(choice) ON trim(c.choice) <> ''
      WHERE ${responsesIn(scope)}
        AND trim(COALESCE(a.input_data, '')) <> ''
        ${scope.fieldId === undefined ? sql`` : sql`AND a.field_id = ${scope.fieldId}`}
    )
    SELECT field_id, week, choice, GROUPING(choice) = 0 AS per_choice, count(DISTINCT id)::int AS count,
      count(value)::int AS numbers, sum(value)::float8 AS sum, min(value)::float8 AS min, max(value)::float8 AS max
    FROM answers
    GROUP BY GROUPING SETS ((field_id, week), (field_id, week, choice))`.execute(db);
  return rows;
}

export interface ReportField {
  id: number;
  field_name: string;
  field_type: string;
  field_options: unknown;
  template_id: number;
  template_name: string;
  form_category: string;
}

const optionsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? (JSON.parse(value) as unknown[]).map(String) : []);

export const summaryKindOf = (type: FieldType): FieldSummaryKind => (type === 'Number' ? 'number' : CHOICE_FIELD_TYPES.includes(type) ? 'choice' : 'count');

function fieldJson(field: ReportField) {
  const type = fieldTypeOf(field.field_type);
  return {
    FieldID: field.id,
    FieldName: field.field_name,
    FieldType: type,
    FieldOptions: optionsOf(field.field_options),
    TemplateID: field.template_id,
    TemplateName: field.template_name,
    FormCategory: categoryOf(field.form_category),
    kind: summaryKindOf(type),
  };
}

/** Sums of a field's answers over some weeks. */
class AnswerTally {
  count = 0;
  numbers = 0;
  sum = 0;
  min: number | null = null;
  max: number | null = null;
  readonly choices = new Map<string, number>();

  add(row: AnswerStatRow) {
    if (row.per_choice) {
      if (row.choice !== null) this.choices.set(row.choice, (this.choices.get(row.choice) ?? 0) + row.count);
      return;
    }
    this.count += row.count;
    this.numbers += row.numbers;
    this.sum += row.sum ?? 0;
    if (row.min !== null) this.min = this.min === null ? row.min : Math.min(this.min, row.min);
    if (row.max !== null) this.max = this.max === null ? row.max : Math.max(this.max, row.max);
  }

  summary(kind: FieldSummaryKind, options: readonly string[]): Omit<FieldWeek, 'week'> {
    const isNumber = kind === 'number';
    const others = [...this.choices].filter(([answer]) => !options.includes(answer)).sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b));
    return {
      count: this.count,
      sum: isNumber ? twoDecimals(this.sum) : null,
      mean: isNumber && this.numbers > 0 ? twoDecimals(this.sum / this.numbers) : null,
      min: isNumber ? this.min : null,
      max: isNumber ? this.max : null,
      answers: kind === 'choice' ? [...options.map((answer) => ({ answer, count: this.choices.get(answer) ?? 0 })), ...others.map(([answer, count]) => ({ answer, count }))] : [],
    };
  }
}

/** A field's weekly summaries (every week of the period) and its summary over the period. */
function fieldSeries(field: ReportField, rows: readonly AnswerStatRow[], weeks: readonly string[]) {
  const json = fieldJson(field);
  const byWeek = new Groups<string, AnswerTally>(() => new AnswerTally());
  const total = new AnswerTally();
  for (const row of rows) {
    byWeek.of(row.week).add(row);
    total.add(row);
  }
  const points = weeks.map((week) => ({ week, ...(byWeek.get(week) ?? new AnswerTally()).summary(json.kind, json.FieldOptions) }));
  return { json, points, total: total.summary(json.kind, json.FieldOptions) };
}

const reportFields = (db: Kysely<DB>) =>
  db
    .selectFrom('form_fields as f')
    .innerJoin('form_templates as t', 't.id', 'f.template_id')
    .select(['f.id', 'f.field_name', 'f.field_type', 'f.field_options', 'f.template_id', 't.template_name', 't.form_category']);

/**
 * get_specific_trends: the batch's responses by week, of a category or a form when asked (with photos
 * only, in one room), and each field's answers by week: the fields answered, and every live field of
 * the form asked, answered or not.
 */
export async function specificTrends(
  db: Kysely<DB>,
  companyId: number,
  query: DateFields & { batch_id: number; form_category?: FormCategory | undefined; specificForm?: number | undefined; include_images_only?: number | undefined; room_id?: number | undefined },
): Promise<Payload<SpecificTrendsAnswer>> {
  const batch = await db.selectFrom('batches').select(['id', 'batch_number', 'start_date', 'end_date', 'harvested_at']).where('id', '=', query.batch_id).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!batch) throw notFound(httpMessages.recordNotFound(`batch ${query.batch_id}`));
  const period = askedPeriod(batchRelatedFields(query, batch), { allowBatchRelated: true });
  if (query.room_id !== undefined) await roomsOf(db, companyId, [query.room_id]);
  if (query.specificForm !== undefined) {
    const form = await db.selectFrom('form_templates').select('id').where('id', '=', query.specificForm).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!form) throw notFound(httpMessages.recordNotFound(`form_template ${query.specificForm}`));
  }
  const scope: ResponseScope = {
    companyId,
    period,
    batchId: batch.id,
    roomId: query.room_id,
    templateId: query.specificForm,
    category: query.form_category,
    imagesOnly: query.include_images_only === 1,
  };
  const responses = await responsesByWeek(db, scope);
  const stats = await answerStats(db, scope);
  const answered = [...new Set(stats.map((row) => row.field_id))];
  let fieldsQuery = reportFields(db).where((eb) =>
    eb.or([eb('f.id', 'in', answered.length > 0 ? answered : [-1]), ...(query.specificForm === undefined ? [] : [eb.and([eb('f.template_id', '=', query.specificForm), eb('f.deleted_at', 'is', null)])])]),
  );
  fieldsQuery = fieldsQuery.orderBy('t.template_name').orderBy('f.template_id').orderBy('f.position').orderBy('f.id');
  const fields = await fieldsQuery.execute();
  const statsOf = new Groups<number, AnswerStatRow[]>(() => []);
  for (const row of stats) statsOf.of(row.field_id).push(row);
  return {
    period: { start_date: period.start, end_date: period.end },
    weeks: period.weeks,
    batch: { BatchID: batch.id, BatchNumber: batch.batch_number, StartDate: batch.start_date, EndDate: batch.end_date },
    responses: period.weeks.map((week) => ({ week, count: responses.get(week) ?? 0 })),
    fields: fields.map((field) => {
      const series = fieldSeries(field, statsOf.get(field.id) ?? [], period.weeks);
      return { ...series.json, total: series.total.count, points: series.points };
    }),
  };
}

/**
 * get_field_responses_report: one field's answers by week (`grouped_data`: for a sticky trap's count,
 * the sum, mean, least and greatest each week), of one room or one batch when asked, and over the period.
 */
export async function fieldResponsesReport(
  db: Kysely<DB>,
  companyId: number,
  query: DateFields & { FieldID: number; room_id?: number | undefined; batchid?: number | undefined },
): Promise<Payload<FieldResponsesReportAnswer>> {
  const field = await reportFields(db).where('f.id', '=', query.FieldID).where('f.company_id', '=', companyId).executeTakeFirst();
  if (!field) throw notFound(httpMessages.recordNotFound(`form_field ${query.FieldID}`));
  let batch: { id: number; start_date: string | null; end_date: string | null; harvested_at: Date | null } | null = null;
  if (query.batchid !== undefined) {
    batch = (await db.selectFrom('batches').select(['id', 'start_date', 'end_date', 'harvested_at']).where('id', '=', query.batchid).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst()) ?? null;
    if (!batch) throw notFound(httpMessages.recordNotFound(`batch ${query.batchid}`));
  }
  const period = askedPeriod(batchRelatedFields(query, batch), { allowBatchRelated: true });
  if (query.room_id !== undefined) await roomsOf(db, companyId, [query.room_id]);
  // The field's own template: its responses are the only ones that can answer it.
  const stats = await answerStats(db, { companyId, period, batchId: batch?.id, roomId: query.room_id, templateId: field.template_id, fieldId: field.id });
  const series = fieldSeries(field, stats, period.weeks);
  return { period: { start_date: period.start, end_date: period.end }, weeks: period.weeks, field: series.json, grouped_data: series.points, total: series.total };
}
