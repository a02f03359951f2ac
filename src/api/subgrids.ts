/**
 * Domain functions of sub-gridboxes and plant moves (spec part 2 §3, §4, §5, §7, §8, §9).
 *
 * Sub-gridboxes travel inside their parent grid box's document (`grid_boxes`, field `sub_gridboxes`,
 * shaped as the server's API shows them), so every optimistic change here patches the parent box:
 * the list is rewritten whole, sorted row by row as the server sorts it.
 *
 * Sub-gridboxes made on the tablet are named by client ids derived from their division's and their
 * place (`subGridboxClientId`), as the server derives them, so an update, delete or move recorded
 * before the division reached the server names them as the server will. They have no plant id until
 * the pull brings their box again (the server gives plant ids).
 *
 * WARNING: an effect replaces the whole `sub_gridboxes` list, so while a later entry on the same box
 * waits, the pull shows the list as that entry left it (e.g. without the plant ids the server has
 * given since); it is exact again once the entry has reached the server and the box is pulled.
 */
import type { z } from 'zod';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { subgridClientMessages, subgridMessages } from '../../common/messages/subgrids';
import type { gridBoxRecord } from '../../common/schemas/grids';
import {
  createSubGridboxesBody,
  createSubGridboxesQuery,
  deleteSubGridboxQuery,
  getSubGridboxesQuery,
  movePlantBody,
  type movementHistoryAnswer,
  movementHistoryQuery,
  type PlantMoveRecord,
  type SubGridboxRecord,
  type subGridboxesAnswerWith,
  updateSubGridboxBody,
} from '../../common/schemas/subgrids';
import type { LocalDocument } from '../../sync/store';
import { type ClientId, newClientId, subGridboxClientId } from '../../common/client-ids';
import type { Effect } from '../../sync/types';
import { type ApiContext, ApiError, ValidationError, check, json, now, online, record } from './context';
import type { RecordId } from './records';

type Id = RecordId;

/**
 * A sub-gridbox as the server shows it and as it sits in its box's local document. One made on this
 * tablet is `pending` until the pull brings the server's copy (which has no such field), and has no
 * company while its box is not in the local store.
 */
export type SubGridbox = Omit<SubGridboxRecord, 'CompanyID'> & { CompanyID: number | null; pending?: true };

export interface Position {
  subx: number;
  suby: number;
}

/**
 * A plant move as the server shows it; also the `plant_move` documents of `operations`. One recorded
 * on this tablet has no company or target position while its target box is not in the local store
 * (the server picks the position).
 */
export type PlantMove = Omit<PlantMoveRecord, 'company_id' | 'to_position'> & { company_id: number | null; to_position: Position | null };

/** Spec §3: when the custom name is blank the display name is 'Sub-{SubX}-{SubY}'. */
export const subGridboxDisplayName = (customName: string | null | undefined, subx: number, suby: number) =>
  customName?.trim() ? customName : `Sub-${subx}-${suby}`;

const samePosition = (a: Position, b: Position) => a.subx === b.subx && a.suby === b.suby;
const positionOf = (sub: SubGridbox): Position => ({ subx: sub.SubX, suby: sub.SubY });
const sameId = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);

/** Row by row (SubY, then SubX), as the server lists them. */
const sorted = (subs: SubGridbox[]) => [...subs].sort((a, b) => a.SubY - b.SubY || a.SubX - b.SubX);

/** The live sub-gridboxes of a local box document (empty when the box is not in the store). */
export const subGridboxesOf = (box: LocalDocument | null): SubGridbox[] =>
  ((box?.sub_gridboxes as SubGridbox[] | null | undefined) ?? []).filter((sub) => !sub.IsDeleted);

/** nx × ny positions row by row, as the server lays them out (spec §9: positions start at 1). */
export function gridPositions(nx: number, ny: number): Position[] {
  const positions: Position[] = [];
  for (let suby = 1; suby <= ny; suby += 1) for (let subx = 1; subx <= nx; subx += 1) positions.push({ subx, suby });
  return positions;
}

/**
 * Where the server puts a plant moved without a named position (README "Plant moves"): the first free
 * position, row by row, within the rows and columns the box uses; a full layout gets a new row.
 */
