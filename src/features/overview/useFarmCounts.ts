/**
 * The counts of the dashboards, from the local store, kept current: rooms, grids, plant positions
 * (grid boxes), culled plants, batches and their open problems, per room too. Reads the documents'
 * fields in place (no copies): a company may have tens of thousands of boxes, and the counts re-run
 * at every change the sync brings.
 */
import { useEffect, useState } from 'react';
import { combineLatest } from 'rxjs';
import type { RxDocument } from 'rxdb';
import { useApiContext } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { type BatchDoc, openProblems } from '../rooms/model';

export interface RoomCounts {
  id: string;
  name: string;
  scanned: boolean;
  scannedAt: string | null;
  lastScannedBy: number | null;
  grids: number;
  plants: number;
  culled: number;
}

export interface FarmCounts {
  rooms: number;
  grids: number;
  plants: number;
  culled: number;
  batches: number;
  openProblems: number;
  /** Batches with at least one open problem, by batch number. */
  /** `waiting`: made on this tablet, its create not on the server yet. */
  batchesWithProblems: Array<{ id: string; batchNumber: string; open: number; waiting: boolean }>;
  byRoom: RoomCounts[];
}

type Doc = RxDocument<LocalDocument>;
const field = (document: Doc, name: string): unknown => document.get(name);

/** The counts of one company's documents (others a shared tablet may hold are left out). */
export function countFarm(companyId: number, rooms: Doc[], grids: Doc[], boxes: Doc[], batches: Doc[]): FarmCounts {
  const ours = (document: Doc) => field(document, 'CompanyID') === companyId;
  const byRoom = new Map<string, RoomCounts>();
  for (const room of rooms.filter(ours)) {
    byRoom.set(room.primary, {
      id: room.primary,
      name: String(field(room, 'Name') ?? ''),
      scanned: field(room, 'Scanned') === true,
      scannedAt: (field(room, 'ScannedDateTime') as string | null) ?? null,
      lastScannedBy: (field(room, 'LastScannedBy') as number | null) ?? null,
      grids: 0,
      plants: 0,
      culled: 0,
    });
  }
  const roomOfGrid = new Map<string, RoomCounts | undefined>();
  let gridCount = 0;
  for (const grid of grids.filter(ours)) {
    gridCount += 1;
    const room = byRoom.get(String(field(grid, 'roomId')));
    roomOfGrid.set(grid.primary, room);
    if (room) room.grids += 1;
  }
  let plants = 0;
  let culled = 0;
  for (const box of boxes) {
    if (!ours(box)) continue;
    plants += 1;
    const isCulled = field(box, 'culled') === true;
    if (isCulled) culled += 1;
    const room = roomOfGrid.get(String(field(box, 'gridId')));
    if (room) {
      room.plants += 1;
      if (isCulled) room.culled += 1;
    }
  }
  const batchesWithProblems: FarmCounts['batchesWithProblems'] = [];
  let open = 0;
  let batchCount = 0;
  for (const batch of batches.filter(ours)) {
    batchCount += 1;
    const problems = openProblems({ id: batch.primary, problems: field(batch, 'problems') as BatchDoc['problems'], open_problems: field(batch, 'open_problems') as number | undefined });
    open += problems;
    if (problems > 0) batchesWithProblems.push({ id: batch.primary, batchNumber: String(field(batch, 'BatchNumber') ?? ''), open: problems, waiting: typeof field(batch, 'serverId') !== 'number' });
  }
  const names = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return {
    rooms: byRoom.size,
    grids: gridCount,
    plants,
    culled,
    batches: batchCount,
    openProblems: open,
    batchesWithProblems: batchesWithProblems.sort((a, b) => b.open - a.open || names.compare(a.batchNumber, b.batchNumber)),
    byRoom: [...byRoom.values()].sort((a, b) => names.compare(a.name, b.name)),
  };
}

/** The company's counts, live; null while the local store opens. */
export function useFarmCounts(companyId: number | null): FarmCounts | null {
  const context = useApiContext();
  const [counts, setCounts] = useState<FarmCounts | null>(null);
  useEffect(() => {
    if (!context || companyId === null) return undefined;
    const { rooms, grids, grid_boxes, batches } = context.database.collections;
    const subscription = combineLatest([rooms.find().$, grids.find().$, grid_boxes.find().$, batches.find().$]).subscribe(([r, g, b, t]) => setCounts(countFarm(companyId, r, g, b, t)));
    return () => subscription.unsubscribe();
  }, [context, companyId]);
  return counts;
}
