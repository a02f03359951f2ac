/**
 * What the batch screens show, worked out from local documents: names of rooms, grids and boxes
 * (never a temporary id), the statuses a company knows, the form's rules with the spec's messages,
 * and dates as growers read them. Pure functions: no React, no store. Their words are read when they
 * are called (at render), in the reader's language.
 */
import { BUILT_IN_BATCH_STATUSES, DEFAULT_BATCH_STATUS, HARVESTED_BATCH_STATUS } from '../../../common/batch-statuses';
import { boxNumber } from '../../../common/grid-order';
import { batchMessages } from '../../../common/messages/batches';
import type { GridOrder } from '../../../common/messages/settings';
import { createBatchBody } from '../../../common/schemas/batches';
import type { BatchProblemRecord } from '../../../common/schemas/batches';
import type { BatchDocument, BatchEvent, UpdateBatchInput } from '../../api/batches';
import type { LocalDocument } from '../../db/schemas';
import type { ParseKeys } from 'i18next';
import { i18next } from '../../i18n/i18n';
import { formatDate } from '../../i18n/format';
import { batchesTexts, statusName } from './texts';

export type Id = BatchDocument['BatchID'];
export type LocalBatch = LocalDocument & BatchDocument;

export interface Named {
  id: string;
  name: string;
}

export const sameId = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);
export const idsOf = (list: unknown): Id[] => (Array.isArray(list) ? (list as Id[]) : []);
export { reachedServer } from '../../api/records';

/** Natural order of names ("Room 2" before "Room 10"). */
export const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

/** One of this feature's texts in the reader's language. */
const text = (key: ParseKeys<typeof batchesTexts>, values: Record<string, unknown> = {}): string => i18next.t(key, { ...values, ns: batchesTexts });

export const roomName = (room: LocalDocument | undefined) => (room ? String(room.Name ?? text('model.room')) : text('model.roomGone'));
export const gridName = (grid: LocalDocument | undefined) => (grid ? String(grid.Name ?? text('model.grid')) : text('model.gridGone'));

/**
 * A box as a grower finds it: its grid, then its custom name or its number in the company's grid order
 * (the room screen's numbering, so "Box 27" is the same box everywhere). Without its grid on this
 * tablet the number is unknown: its column and row then.
 */
export function boxLabel(box: LocalDocument, grid: LocalDocument | undefined, order: GridOrder): string {
  const x = Number(box.X) || 1;
  const y = Number(box.Y) || 1;
  const custom = typeof box.CustomName === 'string' && box.CustomName.trim() ? box.CustomName.trim() : null;
  if (!grid) return custom ?? text('model.columnRow', { x, y });
  const number = boxNumber(order, x, y, Math.max(Number(grid.nx) || 0, x), Math.max(Number(grid.ny) || 0, y));
  return `${gridName(grid)} · ${custom ? text('model.customBox', { name: custom, number }) : text('model.box', { number })}`;
}

/**
 * The statuses to offer: built-in ones in their stage order, then the company's own (A–Z). Statuses
 * that batches still carry after their custom status was deleted are kept for filtering only.
 */
export function companyStatuses(company: LocalDocument | null): { builtIn: string[]; custom: string[] } {
  const custom = (Array.isArray(company?.custom_batch_statuses) ? (company.custom_batch_statuses as Array<{ status_name?: unknown }>) : [])
    .map((status) => String(status.status_name ?? ''))
    .filter(Boolean)
    .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  return { builtIn: [...BUILT_IN_BATCH_STATUSES], custom };
}

export const ENDED_STATUSES = new Set<string>([HARVESTED_BATCH_STATUS, 'Destroyed']);
export { DEFAULT_BATCH_STATUS, HARVESTED_BATCH_STATUS };

/**
 * The list's order (the spec is silent): batches still growing first, then those harvested or
 * destroyed; within each, the newest first (growers look for current batches).
 */
export function byCurrentThenNewest(a: LocalBatch, b: LocalBatch): number {
  const ended = Number(ENDED_STATUSES.has(a.BatchStatus)) - Number(ENDED_STATUSES.has(b.BatchStatus));
  if (ended !== 0) return ended;
  const started = String(b.StartDate ?? b.CreatedDateTime ?? '').localeCompare(String(a.StartDate ?? a.CreatedDateTime ?? ''));
  if (started !== 0) return started;
  return String(a.BatchNumber).localeCompare(String(b.BatchNumber), undefined, { numeric: true });
}

// ——— Dates ———

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const MOMENT: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' };

/** A date-only value (yyyy-mm-dd) as "12 Mar 2026"; read as UTC so it never shifts a day. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : formatDate(date, DAY);
}

export function formatMoment(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDate(date, MOMENT);
}

export const today = () => new Date().toISOString().slice(0, 10);

// ——— The batch form ———

export interface BatchFormValues {
  batchNumber: string;
  numberOfPlants: string;
  strainName: string;
  batchStatus: string;
  color: string;
  /** yyyy-mm-dd or '' (no date). */
  startDate: string;
  endDate: string;
}

export const emptyBatchForm = (): BatchFormValues => ({
  batchNumber: '',
  numberOfPlants: '',
  strainName: '',
  batchStatus: DEFAULT_BATCH_STATUS,
  color: '',
  startDate: today(),
  endDate: '',
});

export function formOf(batch: BatchDocument): BatchFormValues {
  return {
    batchNumber: batch.BatchNumber,
    numberOfPlants: String(batch.NumberOfPlants ?? ''),
    strainName: batch.StrainName ?? '',
    batchStatus: batch.BatchStatus,
    color: batch.Color ?? '',
    startDate: batch.StartDate ?? '',
    endDate: batch.EndDate ?? '',
  };
}