export function firstFreePosition(taken: Position[]): Position {
  const columns = Math.max(0, ...taken.map((position) => position.subx));
  const rows = Math.max(0, ...taken.map((position) => position.suby));
  for (let suby = 1; suby <= rows; suby += 1) {
    for (let subx = 1; subx <= columns; subx += 1) if (!taken.some((position) => samePosition(position, { subx, suby }))) return { subx, suby };
  }
  return { subx: 1, suby: rows + 1 };
}

/**
 * Spec §4: removing a sub-gridbox drops it from the list and lowers the count, never below 0. For a
 * screen's list state (the list and the server's `total_count`); a sub-gridbox not in the list
 * changes nothing.
 */
export function removeSubGridbox<State extends { sub_gridboxes: SubGridbox[]; total_count: number }>(state: State, subGridboxId: Id): State {
  const kept = state.sub_gridboxes.filter((sub) => !sameId(sub.Sub_gridboxID, subGridboxId));
  if (kept.length === state.sub_gridboxes.length) return state;
  return { ...state, sub_gridboxes: kept, total_count: Math.max(0, state.total_count - 1) };
}

/** The fields update_sub_gridbox may set, by their request names (null clears one). */
export interface SubGridboxChanges {
  custom_name?: string | null;
  plant_id?: string | null;
  color?: string | null;
  status?: string | null;
  content?: string | null;
  image_name?: string | null;
}

/** Spec §4: an update merges only the supplied fields (absent ones stay; null clears). */
export function mergeSubGridbox(sub: SubGridbox, changes: SubGridboxChanges, at: string = sub.UpdatedDateTime): SubGridbox {
  const merged = { ...sub, UpdatedDateTime: at };
  if (changes.custom_name !== undefined) merged.CustomName = subGridboxDisplayName(changes.custom_name, sub.SubX, sub.SubY);
  if (changes.plant_id !== undefined) merged.PlantID = changes.plant_id;
  if (changes.color !== undefined) merged.Color = changes.color;
  if (changes.status !== undefined) merged.Status = changes.status;
  if (changes.content !== undefined) merged.Content = changes.content;
  if (changes.image_name !== undefined) merged.ImageName = changes.image_name;
  return merged;
}

const boxPatch = (boxId: Id, subs: SubGridbox[]): Effect => ({ op: 'patch', collection: 'grid_boxes', id: String(boxId), data: { sub_gridboxes: sorted(subs) } });

const boxOf = (context: ApiContext, boxId: Id) => context.store.get('grid_boxes', String(boxId));

/**
 * New sub-gridboxes at `positions` of a box, made by the division `divisionId` (the call's client id;
 * each sub-gridbox's is derived from it and its place): the records it makes and the optimistic patch
 * of the box (when it is in the local store). Refuses, with the server's message, positions the box
 * already holds as far as the tablet knows. Shared by create_sub_gridboxes and submit_grid_template
 * (SubGrid templates).
 */
export async function subGridboxCreation(context: ApiContext, parentId: Id, divisionId: ClientId, positions: Position[]) {
  const box = await boxOf(context, parentId);
  const live = subGridboxesOf(box);
  const clashes = positions.filter((position) => live.some((sub) => samePosition(positionOf(sub), position)));
  if (clashes.length > 0) throw new ValidationError(subgridMessages.positionsOccupied(clashes.map(({ subx, suby }) => `${subx}-${suby}`)));
  const at = now();
  const created: SubGridbox[] = positions.map(({ subx, suby }) => ({
    Sub_gridboxID: subGridboxClientId(divisionId, subx, suby),
    ParentGridboxID: parentId,
    CompanyID: (box?.CompanyID as number | undefined) ?? null,
    CustomName: subGridboxDisplayName(null, subx, suby),
    SubX: subx,
    SubY: suby,
    // The server gives plant ids (auto_initialize_plants); the pull brings them.
    PlantID: null,
    Color: null,
    Status: null,
    Content: null,
    ImageName: null,
    IsDeleted: false,
    pending: true,
    CreatedDateTime: at,
    UpdatedDateTime: at,
  }));
  const creates = created.map((sub) => sub.Sub_gridboxID as ClientId);
  const effects: Effect[] = box ? [boxPatch(parentId, [...live, ...created])] : [];
  return { created, creates, effects };
}

