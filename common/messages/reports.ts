/**
 * Messages of trends, reports, saved reports and the dashboard (spec part 2 §5 "Reports and trends",
 * §7). Where §5 states a rule without its words, the message says the rule in the spec's field names.
 */
import { thousands } from './numbers';

/** How a report's period is chosen (spec §5): the last weeks, a date range, or a batch's dates. */
export const DATE_OPTIONS = ['weeks_ago', 'date_range', 'batch_related_date'] as const;
export type DateOption = (typeof DATE_OPTIONS)[number];

/** The longest period a report covers: five years of weeks. */
export const REPORT_WEEKS_MAX = 260;

export const reportMessages = {
  // Spec §5, exact.
  invalidDateOption: 'Invalid date_option provided.',
  // Spec §5 rules, in its field names.
  companyIdRequired: 'company_id is required.',
  weeksAgoInvalid: `weeks_ago must be a whole number of weeks from 1 to ${REPORT_WEEKS_MAX}.`,
  startDateInvalid: 'start_date must be a date as yyyy-mm-dd.',
  endDateInvalid: 'end_date must be a date as yyyy-mm-dd.',
  endBeforeStart: 'end_date must not be before start_date.',
  periodTooLong: `A report covers at most ${REPORT_WEEKS_MAX} weeks.`,
  roomIdsArray: 'room_ids must be an array of room ids.',
  // The client's default when a trend call fails without a message.
  fetchFailed: 'Failed to fetch the report.',
  // Trends (spec §5 rules, in its field names).
  roomIdRequired: 'room_id is required.',
  roomIdInvalid: 'room_id must be a room id.',
  batchIdRequired: 'batch_id is required.',
  batchIdInvalid: 'batch_id must be a batch id.',
  gutterBatchInvalid: 'batch_id must be a batch id or NULL.',
  problemRequired: 'problem is required.',
  gutterRoomsRequired: 'Gutter trends need at least one room in room_ids.',
  gutterProblemsRequired: 'Gutter trends need at least one plant problem in plant_problems.',
  plantProblemsInvalid: 'plant_problems must be an array of problem names.',
  fieldIdRequired: 'FieldID is required.',
  formCategoryInvalid: 'form_category must be a form category.',
  specificFormInvalid: 'specificForm must be a form template id.',
  includeImagesOnlyInvalid: 'include_images_only must be 0 or 1.',
  productNameInvalid: 'product_name must be a product name.',
  batchDatesMissing: 'batch_related_date needs start_date and end_date, or a batch with a start date.',
} as const;

// ——— Saved reports, the dashboard and shared links (issue 15) ———

/**
 * How a saved report is drawn (spec part 2 §2: line chart by default; issue 15: bar, stacked bar, area,
 * and the heat map by row and week). The names are echarts' where it has one (`line`, `bar`, `heatmap`).
 */
export const CHART_TYPES = ['line', 'bar', 'stacked_bar', 'area', 'heatmap'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const DEFAULT_CHART_TYPE: ChartType = 'line';

/** The dashboard's slots, report_id1 to report_id4 (spec §3, §9). */
export const DASHBOARD_SLOTS = 4;

/**
 * Size of a saved report's data as JSON text: a year of weeks for 20 rooms and 20 problems is about
 * 300,000 characters; more is a report nobody reads, and it travels to every tablet.
 */
export const REPORT_DATA_MAX_CHARS = 500_000;
/** Size of a saved report's filters as JSON text (the date option plus the screen's other choices). */
export const REPORT_FILTERS_MAX_CHARS = 20_000;
export const REPORT_NAME_MAX_CHARS = 200;

export const savedReportMessages = {
  // Spec §5 rules ("Save report needs company, name, chart type and a report data array; room ids must
  // be an array; date range filters need start and end"; "Delete report needs a report id";
  // "Dashboard settings need company id"), in its field names. The date option's messages are
  // `reportMessages`' (common/schemas/report-dates.ts `periodOf`).
  companyIdRequired: 'company_id is required.',
  reportNameRequired: `report_name is required (at most ${REPORT_NAME_MAX_CHARS} characters).`,
  chartTypeRequired: 'chart_type is required.',
  chartTypeInvalid: `chart_type must be one of ${CHART_TYPES.join(', ')}.`,
  reportDataArray: 'report_data must be an array.',
  reportDataTooLarge: `report_data may hold at most ${thousands(REPORT_DATA_MAX_CHARS)} characters as JSON: save a shorter period or fewer rooms.`,
  filtersInvalid: `filters must be an object with date_type and date_range (start_date and end_date), of at most ${thousands(REPORT_FILTERS_MAX_CHARS)} characters.`,
  reportTypeInvalid: 'report_type must be a text of at most 100 characters.',
  reportIdRequired: 'report_id is required.',
  reportIdInvalid: 'report_id must be a saved report id or its client id.',
  dashboardSlotInvalid: `report_id1 to report_id${DASHBOARD_SLOTS} must each be a saved report id, its client id, or empty.`,
  dashboardTooMany: `The dashboard holds at most ${DASHBOARD_SLOTS} reports (report_id1 to report_id${DASHBOARD_SLOTS}).`,
  dashboardRepeated: 'A report can be on the dashboard only once.',
  notAuthor: 'Only the author of this report or an Admin may change or delete it.',
  shareIdRequired: 'share_id is required.',
  tokenRequired: 'token is required.',
  shareNotFound: 'This report link does not exist or has been revoked.',
  // Answers.
  reportSaved: 'Report saved successfully.',
  reportUpdated: 'Report updated successfully.',
  reportDeleted: 'Report deleted successfully.',
  dashboardSaved: 'Dashboard reports saved.',
  reportShared: 'Report link created. It is shown only once: copy it now.',
  shareRevoked: 'Report link revoked.',
  shareAlreadyRevoked: 'This report link was already revoked.',
  // The client's defaults when a call fails without a message (spec §8).
  saveReportFailed: 'Failed to Save Report',
  fetchSavedReportsFailed: 'Failed to Fetch Saved Reports',
  // Ours (the spec names no message for the links).
  fetchSharesFailed: 'Failed to fetch the report’s links.',
  revokeShareFailed: 'Failed to revoke the report link.',
} as const;
