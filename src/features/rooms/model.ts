/**
 * The rooms area's view of the local store: the document shapes the screens read (the server's JSON of
 * src/api/rooms.ts plus the string link keys), and pure helpers for what the screens show (box
 * numbers by the company's grid order, names, times).
 */
import { boxNumber } from '../../../common/grid-order';
import { type GridOrder, GRID_ORDERS, SETTINGS_DEFAULTS } from '../../../common/messages/settings';
import type { BatchDocument } from '../../api/batches';
import type { GridBoxDocument, GridRecord } from '../../../common/schemas/grids';
import type { RoomRecord } from '../../../common/schemas/rooms';
import type { UserRecord } from '../../../common/schemas/users';
import type { SubGridbox } from '../../api/subgrids';
import type { LocalDocument } from '../../db/schemas';
import { formatDate } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { roomsTexts } from './texts';

export type RoomDoc = LocalDocument & Partial<RoomRecord>;
export type GridDoc = LocalDocument & Partial<Omit<GridRecord, 'id'>> & { roomId: string };
export type BoxDoc = LocalDocument & Partial<Omit<GridBoxDocument, 'id' | 'sub_gridboxes'>> & { gridId: string; sub_gridboxes?: SubGridbox[] | null };
export type BatchDoc = LocalDocument & Partial<Omit<BatchDocument, 'problems'>> & { problems?: BatchDocument['problems'] | null };

/** The users' fields the rooms area reads from the company's document (common/schemas/users.ts `userRecord`). */
export type CompanyUserJson = Pick<UserRecord, 'user_id' | 'first_name' | 'last_name' | 'email'>;

export type CompanyDoc = LocalDocument & {
  settings?: { grid_order?: string | null; grid_opacity?: number | null; auto_refresh?: number | null } | null;
  users?: CompanyUserJson[] | null;
};

/** The company's grid order, or the default (`row`) when the company's document has not arrived yet. */
export function gridOrderOf(company: CompanyDoc | null): GridOrder {
  const order = company?.settings?.grid_order;
  return (GRID_ORDERS as readonly string[]).includes(order ?? '') ? (order as GridOrder) : SETTINGS_DEFAULTS.grid_order;
}

/** The company's grid opacity, 0–1 (default 1). */
export function gridOpacityOf(company: CompanyDoc | null): number {
  const opacity = Number(company?.settings?.grid_opacity);
  return company?.settings?.grid_opacity != null && Number.isFinite(opacity) ? Math.min(1, Math.max(0, opacity)) : SETTINGS_DEFAULTS.grid_opacity;
}

/** The grid's size: its own nx × ny, or what its boxes span when a document lacks them. */
export function gridSize(grid: GridDoc, boxes: BoxDoc[]): { nx: number; ny: number } {
  const nx = Number(grid.nx) || Math.max(1, ...boxes.map((box) => Number(box.X) || 1));
  const ny = Number(grid.ny) || Math.max(1, ...boxes.map((box) => Number(box.Y) || 1));
  return { nx, ny };
}

/**
 * The local queries of a room's screen, named once: RoomScreen and the preload (preload.ts) must make
 * the very same ones for RxDB to answer the screen from what the preload read.
 */
export const roomQueries = {
  grids: (roomId: string) => ({ roomId }),
  /** `gridIds` in the screen's order (byCreation). */
  boxes: (gridIds: string[]) => ({ gridId: { $in: gridIds } }),
};

/** A stored box's number in the room (common/grid-order.ts `boxNumber`), from its position in its nx × ny grid. */
export function numberOfBox(order: GridOrder, box: BoxDoc, nx: number, ny: number): number {
  return boxNumber(order, Number(box.X) || 1, Number(box.Y) || 1, nx, ny);
}

/**
 * "Box {{number}}" in the reader's language, split where the number goes: screens name thousands of
 * boxes at a time (a 2,000-box room, its pest pressure map), and an i18next lookup for each would cost
 * a tablet a noticeable moment. Made again when the language changes or its texts arrive.
 */
let boxWords: string[] | null = null;
const forgetBoxWords = () => {
  boxWords = null;
};
i18next.on('languageChanged', forgetBoxWords);
i18next.on('loaded', forgetBoxWords);
const NUMBER_SLOT = '\u0000';

/** What a box is called on screen: its custom name, else "Box 12" in the reader's language. */
export function boxLabel(box: BoxDoc, number: number): string {
  const custom = box.CustomName?.trim();
  if (custom) return custom;
  boxWords ??= i18next.t('box.label', { ns: roomsTexts, number: NUMBER_SLOT }).split(NUMBER_SLOT);
  return boxWords.join(String(number));
}

/** A user's name from the company's document, for "scanned by"; null when unknown. */
export function userName(company: CompanyDoc | null, userId: number | null | undefined): string | null {
  if (userId == null) return null;
  const user = company?.users?.find((candidate) => candidate.user_id === userId);
  if (!user) return null;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return name || user.email;
}

/** A date and time as the reader writes it (src/i18n/format.ts; empty for none). */
export function when(iso: string | null | undefined): string {
  return iso ? formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/** "Scanned 3 May 2025, 10:12 by Ana Silva" / "Not scanned", in the reader's language. */
export function scanText(document: { Scanned?: boolean | null; ScannedDateTime?: string | null; LastScannedBy?: number | null }, company: CompanyDoc | null): string {
  const t = (key: 'notScanned' | 'scanned' | 'scannedAt' | 'scannedBy' | 'scannedAtBy', values: { at?: string; by?: string } = {}) => i18next.t(`scan.${key}`, { ns: roomsTexts, ...values });
  if (!document.Scanned) return t('notScanned');
  const by = userName(company, document.LastScannedBy);
  const at = when(document.ScannedDateTime);
  if (at && by) return t('scannedAtBy', { at, by });
  if (at) return t('scannedAt', { at });
  return by ? t('scannedBy', { by }) : t('scanned');
}

/** Names sort as growers number rooms: "Room 2" before "Room 10". */
export const byName = (a: { Name?: string | null }, b: { Name?: string | null }) => String(a.Name ?? '').localeCompare(String(b.Name ?? ''), undefined, { numeric: true, sensitivity: 'base' });

/** The open problems of a batch (its problem list when present, else the server's count). */
export function openProblems(batch: BatchDoc): number {
  if (Array.isArray(batch.problems)) return batch.problems.filter((problem) => !problem.resolved).length;
  return Number(batch.open_problems) || 0;
}

/** A room's boxes by their grid's id. */
export function boxesByGrid<T extends { id: string; gridId: string }>(boxes: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const box of boxes) {
    const list = map.get(box.gridId);
    if (list) list.push(box);
    else map.set(box.gridId, [box]);
  }
  return map;
}

const WEEK_MS = 7 * 86_400_000;

/**
 * The boxes whose sticky trap was read recently: a Sticky Trap response within the last `weeks` weeks
 * (the company's sticky-trap render value, README "Company settings"; 0 shows none).
 */
export function recentTrapBoxIds(responses: ReadonlyArray<Record<string, unknown>>, weeks: number, now = Date.now()): Set<string> {
  if (!(weeks > 0)) return new Set();
  const since = now - weeks * WEEK_MS;
  return new Set(responses.filter((response) => Date.parse(String(response.SubmittedAt ?? '')) >= since).map((response) => String(response.gridBoxId ?? '')).filter(Boolean));
}