/**
 * create_sub_gridboxes (spec §5, §7, §9): 'Gridbox ID is required', 'user_id is required', and nx and
 * ny must be numbers unless custom positions are given ('nx and ny must be numbers (or provide
 * customPositions)'); custom positions need whole subx and suby of at least 1, and win over nx × ny.
 * auto_initialize_plants defaults to true.
 *
 * Queued: returns at once with the new sub-gridboxes under their client ids (no plant ids yet). Where the
 * server refuses (the box's maximum, `max_allowed`, or a position taken meanwhile) the entry shows in
 * the sync status's failed list with the server's message; nothing of it is created (all or none).
 */
export async function createSubGridboxes(
  context: ApiContext,
  input: { parentGridboxId: Id; userId: number; nx?: number; ny?: number; customPositions?: Position[]; autoInitializePlants?: boolean },
) {
  const query = check(createSubGridboxesQuery, {
    parent_gridbox_id: input.parentGridboxId,
    user_id: input.userId,
    auto_initialize_plants: input.autoInitializePlants,
    nx: input.nx,
    ny: input.ny,
  });
  const { custom_positions: custom } = check(createSubGridboxesBody, { custom_positions: input.customPositions });
  const useCustom = custom !== undefined && custom.length > 0;
  if (!useCustom && (query.nx === undefined || query.ny === undefined)) throw new ValidationError(subgridMessages.sizeRequired);
  const positions = useCustom ? custom : gridPositions(query.nx as number, query.ny as number);
  const parentId = query.parent_gridbox_id as Id;
  const divisionId = newClientId();
  const { created, creates, effects } = await subGridboxCreation(context, parentId, divisionId, positions);
  await record(context, {
    method: 'POST',
    path: '/create_sub_gridboxes',
    query: {
      parent_gridbox_id: parentId,
      client_id: divisionId,
      user_id: query.user_id,
      // Spec §9: auto_initialize_plants defaults to true.
      auto_initialize_plants: query.auto_initialize_plants ?? 1,
      ...(useCustom ? {} : { nx: query.nx as number, ny: query.ny as number }),
    },
    body: useCustom ? json({ custom_positions: positions }) : { kind: 'none' },
    creates,
    effects,
    label: positions.length === 1 ? changeLabels.divideBoxIntoOne : changeLabels.divideBox(positions.length),
  });
  return { parent_gridbox_id: parentId, sub_gridboxes: created };
}

/** get_sub_gridboxes' answer as the server gives it (the box as answers show one: grids.ts `gridBoxRecord`). */
type ServerSubGridboxesAnswer = z.infer<ReturnType<typeof subGridboxesAnswerWith<(typeof gridBoxRecord)['shape']>>>;

/** get_sub_gridboxes' answer as the tablet gives it: the server's (named as the tablet names records), or the local store's. */
export type SubGridboxesAnswer = Omit<ServerSubGridboxesAnswer, 'sub_gridboxes' | 'parent_gridbox' | 'max_allowed'> & {
  sub_gridboxes: SubGridbox[];
  /** The box: the server's, under the tablet's ids (the server's as `serverId`), or its local document with its grid's name and room. */
  parent_gridbox: Record<string, unknown>;
  /** The company's per-box maximum; null when answered from the local store (only the server knows it). */
  max_allowed: number | null;
  /** Where the answer came from: the local store has live sub-gridboxes only. */
  source: 'server' | 'local';
};

/** The box as get_sub_gridboxes shows it (`parent_gridbox`), from the local store. */
async function localAnswer(context: ApiContext, parentId: Id): Promise<SubGridboxesAnswer> {
  const box = await boxOf(context, parentId);
  if (!box) throw new ApiError(subgridClientMessages.boxNotLocal);
  const grid = await context.store.get('grids', String(box.GridID));
  const { sub_gridboxes: subs, gridId: _gridId, ...shown } = box;
  const live = sorted(subGridboxesOf({ id: box.id, sub_gridboxes: subs }));
  return {
    status: 'success',
    sub_gridboxes: live,
    parent_gridbox: { ...shown, GridName: grid?.Name ?? null, RoomID: grid?.RoomID ?? null },
    total_count: live.length,
    max_allowed: null,
    source: 'local',
  };
}

/**
 * The server's answer with the box and its live sub-gridboxes named as the tablet names them (the local
 * box's client id, its grid's and room's; each sub-gridbox's by its place, unique among the live ones),
 * as the local answer names them, so a change the screen makes from it finds them in the local store.
 * Removed ones keep the server's ids: the tablet has none.
 */
