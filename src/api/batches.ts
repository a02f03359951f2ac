/**
 * Domain functions of batches (spec part 1 §3–§9; part 2 §5 batch problems): create, list, update,
 * delete; links to rooms, grids and grid boxes; QR codes; the dashboard; harvest, moves and history;
 * crop statuses; batch problems.
 *
 * Optimistic effects keep the local `batches` document (links, problems and history inside, shaped as
 * common/schemas/batches.ts `batchDocument`) and the boxes' `BatchIDs` as the server
 * will send them, as far as the tablet knows. Problems carry the client id sent with their create; a
 * history entry, which only the server names, has a stand-in id until the pull brings the server's.
 */
import axios from 'axios';
import type { z } from 'zod';
import { BUILT_IN_BATCH_STATUSES, DEFAULT_BATCH_STATUS, HARVESTED_BATCH_STATUS } from '../../common/batch-statuses';
import { batchClientMessages, batchMessages } from '../../common/messages/batches';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { OPEN_PROBLEM_STATUSES } from '../../common/problem-statuses';
import {
  assignStatusBody,
  assignStatusQuery,
  batchCompanyQuery,
  batchProblemsQuery,
  batchQuery,
  companyQuery,
  createBatchBody,
  createBatchProblemBody,
  customStatusFields,
  dashboardQuery,
  filterByStatusQuery,
  gridBoxBatchesQuery,
  harvestQuery,
  linkedBoxesQuery,
  linkedGridsQuery,
  linkedRoomsQuery,
  linkGridBoxesBody,
  linkGridQuery,
  linkRoomQuery,
  movePlantsQuery,
  qrParams,
  qrQuery,
  qrUrlQuery,
  resolveBatchProblemBody,
  roomQuery,
  updateBatchBody,
  type BatchDashboard,
  type BatchDocument as ServerBatchDocument,
  type BatchEventRecord,
  type BatchProblemRecord,
  type batchesAnswer,
  type batchProblemsAnswer,
  type batchQrInfoAnswer,
  type batchQrUrlAnswer,
  type customStatusesAnswer,
  type gridBoxBatchesAnswer,
  type linkedGridBoxesAnswer,
  type linkedGridsAnswer,
  type linkedRoomsAnswer,
  type resolveBatchProblemsAnswer,
  type roomBatchHistoryAnswer,
} from '../../common/schemas/batches';
import type { EntryDraft } from '../../sync/outbox';
import type { LocalDocument } from '../../sync/store';
import { type ClientId, newClientId } from '../../common/client-ids';
import type { Effect } from '../../sync/types';
import { ApiError, type ApiContext, check, json, multipart, now, online, onlineOrLocal, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import type { RoomRecord } from '../../common/schemas/rooms';
import { problemActionEffects } from './problem-actions';
import { signedIn } from './rooms';
import { byCreation, type RecordId, sameId } from './records';

type Id = RecordId;

/**
 * A history entry as the tablet holds it: one recorded here (by a call's optimistic effect) carries a
 * stand-in id, a client id, until the pull brings the server's entry; only the server names history.
 */
export type BatchEvent = Omit<BatchEventRecord, 'event_id'> & { event_id: Id };

/** A batch with its live links, problems and history: the synced `batches` document, as the tablet holds it. */
export type BatchDocument = Omit<ServerBatchDocument, 'history'> & { history: BatchEvent[] };

// ——— Local helpers ———

const localBatch = async (context: ApiContext, batchId: unknown) => (await context.store.get('batches', String(batchId))) as (LocalDocument & BatchDocument) | null;

const ids = (list: unknown): Id[] => (Array.isArray(list) ? (list as Id[]) : []);
const withId = (list: unknown, id: Id): Id[] => (ids(list).some((item) => sameId(item, id)) ? ids(list) : [...ids(list), id]);
const withoutIds = (list: unknown, removed: ReadonlySet<string>): Id[] => ids(list).filter((item) => !removed.has(String(item)));

/** A history entry as the server will record it (only the server names history: the pull brings its id). */
function historyEvent(batchId: Id, userId: number | null, kind: BatchEvent['kind'], extra: Partial<Pick<BatchEvent, 'from_room_id' | 'to_room_id' | 'details'>> = {}): BatchEvent {
  return { event_id: newClientId(), batch_id: batchId, kind, from_room_id: extra.from_room_id ?? null, to_room_id: extra.to_room_id ?? null, details: extra.details ?? null, user_id: userId, created_at: now() };
}

/**
 * A status as the company spells it: built-in or custom, in any case. null when the company's
 * document is local and knows no such status (the server would refuse it); the name as given when the
 * company's document is not local yet (the server decides).
 */
async function knownStatus(context: ApiContext, companyId: number, name: string): Promise<string | null> {
  const wanted = name.trim().toLowerCase();
  const builtIn = BUILT_IN_BATCH_STATUSES.find((status) => status.toLowerCase() === wanted);
  if (builtIn) return builtIn;
  const company = await context.store.get('company', String(companyId));
  if (!company) return name.trim();
  const custom = (Array.isArray(company.custom_batch_statuses) ? company.custom_batch_statuses : []) as Array<{ status_name: string }>;
  return custom.find((status) => status.status_name.toLowerCase() === wanted)?.status_name ?? null;
}

async function statusOrRefuse(context: ApiContext, companyId: number, name: string): Promise<string> {
  const status = await knownStatus(context, companyId, name);
  if (status === null) throw new ValidationError(batchMessages.unknownStatus(name.trim()));
  return status;
}

/** The server's 409 on a batch number already used by another live batch of the company (any case). */
async function assertNumberFree(context: ApiContext, companyId: number, batchNumber: string, except?: Id) {
  const taken = (await findLocal(context, 'batches', { CompanyID: companyId })).some(
    (batch) => String(batch.BatchNumber).toLowerCase() === batchNumber.toLowerCase() && !sameId(batch.id, except),
  );
  if (taken) throw new ValidationError(batchMessages.duplicateBatchNumber(batchNumber));
}

function assertDates(start: string | null | undefined, end: string | null | undefined) {
  if (start && end && end < start) throw new ValidationError(batchMessages.endBeforeStart);
}

/** Spec part 1 §8 "Create and update: the error is logged and null is returned". */
async function loggedOrNull<T>(call: string, write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    console.error(`${call}:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** Records an entry; a failure to store it (not a rule of the input) takes the spec's message for the call, the cause kept. */
async function recordOr(context: ApiContext, draft: EntryDraft, message: string) {
  try {
    return await record(context, draft);
  } catch (error) {
    throw Object.assign(new ApiError(message), { cause: error });
  }
}

// ——— Create, list, update, delete ———

export interface CreateBatchInput {
  companyId: number;
  batchNumber: string;
  numberOfPlants: number;
  strainName?: string | null;
  batchStatus?: string | null;
  color?: string | null;
  /** yyyy-mm-dd, or null (spec part 1 §9: dates are sent date-only). */
  startDate?: string | null;
  endDate?: string | null;
}

/**
 * create_batch: a multipart form, queued; the batch appears at once under its client id (sent as
 * `client_id`). Spec part 1 §8 "the error is logged and null is returned": a rule
 * the input breaks (the server's own rules, checked here: fields, a known status, a free batch
 * number, dates in order) is logged and answers null. Otherwise it answers what it wrote locally; a
 * refusal by the server later shows in the sync status's failed list.
 */
export function createBatch(context: ApiContext, input: CreateBatchInput): Promise<{ BatchID: ClientId; batch: BatchDocument } | null> {
  return loggedOrNull('create_batch', async () => {
    const values = check(createBatchBody, {
      BatchNumber: input.batchNumber,
      NumberOfPlants: input.numberOfPlants,
      StrainName: input.strainName ?? undefined,
      BatchStatus: input.batchStatus ?? undefined,
      Color: input.color ?? undefined,
      company_id: input.companyId,
      StartDate: input.startDate,
      EndDate: input.endDate,
    });
    const status = await statusOrRefuse(context, values.company_id, values.BatchStatus ?? DEFAULT_BATCH_STATUS);
    assertDates(values.StartDate, values.EndDate);
    await assertNumberFree(context, values.company_id, values.BatchNumber);
    const batchId = newClientId();
    const at = now();
    const { userId } = await signedIn(context);
    const batch: BatchDocument = {
      BatchID: batchId,
      CompanyID: values.company_id,
      BatchNumber: values.BatchNumber,
      NumberOfPlants: values.NumberOfPlants,
      StrainName: values.StrainName ?? null,
      BatchStatus: status,
      Color: values.Color ?? null,
      StartDate: values.StartDate ?? null,
      EndDate: values.EndDate ?? null,
      HarvestedAt: null,
      HarvestedBy: null,
      CreatedDateTime: at,
      UpdatedDateTime: at,
      RoomIDs: [],
      GridIDs: [],
      GridBoxIDs: [],
      open_problems: 0,
      problems: [],
      history: [historyEvent(batchId, userId, 'created', { details: { status } })],
    };
    await record(context, {
      method: 'POST',
      path: '/create_batch',
      body: multipart({
        BatchNumber: values.BatchNumber,
        NumberOfPlants: values.NumberOfPlants,
        StrainName: values.StrainName,
        BatchStatus: status,
        Color: values.Color,
        company_id: values.company_id,
        StartDate: values.StartDate,
        EndDate: values.EndDate,
        client_id: batchId,
      }),
      creates: [batchId],
      effects: [{ op: 'upsert', collection: 'batches', id: batchId, data: { ...batch } }],
      label: changeLabels.createBatch(values.BatchNumber),
    });
    return { BatchID: batchId, batch };
  });
}

/**
 * get_batches: the company's batches as documents. Without a company id, an empty list (spec part 1
 * §5); a failure: the server's message or 'Failed to fetch batches'. When no answer comes (offline)
 * the local store answers, as it holds the same documents.
 */
export async function getBatches(context: ApiContext, input: { companyId?: number | null }): Promise<BatchDocument[]> {
  if (!input.companyId) return [];
  const query = check(companyQuery, { company_id: input.companyId });
  const answer = await onlineOrLocal<{ batches?: BatchDocument[] }>(context, { path: '/get_batches', query }, batchClientMessages.fetchFailed, async () => {
    const local = await findLocal(context, 'batches', { CompanyID: query.company_id });
    const batches = local
      .sort(byCreation)
      .map(({ id: _id, ...batch }) => batch as unknown as BatchDocument);
    return { batches };
  });
  if (!Array.isArray(answer?.batches)) throw new ApiError(batchClientMessages.fetchFailed, 200);
  return answer.batches;
}

export interface UpdateBatchInput {
  batchId: Id;
  companyId: number;
  batchNumber?: string;
  numberOfPlants?: number;
  /** '' clears it. */
  strainName?: string;
  batchStatus?: string;
  /** '' clears it. */
  color?: string;
  startDate?: string | null;
  endDate?: string | null;
}

/**
 * update_batches: query batch_id and company_id, a multipart body of the fields that change; queued.
 * Like create_batch, a broken rule is logged and answers null (spec part 1 §8); otherwise it answers
 * the batch's local document as changed (or just the changes, when the batch is not local).
 */
export function updateBatches(context: ApiContext, input: UpdateBatchInput): Promise<(Partial<BatchDocument> & { BatchID: Id }) | null> {
  return loggedOrNull('update_batches', async () => {
    const { batch_id, company_id } = check(batchCompanyQuery, { batch_id: input.batchId, company_id: input.companyId });
    const given = Object.fromEntries(
      Object.entries({
        BatchNumber: input.batchNumber,
        NumberOfPlants: input.numberOfPlants,
        StrainName: input.strainName,
        BatchStatus: input.batchStatus,
        Color: input.color,
        StartDate: input.startDate,
        EndDate: input.endDate,
      }).filter(([, value]) => value !== undefined),
    );
    const values = check(updateBatchBody, given);
    const batch = await localBatch(context, batch_id);
    const status = values.BatchStatus === undefined ? undefined : await statusOrRefuse(context, company_id, values.BatchStatus);
    assertDates(values.StartDate === undefined ? batch?.StartDate : values.StartDate, values.EndDate === undefined ? batch?.EndDate : values.EndDate);
    if (values.BatchNumber !== undefined) await assertNumberFree(context, company_id, values.BatchNumber, batch_id);
    const changes: Partial<BatchDocument> = {
      ...(values.BatchNumber === undefined ? {} : { BatchNumber: values.BatchNumber }),
      ...(values.NumberOfPlants === undefined ? {} : { NumberOfPlants: values.NumberOfPlants }),
      ...(values.StrainName === undefined ? {} : { StrainName: values.StrainName || null }),
      ...(status === undefined ? {} : { BatchStatus: status }),
      ...(values.Color === undefined ? {} : { Color: values.Color || null }),
      ...(values.StartDate === undefined ? {} : { StartDate: values.StartDate }),
      ...(values.EndDate === undefined ? {} : { EndDate: values.EndDate }),
      UpdatedDateTime: now(),
    };
    if (batch && status !== undefined && status !== batch.BatchStatus) {
      const { userId } = await signedIn(context);
      changes.history = [...(batch.history ?? []), historyEvent(batch.BatchID, userId, 'status', { details: { from: batch.BatchStatus, to: status } })];
    }
    await record(context, {
      method: 'PUT',
      path: '/update_batches',
      query: { batch_id, company_id },
      body: multipart({ ...values, ...(status === undefined ? {} : { BatchStatus: status }) }),
      effects: batch ? [{ op: 'patch', collection: 'batches', id: String(batch_id), data: changes }] : [],
      label: labelNaming(values.BatchNumber ?? batch?.BatchNumber, changeLabels.updateBatch, changeLabels.updateABatch),
    });
    const { id: _id, ...document } = batch ?? { id: '' };
    return { ...document, ...changes, BatchID: batch ? batch.BatchID : (batch_id as Id) };
  });
}

/**
 * delete_batches (Admin): queued. Spec part 1 §8: "the result is status error with the server message
 * or 'Unknown error'". A rule the input breaks answers `{status: 'error', message}` at once. A queued
 * delete cannot know the server's answer: it answers `{status: 'queued', BatchID}`, the batch leaves
 * the local store (and the boxes' `BatchIDs`) at once, and a refusal later shows in the sync status's
 * failed list with the server's message, or 'Unknown error'.
 */
export async function deleteBatches(context: ApiContext, input: { batchId: Id; companyId: number }): Promise<{ status: 'queued'; BatchID: Id } | { status: 'error'; message: string }> {
  try {
    const { batch_id, company_id } = check(batchCompanyQuery, { batch_id: input.batchId, company_id: input.companyId });
    const batch = await localBatch(context, batch_id);
    const removed = new Set([String(batch_id)]);
    const boxEffects: Effect[] = [];
    for (const boxId of ids(batch?.GridBoxIDs)) {
      const box = await context.store.get('grid_boxes', String(boxId));
      if (box) boxEffects.push({ op: 'patch', collection: 'grid_boxes', id: box.id, data: { BatchIDs: withoutIds(box.BatchIDs, removed) } });
    }
    await record(context, {
      method: 'DELETE',
      path: '/delete_batches',
      query: { batch_id, company_id },
      effects: [{ op: 'remove', collection: 'batches', id: String(batch_id) }, ...boxEffects],
      label: labelNaming(batch?.BatchNumber, changeLabels.deleteBatch, changeLabels.deleteABatch),
      fallbackMessage: batchClientMessages.unknownError,
    });
    return { status: 'queued', BatchID: batch_id as Id };
  } catch (error) {
    return { status: 'error', message: error instanceof Error && error.message ? error.message : batchClientMessages.unknownError };
  }
}

// ——— Links ———

/** link_room_batch: queued; the batch lists the room at once, with a history entry when the link is new. Errors are thrown (spec part 1 §8). */
export async function linkRoomBatch(context: ApiContext, input: { roomId: Id; batchId: Id }) {
  const { room_id, batch_id } = check(linkRoomQuery, { room_id: input.roomId, batch_id: input.batchId });
  const batch = await localBatch(context, batch_id);
  const effects: Effect[] = [];
  if (batch && !ids(batch.RoomIDs).some((id) => sameId(id, room_id))) {
    const { userId } = await signedIn(context);
    effects.push({
      op: 'patch',
      collection: 'batches',
      id: String(batch_id),
      data: { RoomIDs: withId(batch.RoomIDs, room_id), history: [...(batch.history ?? []), historyEvent(batch.BatchID, userId, 'linked_room', { to_room_id: room_id })], UpdatedDateTime: now() },
    });
  }
  await record(context, { method: 'POST', path: '/link_room_batch', query: { room_id, batch_id }, effects, label: labelNaming(batch?.BatchNumber, changeLabels.linkBatchToRoom, changeLabels.linkABatchToRoom) });
}

/** link_grid_batch: queued; the batch lists the grid at once. Errors are thrown (spec part 1 §8). */
export async function linkGridBatch(context: ApiContext, input: { gridId: Id; batchId: Id }) {
  const { grid_id, batch_id } = check(linkGridQuery, { grid_id: input.gridId, batch_id: input.batchId });
  const batch = await localBatch(context, batch_id);
  const effects: Effect[] =
    batch && !ids(batch.GridIDs).some((id) => sameId(id, grid_id)) ? [{ op: 'patch', collection: 'batches', id: String(batch_id), data: { GridIDs: withId(batch.GridIDs, grid_id), UpdatedDateTime: now() } }] : [];
  await record(context, { method: 'POST', path: '/link_grid_batch', query: { grid_id, batch_id }, effects, label: labelNaming(batch?.BatchNumber, changeLabels.linkBatchToGrid, changeLabels.linkABatchToGrid) });
}

/** link_gridbox_batch: spec part 1 §5, 'Invalid payload: batchID and grid_box_ids are required'. */
export async function linkGridboxBatch(context: ApiContext, input: { batchId: RecordId; gridBoxIds: RecordId[] }) {
  const values = check(linkGridBoxesBody, { batch_id: input.batchId, grid_box_ids: input.gridBoxIds });
  const batch = await context.store.get('batches', String(values.batch_id));
  const boxIds = values.grid_box_ids as RecordId[];
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
    label: labelNaming(batch?.BatchNumber, changeLabels.linkPlantsToBatch, changeLabels.linkPlantsToABatch),
  });
}

const defined = (query: Record<string, unknown>) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));

/** get_linked_rooms_batches: room links narrowed to a room, a batch or both; errors are thrown (spec part 1 §8). */
export async function getLinkedRoomsBatches(context: ApiContext, input: { roomId?: number; batchId?: number }): Promise<z.infer<typeof linkedRoomsAnswer>> {
  const query = check(linkedRoomsQuery, { room_id: input.roomId, batch_id: input.batchId });
  return online(context, { path: '/get_linked_rooms_batches', query: defined(query) }, batchClientMessages.linkedRoomsFailed);
}

/** get_linked_grids_batches: grid links narrowed to a grid, a batch or both; errors are thrown (spec part 1 §8). */
export async function getLinkedGridsBatches(context: ApiContext, input: { gridId?: number; batchId?: number }): Promise<z.infer<typeof linkedGridsAnswer>> {
  const query = check(linkedGridsQuery, { grid_id: input.gridId, batch_id: input.batchId });
  return online(context, { path: '/get_linked_grids_batches', query: defined(query) }, batchClientMessages.linkedGridsFailed);
}

/** A grid box call (spec part 1 §8 "the grid box calls return null"): any failure is logged and answers null. */
async function gridBoxCall<T>(call: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    console.error(`${call}:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** get_linked_gridboxes_batches: grid box links narrowed to a box, a batch or both; null on any failure (spec part 1 §8). */
export function getLinkedGridboxesBatches(context: ApiContext, input: { gridBoxId?: number; batchId?: number }): Promise<z.infer<typeof linkedGridBoxesAnswer> | null> {
  return gridBoxCall('get_linked_gridboxes_batches', () =>
    online<z.infer<typeof linkedGridBoxesAnswer>>(
      context,
      { path: '/get_linked_gridboxes_batches', query: defined(check(linkedBoxesQuery, { grid_box_id: input.gridBoxId, batch_id: input.batchId })) },
      batchClientMessages.linkedGridBoxesFailed,
    ),
  );
}

export type GridBoxBatches = z.infer<typeof gridBoxBatchesAnswer>;

/** get_gridbox_batches: the grid's boxes with their batches (status, GridBoxes); null on any failure (spec part 1 §8). */
export function getGridboxBatches(context: ApiContext, input: { gridId: RecordId }): Promise<GridBoxBatches | null> {
  return gridBoxCall('get_gridbox_batches', () =>
    online<GridBoxBatches>(context, { path: '/get_gridbox_batches', query: check(gridBoxBatchesQuery, { GridID: input.gridId }) }, batchClientMessages.gridBoxBatchesFailed),
  );
}

/** get_batches_by_room: batches linked to the room, to one of its grids or to a box of one. */
export async function getBatchesByRoom(context: ApiContext, input: { roomId: RecordId }): Promise<z.infer<typeof batchesAnswer>> {
  const query = check(roomQuery, { room_id: input.roomId });
  return online(context, { path: '/get_batches_by_room', query }, batchClientMessages.batchesByRoomFailed);
}

/**
 * get_rooms_by_batch: the rooms the batch is in (`data`). Without batch_id: "batch_id is required."; a
 * failure, or a status other than success: the server's message or "Failed to fetch rooms by batch.".
 */
export async function getRoomsByBatch(context: ApiContext, input: { batchId?: number | null }): Promise<RoomRecord[]> {
  const query = check(batchQuery, { batch_id: input.batchId ?? undefined });
  const answer = await online<{ status?: string; message?: string; data?: RoomRecord[] }>(context, { path: '/get_rooms_by_batch', query }, batchClientMessages.roomsByBatchFailed);
  if (answer?.status !== 'success' || !Array.isArray(answer.data)) throw new ApiError(answer?.message || batchClientMessages.roomsByBatchFailed, 200);
  return answer.data;
}

// ——— QR codes (online: the caller needs the image now) ———

/** `qr_code_url` is a PNG data URL. */
export type BatchQrUrl = z.infer<typeof batchQrUrlAnswer>;

/** batch_qr_url: a PNG data URL of `size` pixels (default 256). null without batch id or company id (spec part 1 §5); 'Failed to generate QR code'. */
export async function batchQrUrl(context: ApiContext, input: { batchId?: number | null; companyId?: number | null; size?: number }): Promise<BatchQrUrl | null> {
  if (!input.batchId || !input.companyId) return null;
  const { batchId } = check(qrParams, { batchId: input.batchId });
  const query = check(qrUrlQuery, { company_id: input.companyId, size: input.size ?? 256 });
  return online(context, { path: `/batch_qr_url/${batchId}`, query }, batchClientMessages.qrUrlFailed);
}

/** batch_qr: the 512-pixel PNG as a Blob. null without batch id or company id (spec part 1 §5); 'Failed to download QR code'. */
export async function batchQr(context: ApiContext, input: { batchId?: number | null; companyId?: number | null }): Promise<Blob | null> {
  if (!input.batchId || !input.companyId) return null;
  const { batchId } = check(qrParams, { batchId: input.batchId });
  const query = check(qrQuery, { company_id: input.companyId });
  // `online` answers the body only; an image needs its content type too. An array buffer works in the browser and in Node alike.
  try {
    const response = await context.client.http.get<ArrayBuffer>(`/batch_qr/${batchId}`, { params: query, responseType: 'arraybuffer' });
    const type = String(response.headers['content-type'] ?? 'image/png');
    return new Blob([response.data], { type });
  } catch (error) {
    throw new ApiError(batchClientMessages.qrDownloadFailed, axios.isAxiosError(error) ? (error.response?.status ?? null) : null);
  }
}

export type BatchQrInfo = z.infer<typeof batchQrInfoAnswer>;

/** batch_qr_info: what the batch-info screen shows. null without batch id or company id (spec part 1 §5); 'Failed to fetch batch information'. */
export async function batchQrInfo(context: ApiContext, input: { batchId?: number | null; companyId?: number | null }): Promise<BatchQrInfo | null> {
  if (!input.batchId || !input.companyId) return null;
  const { batchId } = check(qrParams, { batchId: input.batchId });
  const query = check(qrQuery, { company_id: input.companyId });
  return online(context, { path: `/batch_qr_info/${batchId}`, query }, batchClientMessages.qrInfoFailed);
}

// ——— Dashboard, harvest, moves, history ———

/** get_batch_dashboard: `batch_details` (start_date and end_date, yyyy-mm-dd, narrow the problems and history listed). */
export async function getBatchDashboard(context: ApiContext, input: { companyId: number; batchId: RecordId; startDate?: string | null; endDate?: string | null }): Promise<BatchDashboard> {
  const query = check(dashboardQuery, { company_id: input.companyId, batch_id: input.batchId, start_date: input.startDate ?? undefined, end_date: input.endDate ?? undefined });
  const answer = await online<{ batch_details?: BatchDashboard }>(context, { path: '/get_batch_dashboard', query: defined(query) }, batchClientMessages.dashboardFailed);
  if (!answer?.batch_details) throw new ApiError(batchClientMessages.dashboardFailed, 200);
  return answer.batch_details;
}

/**
 * harvest_batch: queued; the batch shows Harvested at once, harvested now by the user, with an end
 * date of today if it had none. A batch already harvested locally is refused as the server would.
 * 'Failed to Harvest Batch' (spec part 1 §8) when it cannot be recorded, and as the entry's message in
 * the sync status's failed list when the server refuses it without one of its own.
 */
export async function harvestBatch(context: ApiContext, input: { batchId: Id; companyId: number; userId: number }) {
  const { batch_id, company_id, user_id } = check(harvestQuery, { batch_id: input.batchId, company_id: input.companyId, user_id: input.userId });
  const batch = await localBatch(context, batch_id);
  if (batch?.HarvestedAt) throw new ValidationError(batchMessages.alreadyHarvested);
  const at = now();
  const effects: Effect[] = batch
    ? [
        {
          op: 'patch',
          collection: 'batches',
          id: String(batch_id),
          data: {
            BatchStatus: HARVESTED_BATCH_STATUS,
            HarvestedAt: at,
            HarvestedBy: user_id,
            EndDate: batch.EndDate ?? at.slice(0, 10),
            history: [...(batch.history ?? []), historyEvent(batch.BatchID, user_id, 'harvested', { details: { from: batch.BatchStatus } })],
            UpdatedDateTime: at,
          },
        },
      ]
    : [];
  await recordOr(
    context,
    {
      method: 'POST',
      path: '/harvest_batch',
      query: { batch_id, company_id, user_id },
      effects,
      label: labelNaming(batch?.BatchNumber, changeLabels.harvestBatch, changeLabels.harvestABatch),
      fallbackMessage: batchClientMessages.harvestFailed,
    },
    batchClientMessages.harvestFailed,
  );
}

/**
 * move_plants: queued. The batch leaves the old room (its room link, and its grid and box links
 * there) and is linked to the new room, at once; the boxes it leaves drop it from their `BatchIDs`.
 * The server's rules are checked first (two different rooms; the batch in the old room, when the
 * batch is local). 'Failed to Move Plant' (spec part 1 §8) when it cannot be recorded, and as the
 * entry's message when the server refuses it without one of its own.
 */
export async function movePlants(context: ApiContext, input: { batchId: Id; oldRoomId: Id; newRoomId: Id }) {
  const { batch_id, old_room_id, new_room_id } = check(movePlantsQuery, { batch_id: input.batchId, old_room_id: input.oldRoomId, new_room_id: input.newRoomId });
  if (sameId(old_room_id, new_room_id)) throw new ValidationError(batchMessages.sameRoom);
  const batch = await localBatch(context, batch_id);
  const effects: Effect[] = [];
  if (batch) {
    const gridsThere = new Set((await findLocal(context, 'grids', { roomId: String(old_room_id) })).map((grid) => grid.id));
    const boxesThere = gridsThere.size ? await findLocal(context, 'grid_boxes', { gridId: { $in: [...gridsThere] } }) : [];
    const gridsLeft = new Set(ids(batch.GridIDs).map(String).filter((id) => gridsThere.has(id)));
    const boxesLeft = boxesThere.filter((box) => ids(box.BatchIDs).some((id) => sameId(id, batch_id)) || ids(batch.GridBoxIDs).some((id) => sameId(id, box.id)));
    const inRoom = ids(batch.RoomIDs).some((id) => sameId(id, old_room_id));
    if (!inRoom && gridsLeft.size === 0 && boxesLeft.length === 0) throw new ValidationError(batchMessages.notInOldRoom);
    const boxIds = new Set(boxesLeft.map((box) => box.id));
    const { userId } = await signedIn(context);
    const moved = historyEvent(batch.BatchID, userId, 'moved', {
      from_room_id: old_room_id,
      to_room_id: new_room_id,
      details: { grid_ids: [...gridsLeft], grid_box_ids: [...boxIds] },
    });
    effects.push({
      op: 'patch',
      collection: 'batches',
      id: String(batch_id),
      data: {
        RoomIDs: withId(withoutIds(batch.RoomIDs, new Set([String(old_room_id)])), new_room_id),
        GridIDs: withoutIds(batch.GridIDs, gridsLeft),
        GridBoxIDs: withoutIds(batch.GridBoxIDs, boxIds),
        history: [...(batch.history ?? []), moved],
        UpdatedDateTime: now(),
      },
    });
    for (const box of boxesLeft) effects.push({ op: 'patch', collection: 'grid_boxes', id: box.id, data: { BatchIDs: withoutIds(box.BatchIDs, new Set([String(batch_id)])) } });
  }
  await recordOr(
    context,
    {
      method: 'POST',
      path: '/move_plants',
      query: { batch_id, old_room_id, new_room_id },
      effects,
      label: labelNaming(batch?.BatchNumber, changeLabels.moveBatch, changeLabels.moveABatch),
      fallbackMessage: batchClientMessages.moveFailed,
    },
    batchClientMessages.moveFailed,
  );
}

export type RoomBatchHistory = z.infer<typeof roomBatchHistoryAnswer>;

/** get_batch_history_by_room: every event that brought a batch into the room or took it out, oldest first (a read, though POST). */
export async function getBatchHistoryByRoom(context: ApiContext, input: { roomId: RecordId }): Promise<RoomBatchHistory> {
  const { room_id } = check(roomQuery, { room_id: input.roomId });
  return online(context, { method: 'POST', path: '/get_batch_history_by_room', body: { room_id } }, batchClientMessages.historyByRoomFailed);
}

// ——— Crop statuses ———

/**
 * assign_status_to_batches: query company_id; form batch_status and batch_ids joined with commas
 * (spec part 1 §9). The three 'Invalid payload: …' messages (spec part 1 §5). Queued; each local batch
 * takes the status at once (with a history entry when it changes). One request for all of them: the
 * server resolves client ids in a joined list too.
 */
export async function assignStatusToBatches(context: ApiContext, input: { companyId?: number | null; batchStatus?: string | null; batchIds?: Id[] | null }) {
  const { company_id } = check(assignStatusQuery, { company_id: input.companyId ?? undefined });
  const values = check(assignStatusBody, { batch_status: input.batchStatus ?? undefined, batch_ids: input.batchIds ?? undefined });
  const status = await statusOrRefuse(context, company_id, values.batch_status);
  const batchIds = [...new Set((values.batch_ids as Id[]).map(String))];
  const { userId } = await signedIn(context);
  const at = now();
  const effects: Effect[] = [];
  for (const batchId of batchIds) {
    const batch = await localBatch(context, batchId);
    if (!batch || batch.BatchStatus === status) continue;
    effects.push({
      op: 'patch',
      collection: 'batches',
      id: batchId,
      data: { BatchStatus: status, history: [...(batch.history ?? []), historyEvent(batch.BatchID, userId, 'status', { details: { from: batch.BatchStatus, to: status } })], UpdatedDateTime: at },
    });
  }
  await record(context, {
    method: 'POST',
    path: '/assign_status_to_batches',
    query: { company_id },
    body: multipart({ batch_status: status, batch_ids: batchIds.join(',') }),
    effects,
    label: batchIds.length === 1 ? changeLabels.setOneBatchStatus(status) : changeLabels.setBatchesStatus(batchIds.length, status),
  });
}

interface CustomStatus {
  id: Id;
  status_name: string;
}

const customStatusesOf = (company: LocalDocument | null) => (Array.isArray(company?.custom_batch_statuses) ? (company.custom_batch_statuses as CustomStatus[]) : []);

/**
 * create_custom_batch_status (Admin): 'Company ID and status name are required' (spec part 1 §5).
 * Queued; the company's document lists it at once. A name the company already has (built-in or
 * custom, any case) is refused as the server would.
 */
export async function createCustomBatchStatus(context: ApiContext, input: { companyId?: number | null; statusName?: string | null }) {
  const { company_id, status_name } = check(customStatusFields, { company_id: input.companyId ?? undefined, status_name: input.statusName ?? undefined });
  const company = await context.store.get('company', String(company_id));
  const taken = BUILT_IN_BATCH_STATUSES.some((name) => name.toLowerCase() === status_name.toLowerCase()) || customStatusesOf(company).some((status) => status.status_name.toLowerCase() === status_name.toLowerCase());
  if (taken) throw new ValidationError(batchMessages.customStatusExists(status_name));
  const statusId = newClientId();
  const statuses = [...customStatusesOf(company), { id: statusId, status_name }].sort((a, b) => (a.status_name < b.status_name ? -1 : a.status_name > b.status_name ? 1 : 0));
  await record(context, {
    method: 'POST',
    path: '/create_custom_batch_status',
    body: multipart({ company_id, status_name, client_id: statusId }),
    effects: company ? [{ op: 'patch', collection: 'company', id: String(company_id), data: { custom_batch_statuses: statuses } }] : [],
    label: changeLabels.addBatchStatus(status_name),
  });
}

export type CustomStatuses = z.infer<typeof customStatusesAnswer>;

/** get_custom_batch_statuses: the company's own statuses (`custom_statuses`; the answer also lists the built-in ones). */
export async function getCustomBatchStatuses(context: ApiContext, input: { companyId: number }): Promise<CustomStatuses> {
  const query = check(companyQuery, { company_id: input.companyId });
  return online(context, { path: '/get_custom_batch_statuses', query }, batchClientMessages.customStatusesFailed);
}

/**
 * delete_custom_batch_status (Admin): 'Company ID and status name are required' (spec part 1 §5).
 * Queued; the company's document drops it at once (batches that carry it keep it).
 */
export async function deleteCustomBatchStatus(context: ApiContext, input: { companyId?: number | null; statusName?: string | null }) {
  const { company_id, status_name } = check(customStatusFields, { company_id: input.companyId ?? undefined, status_name: input.statusName ?? undefined });
  const company = await context.store.get('company', String(company_id));
  const statuses = customStatusesOf(company);
  const kept = statuses.filter((status) => status.status_name.toLowerCase() !== status_name.toLowerCase());
  if (company && kept.length === statuses.length) throw new ValidationError(batchMessages.customStatusNotFound(status_name));
  await record(context, {
    method: 'DELETE',
    path: '/delete_custom_batch_status',
    query: { company_id, status_name },
    effects: company ? [{ op: 'patch', collection: 'company', id: String(company_id), data: { custom_batch_statuses: kept } }] : [],
    label: changeLabels.removeBatchStatus(status_name),
  });
}

/** filter_batches_by_status: the company's batches with that status, any case (`batches`). */
export async function filterBatchesByStatus(context: ApiContext, input: { companyId: number; statusName: string }): Promise<BatchDocument[]> {
  const query = check(filterByStatusQuery, { company_id: input.companyId, status_name: input.statusName });
  const answer = await online<{ batches?: BatchDocument[] }>(context, { path: '/filter_batches_by_status', query }, batchClientMessages.filterFailed);
  if (!Array.isArray(answer?.batches)) throw new ApiError(batchClientMessages.filterFailed, 200);
  return answer.batches;
}

// ——— Batch problems (spec part 2 §5) ———

export interface CreateBatchProblemInput {
  batchId: Id;
  problemType: string;
  severity: number;
  companyId: number;
  userId: number;
  notes?: string | null;
  roomId?: Id | null;
}

/**
 * grid/create_batch_problem: batch_id, problem_type, severity (a finite number), company_id and user_id
 * all non-zero, else 'Missing required fields: batch_id, problem_type, severity, company_id, user_id';
 * notes sent only if not blank (spec part 2 §5). Queued; the problem joins the batch's document at
 * once under its client id. Answers the problem as written locally.
 */
export async function createBatchProblem(context: ApiContext, input: CreateBatchProblemInput): Promise<BatchProblemRecord> {
  const values = check(createBatchProblemBody, {
    batch_id: input.batchId,
    problem_type: input.problemType,
    severity: input.severity,
    company_id: input.companyId,
    user_id: input.userId,
    notes: input.notes ?? undefined,
    room_id: input.roomId ?? undefined,
  });
  const notes = values.notes?.trim() ? values.notes : undefined;
  const problem: BatchProblemRecord = {
    problem_id: newClientId(),
    batch_id: values.batch_id as Id,
    company_id: values.company_id,
    room_id: values.room_id === undefined ? null : (values.room_id as Id),
    problem_type: values.problem_type,
    severity: values.severity,
    notes: notes ?? null,
    user_id: values.user_id,
    created_at: now(),
    resolved: false,
    resolved_at: null,
    resolved_by: null,
  };
  const batch = await localBatch(context, values.batch_id);
  await record(context, {
    method: 'POST',
    path: '/grid/create_batch_problem',
    body: json({
      batch_id: values.batch_id,
      problem_type: values.problem_type,
      severity: values.severity,
      company_id: values.company_id,
      user_id: values.user_id,
      ...(notes === undefined ? {} : { notes }),
      ...(values.room_id === undefined ? {} : { room_id: values.room_id }),
      client_id: problem.problem_id,
    }),
    effects: batch
      ? [{ op: 'patch', collection: 'batches', id: String(values.batch_id), data: { problems: [...(batch.problems ?? []), problem], open_problems: (batch.open_problems ?? 0) + 1, UpdatedDateTime: problem.created_at } }]
      : [],
    label: labelNaming(batch?.BatchNumber, (batchNumber) => changeLabels.reportOnBatch(values.problem_type, batchNumber), changeLabels.reportOnABatch(values.problem_type)),
  });
  return problem;
}

/** What a resolve answers, without its envelope. */
export type ResolvedBatchProblems = Omit<z.infer<typeof resolveBatchProblemsAnswer>, 'status' | 'message'>;

/**
 * grid/resolve_batch_problem: batch_id and user_id, optionally narrowed by room ids (sent joined with
 * commas, spec part 1 §9) and problem type. Queued: it answers what it resolved locally, in the
 * server's answer shape; as on the server, the open problems recorded on the batch's boxes (the same
 * narrowing) are resolved with it, those on a plant of a sub-gridbox counted as plant problems.
 */
export async function resolveBatchProblem(context: ApiContext, input: { batchId: Id; userId: number; roomIds?: Id[] | null; problemType?: string | null }): Promise<ResolvedBatchProblems> {
  const values = check(resolveBatchProblemBody, { batch_id: input.batchId, user_id: input.userId, room_ids: input.roomIds?.length ? input.roomIds : undefined, problem_type: input.problemType ?? undefined });
  const roomIds = values.room_ids === undefined ? undefined : (values.room_ids as Id[]);
  const type = values.problem_type?.toLowerCase();
  const batch = await localBatch(context, values.batch_id);
  const at = now();
  const matches = (problem: BatchProblemRecord) =>
    !problem.resolved && (!roomIds?.length || roomIds.some((id) => sameId(id, problem.room_id))) && (type === undefined || problem.problem_type.toLowerCase() === type);
  const problems = batch?.problems ?? [];
  const resolved = problems.filter(matches);
  const boxKeys = ids(batch?.GridBoxIDs).map(String);
  const onBoxes = (boxKeys.length ? await findLocal(context, 'plant_problems', { gridBoxId: { $in: boxKeys }, status: { $in: [...OPEN_PROBLEM_STATUSES] } }) : []).filter(
    (problem) => (!roomIds?.length || roomIds.some((id) => sameId(id, problem.room_id as Id))) && (type === undefined || String(problem.problem_type).toLowerCase() === type),
  );
  const plantProblems = onBoxes.filter((problem) => problem.sub_gridbox_id !== null && problem.sub_gridbox_id !== undefined).length;
  const effects: Effect[] = resolved.length
    ? [
        {
          op: 'patch',
          collection: 'batches',
          id: String(values.batch_id),
          data: {
            problems: problems.map((problem) => (matches(problem) ? { ...problem, resolved: true, resolved_at: at, resolved_by: values.user_id } : problem)),
            open_problems: problems.filter((problem) => !problem.resolved).length - resolved.length,
            UpdatedDateTime: at,
          },
        },
      ]
    : [];
  effects.push(...problemActionEffects(onBoxes, 'resolve', values.user_id));
  await record(context, {
    method: 'POST',
    path: '/grid/resolve_batch_problem',
    body: json({
      batch_id: values.batch_id,
      user_id: values.user_id,
      ...(roomIds?.length ? { room_ids: roomIds.join(',') } : {}),
      ...(values.problem_type === undefined ? {} : { problem_type: values.problem_type }),
    }),
    effects,
    label: labelNaming(batch?.BatchNumber, changeLabels.resolveProblemsOfBatch, changeLabels.resolveProblemsOfABatch),
  });
  const roomsAffected: Id[] = [];
  for (const roomId of [...resolved.map((problem) => problem.room_id), ...onBoxes.map((problem) => problem.room_id as Id | null)]) {
    if (roomId !== null && !roomsAffected.some((id) => sameId(id, roomId))) roomsAffected.push(roomId);
  }
  return {
    problems_resolved: resolved.length,
    gridbox_problems_resolved: onBoxes.length - plantProblems,
    plant_problems_resolved: plantProblems,
    rooms_affected: roomsAffected,
    filters_applied: { room_ids: roomIds ?? null, problem_type: values.problem_type ?? null },
  };
}

export type BatchProblems = z.infer<typeof batchProblemsAnswer>;

/** grid/get_batch_problems: company_id, include_resolved as the text 'true' or 'false', optional batch_id (spec part 2 §7). */
export async function getBatchProblems(context: ApiContext, input: { companyId: number; includeResolved?: boolean; batchId?: number | null }): Promise<BatchProblems> {
  const include_resolved = input.includeResolved ? 'true' : 'false';
  const values = check(batchProblemsQuery, { company_id: input.companyId, include_resolved, batch_id: input.batchId ?? undefined });
  return online(context, { path: '/grid/get_batch_problems', query: defined({ company_id: values.company_id, include_resolved, batch_id: values.batch_id }) }, batchClientMessages.problemsFailed);
}

export { batchMessages, batchClientMessages };
