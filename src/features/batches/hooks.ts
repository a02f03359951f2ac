/**
 * The batch screens' reads: who is signed in, the company's document, rooms and grids by id, the boxes
 * the batches use, and following a batch made offline to its server id once it syncs.
 */
import { useEffect, useMemo, useState } from 'react';
import { useLocalDocument, useLocalQuery } from '../../app/hooks';
import { session } from '../../app/services';
import type { LocalDocument } from '../../db/schemas';
import { byName, type LocalBatch } from './model';

export interface SignedIn {
  userId: number | null;
  companyId: number | null;
  isAdmin: boolean;
  /** False until the session has been read. */
  ready: boolean;
}

/** The signed-in user (ids from the session; Admin and SuperAdmin manage deletions and custom statuses). */
export function useSignedIn(): SignedIn {
  const [state, setState] = useState<SignedIn>({ userId: null, companyId: null, isAdmin: false, ready: false });
  useEffect(() => {
    let alive = true;
    void session.get().then((current) => {
      if (!alive) return;
      const role = session.role();
      setState({ userId: current?.user_id ?? null, companyId: current?.company_id ?? null, isAdmin: role === 'Admin' || role === 'SuperAdmin', ready: true });
    });
    return () => {
      alive = false;
    };
  }, []);
  return state;
}

export function useCompany(companyId: number | null) {
  return useLocalDocument('company', companyId === null ? undefined : String(companyId));
}

/** The company's batches from the local store (live). */
export function useBatches(companyId: number | null) {
  return useLocalQuery<LocalBatch>('batches', companyId === null ? { id: '\u0000' } : { CompanyID: companyId }, `company:${companyId}`);
}

export interface Places {
  rooms: LocalDocument[];
  roomsById: Map<string, LocalDocument>;
  grids: LocalDocument[];
  gridsById: Map<string, LocalDocument>;
  loading: boolean;
}

/** Every room and grid on the tablet, by name and by id (a company has tens of rooms and grids, not thousands). */
export function usePlaces(): Places {
  const rooms = useLocalQuery('rooms', {}, 'all');
  const grids = useLocalQuery('grids', {}, 'all');
  return useMemo(() => {
    const sortedRooms = [...rooms.documents].sort((a, b) => byName({ name: String(a.Name ?? '') }, { name: String(b.Name ?? '') }));
    const sortedGrids = [...grids.documents].sort((a, b) => byName({ name: String(a.Name ?? '') }, { name: String(b.Name ?? '') }));
    return {
      rooms: sortedRooms,
      roomsById: new Map(sortedRooms.map((room) => [room.id, room])),
      grids: sortedGrids,
      gridsById: new Map(sortedGrids.map((grid) => [grid.id, grid])),
      loading: rooms.loading || grids.loading,
    };
  }, [rooms, grids]);
}

/** The grid boxes with these ids (live), by id. Only the boxes asked for: a company may have 100,000. */
export function useBoxes(ids: readonly string[]): { boxesById: Map<string, LocalDocument>; loading: boolean } {
  const key = [...ids].sort().join(',');
  const boxes = useLocalQuery('grid_boxes', { id: { $in: key ? key.split(',') : [] } }, `boxes:${key}`);
  return useMemo(() => ({ boxesById: new Map(boxes.documents.map((box) => [box.id, box])), loading: boxes.loading }), [boxes]);
}

/** The boxes of one grid (live), row by row. */
export function useGridBoxes(gridId: string | null) {
  const boxes = useLocalQuery('grid_boxes', { gridId: gridId ?? '\u0000' }, `grid:${gridId}`);
  return useMemo(() => ({ boxes: [...boxes.documents].sort((a, b) => Number(a.Y) - Number(b.Y) || Number(a.X) - Number(b.X)), loading: boxes.loading }), [boxes]);
}