function asTabletNames(box: LocalDocument | null, grid: LocalDocument | null, answer: SubGridboxesAnswer): SubGridboxesAnswer {
  if (!box) return answer;
  const local = subGridboxesOf(box);
  const named = (sub: SubGridbox): SubGridbox => {
    const same = sub.IsDeleted ? undefined : local.find((candidate) => samePosition(positionOf(candidate), positionOf(sub)));
    return same ? { ...sub, Sub_gridboxID: same.Sub_gridboxID, ParentGridboxID: box.id } : sub;
  };
  const parent = { ...answer.parent_gridbox, id: box.id, GridID: box.GridID, ...(grid ? { RoomID: grid.RoomID } : {}), serverId: answer.parent_gridbox.id };
  return { ...answer, sub_gridboxes: answer.sub_gridboxes.map(named), parent_gridbox: parent };
}

/** Whether an outbox entry still waiting changes this box (then only the local store shows it as the grower left it). */
function boxHasPendingChanges(context: ApiContext, parentId: Id) {
  return context.recorder.hasPendingEffects('grid_boxes', String(parentId));
}

/**
 * get_sub_gridboxes (spec §4, §5, §7): 'Gridbox ID is required'; `includeDeleted` lists removed
 * sub-gridboxes too. Reads the local store (live ones only, `max_allowed` null) when the box's create
 * still waits, when the browser says it is offline, when the request gets no answer, or when changes
 * to the box still wait in the outbox (and removed ones are not asked for); otherwise the server, its
 * answer named as the tablet names records (`asTabletNames`). Fails with the server's message or
 * 'Failed to Get Sub Gridboxes.'.
 */
export async function getSubGridboxes(context: ApiContext, input: { parentGridboxId: Id; includeDeleted?: boolean }): Promise<SubGridboxesAnswer> {
  const query = check(getSubGridboxesQuery, { parent_gridbox_id: input.parentGridboxId, include_deleted: input.includeDeleted });
  const parentId = query.parent_gridbox_id as Id;
  const includeDeleted = query.include_deleted === 1;
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  const unsent = typeof parentId === 'string' && (await context.recorder.awaitsCreate([parentId]));
  if (unsent || offline || (!includeDeleted && (await boxHasPendingChanges(context, parentId)))) return localAnswer(context, parentId);
  try {
    const answer = await online<ServerSubGridboxesAnswer>(
      context,
      { path: '/get_sub_gridboxes', query: { parent_gridbox_id: parentId, include_deleted: includeDeleted ? 1 : 0 } },
      subgridClientMessages.getFailed,
    );
    const box = await boxOf(context, parentId);
    const grid = box ? await context.store.get('grids', String(box.GridID)) : null;
    return asTabletNames(box, grid, { ...answer, source: 'server' });
  } catch (error) {
    // No answer at all (no signal): the local store answers, if it has the box.
    if (error instanceof ApiError && error.status === null && (await boxOf(context, parentId))) return localAnswer(context, parentId);
    throw error;
  }
}

/**
 * delete_sub_gridbox (spec §4, §5): 'Sub gridbox ID is required'. The sub-gridbox leaves its box's
 * local list at once when `parentGridboxId` is given (the screen knows it: `ParentGridboxID`), and
 * the answer's `total_count` is the box's count after it, never below 0 (`removeSubGridbox`).
 *
 * Queued (deleting is Admin-only on the server: another role's entry fails and shows in the sync
 * status's failed list with the server's message; discarding it puts the sub-gridbox back).
 */
export async function deleteSubGridbox(context: ApiContext, input: { subGridboxId: Id; parentGridboxId?: Id }) {
  const { sub_gridbox_id } = check(deleteSubGridboxQuery, { sub_gridbox_id: input.subGridboxId });
  const subId = sub_gridbox_id as Id;
  const box = input.parentGridboxId === undefined ? null : await boxOf(context, input.parentGridboxId);
  const live = subGridboxesOf(box);
  const removed = live.find((sub) => sameId(sub.Sub_gridboxID, subId));
  const after = removeSubGridbox({ sub_gridboxes: live, total_count: live.length }, subId);
  await record(context, {
    method: 'DELETE',
    path: '/delete_sub_gridbox',
    query: { sub_gridbox_id: subId },
    effects: box && removed ? [boxPatch(input.parentGridboxId as Id, after.sub_gridboxes)] : [],
    label: labelNaming(removed?.CustomName, changeLabels.deleteSubGridbox, changeLabels.deleteASubGridbox),
  });
  return { Sub_gridboxID: subId, parent_gridbox_id: input.parentGridboxId ?? null, total_count: box ? after.total_count : null };
}

