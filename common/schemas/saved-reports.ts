/**
 * Requests and answers of saved reports, the dashboard's reports and the read-only links to a saved
 * report (spec part 2 §3 "Saved report", "Dashboard", §5, §7; issue 15 `/reporting`).
 *
 * A saved report keeps what its screen showed: the report type, the chart type, the filters (the date
 * option and its dates or weeks, plus the screen's other choices, kept as sent) and the rooms, and the
 * data the chart was drawn from (`report_data`, stored as sent), so a tablet shows it offline with the
 * time it was computed.
 */
import { z } from 'zod';
import { DATE_OPTIONS } from '../messages/reports';
import {
  CHART_TYPES,
  DASHBOARD_SLOTS,
  REPORT_DATA_MAX_CHARS,
  REPORT_FILTERS_MAX_CHARS,
  REPORT_NAME_MAX_CHARS,
  reportMessages,
  savedReportMessages as m,
} from '../messages/reports';
import { answer, calendarDate, recordRef, timestamp } from './answers';
import { optionalClientId, requiredId, requiredText } from './fields';
import { periodOf, todayUtc } from './report-dates';

/** A request's fields; a request without a body is checked as an empty one, so the field messages apply. */
const orEmpty = (value: unknown) => value ?? {};

/** Blank text, null and the text `null` (as forms and queries send an empty slot) count as absent. */
const isBlank = (value: unknown) => value === undefined || value === null || value === 'null' || (typeof value === 'string' && value.trim() === '');

const jsonLength = (value: unknown) => JSON.stringify(value).length;

/**
 * A saved report as a request names it: its integer id, or its client id (a report made offline is
 * named by the id its tablet gave it until, and after, the server has it), which is resolved to the
 * integer before validation (server/http/client-ids.ts), as every record's is. The tenancy guard checks
 * it through each route's `config.owns` (reports/saved-routes.ts): `report_id` means a chart group
 * number in a form template's fields (forms.ts), so it is not one of the names the guard reads everywhere.
 */
const reportId = (message: string) => z.preprocess((value) => (isBlank(value) ? undefined : value), requiredId(message));

