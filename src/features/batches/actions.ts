/**
 * Steps of the batch screens that take more than one domain call, composed from src/api/batches.ts
 * so a screen runs them as one action (one busy state, one message).
 */
import { createBatch, linkGridBatch, linkGridboxBatch, linkRoomBatch, updateBatches, type CreateBatchInput, type UpdateBatchInput } from '../../api/batches';
import type { ApiContext } from '../../api/context';
import { i18next } from '../../i18n/i18n';
import type { Id } from './model';
import { batchesTexts } from './texts';

/** Shown when create_batch or update_batches answers null although the screen's own check passed (in the reader's language). */
const notSaved = () => new Error(i18next.t('model.notSaved', { ns: batchesTexts }));

/** create_batch, failing with a message when it answers null (spec part 1 §8: it logs and answers null). */
export async function createBatchOrFail(context: ApiContext, input: CreateBatchInput) {
  const created = await createBatch(context, input);
  if (!created) throw notSaved();
  return created;
}

export async function updateBatchOrFail(context: ApiContext, input: UpdateBatchInput) {
  const updated = await updateBatches(context, input);
  if (!updated) throw notSaved();
  return updated;
}

/**
 * The new links of a batch in one go: rooms, grids, then boxes (link_gridbox_batch takes the boxes in
 * one request). Each is queued; a link the server refuses shows in the sync indicator's failed list.
 */
export async function linkBatch(context: ApiContext, input: { batchId: Id; roomIds: Id[]; gridIds: Id[]; gridBoxIds: Id[] }) {
  for (const roomId of input.roomIds) await linkRoomBatch(context, { roomId, batchId: input.batchId });
  for (const gridId of input.gridIds) await linkGridBatch(context, { gridId, batchId: input.batchId });
  if (input.gridBoxIds.length) await linkGridboxBatch(context, { batchId: input.batchId, gridBoxIds: input.gridBoxIds });
}