/**
 * update_sub_gridbox (spec §4, §5, §7): 'Sub gridbox ID is required'; only the supplied fields are
 * sent and merged (`mergeSubGridbox`); null or blank clears one (a blank custom name shows as
 * 'Sub-{SubX}-{SubY}'). Nothing supplied is refused as the server refuses it. Queued; returns the
 * sub-gridbox as the tablet now shows it (null when its box is not given or not in the local store).
 * A refusal (e.g. a plant id another plant has) shows in the sync status's failed list.
 */
export async function updateSubGridbox(
  context: ApiContext,
  input: {
    subGridboxId: Id;
    parentGridboxId?: Id;
    customName?: string | null;
    plantId?: string | null;
    color?: string | null;
    status?: string | null;
    content?: string | null;
    imageName?: string | null;
  },
) {
  const values = check(updateSubGridboxBody, {
    sub_gridbox_id: input.subGridboxId,
    custom_name: input.customName,
    plant_id: input.plantId,
    color: input.color,
    status: input.status,
    content: input.content,
    image_name: input.imageName,
  });
  const subId = values.sub_gridbox_id as Id;
  const changes: SubGridboxChanges = Object.fromEntries(
    (['custom_name', 'plant_id', 'color', 'status', 'content', 'image_name'] as const).filter((field) => values[field] !== undefined).map((field) => [field, values[field]]),
  );
  if (Object.keys(changes).length === 0) throw new ValidationError(subgridMessages.nothingToUpdate);
  const box = input.parentGridboxId === undefined ? null : await boxOf(context, input.parentGridboxId);
  const live = subGridboxesOf(box);
  const current = live.find((sub) => sameId(sub.Sub_gridboxID, subId));
  const updated = current ? mergeSubGridbox(current, changes, now()) : null;
  await record(context, {
    method: 'PUT',
    path: '/update_sub_gridbox',
    body: json({ sub_gridbox_id: subId, ...changes }),
    effects: updated ? [boxPatch(input.parentGridboxId as Id, live.map((sub) => (sub === current ? updated : sub)))] : [],
    label: labelNaming(current?.CustomName, changeLabels.updateSubGridbox, changeLabels.updateASubGridbox),
  });
  return updated;
}

/**
 * move_plant (spec §3, §5, §7): 'plant_uid is required', 'target_parent_gridbox_id is required',
 * 'user_id is required'. Queued: the plant leaves its box and takes its place in the target box at
 * once (the named position, else the first free one as the server picks it), and the move joins the
 * local movement history (`operations`, kind `plant_move`) under its client id. The plant is looked
 * for in `fromParentGridboxId` (the screen knows it) and in the target box. A position the tablet
 * already sees taken, or the plant's own position, is refused with the server's message; a refusal
 * only the server can make shows in the sync status's failed list.
 */
