/** Domain functions of scan state, scans and whiteboard images (spec part 1 §4 "Scanning", §5, §7, §8). */
import type { z } from 'zod';
import { scanClientMessages } from '../../common/messages/scans';
import {
  deleteScanQuery,
  gridIdQuery,
  markGridScannedQuery,
  markRoomScannedQuery,
  resetScannedQuery,
  roomIdQuery,
  type scanDetailsAnswer,
  uploadWhiteboardBody,
  type whiteboardHistoryAnswer,
} from '../../common/schemas/scans';
import type { LocalDocument } from '../../sync/store';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, now, online, record, ValidationError, findLocal } from './context';
import { assertImage } from './grids';
import { filePart, multipartWithFile, signedIn } from './rooms';
import { type RecordId } from './records';

/** mark_room_scanned: queued; the room shows scanned by the signed-in user at once (the server requires user_id to be the caller). */
export async function markRoomScanned(context: ApiContext, input: { roomId: RecordId; userId: number }) {
  const { room_id, user_id } = check(markRoomScannedQuery, { room_id: input.roomId, user_id: input.userId });
  const at = now();
  const room = await context.store.get('rooms', String(room_id));
  await record(context, {
    method: 'POST',
    path: '/mark_room_scanned',
    query: { room_id, user_id },
    effects: [{ op: 'patch', collection: 'rooms', id: String(room_id), data: { Scanned: true, ScannedDateTime: at, LastScannedBy: user_id, UpdatedDateTime: at } }],
    label: room ? `Mark room ${String(room.Name)} scanned` : 'Mark a room scanned',
  });
}

/** mark_grid_scanned: queued, like mark_room_scanned. */
export async function markGridScanned(context: ApiContext, input: { gridId: RecordId; userId: number }) {
  const { grid_id, user_id } = check(markGridScannedQuery, { grid_id: input.gridId, user_id: input.userId });
  const at = now();
  const grid = await context.store.get('grids', String(grid_id));
  await record(context, {
    method: 'POST',
    path: '/mark_grid_scanned',
    query: { grid_id, user_id },
    effects: [{ op: 'patch', collection: 'grids', id: String(grid_id), data: { Scanned: true, ScannedDateTime: at, LastScannedBy: user_id, UpdatedDateTime: at } }],
    label: grid ? `Mark grid ${String(grid.Name)} scanned` : 'Mark a grid scanned',
  });
}

const hasScanState = (document: LocalDocument) => document.Scanned === true || document.ScannedDateTime != null || document.LastScannedBy != null;

/**
 * reset_scanned_status (Admin): queued; clears the scan state of every room and grid of the company
 * (spec part 1 §4: "a reset call clears all scanned statuses"). Without companyId it is the caller's
 * company, as on the server.
 */
export async function resetScannedStatus(context: ApiContext, input: { companyId?: number } = {}) {
  const { company_id } = check(resetScannedQuery, { company_id: input.companyId });
  const companyId = company_id ?? (await signedIn(context)).companyId;
  const cleared = { Scanned: false, ScannedDateTime: null, LastScannedBy: null, UpdatedDateTime: now() };
  const effects: Effect[] = [];
  if (companyId !== null) {
    for (const collection of ['rooms', 'grids'] as const) {
      for (const document of await findLocal(context, collection, { CompanyID: companyId })) {
        if (hasScanState(document)) effects.push({ op: 'patch', collection, id: document.id, data: cleared });
      }
    }
  }
  await record(context, {
    method: 'POST',
    path: '/reset_scanned_status',
    query: company_id === undefined ? {} : { company_id },
    effects,
    label: 'Reset scanned status',
  });
}

export type ScanDetails = z.infer<typeof scanDetailsAnswer>;

/** A scan helper that swallows errors (spec part 1 §8): warned about, answered with null. */
async function orNull<T>(call: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    console.warn(`${call} failed:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** get_room_scan_details: scan state with the last scanner's name; null on any failure (spec part 1 §8). */
export function getRoomScanDetails(context: ApiContext, input: { roomId: RecordId }): Promise<ScanDetails | null> {
  return orNull('get_room_scan_details', () =>
    online<ScanDetails>(context, { path: '/get_room_scan_details', query: check(roomIdQuery, { room_id: input.roomId }) }, scanClientMessages.scanDetailsFailed),
  );
}

/** get_grid_scan_details: as get_room_scan_details, for a grid; null on any failure. */
export function getGridScanDetails(context: ApiContext, input: { gridId: RecordId }): Promise<ScanDetails | null> {
  return orNull('get_grid_scan_details', () =>
    online<ScanDetails>(context, { path: '/get_grid_scan_details', query: check(gridIdQuery, { grid_id: input.gridId }) }, scanClientMessages.scanDetailsFailed),
  );
}

/**
 * upload_whiteboard_image: needs a room id and an image file (spec part 1 §5). Queued, the file kept as
 * a Blob part of the entry.
 * Decision: no optimistic change. The room's `WhiteboardImage` (and its history entry) is the path the
 * server gives the stored file, which the tablet cannot know; a local object URL would die with the
 * page while the entry lives on. The screen shows its own preview of the picked file until the pull
 * brings the room's new `WhiteboardImage`.
 */
export async function uploadWhiteboardImage(context: ApiContext, input: { roomId: RecordId; image: Blob; fileName?: string }) {
  const { room_id } = check(uploadWhiteboardBody, { room_id: input.roomId });
  assertImage(input.image);
  const room = await context.store.get('rooms', String(room_id));
  await record(context, {
    method: 'POST',
    path: '/upload_whiteboard_image',
    body: multipartWithFile({ room_id }, filePart('imageFile', input.image, input.fileName)),
    label: room ? `Upload whiteboard image of room ${String(room.Name)}` : 'Upload a whiteboard image',
  });
}

export type WhiteboardHistory = z.infer<typeof whiteboardHistoryAnswer>;

/** get_whiteboard_history: the room's whiteboard images, newest first. */
export async function getWhiteboardHistory(context: ApiContext, input: { roomId: RecordId }): Promise<WhiteboardHistory> {
  const query = check(roomIdQuery, { room_id: input.roomId });
  return online<WhiteboardHistory>(context, { path: '/get_whiteboard_history', query }, scanClientMessages.whiteboardHistoryFailed);
}

/**
 * delete_scan (Admin): 'Delete scan needs scan id and company id' (spec part 1 §5). Queued; scans are
 * not kept in the local store, so there is nothing to change locally.
 */
export async function deleteScan(context: ApiContext, input: { companyId: number; scanId: number }) {
  if (!input.companyId || !input.scanId) throw new ValidationError(scanClientMessages.deleteScanFieldsRequired);
  const { company_id, scan_id } = check(deleteScanQuery, { company_id: input.companyId, scan_id: input.scanId });
  await record(context, { method: 'DELETE', path: '/delete_scan', query: { company_id, scan_id }, label: `Delete scan ${scan_id}` });
}