/**
 * The first rule the form breaks, with the message the server and the domain function use, or null.
 * WARNING: createBatch and updateBatches log a broken rule and answer null (spec part 1 §8), so the
 * screen checks first, with the same schema (common/schemas/batches.ts) and messages, to show the
 * grower why; a null answer after this check is shown as a general failure.
 */
export function batchFormProblem(values: BatchFormValues, companyId: number, batches: readonly LocalBatch[], editing?: Id): string | null {
  const parsed = createBatchBody.safeParse({
    BatchNumber: values.batchNumber,
    NumberOfPlants: values.numberOfPlants,
    StrainName: values.strainName,
    BatchStatus: values.batchStatus,
    Color: values.color,
    company_id: companyId,
    StartDate: values.startDate || null,
    EndDate: values.endDate || null,
  });
  if (!parsed.success) return parsed.error.issues[0]?.message ?? text('model.checkFields');
  if (values.startDate && values.endDate && values.endDate < values.startDate) return batchMessages.endBeforeStart;
  const number = values.batchNumber.trim().toLowerCase();
  const taken = batches.some((batch) => String(batch.BatchNumber).toLowerCase() === number && !sameId(batch.BatchID, editing));
  if (taken) return batchMessages.duplicateBatchNumber(values.batchNumber.trim());
  return null;
}

/** The fields an edit changes (each call changes only the fields it names: README "Conflicts"). */
export function formChanges(before: BatchDocument, values: BatchFormValues) {
  const changes: Omit<UpdateBatchInput, 'batchId' | 'companyId'> = {};
  if (values.batchNumber.trim() !== before.BatchNumber) changes.batchNumber = values.batchNumber.trim();
  if (Number(values.numberOfPlants) !== before.NumberOfPlants) changes.numberOfPlants = Number(values.numberOfPlants);
  if (values.strainName.trim() !== (before.StrainName ?? '')) changes.strainName = values.strainName.trim();
  if (values.batchStatus !== before.BatchStatus) changes.batchStatus = values.batchStatus;
  if (values.color !== (before.Color ?? '')) changes.color = values.color;
  if ((values.startDate || null) !== (before.StartDate ?? null)) changes.startDate = values.startDate || null;
  if ((values.endDate || null) !== (before.EndDate ?? null)) changes.endDate = values.endDate || null;
  return changes;
}

// ——— Problems and history ———

export const openProblems = (batch: BatchDocument): BatchProblemRecord[] => (batch.problems ?? []).filter((problem) => !problem.resolved);
export const resolvedProblems = (batch: BatchDocument): BatchProblemRecord[] => (batch.problems ?? []).filter((problem) => problem.resolved);

/** The problems a resolve with these filters would close (the domain function's own rule: rooms, then type in any case). */
export function problemsMatching(batch: BatchDocument, roomIds: readonly string[], problemType: string): BatchProblemRecord[] {
  const type = problemType.trim().toLowerCase();
  return openProblems(batch).filter((problem) => (roomIds.length === 0 || roomIds.some((id) => sameId(id, problem.room_id))) && (!type || problem.problem_type.toLowerCase() === type));
}

export interface UserLike {
  user_id?: unknown;
  first_name?: unknown;
  last_name?: unknown;
  email?: unknown;
}

export function userName(users: readonly UserLike[], userId: unknown): string | null {
  if (userId === null || userId === undefined) return null;
  const user = users.find((candidate) => sameId(candidate.user_id, userId));
  if (!user) return null;
  const name = [user.first_name, user.last_name].filter((part) => typeof part === 'string' && part.trim()).join(' ');
  return name || (typeof user.email === 'string' ? user.email : null);
}

/** One line of a batch's history, in a grower's words. */
export function describeEvent(event: BatchEvent, rooms: ReadonlyMap<string, LocalDocument>): string {
  const details = event.details ?? {};
  const room = (id: unknown) => (id === null || id === undefined ? text('model.aRoom') : roomName(rooms.get(String(id))));
  const status = (value: unknown) => statusName(value === null || value === undefined ? '' : String(value));
  switch (event.kind) {
    case 'created':
      return details.status ? text('events.createdAs', { status: status(details.status) }) : text('events.created');
    case 'linked_room':
      return text('events.placedIn', { room: room(event.to_room_id) });
    case 'moved':
      return text('events.moved', { from: room(event.from_room_id), to: room(event.to_room_id) });
    case 'status':
      return details.from ? text('events.statusChanged', { from: status(details.from), to: status(details.to) }) : text('events.statusSet', { to: status(details.to) });
    case 'harvested':
      return text('events.harvested');
    default:
      return String(event.kind);
  }
}

/** The rooms a batch is in: linked to the room, to one of its grids or to a box of one (README "Batches"). */
export function roomsOfBatch(batch: BatchDocument, grids: ReadonlyMap<string, LocalDocument>, boxes: ReadonlyMap<string, LocalDocument>): string[] {
  const rooms = new Set(idsOf(batch.RoomIDs).map(String));
  for (const gridId of idsOf(batch.GridIDs)) {
    const roomId = grids.get(String(gridId))?.roomId;
    if (roomId) rooms.add(String(roomId));
  }
  for (const boxId of idsOf(batch.GridBoxIDs)) {
    const gridId = boxes.get(String(boxId))?.gridId;
    const roomId = gridId ? grids.get(String(gridId))?.roomId : undefined;
    if (roomId) rooms.add(String(roomId));
  }
  return [...rooms];
}

/** A colour the browser can paint, or null (a stored colour is #rgb…#rrggbbaa or a CSS name). */
export const paintable = (color: string | null | undefined) => (color && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30})$/.test(color) ? color : null);