export async function movePlant(
  context: ApiContext,
  input: { plantUid: string; targetParentGridboxId: Id; userId: number; targetPosition?: Position; movementReason?: string; notes?: string; fromParentGridboxId?: Id },
) {
  const values = check(movePlantBody, {
    plant_uid: input.plantUid,
    target_parent_gridbox_id: input.targetParentGridboxId,
    user_id: input.userId,
    target_position: input.targetPosition,
    movement_reason: input.movementReason,
    notes: input.notes,
  });
  const targetId = values.target_parent_gridbox_id as Id;
  const target = await boxOf(context, targetId);
  const sourceId = input.fromParentGridboxId ?? targetId;
  const source = sameId(sourceId, targetId) ? target : await boxOf(context, sourceId);
  let sub = subGridboxesOf(source).find((candidate) => candidate.PlantID === values.plant_uid);
  let fromId: Id | null = sub ? sourceId : null;
  if (!sub && !sameId(sourceId, targetId)) {
    sub = subGridboxesOf(target).find((candidate) => candidate.PlantID === values.plant_uid);
    fromId = sub ? targetId : null;
  }
  const sameBox = fromId !== null && sameId(fromId, targetId);
  const occupants = subGridboxesOf(target);

  let to: Position | null = values.target_position ?? null;
  if (to && sub && sameBox && samePosition(to, positionOf(sub))) throw new ValidationError(subgridMessages.alreadyThere);
  const isPlant = (candidate: SubGridbox) => sub !== undefined && sameId(candidate.Sub_gridboxID, sub.Sub_gridboxID);
  if (to && occupants.some((occupant) => !isPlant(occupant) && samePosition(positionOf(occupant), to as Position))) throw new ValidationError(subgridMessages.targetOccupied(to.subx, to.suby));
  if (!to && target) to = firstFreePosition(occupants.map(positionOf));

  const at = now();
  const effects: Effect[] = [];
  if (sub && target && to) {
    const derivedName = sub.CustomName === subGridboxDisplayName(null, sub.SubX, sub.SubY);
    const moved: SubGridbox = { ...sub, ParentGridboxID: targetId, SubX: to.subx, SubY: to.suby, CustomName: derivedName ? subGridboxDisplayName(null, to.subx, to.suby) : sub.CustomName, UpdatedDateTime: at };
    if (sameBox) effects.push(boxPatch(targetId, occupants.map((occupant) => (isPlant(occupant) ? moved : occupant))));
    else effects.push(boxPatch(fromId as Id, subGridboxesOf(source).filter((candidate) => !isPlant(candidate))), boxPatch(targetId, [...occupants, moved]));
  }
  const movementId = newClientId();
  const session = await context.client.session.get();
  const move: PlantMove = {
    movement_id: movementId,
    company_id: (target?.CompanyID as number | undefined) ?? session?.company_id ?? null,
    plant_uid: values.plant_uid,
    sub_gridbox_id: sub?.Sub_gridboxID ?? null,
    from_parent_gridbox_id: fromId,
    to_parent_gridbox_id: targetId,
    from_position: sub ? positionOf(sub) : null,
    to_position: to,
    movement_reason: values.movement_reason ?? null,
    notes: values.notes ?? null,
    user_id: values.user_id,
    moved_at: at,
  };
  effects.push({ op: 'upsert', collection: 'operations', id: movementId, data: { ...move, kind: 'plant_move', created_at: at, updated_at: at } });
  await record(context, {
    method: 'POST',
    path: '/move_plant',
    body: json({
      plant_uid: values.plant_uid,
      target_parent_gridbox_id: targetId,
      user_id: values.user_id,
      ...(values.target_position ? { target_position: values.target_position } : {}),
      ...(values.movement_reason !== undefined ? { movement_reason: values.movement_reason } : {}),
      ...(values.notes !== undefined ? { notes: values.notes } : {}),
      client_id: movementId,
    }),
    creates: [movementId],
    effects,
    label: changeLabels.movePlant(values.plant_uid),
  });
  return move;
}

export type MovementHistoryAnswer = z.infer<typeof movementHistoryAnswer>;

/**
 * get_company_movement_history (spec §3, §5, §9): 'Company ID is required'; 50 per page from offset
 * 0 unless told. Online (the history beyond the tablet's window lives on the server); fails with the
 * server's message or 'Failed to fetch company movement history'.
 */
export async function getCompanyMovementHistory(
  context: ApiContext,
  input: {
    companyId: number;
    batchId?: number;
    roomId?: number;
    startDate?: string | null;
    endDate?: string | null;
    sortBy?: string;
    sortOrder?: 'asc' | 'desc';
    limit?: number;
    offset?: number;
  },
): Promise<MovementHistoryAnswer> {
  const query = check(movementHistoryQuery, {
    company_id: input.companyId,
    batch_id: input.batchId,
    room_id: input.roomId,
    start_date: input.startDate,
    end_date: input.endDate,
    sort_by: input.sortBy,
    sort_order: input.sortOrder,
    limit: input.limit,
    offset: input.offset,
  });
  return online<MovementHistoryAnswer>(
    context,
    {
      path: '/get_company_movement_history',
      query: {
        company_id: query.company_id,
        batch_id: query.batch_id,
        room_id: query.room_id,
        start_date: query.start_date ?? undefined,
        end_date: query.end_date ?? undefined,
        sort_by: query.sort_by,
        sort_order: query.sort_order,
        limit: query.limit,
        offset: query.offset,
      },
    },
    subgridClientMessages.historyFailed,
  );
}

export { subgridClientMessages, subgridMessages };
