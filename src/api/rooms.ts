/**
 * Domain functions of rooms (spec part 1 §3, §5, §7, §8; part 2 §3 room scroll), and the helpers the
 * grow-model domain files (grids, scans, batches) share: the local database for queries, file parts,
 * the signed-in user, and telling "no answer" from "the server said no".
 */
import { z } from 'zod';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { roomClientMessages } from '../../common/messages/rooms';
import type { GridBoxRecord } from '../../common/schemas/grids';
import {
  createRoomBody,
  deleteRoomQuery,
  type loadRoomGridsBoxesAnswer,
  loadRoomGridsBoxesQuery,
  roomCompanyQuery,
  roomScrollQuery,
  type RoomWithGrids,
  scrollNumber,
  updateAllRoomScrollQuery,
} from '../../common/schemas/rooms';
import type { EntryDraft } from '../../sync/outbox';
import type { LocalDocument } from '../../sync/store';
import { newClientId } from '../../common/client-ids';
import type { Effect, MultipartPart } from '../../sync/types';
import { byCreation, type RecordId } from './records';
import { ApiError, type ApiContext, check, multipart, now, online, onlineOrLocal, record } from './context';
import { findLocal } from '../db/local-store';

// ——— Shared by the grow-model domain files ———

/** The signed-in user's id and company, for what the server will stamp (scanner, history entries). */
export async function signedIn(context: ApiContext): Promise<{ userId: number | null; companyId: number | null }> {
  const session = await context.client.session.get();
  return { userId: session?.user_id ?? null, companyId: session?.company_id ?? null };
}

/** A file to upload: kept as a Blob in the outbox entry (IndexedDB stores Blobs as they are). */
export const filePart = (name: string, image: Blob, fileName?: string): MultipartPart => ({
  name,
  blob: image,
  fileName: fileName ?? (typeof File !== 'undefined' && image instanceof File && image.name ? image.name : 'image'),
});

/** A multipart body of text fields and one file part. */
export function multipartWithFile(fields: Parameters<typeof multipart>[0], file: MultipartPart): EntryDraft['body'] {
  const body = multipart(fields);
  return { kind: 'multipart', parts: [...(body?.kind === 'multipart' ? body.parts : []), file] };
}

const without = (list: unknown, ids: ReadonlySet<string>) => (Array.isArray(list) ? list.filter((id) => !ids.has(String(id))) : []);

/**
 * Effects that take deleted rooms, grids and boxes out of the batches' links (their documents list
 * live links only, so the server's next copy of each batch will not show them either).
 */
export async function batchLinkRemovals(context: ApiContext, removed: { roomIds?: unknown[]; gridIds?: unknown[]; boxIds?: unknown[] }): Promise<Effect[]> {
  const rooms = new Set((removed.roomIds ?? []).map(String));
  const grids = new Set((removed.gridIds ?? []).map(String));
  const boxes = new Set((removed.boxIds ?? []).map(String));
  const at = now();
  const effects: Effect[] = [];
  for (const batch of await findLocal(context, 'batches')) {
    const next = { RoomIDs: without(batch.RoomIDs, rooms), GridIDs: without(batch.GridIDs, grids), GridBoxIDs: without(batch.GridBoxIDs, boxes) };
    const changed = (['RoomIDs', 'GridIDs', 'GridBoxIDs'] as const).some((key) => next[key].length !== (Array.isArray(batch[key]) ? batch[key].length : 0));
    if (changed) effects.push({ op: 'patch', collection: 'batches', id: batch.id, data: { ...next, UpdatedDateTime: at } });
  }
  return effects;
}

// ——— Rooms ———

/** load_room_grids_boxes' answer; `offline` when it was read from the local store because the server could not be reached. */
export type LoadedRooms = z.infer<typeof loadRoomGridsBoxesAnswer> & { offline?: true };