const chartType = z.preprocess(
  // 'Stacked bar', 'stacked-bar' and 'STACKED_BAR' are the same choice; 'heat map' is echarts' 'heatmap'.
  (value) => (isBlank(value) ? undefined : typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_').replace(/^heat_map$/, 'heatmap') : value),
  z.enum(CHART_TYPES, { error: (issue) => (issue.input === undefined ? m.chartTypeRequired : m.chartTypeInvalid) }),
);

/** The date option (spec §5) as a saved report keeps it: `date_range` with its dates, or `weeks_ago` with its number. */
export const savedReportFilters = z.looseObject({
  date_type: z.enum(DATE_OPTIONS),
  date_range: z.object({ start_date: calendarDate, end_date: calendarDate }).nullable(),
  weeks_ago: z.number().int().nullable(),
});

export type SavedReportFilters = z.infer<typeof savedReportFilters>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `filters`: `{date_type, date_range: {start_date, end_date}}` (spec §3), or `{date_type: 'weeks_ago',
 * weeks_ago}`; checked as every report checks its period (`periodOf`: 'Invalid date_option provided.'
 * for an unknown option, dates as yyyy-mm-dd, end not before start). No date_type is the screens'
 * default, date_range (spec §9). `batch_related_date` (with the batch's dates) is allowed: a saved
 * report may be of any report type. Other fields (the problems chosen, a batch, a form) are the
 * screen's and are kept as sent.
 */
const filters = z.preprocess(
  (value) => (isBlank(value) ? undefined : value),
  z
    .custom<Record<string, unknown>>((value) => isPlainObject(value) && jsonLength(value) <= REPORT_FILTERS_MAX_CHARS, { error: m.filtersInvalid })
    .transform((value, context): SavedReportFilters => {
      const { date_type, date_range, weeks_ago, ...others } = value;
      const range = isPlainObject(date_range) ? date_range : {};
      const option = isBlank(date_type) ? undefined : typeof date_type === 'string' ? date_type.trim() : String(date_type);
      const checked = periodOf(
        { date_option: option, weeks_ago: isBlank(weeks_ago) ? undefined : weeks_ago, start_date: range.start_date, end_date: range.end_date },
        { today: todayUtc(), allowBatchRelated: true, fallback: 'date_range' },
      );
      if ('error' in checked) {
        context.addIssue({ code: 'custom', message: checked.error });
        return z.NEVER;
      }
      const dateType = (option ?? 'date_range') as SavedReportFilters['date_type'];
      return {
        ...others,
        date_type: dateType,
        date_range: dateType === 'weeks_ago' ? null : { start_date: checked.period.start, end_date: checked.period.end },
        weeks_ago: dateType === 'weeks_ago' ? Number(weeks_ago) : null,
      };
    })
    .optional(),
);

/** Room ids: a JSON array of ids (spec §5 "room ids must be an array"); none, no rooms chosen. */
const roomIds = z.preprocess(
  (value) => (value === undefined || value === null ? [] : value),
  z
    .array(requiredId(reportMessages.roomIdsArray), { error: reportMessages.roomIdsArray })
    .max(1000, { error: reportMessages.roomIdsArray })
    .transform((ids) => [...new Set(ids)]),
);

/**
 * The data, stored as sent. WARNING: it leaves the schema as JSON text, so that the tenancy guard,
 * which reads the validated body for ids at any depth, does not take a `room_id` of a chart's row
 * (a room deleted since, say) for a record the request acts on: the data is a picture of answers the
 * company already had, not a reference.
 */
const reportData = z
  .array(z.unknown(), { error: m.reportDataArray })
  .transform((data) => JSON.stringify(data))
  .refine((text) => text.length <= REPORT_DATA_MAX_CHARS, { error: m.reportDataTooLarge });

// ——— Requests ———

/**
 * save_report (spec §5, §7): a new report of the company, or, with `report_id` (or its client id), the
 * whole of that report saved again (a rename or a change: the screen sends all it shows).
 */
export const saveReportBody = z.preprocess(
  orEmpty,
  z.object({
    company_id: requiredId(m.companyIdRequired),
    report_id: reportId(m.reportIdInvalid).optional(),
    report_name: requiredText(m.reportNameRequired, REPORT_NAME_MAX_CHARS),
    chart_type: chartType,
    report_data: reportData,
    filters,
    report_type: z.preprocess((value) => (isBlank(value) ? undefined : value), z.string({ error: m.reportTypeInvalid }).trim().max(100, { error: m.reportTypeInvalid }).optional()),
    room_ids: roomIds,
    client_id: optionalClientId(),
  }),
);

/** get_saved_reports: the company's reports, or the one named. */
export const savedReportsQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  report_id: reportId(m.reportIdInvalid).optional(),
});

/** delete_report (spec §5 "Delete report needs a report id"). */
export const deleteReportBody = z.preprocess(
  orEmpty,
  z.object({ report_id: reportId(m.reportIdRequired) }),
);

const SLOT_FIELD = /^report_id(\d+)$/;
const slotId = z.preprocess((value) => (isBlank(value) ? null : value), requiredId(m.dashboardSlotInvalid).nullable());

/**
 * set_dashboard_reports: the whole dashboard, slot by slot (report_id1 to report_id4); a slot left out
 * or empty is empty, so a repeat of the call sets the same dashboard. A fifth slot is refused, and one
 * report in two slots (by its id and by its client id alike: both arrive as its id). The slots stay
 * under their names: the tenancy guard reads them in the validated body.
 */
export const setDashboardReportsBody = z.preprocess(
  orEmpty,
  z
    .looseObject({
      company_id: requiredId(m.companyIdRequired),
      report_id1: slotId,
      report_id2: slotId,
      report_id3: slotId,
      report_id4: slotId,
    })
    .superRefine((body, context) => {
      const beyond = Object.keys(body).some((key) => {
        const slot = SLOT_FIELD.exec(key)?.[1];
        return slot !== undefined && (Number(slot) < 1 || Number(slot) > DASHBOARD_SLOTS);
      });
      if (beyond) context.addIssue({ code: 'custom', message: m.dashboardTooMany });
      const named = dashboardSlotsOf(body).filter((id) => id !== null);
      if (new Set(named).size < named.length) context.addIssue({ code: 'custom', message: m.dashboardRepeated });
    })
    .transform(({ company_id, report_id1, report_id2, report_id3, report_id4 }) => ({ company_id, report_id1, report_id2, report_id3, report_id4 })),
);

/** The dashboard's slots in order (report_id1 to report_id4): a report id, or null for an empty one. */
export const dashboardSlotsOf = (body: { report_id1: number | null; report_id2: number | null; report_id3: number | null; report_id4: number | null }) => [
  body.report_id1,
  body.report_id2,
  body.report_id3,
  body.report_id4,
];

