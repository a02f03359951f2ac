/**
 * The tasks screens' reads: the tablet's tasks (the responses that have one), one task by its id, the
 * places and people they are shown with, and which changes still wait for the server.
 *
 * Tasks and comments travel inside their response's document (src/api/tasks.ts) and keep their client
 * ids for life, so the documents alone cannot say whether the server has a change yet: the outbox
 * (through the sync worker) is asked, again whenever its count of waiting changes moves.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ClientId } from '../../../common/client-ids';
import { useApiContext, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { type BoxDoc, type CompanyDoc, type GridDoc, gridOrderOf, type RoomDoc } from '../rooms/model';
import { boxIdsOf, type Places, type TaskItem, type TaskResponseDoc, taskItems } from './model';

/** Matches no document: the selector of a query with nothing to ask yet. */
const NOTHING = '\u0000';

/**
 * Every response on this tablet that has a task, with it. The local schema does not declare `task`
 * (src/api/tasks.ts says why), so this selector is matched document by document, not by an index: the
 * collection holds the recent window of responses, which such a scan reads at once.
 */
export function useTaskItems(): { items: TaskItem[]; loading: boolean } {
  const list = useLocalQuery<TaskResponseDoc>('form_responses', { task: { $exists: true, $ne: null } }, 'with-task');
  const items = useMemo(() => taskItems(list.documents), [list.documents]);
  return { items, loading: list.loading };
}

/** The response whose task has this id (a task's address is its client id), kept current; null while missing. */
export function useTaskItem(taskId: string): { item: TaskItem | null; loading: boolean } {
  const list = useLocalQuery<TaskResponseDoc>('form_responses', { 'task.task_id': taskId }, `task-${taskId}`);
  const item = useMemo(() => taskItems(list.documents)[0] ?? null, [list.documents]);
  return { item, loading: list.loading };
}

/** The rooms of the company and the boxes (with their grids) these tasks were made in, to name their places. */
export function usePlaces(companyId: number, items: readonly TaskItem[], company: CompanyDoc | null): Places {
  const boxIds = boxIdsOf(items);
  const boxKey = boxIds.join(',');
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: companyId }, `rooms-${companyId}`).documents;
  const boxes = useLocalQuery<BoxDoc>('grid_boxes', { id: { $in: boxIds.length ? boxIds : [NOTHING] } }, `task-boxes-${boxKey}`).documents;
  const gridIds = [...new Set(boxes.map((box) => box.gridId))];
  const grids = useLocalQuery<GridDoc>('grids', { id: { $in: gridIds.length ? gridIds : [NOTHING] } }, `task-grids-${gridIds.join(',')}`).documents;
  const order = gridOrderOf(company);
  return useMemo(
    () => ({ rooms: new Map(rooms.map((room) => [room.id, room])), grids: new Map(grids.map((grid) => [grid.id, grid])), boxes: new Map(boxes.map((box) => [box.id, box])), order }),
    [rooms, grids, boxes, order],
  );
}

/**
 * Of `ids`, those with a change still waiting in the outbox: `effects`, a change of these
 * `form_responses` documents (by local id); `creates`, the create of these records (by client id).
 * Asked again when the ids change and whenever the sync status moves (a change recorded, sent or refused).
 */
function useWaiting(ids: readonly string[], kind: 'effects' | 'creates'): ReadonlySet<string> {
  const context = useApiContext();
  const status = useSyncStatus((current) => `${current.pending}|${current.failed.length}|${current.lastSyncedAt ?? ''}`);
  const key = ids.join(',');
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    if (!context) return undefined;
    let current = true;
    const waits = (id: string) => (kind === 'effects' ? context.recorder.hasPendingEffects('form_responses', id) : context.recorder.awaitsCreate([id]));
    void Promise.all(ids.map(async (id) => ((await waits(id)) ? [id] : [])))
      // Before the sync worker has started (it starts with the session), nothing can be known to wait.
      .catch(() => [])
      .then((found) => current && setWaiting(new Set(found.flat())));
    return () => {
      current = false;
    };
    // `ids` is described by `key`: depending on the array would ask again on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, key, status, kind]);
  return waiting;
}

/** Of these responses (by local id), those a change still waiting in the outbox changes (a task or comment made, changed or deleted here). */
export const useResponsesWithWaitingChanges = (responseIds: readonly string[]) => useWaiting(responseIds, 'effects');

/** Of these records (by client id: comments, tasks), those whose create still waits for the server. */
export const useWaitingCreates = (clientIds: readonly ClientId[]) => useWaiting(clientIds, 'creates');
