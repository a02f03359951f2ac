/**
 * What the audit trail screen works out, as pure functions: which events a filter keeps, the trail's
 * order, where the tablet's window of events ends, how a page of the server's events is scanned for
 * those older than it, and an event's details in a grower's words.
 *
 * Events name records two ways: those of the local `audit_events` collection by client ids (the
 * pull's naming), those read from the server (`getAuditEvents`) by the spec's integer ids. Lookups
 * are therefore keyed by both (`recordIndex`).
 */
import type { AuditEventRecord } from '../../../common/schemas/audit';
import type { LocalDocument } from '../../db/schemas';
import { AUDIT_WINDOW_DAYS } from '../../../common/messages/audit';
import { i18next } from '../../i18n/i18n';
import { addDays, localDay, today } from '../observations/model';
import { auditTexts } from './texts';
import { LANGUAGE_NAMES, supportedLanguage } from '../../../common/i18n/languages';

/** Days of events the tablet holds: the window of the `audit_events` pull. */
export const LOCAL_WINDOW_DAYS = AUDIT_WINDOW_DAYS;

/** Events shown at once, and added by each "Show more". */
export const PAGE_SIZE = 50;

/** Events asked of the server per request when reading beyond the window (the server allows 500). */
export const SERVER_PAGE_SIZE = 200;

export type AuditEventDoc = LocalDocument & AuditEventRecord;

/** One line of the trail: the event, and its local document when the tablet holds it (pending marks, corrections). */
export interface TrailEvent {
  key: string;
  event: AuditEventRecord;
  document: AuditEventDoc | null;
}

export const localEvent = (document: AuditEventDoc): TrailEvent => ({ key: document.id, event: document, document });
export const serverEvent = (event: AuditEventRecord): TrailEvent => ({ key: `server:${String(event.EventID)}`, event, document: null });

/** The first day of which the tablet holds every event (events of earlier days are read from the server). */
export const firstLocalDay = (now = today()) => addDays(now, -(LOCAL_WINDOW_DAYS - 1));

export const isOlderThanWindow = (event: Pick<AuditEventRecord, 'CreatedAt'>, firstDay: string) => localDay(event.CreatedAt) < firstDay;

/** The screen's filters: rooms and batches by their local id, the user by id, days (yyyy-mm-dd, both ends included). */
export interface TrailFilter {
  room?: string;
  batch?: string;
  user?: number;
  from?: string;
  to?: string;
}

/** Whether a filter reaches days the tablet does not hold, so older events must come from the server. */
export const reachesBeyondWindow = (filter: TrailFilter, firstDay: string) => !filter.from || filter.from < firstDay;

/** Documents by their local id and by their server id (as text), for events of either naming. */
export function recordIndex<T extends LocalDocument>(documents: readonly T[]): Map<string, T> {
  const index = new Map<string, T>();
  for (const document of documents) {
    index.set(document.id, document);
    if (typeof document.serverId === 'number') index.set(String(document.serverId), document);
  }
  return index;
}

const refersTo = (reference: unknown, localId: string, index: ReadonlyMap<string, LocalDocument>) =>
  reference !== null && reference !== undefined && index.get(String(reference))?.id === localId;

/** Whether an event passes the room and batch filters (what the server filters too). */
export function inPlace(event: AuditEventRecord, filter: TrailFilter, rooms: ReadonlyMap<string, LocalDocument>, batches: ReadonlyMap<string, LocalDocument>): boolean {
  if (filter.room && !refersTo(event.RoomID, filter.room, rooms)) return false;
  if (filter.batch && !refersTo(event.BatchID, filter.batch, batches)) return false;
  return true;
}

/** Whether an event passes the user and day filters (what the tablet filters alone). */
export function byWhoAndWhen(event: AuditEventRecord, filter: TrailFilter): boolean {
  if (filter.user !== undefined && event.UserID !== filter.user) return false;
  const day = localDay(event.CreatedAt);
  if (filter.from && day < filter.from) return false;
  if (filter.to && day > filter.to) return false;
  return true;
}

