/** Domain functions of grids and grid boxes (spec part 1 §3, §5, §7, §8). */
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { fileMessages } from '../../common/messages/files';
import { gridClientMessages } from '../../common/messages/grids';
import { roomClientMessages } from '../../common/messages/rooms';
import { createGridBody, deleteGridQuery, gridIdQuery, plantHistoryQuery, updateCullingBody, updateGridBoxNameBody } from '../../common/schemas/grids';
import { gridBackgroundQuery, type GridBackgroundRecord, uploadGridImageQuery } from '../../common/schemas/scans';
import { boxClientId, type ClientId, newClientId } from '../../common/client-ids';
import type { Effect } from '../../sync/types';
import { ApiError, type ApiContext, check, multipart, now, online, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import type { GridBoxRecord } from '../../common/schemas/grids';
import { batchLinkRemovals, filePart, multipartWithFile } from './rooms';
import { type RecordId } from './records';

/**
 * Create_grid: the grid and its nx × ny boxes appear at once under their client ids (the boxes' derived
 * from the grid's and their place, as the server derives them).
 */
export async function createGrid(context: ApiContext, input: { companyId: number; roomId: RecordId; name: string; nx: number; ny: number }) {
  const values = check(createGridBody, { ncompany_id: input.companyId, nroom_id: input.roomId, ngrid_name: input.name, nx: input.nx, ny: input.ny });
  const gridId = newClientId();
  const { creates, effects, boxIds } = gridCreation({ gridId, name: values.ngrid_name, companyId: values.ncompany_id, roomId: values.nroom_id, nx: values.nx, ny: values.ny });
  await record(context, {
    method: 'POST',
    path: '/Create_grid',
    body: multipart({ nx: values.nx, ny: values.ny, ngrid_name: values.ngrid_name, ncompany_id: values.ncompany_id, nroom_id: values.nroom_id, client_id: gridId }),
    creates,
    effects,
    label: changeLabels.createGrid(values.ngrid_name, values.nx, values.ny),
  });
  return { GridID: gridId, boxIds };
}

/**
 * A grid of nx × ny boxes, laid out as the server does (X = 1…nx, Y = 1…ny, row by row): the records
 * it makes and their optimistic documents. Each box's client id is derived from the grid's and its
 * place (`boxClientId`), as the server derives it; Create_grid and submit_grid_template both make so.
 */
export function gridCreation(grid: { gridId: ClientId; name: string; companyId: number; roomId: RecordId; nx: number; ny: number }) {
  const at = now();
  const creates: ClientId[] = [grid.gridId];
  const effects: Effect[] = [
    {
      op: 'upsert',
      collection: 'grids',
      id: grid.gridId,
      data: { Name: grid.name, CompanyID: grid.companyId, RoomID: grid.roomId, CreatedDateTime: at, UpdatedDateTime: at, Description: null, ImageName: null, Scanned: false, ScannedDateTime: null, LastScannedBy: null, nx: grid.nx, ny: grid.ny },
    },
  ];
  const boxIds: ClientId[] = [];
  for (let y = 1; y <= grid.ny; y += 1) {
    for (let x = 1; x <= grid.nx; x += 1) {
      const boxId = boxClientId(grid.gridId, x, y);
      boxIds.push(boxId);
      creates.push(boxId);
      effects.push({
        op: 'upsert',
        collection: 'grid_boxes',
        id: boxId,
        data: { GridID: grid.gridId, CompanyID: grid.companyId, X: x, Y: y, Color: null, Status: null, Content: null, ImageName: null, CustomName: null, culled: false, CulledBy: null, CulledDateTime: null, BatchIDs: [], sub_gridboxes: [] },
      });
    }
  }
  return { creates, effects, boxIds };
}

/** update_culling_status: culled or not, by the signed-in user. */
export async function updateCullingStatus(context: ApiContext, input: { gridBoxId: RecordId; userId: number; culled: boolean }) {
  const values = check(updateCullingBody, { GridBoxID: input.gridBoxId, user_id: input.userId, culled: input.culled ? 1 : 0 });
  const culled = values.culled === 1;
  await record(context, {
    method: 'POST',
    path: '/update_culling_status',
    body: multipart({ GridBoxID: values.GridBoxID, user_id: values.user_id, culled: values.culled }),
    effects: [{ op: 'patch', collection: 'grid_boxes', id: String(values.GridBoxID), data: { culled, CulledBy: culled ? values.user_id : null, CulledDateTime: culled ? now() : null } }],
    label: culled ? changeLabels.cullPlant : changeLabels.uncullPlant,
  });
}

/**
 * delete_grid (Admin): queued. The grid and its boxes leave the local store at once, and the batches'
 * links to them with them.
 */
export async function deleteGrid(context: ApiContext, input: { gridId: RecordId }) {
  const { grid_id } = check(deleteGridQuery, { grid_id: input.gridId });
  const gridKey = String(grid_id);
  const boxes = await findLocal(context, 'grid_boxes', { gridId: gridKey });
  const grid = await context.store.get('grids', gridKey);
  await record(context, {
    method: 'PUT',
    path: '/delete_grid',
    query: { grid_id },
    effects: [
      ...boxes.map((box): Effect => ({ op: 'remove', collection: 'grid_boxes', id: box.id })),
      { op: 'remove', collection: 'grids', id: gridKey },
      ...(await batchLinkRemovals(context, { gridIds: [grid_id], boxIds: boxes.map((box) => box.id) })),
    ],
    label: labelNaming(grid?.Name, changeLabels.deleteGrid, changeLabels.deleteAGrid),
  });
}

/** A list the answer must carry, else 'Unexpected response structure' (spec part 1 §8). */
function listOf<T>(answer: unknown, key: string): T[] {
  const list = answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(list)) throw new ApiError(roomClientMessages.unexpectedResponse, 200);
  return list as T[];
}

