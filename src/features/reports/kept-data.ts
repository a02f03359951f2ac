/**
 * The data a saved report last showed on this tablet when it was read again (its screen, the
 * dashboard), kept so that it shows offline with the time it was computed (issue 15 "Offline").
 *
 * Decision: a read is kept on this tablet only, in local storage (at most a report's data, which the
 * server caps at REPORT_DATA_MAX_CHARS), not saved to the server: every tablet refreshing a dashboard
 * would otherwise write to the company's reports each few minutes. The report's saved data, in the
 * reports collection, is what every other tablet has; whichever is newer is shown.
 */
import { readKept, writeKept } from '../../app/kept';

const KEY_PREFIX = 'growroom.report-data.';

export interface KeptData {
  data: unknown[];
  computedAt: string;
}

const keyOf = (reportId: string) => `${KEY_PREFIX}${reportId}`;

const isKeptData = (value: unknown): value is KeptData => {
  const kept = value as Partial<KeptData> | null;
  return Boolean(kept) && Array.isArray(kept?.data) && typeof kept?.computedAt === 'string';
};

export function keptData(reportId: string): KeptData | null {
  const kept = readKept(keyOf(reportId), isKeptData);
  return kept && { data: kept.data, computedAt: kept.computedAt };
}

/** Storage full or refused (a private window): the report's saved data still shows offline. */
export function keepData(reportId: string, kept: KeptData): void {
  writeKept(keyOf(reportId), kept);
}