/** Newest first; events of one moment by their key, so the order never jumps between renders. */
export function newestFirst(a: TrailEvent, b: TrailEvent): number {
  const at = Date.parse(b.event.CreatedAt) - Date.parse(a.event.CreatedAt);
  if (at !== 0 && !Number.isNaN(at)) return at;
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/**
 * Where the scan of the server's events stands. The server lists a company's events newest first and
 * filters only by room and batch, so the events older than the window come after those inside it:
 * the scan starts past the ones the tablet already holds (`offset`, an estimate from the local
 * store) and checks that estimate on its first page.
 */
export interface ScanState {
  offset: number;
  /** False until a page has shown the estimate did not skip older events. */
  checked: boolean;
  complete: boolean;
}

/**
 * One page of the server's answer, scanned: the events older than the window that pass the user and
 * day filters, and where the next page starts. An estimate that landed among older events may have
 * skipped some, so the scan then restarts from the top (`restart`). Past the filter's first day, and
 * at a short page, there is nothing more to read.
 */
export function scanPage(page: readonly AuditEventRecord[], state: ScanState, filter: TrailFilter, firstDay: string, pageSize = SERVER_PAGE_SIZE): { found: AuditEventRecord[]; next: ScanState; restart: boolean } {
  const first = page[0];
  if (!state.checked && state.offset > 0 && first && isOlderThanWindow(first, firstDay)) {
    return { found: [], next: { offset: 0, checked: true, complete: false }, restart: true };
  }
  const found: AuditEventRecord[] = [];
  let complete = page.length < pageSize;
  for (const event of page) {
    if (!isOlderThanWindow(event, firstDay)) continue;
    if (filter.from && localDay(event.CreatedAt) < filter.from) {
      complete = true;
      break;
    }
    if (byWhoAndWhen(event, filter)) found.push(event);
  }
  return { found, next: { offset: state.offset + page.length, checked: true, complete }, restart: false };
}

/** How far past the local events the scan may safely start: a margin for events deleted since the last pull. */
export const scanStart = (localOnServer: number) => Math.max(0, localOnServer - 20);

// ——— Words ———
// Called at render, so they say it in the reader's language (src/i18n); keys the screen does not know
// are shown by the words of their name (English, as the server names them).

/** What the screen names records by. Ids may be client ids or server ids. */
export interface Names {
  room(id: unknown): string | null;
  batch(id: unknown): string | null;
  grid(id: unknown): string | null;
}

export interface Fact {
  label: string;
  value: string;
}

/** "BatchNumber" and "number_of_plants" as words: "batch number", "number of plants". */
export function words(key: string): string {
  return key
    .replace(/_ids?$/i, (suffix) => (suffix.toLowerCase() === '_ids' ? 's' : ''))
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The audit texts in the reader's language. */
const texts = () => i18next.getFixedT(null, auditTexts);

/** A language code as its own name says it ("es" → "Español"); a code the app does not speak as stored. */
const languageName = (code: unknown) => {
  const language = supportedLanguage(code);
  return language ? LANGUAGE_NAMES[language] : String(code);
};
const capital = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);
const quoted = (value: unknown) => texts()('detail.quoted', { value: String(value) });
const position = (value: unknown) => {
  const place = value as { subx?: unknown; suby?: unknown } | null;
  return place && typeof place === 'object' && place.subx != null && place.suby != null ? texts()('detail.position', { x: String(place.subx), y: String(place.suby) }) : null;
};

/** The details the screen names in words (locales: detail.label, detail.newLabel). */
type Label =
  | 'title'
  | 'language'
  | 'room'
  | 'fromRoom'
  | 'batch'
  | 'grid'
  | 'formResponse'
  | 'fromPosition'
  | 'toPosition'
  | 'reason'
  | 'plant'
  | 'gridsDeleted'
  | 'changed'
  | 'plantPositions'
  | 'boxes'
  | 'grids'
  | 'problems'
  | 'formResponses'
  | 'formTemplates';
type Counted = 'plantPositions' | 'boxes' | 'grids' | 'problems' | 'formResponses' | 'formTemplates' | 'changed';

/** Counted lists of ids, by key: what a grower reads instead of the ids. */
const COUNTED: Record<string, Counted> = {
  sub_gridbox_ids: 'plantPositions',
  grid_box_ids: 'boxes',
  grid_ids: 'grids',
  problem_ids: 'problems',
  response_ids: 'formResponses',
  template_ids: 'formTemplates',
  changed: 'changed',
};

/** Ids of records the screen cannot name (and a grower would not read), and what the title already says. */
const UNSPOKEN = new Set(['template_id', 'tray_id', 'invitation_id', 'rule_id', 'movement_id', 'sub_gridbox_id', 'from_parent_gridbox_id', 'file', 'culled']);

function fact(key: string, value: unknown, names: Names, changed = false): Fact | null {
  const t = texts();
  const label = (name: Label) => (changed ? t(`detail.newLabel.${name}`) : t(`detail.label.${name}`));
  // A key the screen has no words for: its own name in words.
  const named = (text: string) => (changed ? t('detail.newOther', { label: text }) : capital(text));
  if (value === undefined || UNSPOKEN.has(key)) return null;
  switch (key) {
    case 'event_title':
      return { label: label('title'), value: quoted(value) };
    case 'language':
      return { label: label('language'), value: languageName(value) };
    case 'room_id':
    case 'from_room_id':
      return { label: label(key === 'room_id' ? 'room' : 'fromRoom'), value: value === null ? t('detail.none') : (names.room(value) ?? t('detail.roomNotHere')) };
    case 'batch_id':
      return { label: label('batch'), value: value === null ? t('detail.none') : (names.batch(value) ?? t('detail.batchNotHere')) };
    case 'grid_id': {
      const grid = names.grid(value);
      return grid ? { label: label('grid'), value: grid } : null;
    }
    case 'response_id':
      return value === null ? { label: label('formResponse'), value: t('detail.none') } : null;
    case 'from_position':
    case 'to_position': {
      const place = position(value);
      return place ? { label: label(key === 'from_position' ? 'fromPosition' : 'toPosition'), value: place } : null;
    }
    case 'movement_reason':
      return value ? { label: label('reason'), value: String(value) } : null;
    case 'plant_id':
      return value ? { label: label('plant'), value: String(value) } : null;
    case 'grids':
      return typeof value === 'number' ? { label: label('gridsDeleted'), value: String(value) } : null;
    case 'fields':
      return Array.isArray(value) && value.length > 0 ? { label: label('changed'), value: value.map((item) => words(String(item))).join(', ') } : null;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    const counted = COUNTED[key];
    return counted
      ? { label: label(counted), value: t(`detail.counted.${counted}`, { count: value.length }) }
      : { label: named(words(key)), value: t('detail.countedOther', { count: value.length, what: words(key) }) };
  }
  if (/_id$/.test(key) || value === null || typeof value === 'object') return null;
  return { label: named(words(key)), value: typeof value === 'boolean' ? (value ? t('detail.yes') : t('detail.no')) : String(value) };
}

/**
 * An event's details (server/domains/audit/record.ts `details`) as labelled facts in words: names for
 * rooms, batches and grids the tablet knows, counts for lists of ids, and nothing for ids a grower
 * cannot use. Unknown keys are shown by their words, so a new kind of event still reads.
 */
export function describeDetails(details: Record<string, unknown> | null | undefined, names: Names): Fact[] {
  if (!details) return [];
  const t = texts();
  const facts: Fact[] = [];
  const push = (item: Fact | null) => item && facts.push(item);
  const { before, changes, title, from, to, status, ...rest } = details;
  // A correction of the trail (server/domains/audit/routes.ts): the title it had, then what changed.
  if (before !== undefined) push({ label: t('detail.titleBefore'), value: quoted(before) });
  if (changes && typeof changes === 'object' && !Array.isArray(changes)) {
    for (const [key, value] of Object.entries(changes)) push(fact(key, value, names, true));
  }
  if (title !== undefined) push({ label: t('detail.titleWas'), value: quoted(title) });
  if (from !== undefined || to !== undefined) push({ label: t('detail.status'), value: [from, to].filter((part) => part !== undefined && part !== null).map(String).join(' → ') });
  if (status !== undefined && status !== null) push({ label: t('detail.status'), value: String(status) });
  for (const [key, value] of Object.entries(rest)) push(fact(key, value, names));
  return facts;
}

/** Who did it: the name the server recorded, else the company's user on this tablet. Null user: the system (an operator command). */
export function whoDid(event: Pick<AuditEventRecord, 'UserID' | 'UserName'>, users: ReadonlyMap<number, string>): string {
  if (event.UserName) return event.UserName;
  if (event.UserID === null) return texts()('system');
  return users.get(event.UserID) ?? texts()('userNumber', { id: event.UserID });
}
