/**
 * What the observations screen works out, as pure functions: calendar days (the tablet's own, as the
 * grower reads a date), the default range, whether a range reaches past what the tablet holds, and
 * the responses of a range grouped by box.
 */
import { FORM_RESPONSES_WINDOW_DAYS } from '../../../common/messages/forms';
import { type FormResponse, newestFirst } from '../../api/form-responses';

/** Days of responses the tablet holds (the window of the `form_responses` pull), plus everything filled on it. */
export const LOCAL_WINDOW_DAYS = FORM_RESPONSES_WINDOW_DAYS;
/** The default range: the last 7 days, today included. */
export const DEFAULT_RANGE_DAYS = 7;

const pad = (value: number) => String(value).padStart(2, '0');

/** yyyy-mm-dd of a moment in the tablet's time zone. */
export function localDay(moment: Date | string): string {
  const date = typeof moment === 'string' ? new Date(moment) : moment;
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** yyyy-mm-dd plus `days` (negative: back). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  return localDay(new Date(year!, month! - 1, date! + days));
}

export const today = () => localDay(new Date());

export function defaultRange(now = today()): { start: string; end: string } {
  return { start: addDays(now, -(DEFAULT_RANGE_DAYS - 1)), end: now };
}

/** The first day the tablet holds every response of. */
export const firstLocalDay = (now = today()) => addDays(now, -(LOCAL_WINDOW_DAYS - 1));

export const isDay = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && localDay(new Date(`${value}T00:00:00`)) === value;

/** Whether a response was submitted on a day of the range (both ends included, the tablet's days). */
export function withinDays(response: Pick<FormResponse, 'SubmittedAt'>, start: string, end: string): boolean {
  const day = localDay(response.SubmittedAt);
  return day !== '' && day >= start && day <= end;
}


/** Responses of both sources once each (by response id); the local copy wins, since it knows what is still pending here. */
export function mergeResponses(local: Array<FormResponse & { serverId?: unknown }>, loaded: FormResponse[], boxes: ReadonlyArray<{ id: string; serverId?: unknown }>): FormResponse[] {
  // The server's answer names records by the spec's integer ids, the tablet by client ids: a loaded
  // response is the local one with that `serverId`, and its box the local box with that `serverId`.
  const boxIdOf = new Map(boxes.filter((box) => typeof box.serverId === 'number').map((box) => [String(box.serverId), box.id]));
  const byId = new Map<string, FormResponse>();
  for (const response of loaded) byId.set(String(response.ResponseID), { ...response, GridBoxID: boxIdOf.get(String(response.GridBoxID)) ?? response.GridBoxID });
  for (const response of local) byId.set(String(typeof response.serverId === 'number' ? response.serverId : response.ResponseID), response);
  return [...byId.values()].sort(newestFirst);
}

/** Responses by box id (as text), each list newest first. */
export function byBox(responses: FormResponse[]): Map<string, FormResponse[]> {
  const map = new Map<string, FormResponse[]>();
  for (const response of responses) {
    if (response.GridBoxID === null || response.GridBoxID === undefined) continue;
    const key = String(response.GridBoxID);
    map.set(key, [...(map.get(key) ?? []), response]);
  }
  for (const list of map.values()) list.sort(newestFirst);
  return map;
}
