/**
 * Messages of trends, reports, saved reports and the dashboard (spec part 2 §5 "Reports and trends",
 * §7). Where §5 states a rule without its words, the message says the rule in the spec's field names.
 */

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
} as const;