/** create_room: the room appears at once under its client id (spec's `createRoomQueue`). */
export async function createRoom(context: ApiContext, input: { companyId: number; name: string; description: string }) {
  const { company_id } = check(roomCompanyQuery, { company_id: input.companyId });
  const { name, description } = check(createRoomBody, { name: input.name, description: input.description });
  const roomId = newClientId();
  const at = now();
  await record(context, {
    method: 'POST',
    path: '/create_room',
    query: { company_id },
    body: multipart({ name, description, client_id: roomId }),
    creates: [roomId],
    effects: [
      {
        op: 'upsert',
        collection: 'rooms',
        id: roomId,
        data: { RoomID: roomId, CompanyID: company_id, Name: name, Description: description, CreatedDateTime: at, UpdatedDateTime: at, Scanned: false, ScannedDateTime: null, LastScannedBy: null, WhiteboardImage: null, StartScroll: 0 },
      },
    ],
    label: changeLabels.createRoom(name),
  });
  return { RoomID: roomId };
}

/** A local document without its string link keys, shaped as the server's JSON. */
function serverShape(document: LocalDocument): Record<string, unknown> {
  const { roomId: _roomId, gridId: _gridId, ...rest } = document;
  return rest;
}

/** load_room_grids_boxes from the local store (spec part 1 §7: "Offline, it reads the local store"). */
async function loadRoomsLocally(context: ApiContext, companyId: number, roomId: RecordId | undefined): Promise<LoadedRooms> {
  let rooms: LocalDocument[];
  if (roomId === undefined) {
    rooms = await findLocal(context, 'rooms', { CompanyID: companyId });
  } else {
    const room = await context.store.get('rooms', String(roomId));
    if (!room || room.CompanyID !== companyId) throw new ApiError(roomClientMessages.roomDataNotFound);
    rooms = [room];
  }
  rooms.sort(byCreation);
  const grids = rooms.length ? (await findLocal(context, 'grids', { roomId: { $in: rooms.map((room) => room.id) } })).sort(byCreation) : [];
  const boxes = grids.length ? await findLocal(context, 'grid_boxes', { gridId: { $in: grids.map((grid) => grid.id) } }) : [];
  boxes.sort((a, b) => Number(a.Y) - Number(b.Y) || Number(a.X) - Number(b.X));
  const boxesOf = new Map<string, GridBoxRecord[]>();
  for (const box of boxes) {
    const list = boxesOf.get(String(box.gridId)) ?? [];
    list.push(serverShape(box) as unknown as GridBoxRecord);
    boxesOf.set(String(box.gridId), list);
  }
  const gridsOf = new Map<string, RoomWithGrids['grids']>();
  for (const grid of grids) {
    const list = gridsOf.get(String(grid.roomId)) ?? [];
    list.push({ ...serverShape(grid), boxes: boxesOf.get(grid.id) ?? [] } as unknown as RoomWithGrids['grids'][number]);
    gridsOf.set(String(grid.roomId), list);
  }
  return {
    status: 'success',
    offline: true,
    rooms: rooms.map((room) => {
      const { id, ...fields } = serverShape(room);
      return { ...fields, RoomID: room.RoomID ?? id, grids: gridsOf.get(room.id) ?? [] } as unknown as RoomWithGrids;
    }),
  };
}

/**
 * load_room_grids_boxes: the company's rooms (or the one named) with their grids and boxes. Online it
 * asks the server; when no answer comes (offline, spec part 1 §8: "a network error while offline is
 * only warned about") it reads the local store, and fails with 'Room data not found in local database'
 * when the room asked for is not there. A room whose create still waits is read locally only.
 */
export async function loadRoomGridsBoxes(context: ApiContext, input: { companyId: number; roomId?: RecordId | null }): Promise<LoadedRooms> {
  const values = check(loadRoomGridsBoxesQuery, { company_id: input.companyId, room_id: input.roomId ?? undefined });
  const roomId = values.room_id as RecordId | undefined;
  const answer = await onlineOrLocal<LoadedRooms>(context, { path: '/load_room_grids_boxes', query: { company_id: values.company_id, room_id: roomId } }, roomClientMessages.loadFailed, () =>
    loadRoomsLocally(context, values.company_id, roomId),
  );
  if (answer.offline) return answer;
  if (answer?.status !== 'success' || !Array.isArray(answer.rooms)) throw new ApiError(roomClientMessages.unexpectedResponse, 200);
  return answer;
}

