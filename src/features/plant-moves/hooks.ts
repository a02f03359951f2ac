/**
 * The plant moves screen's one server read: the company's movement history (get_company_movement_history),
 * with its offline fallback inside, so the screen never asks whether there is a connection.
 *
 * The server holds the history; the tablet holds every move too (`operations` documents of kind
 * `plant_move`, pulled without a window), so when the server cannot answer (offline, no answer, or a
 * filter naming a room or batch the server does not know yet) the same filters, order and paging run
 * on the tablet's copy, and the answer says so. Moves made on this tablet and not yet on the server
 * are listed apart as waiting (the server's page cannot hold them).
 */
import { useEffect, useMemo, useState } from 'react';
import { subgridMessages } from '../../../common/messages/subgrids';
import { unanswered } from '../../api/context';
import { messageOf } from '../../i18n/messages';
import { reachedServer } from '../../api/records';
import { getCompanyMovementHistory, type MovementHistoryAnswer } from '../../api/subgrids';
import { useApiContext, useLocalDocument, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import type { BatchDoc, BoxDoc, GridDoc, RoomDoc } from '../rooms/model';
import { type HistoryRow, type LocalFilters, matches, type MoveDoc, PAGE_SIZE, rowOfDocument, rowsOfAnswer, type SortColumn, type SortOrder, sortMoves } from './model';

export interface HistoryFilters {
  /** Local document ids (client ids) of the room and batch filtered by, or null. */
  roomId: string | null;
  batchId: string | null;
  /** yyyy-mm-dd (UTC days, both included), or ''. */
  startDate: string;
  endDate: string;
  sortBy: SortColumn;
  sortOrder: SortOrder;
  offset: number;
}

export interface MovementHistory {
  /** The page asked for. */
  rows: HistoryRow[];
  /** Moves matching the filters in all (the page's source's count). */
  total: number;
  /** Moves made on this tablet that the server has not got yet (listed apart while the page is the server's). */
  waiting: HistoryRow[];
  /** Where the page comes from: the server, or this tablet's copy (and why). */
  source: 'server' | 'tablet';
  why: 'offline' | 'no-answer' | 'not-synced' | null;
  loading: boolean;
  error: string | null;
}

const NOTHING = '\u0000';

/** The company's movement history with these filters (see the header). */
export function useMovementHistory(companyId: number, filters: HistoryFilters): MovementHistory {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const moves = useLocalQuery<MoveDoc>('operations', { kind: 'plant_move', company_id: companyId }, `plant_move-${companyId}`);
  const room = useLocalDocument<RoomDoc>('rooms', filters.roomId ?? undefined).document;
  const batch = useLocalDocument<BatchDoc>('batches', filters.batchId ?? undefined).document;
  const roomGrids = useLocalQuery<GridDoc>('grids', { roomId: filters.roomId ?? NOTHING }, `history-grids-${filters.roomId ?? ''}`);
  const gridIds = roomGrids.documents.map((grid) => grid.id);
  const roomBoxes = useLocalQuery<BoxDoc>('grid_boxes', { gridId: { $in: gridIds } }, `history-boxes-${gridIds.join(',')}`);

  const rangeError = filters.startDate && filters.endDate && filters.startDate > filters.endDate ? subgridMessages.dateRangeInvalid : null;
  // The server knows a room or batch by its integer id: one made here and not synced yet it cannot filter by.
  const roomServerId = filters.roomId === null ? undefined : typeof room?.serverId === 'number' ? room.serverId : null;
  const batchServerId = filters.batchId === null ? undefined : typeof batch?.serverId === 'number' ? batch.serverId : null;
  const notSynced = roomServerId === null || batchServerId === null;
  // Asked again when the tablet's moves change (one made here, or one reaching the server).
  const movesVersion = `${moves.documents.length}:${moves.documents.filter(reachedServer).length}:${moves.documents.reduce((latest, move) => (String(move.updated_at ?? '') > latest ? String(move.updated_at) : latest), '')}`;
  const request =
    !online || notSynced || rangeError
      ? null
      : {
          companyId,
          ...(batchServerId ? { batchId: batchServerId } : {}),
          ...(roomServerId ? { roomId: roomServerId } : {}),
          startDate: filters.startDate || null,
          endDate: filters.endDate || null,
          sortBy: filters.sortBy,
          sortOrder: filters.sortOrder,
          limit: PAGE_SIZE,
          offset: filters.offset,
        };
  const requestKey = request ? JSON.stringify(request) : null;

  const [answer, setAnswer] = useState<{ key: string; version: string; answer: MovementHistoryAnswer | null; error: string | null; unanswered: boolean } | null>(null);
  useEffect(() => {
    if (!context || !request || !requestKey) return undefined;
    let alive = true;
    getCompanyMovementHistory(context, request).then(
      (page) => alive && setAnswer({ key: requestKey, version: movesVersion, answer: page, error: null, unanswered: false }),
      (error: unknown) => alive && setAnswer({ key: requestKey, version: movesVersion, answer: null, error: messageOf(error), unanswered: unanswered(error) }),
    );
    return () => {
      alive = false;
    };
    // `request` is described by requestKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, requestKey, movesVersion]);

  const localFilters = useMemo<LocalFilters>(
    () => ({
      roomBoxes: filters.roomId === null ? null : new Set(roomBoxes.documents.map((box) => box.id)),
      batchBoxes: filters.batchId === null ? null : new Set((Array.isArray(batch?.GridBoxIDs) ? batch.GridBoxIDs : []).map(String)),
      startDate: filters.startDate,
      endDate: filters.endDate,
    }),
    [filters.roomId, filters.batchId, filters.startDate, filters.endDate, roomBoxes.documents, batch?.GridBoxIDs],
  );
  const matching = useMemo(() => sortMoves(moves.documents.filter((move) => matches(move, localFilters)), filters.sortBy, filters.sortOrder), [moves.documents, localFilters, filters.sortBy, filters.sortOrder]);

  const localLoading = moves.loading || (filters.roomId !== null && (roomGrids.loading || roomBoxes.loading));
  const tablet = (why: MovementHistory['why']): MovementHistory => ({
    rows: matching.slice(filters.offset, filters.offset + PAGE_SIZE).map(rowOfDocument),
    total: matching.length,
    waiting: [],
    source: 'tablet',
    why,
    loading: localLoading,
    error: null,
  });

  if (rangeError) return { rows: [], total: 0, waiting: [], source: 'server', why: null, loading: false, error: rangeError };
  if (!online) return tablet('offline');
  if (notSynced) return tablet('not-synced');
  const current = answer && answer.key === requestKey ? answer : null;
  if (current?.unanswered) return tablet('no-answer');
  const waiting = matching.filter((move) => !reachedServer(move)).map(rowOfDocument);
  if (current?.error) return { rows: [], total: 0, waiting, source: 'server', why: null, loading: false, error: current.error };
  return {
    rows: current?.answer ? rowsOfAnswer(current.answer, moves.documents) : [],
    total: current?.answer?.total_count ?? 0,
    waiting,
    source: 'server',
    why: null,
    // A newer answer is on its way when the tablet's moves changed since this one.
    loading: !current || current.version !== movesVersion || moves.loading,
    error: null,
  };
}