/**
 * The reports whose place differs between two dashboards (a report id or null per slot, in order),
 * each with its place on the next one (1 to 4, or null when it left). Ids are compared as text: a
 * tablet names a report by its client id or by its integer id.
 */
export function dashboardMoves<Id extends string | number>(current: ReadonlyArray<Id | null>, next: ReadonlyArray<Id | null>): Array<{ id: Id; slot: number | null }> {
  const slotIn = (slots: ReadonlyArray<Id | null>, id: Id) => slots.findIndex((each) => each !== null && String(each) === String(id));
  const ids = new Map([...current, ...next].filter((id): id is Id => id !== null).map((id) => [String(id), id]));
  return [...ids.values()].filter((id) => slotIn(current, id) !== slotIn(next, id)).map((id) => ({ id, slot: slotIn(next, id) === -1 ? null : slotIn(next, id) + 1 }));
}

export const companyReportsQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

/** share_report and get_report_shares: the report. */
export const reportOnlyBody = z.preprocess(orEmpty, z.object({ report_id: reportId(m.reportIdRequired) }));
export const reportOnlyQuery = z.object({ report_id: reportId(m.reportIdRequired) });

export const revokeReportShareBody = z.preprocess(orEmpty, z.object({ share_id: requiredId(m.shareIdRequired) }));

/** The public read of a shared report: its link's token only. */
export const sharedReportQuery = z.object({ token: requiredText(m.tokenRequired, 200) });

// ——— Answers ———

/** A saved report, as the answers show it (and, later, the synced `reports` collection). */
export const savedReportRecord = z.object({
  report_id: recordRef,
  report_name: z.string(),
  chart_type: z.enum(CHART_TYPES),
  report_data: z.array(z.unknown()),
  filters: savedReportFilters.nullable(),
  report_type: z.string().nullable(),
  room_ids: z.array(recordRef),
  company_id: z.number().int(),
  /** The author: who may change or delete it besides an Admin. */
  user_id: z.number().int().nullable(),
  created_at: timestamp,
  /** When it last changed (saved again, renamed, put on or taken off the dashboard). */
  updated_at: timestamp,
  /** When its data was computed (when it was last saved), shown beside it, offline too. */
  computed_at: timestamp,
  /** Its place on the company's dashboard (1 to 4), or null. */
  dashboard_slot: z.number().int().min(1).max(DASHBOARD_SLOTS).nullable(),
});

export type SavedReportRecord = z.infer<typeof savedReportRecord>;

export const saveReportAnswer = answer({ report: savedReportRecord, report_id: recordRef, client_id: z.string() });
export const savedReportsAnswer = answer({ reports: z.array(savedReportRecord) });
export const deleteReportAnswer = answer({ report_id: recordRef });

const dashboardSlot = recordRef.nullable();

/** The dashboard: which report each slot holds (null: empty), and those reports in slot order (each with its `dashboard_slot`). */
export const dashboardReportsAnswer = answer({
  report_id1: dashboardSlot,
  report_id2: dashboardSlot,
  report_id3: dashboardSlot,
  report_id4: dashboardSlot,
  reports: z.array(savedReportRecord),
});

/** A link to a saved report, as its Admins see it: never its token or the token's hash. */
export const reportShareRecord = z.object({
  share_id: z.number().int(),
  report_id: recordRef,
  created_by: z.number().int().nullable(),
  created_at: timestamp,
  revoked_at: timestamp.nullable(),
  revoked_by: z.number().int().nullable(),
});

export type ReportShareRecord = z.infer<typeof reportShareRecord>;

/** The token is answered once, here; the server keeps only its hash. `path` is the web app's page for it. */
export const shareReportAnswer = answer({ share: reportShareRecord, token: z.string(), path: z.string(), url: z.string() });
export const reportSharesAnswer = answer({ shares: z.array(reportShareRecord) });
export const revokeReportShareAnswer = answer({ share: reportShareRecord });

/** What a link shows, and nothing more: no ids, no rooms, no company, no author. */
export const sharedReport = z.object({
  report_name: z.string(),
  chart_type: z.enum(CHART_TYPES),
  report_type: z.string().nullable(),
  filters: savedReportFilters.nullable(),
  report_data: z.array(z.unknown()),
  computed_at: timestamp,
});

export const sharedReportAnswer = answer({ report: sharedReport });