/**
 * delete_room (Admin): queued. The room, its grids and their boxes leave the local store at once, and
 * the batches' links to them with them (the server tombstones all of them in one transaction).
 */
export async function deleteRoom(context: ApiContext, input: { roomId: RecordId }) {
  const { room_id } = check(deleteRoomQuery, { room_id: input.roomId });
  const roomKey = String(room_id);
  const grids = await findLocal(context, 'grids', { roomId: roomKey });
  const boxes = grids.length ? await findLocal(context, 'grid_boxes', { gridId: { $in: grids.map((grid) => grid.id) } }) : [];
  const room = await context.store.get('rooms', roomKey);
  await record(context, {
    method: 'DELETE',
    path: '/delete_room',
    query: { room_id },
    effects: [
      ...boxes.map((box): Effect => ({ op: 'remove', collection: 'grid_boxes', id: box.id })),
      ...grids.map((grid): Effect => ({ op: 'remove', collection: 'grids', id: grid.id })),
      { op: 'remove', collection: 'rooms', id: roomKey },
      ...(await batchLinkRemovals(context, { roomIds: [room_id], gridIds: grids.map((grid) => grid.id), boxIds: boxes.map((box) => box.id) })),
    ],
    label: labelNaming(room?.Name, changeLabels.deleteRoom, changeLabels.deleteARoom),
  });
}

/**
 * get_room_scroll: `{status, StartScroll}`. One of the room helpers that swallow errors (spec part 1
 * §8): on any failure it warns and answers from the local room, or null when that is not there either.
 */
export async function getRoomScroll(context: ApiContext, input: { companyId: number; roomId: RecordId }): Promise<{ status: 'success'; StartScroll: number } | null> {
  try {
    const query = check(roomScrollQuery, { company_id: input.companyId, room_id: input.roomId });
    return await online<{ status: 'success'; StartScroll: number }>(context, { path: '/get_room_scroll', query }, roomClientMessages.scrollFailed);
  } catch (error) {
    console.warn('get_room_scroll failed:', error instanceof Error ? error.message : error);
    const room = input.roomId ? await context.store.get('rooms', String(input.roomId)) : null;
    return typeof room?.StartScroll === 'number' ? { status: 'success', StartScroll: room.StartScroll } : null;
  }
}

const scrollValue = z.object({ setValue: scrollNumber });

/** update_room_scroll: queued; the value goes as `setValue` in the query, like update_all_room_scroll's. */
export async function updateRoomScroll(context: ApiContext, input: { companyId: number; roomId: RecordId; value: number }) {
  const { company_id, room_id } = check(roomScrollQuery, { company_id: input.companyId, room_id: input.roomId });
  const { setValue } = check(scrollValue, { setValue: input.value });
  await record(context, {
    method: 'PUT',
    path: '/update_room_scroll',
    query: { company_id, room_id, setValue },
    effects: [{ op: 'patch', collection: 'rooms', id: String(room_id), data: { StartScroll: setValue, UpdatedDateTime: now() } }],
    label: changeLabels.setRoomScroll(setValue),
  });
}

/** update_all_room_scroll (Admin): queued; every room of the company takes the value at once. */
export async function updateAllRoomScroll(context: ApiContext, input: { companyId: number; value: number }) {
  const { company_id } = check(updateAllRoomScrollQuery, { company_id: input.companyId });
  const { setValue } = check(scrollValue, { setValue: input.value });
  const at = now();
  const rooms = await findLocal(context, 'rooms', { CompanyID: company_id });
  await record(context, {
    method: 'PUT',
    path: '/update_all_room_scroll',
    query: { company_id, setValue },
    effects: rooms.map((room): Effect => ({ op: 'patch', collection: 'rooms', id: room.id, data: { StartScroll: setValue, UpdatedDateTime: at } })),
    label: changeLabels.setEveryRoomScroll(setValue),
  });
}
