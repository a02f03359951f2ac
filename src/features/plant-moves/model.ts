/**
 * What the plant moves screen works out, as pure functions: the positions a plant may move to, the
 * rows of the movement history (from the server's answer or from the tablet's own moves, filtered,
 * sorted and paged as the server does it), and UTC days.
 */
import { MOVEMENT_PAGE_DEFAULT, type MOVEMENT_SORT_COLUMNS } from '../../../common/messages/subgrids';
import type { MovementHistoryAnswer, PlantMove, Position } from '../../api/subgrids';
import { firstFreePosition } from '../../api/subgrids';
import { reachedServer } from '../../api/records';
import type { LocalDocument } from '../../db/schemas';

export type MoveDoc = LocalDocument & PlantMove;
export type SortColumn = (typeof MOVEMENT_SORT_COLUMNS)[number];
export type SortOrder = 'asc' | 'desc';

/** Spec §9: the history comes 50 moves a page. */
export const PAGE_SIZE = MOVEMENT_PAGE_DEFAULT;

export const positionKey = (position: Position) => `${position.subx}-${position.suby}`;

export function parsePositionKey(key: string): Position | null {
  const match = /^(\d+)-(\d+)$/.exec(key);
  return match ? { subx: Number(match[1]), suby: Number(match[2]) } : null;
}

export interface PositionChoice {
  position: Position;
  /** In the row below the box's layout (the layout is full there, or the grower wants a new row). */
  newRow: boolean;
}

/**
 * The free positions of a box whose taken positions are `taken`: those free within the columns and
 * rows the box already uses, then the row below it (README "Plant moves": a full layout gets a new
 * row); an empty box offers (1, 1). The first is where the server would put the plant itself
 * (`firstFreePosition`), so it is the one preselected.
 */
export function positionChoices(taken: readonly Position[]): PositionChoice[] {
  if (taken.length === 0) return [{ position: { subx: 1, suby: 1 }, newRow: false }];
  const columns = Math.max(...taken.map((position) => position.subx));
  const rows = Math.max(...taken.map((position) => position.suby));
  const used = new Set(taken.map(positionKey));
  const choices: PositionChoice[] = [];
  for (let suby = 1; suby <= rows; suby += 1) {
    for (let subx = 1; subx <= columns; subx += 1) if (!used.has(positionKey({ subx, suby }))) choices.push({ position: { subx, suby }, newRow: false });
  }
  for (let subx = 1; subx <= columns; subx += 1) choices.push({ position: { subx, suby: rows + 1 }, newRow: true });
  const first = positionKey(firstFreePosition([...taken]));
  return [...choices.filter((choice) => positionKey(choice.position) === first), ...choices.filter((choice) => positionKey(choice.position) !== first)];
}

/** One move as the history lists it: boxes by client id (the tablet's documents) or by the server's integer id. */
export interface HistoryRow {
  key: string;
  plantUid: string;
  movedAt: string;
  fromBox: string | number | null;
  fromPosition: Position | null;
  toBox: string | number;
  toPosition: Position | null;
  reason: string | null;
  notes: string | null;
  userId: number | null;
  /** Made on this tablet and not on the server yet. */
  waiting: boolean;
}

export function rowOfDocument(move: MoveDoc): HistoryRow {
  return {
    key: move.id,
    plantUid: move.plant_uid,
    movedAt: move.moved_at,
    fromBox: move.from_parent_gridbox_id,
    fromPosition: move.from_position,
    toBox: move.to_parent_gridbox_id,
    toPosition: move.to_position,
    reason: move.movement_reason,
    notes: move.notes,
    userId: move.user_id,
    waiting: !reachedServer(move),
  };
}

/**
 * The server's page as rows. Its boxes carry the server's integer ids; the tablet's copy of the same
 * move (found by `serverId`) names them by client id, which finds boxes made on this tablet too.
 */
export function rowsOfAnswer(answer: MovementHistoryAnswer, local: readonly MoveDoc[]): HistoryRow[] {
  const byServerId = new Map(local.filter((move) => typeof move.serverId === 'number').map((move) => [move.serverId as number, move]));
  return answer.movements.map((movement) => {
    const mine = typeof movement.movement_id === 'number' ? byServerId.get(movement.movement_id) : undefined;
    if (mine) return { ...rowOfDocument(mine), waiting: false };
    return {
      key: `server-${String(movement.movement_id)}`,
      plantUid: movement.plant_uid,
      movedAt: movement.moved_at,
      fromBox: movement.from_parent_gridbox_id,
      fromPosition: movement.from_position,
      toBox: movement.to_parent_gridbox_id,
      toPosition: movement.to_position,
      reason: movement.movement_reason,
      notes: movement.notes,
      userId: movement.user_id,
      waiting: false,
    };
  });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The UTC day (yyyy-mm-dd) of a moment: the server's days (README "Plant moves"). */
export function utcDay(moment: string): string {
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export interface LocalFilters {
  /** Boxes of the chosen room or batch (client ids); null when not filtered by it. */
  roomBoxes: ReadonlySet<string> | null;
  batchBoxes: ReadonlySet<string> | null;
  startDate: string;
  endDate: string;
}

/** The server's filters on the tablet's moves: a move is in a room or batch when the box it left or entered is; days both included. */
export function matches(move: MoveDoc, filters: LocalFilters): boolean {
  const boxes = [move.from_parent_gridbox_id, move.to_parent_gridbox_id].filter((id) => id !== null).map(String);
  if (filters.roomBoxes && !boxes.some((id) => filters.roomBoxes?.has(id))) return false;
  if (filters.batchBoxes && !boxes.some((id) => filters.batchBoxes?.has(id))) return false;
  const day = utcDay(move.moved_at);
  if (filters.startDate && day < filters.startDate) return false;
  if (filters.endDate && day > filters.endDate) return false;
  return true;
}

const SORT_FIELDS: Record<SortColumn, (move: MoveDoc) => string | number | null> = {
  moved_at: (move) => Date.parse(move.moved_at),
  plant_uid: (move) => move.plant_uid,
  movement_reason: (move) => move.movement_reason,
  // The server orders by its integer box ids; the tablet has client ids, and orders by them (a stable order, no more).
  from_parent_gridbox_id: (move) => (move.from_parent_gridbox_id === null ? null : String(move.from_parent_gridbox_id)),
  to_parent_gridbox_id: (move) => String(move.to_parent_gridbox_id),
};

/** Sorts as the server does (by the column, then by creation); missing values last ascending, as PostgreSQL puts nulls. */
export function sortMoves(moves: readonly MoveDoc[], sortBy: SortColumn, sortOrder: SortOrder): MoveDoc[] {
  const field = SORT_FIELDS[sortBy];
  const direction = sortOrder === 'asc' ? 1 : -1;
  const compare = (a: string | number | null, b: string | number | null) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), undefined, { numeric: true });
  };
  return [...moves].sort((a, b) => direction * (compare(field(a), field(b)) || compare(Date.parse(a.moved_at), Date.parse(b.moved_at)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
}