/** get_culled_gridboxes: the grid's culled boxes (`grid_boxes`). */
export async function getCulledGridboxes(context: ApiContext, input: { gridId: RecordId }): Promise<GridBoxRecord[]> {
  const query = check(gridIdQuery, { GridID: input.gridId });
  return listOf<GridBoxRecord>(await online(context, { path: '/get_culled_gridboxes', query }, gridClientMessages.culledFailed), 'grid_boxes');
}

/**
 * update_grid_box_name: queued. Needs GridBoxID; the custom name may be empty (spec part 1 §5), which
 * clears it (the server keeps null, as it then sends it).
 */
export async function updateGridBoxName(context: ApiContext, input: { gridBoxId: RecordId; customName: string | null }) {
  const values = check(updateGridBoxNameBody, { GridBoxID: input.gridBoxId, custom_name: input.customName ?? '' });
  const name = values.custom_name === '' ? null : values.custom_name;
  await record(context, {
    method: 'POST',
    path: '/update_grid_box_name',
    body: multipart({ GridBoxID: values.GridBoxID, custom_name: values.custom_name }),
    effects: [{ op: 'patch', collection: 'grid_boxes', id: String(values.GridBoxID), data: { CustomName: name } }],
    label: name === null ? changeLabels.clearPlantName : changeLabels.renamePlant(name),
  });
}

export interface GridBoxName {
  id: number;
  CustomName: string | null;
  X: number;
  Y: number;
}

/** get_gridboxes_names: the grid's boxes with their custom names (`grid_boxes`). */
export async function getGridboxesNames(context: ApiContext, input: { gridId: RecordId }): Promise<GridBoxName[]> {
  const query = check(gridIdQuery, { GridID: input.gridId });
  return listOf<GridBoxName>(await online(context, { path: '/get_gridboxes_names', query }, gridClientMessages.namesFailed), 'grid_boxes');
}

/** One day of a plant position's history: the audit events about it that day (UTC). */
export interface PlantHistoryDay {
  date: string;
  events: Array<Record<string, unknown>>;
}

/** get_plant_history_date: the plant position's history by day; a 404 means an empty list (spec part 1 §7, part 2 §8). */
export async function getPlantHistoryDate(context: ApiContext, input: { companyId: number; gridBoxId: RecordId }): Promise<PlantHistoryDay[]> {
  const query = check(plantHistoryQuery, { company_id: input.companyId, Grid_boxID: input.gridBoxId });
  try {
    return listOf<PlantHistoryDay>(await online(context, { path: '/get_plant_history_date', query }, gridClientMessages.historyFailed), 'history');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/** The image file of an upload, or the message of its absence (spec part 1 §5: "needs … an image file"). */
export function assertImage(image: unknown): asserts image is Blob {
  if (!(image instanceof Blob) || image.size === 0) throw new ValidationError(fileMessages.imageRequired);
}

/**
 * upload_grid_image: needs GridID and an image file (spec part 1 §5). Queued, the file kept as a Blob
 * part of the entry. "Success requires status success": the entry counts as done only when the server
 * answered 2xx, which always carries `status: 'success'`; a refusal (e.g. 415 for a file that is not an
 * image) shows in the sync status's failed list.
 * Decision: no optimistic change. The grid's `ImageName` is the path the server gives the stored file,
 * which the tablet cannot know; a local object URL would die with the page while the entry (and its
 * effects, re-applied at every start) lives on. The screen shows its own preview of the picked file
 * until the pull brings the new `ImageName`.
 */
export async function uploadGridImage(context: ApiContext, input: { gridId: RecordId; image: Blob; fileName?: string }) {
  const { GridID } = check(uploadGridImageQuery, { GridID: input.gridId });
  assertImage(input.image);
  const grid = await context.store.get('grids', String(GridID));
  await record(context, {
    method: 'POST',
    path: '/upload_grid_image',
    query: { GridID },
    body: multipartWithFile({}, filePart('image', input.image, input.fileName)),
    label: labelNaming(grid?.Name, changeLabels.uploadGridImage, changeLabels.uploadAGridImage),
  });
}

/** A grid of the room with its background image, as get_grid_background answers it. */
export type GridBackground = GridBackgroundRecord;

/**
 * get_grid_background: the room's grids with their background images (`grids`). One of the grid
 * helpers that swallow errors (spec part 1 §8): a failure is warned about and answers null.
 */
export async function getGridBackground(context: ApiContext, input: { roomId: RecordId }): Promise<GridBackground[] | null> {
  try {
    const query = check(gridBackgroundQuery, { RoomID: input.roomId });
    return listOf<GridBackground>(await online(context, { path: '/get_grid_background', query }, gridClientMessages.backgroundFailed), 'grids');
  } catch (error) {
    console.warn('get_grid_background failed:', error instanceof Error ? error.message : error);
    return null;
  }
}
