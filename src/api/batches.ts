/** Domain functions of batches (spec part 1 §3, §5, §7, §8; part 2 §5). */
import { batchMessages } from '../../common/messages/batches';
import { linkGridBoxesBody } from '../../common/schemas/batches';
import type { TempId } from '../../sync/types';
import { type ApiContext, check, json, record } from './context';

/** link_gridbox_batch: spec part 1 §5, 'Invalid payload: batchID and grid_box_ids are required'. */
export async function linkGridboxBatch(context: ApiContext, input: { batchId: number | TempId; gridBoxIds: Array<number | TempId> }) {
  const values = check(linkGridBoxesBody, { batch_id: input.batchId, grid_box_ids: input.gridBoxIds });
  const batch = await context.store.get('batches', String(values.batch_id));
  const boxIds = values.grid_box_ids as Array<number | TempId>;
  await record(context, {
    method: 'POST',
    path: '/link_gridbox_batch',
    body: json({ batch_id: values.batch_id, grid_box_ids: boxIds }),
    effects: [
      ...(batch ? [{ op: 'patch' as const, collection: 'batches', id: String(values.batch_id), data: { GridBoxIDs: [...new Set([...((batch.GridBoxIDs as unknown[]) ?? []), ...boxIds])] } }] : []),
      ...(await Promise.all(
        boxIds.map(async (boxId) => {
          const box = await context.store.get('grid_boxes', String(boxId));
          return { op: 'patch' as const, collection: 'grid_boxes', id: String(boxId), data: { BatchIDs: [...new Set([...((box?.BatchIDs as unknown[]) ?? []), values.batch_id])] } };
        }),
      )),
    ],
    label: batch ? `Link plants to batch ${String(batch.BatchNumber)}` : 'Link plants to a batch',
  });
}

export { batchMessages };
