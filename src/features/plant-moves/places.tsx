/**
 * Rooms, boxes and plant positions as the room screen names them (boxes numbered by the company's grid
 * order, `Box 3` unless renamed; positions `Sub-{x}-{y}` unless renamed), read live from the local
 * store: shared by the plant moves and grid templates screens, whose pickers go room → box.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Position, subGridboxDisplayName } from '../../api/subgrids';
import { byCreation } from '../../api/records';
import { useLocalDocument, useLocalQuery } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import { type PlacedBox, placeBoxes } from '../forms/fill/model';
import { type BoxDoc, byName, type CompanyDoc, type GridDoc, gridOrderOf, gridSize, boxLabel, type RoomDoc, numberOfBox } from '../rooms/model';
import { Field } from '../shell/forms';
import { plantMovesTexts } from './texts';

/** Matches no document: the selector of a query that has nothing to ask yet. */
const NOTHING = '\u0000';

/** The company's rooms, by name (as the rooms screen lists them). */
export function useCompanyRooms(companyId: number) {
  const list = useLocalQuery<RoomDoc>('rooms', { CompanyID: companyId }, `rooms-${companyId}`);
  return useMemo(() => ({ rooms: [...list.documents].sort(byName), loading: list.loading }), [list]);
}

/** The company's document (its grid order decides the box numbers). */
export function useCompanyDoc(companyId: number) {
  return useLocalDocument<CompanyDoc>('company', String(companyId)).document;
}

/**
 * The boxes of a room, placed in their grids (grids in the order the room screen draws them, boxes by
 * number). Empty while no room is chosen.
 */
export function useRoomBoxes(roomId: string | null, company: CompanyDoc | null): { placed: PlacedBox[]; loading: boolean } {
  const gridList = useLocalQuery<GridDoc>('grids', { roomId: roomId ?? NOTHING }, `room-grids-${roomId ?? ''}`);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const gridKey = grids.map((grid) => grid.id).join(',');
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', { gridId: { $in: grids.map((grid) => grid.id) } }, `room-boxes-${gridKey}`);
  const order = gridOrderOf(company);
  const placed = useMemo(() => placeBoxes(boxList.documents, grids, boxList.documents, order), [boxList.documents, grids, order]);
  return { placed, loading: gridList.loading || boxList.loading };
}

/** "Bench A · Box 3": the box's grid and the name the room screen gives it (called at render, in the reader's language). */
export const placedName = (placed: PlacedBox) => `${placed.grid?.Name ?? i18next.t('places.grid', { ns: plantMovesTexts })} · ${placed.label}`;

/** A position's name, as a sub-gridbox there is called when it has no name of its own (spec §3). */
export const positionName = (position: Position) => subGridboxDisplayName(null, position.subx, position.suby);

export function RoomSelect(props: { label: string; value: string; rooms: RoomDoc[]; onChange: (roomId: string) => void; none: string }) {
  const { t } = useTranslation(plantMovesTexts);
  return (
    <Field label={props.label}>
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.none}</option>
        {props.rooms.map((room) => (
          <option key={room.id} value={room.id}>
            {room.Name || t('places.unnamedRoom')}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A box of a room, named "Bench A · Box 3"; `note` adds what matters for the choice (e.g. how many plants). */
export function BoxSelect(props: { label: string; value: string; boxes: PlacedBox[]; onChange: (boxId: string) => void; none: string; note?: (placed: PlacedBox) => string | null; disabled?: boolean }) {
  // Its box names (placedName) are in the reader's language: this loads them and follows a change of language.
  useTranslation(plantMovesTexts);
  return (
    <Field label={props.label}>
      <select value={props.value} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{props.none}</option>
        {props.boxes.map((placed) => {
          const note = props.note?.(placed);
          return (
            <option key={placed.box.id} value={placed.box.id}>
              {placedName(placed)}
              {note ? ` (${note})` : ''}
            </option>
          );
        })}
      </select>
    </Field>
  );
}

/**
 * Names of boxes anywhere in the company, for the movement history: "Flower room · Bench A · Box 3".
 * A box is named by its client id (the tablet's documents) or by the server's integer id (the server's
 * history answers); only the boxes asked for are read, with their grids and rooms.
 */
export function useBoxNames(ids: ReadonlyArray<string | number | null>, company: CompanyDoc | null): (id: string | number | null) => string {
  const clientIds = [...new Set(ids.filter((id): id is string => typeof id === 'string'))].sort();
  const serverIds = [...new Set(ids.filter((id): id is number => typeof id === 'number'))].sort((a, b) => a - b);
  const byClientId = useLocalQuery<BoxDoc>('grid_boxes', { id: { $in: clientIds } }, `named-boxes-${clientIds.join(',')}`);
  // `serverId` is not indexed: asked only for the rare move the tablet has no copy of (no scan of every box otherwise).
  const byServerId = useLocalQuery<BoxDoc>('grid_boxes', serverIds.length > 0 ? { serverId: { $in: serverIds } } : { id: NOTHING }, `named-server-boxes-${serverIds.join(',')}`);
  const boxes = useMemo(() => [...byClientId.documents, ...byServerId.documents], [byClientId.documents, byServerId.documents]);
  const gridIds = [...new Set(boxes.map((box) => box.gridId))].sort();
  const grids = useLocalQuery<GridDoc>('grids', { id: { $in: gridIds } }, `named-grids-${gridIds.join(',')}`);
  const roomIds = [...new Set(grids.documents.map((grid) => grid.roomId))].sort();
  const rooms = useLocalQuery<RoomDoc>('rooms', { id: { $in: roomIds } }, `named-rooms-${roomIds.join(',')}`);
  const order = gridOrderOf(company);
  return useMemo(() => {
    const gridById = new Map(grids.documents.map((grid) => [grid.id, grid]));
    const roomById = new Map(rooms.documents.map((room) => [room.id, room]));
    const names = new Map<string, string>();
    for (const box of boxes) {
      const grid = gridById.get(box.gridId);
      const { nx, ny } = grid ? gridSize(grid, []) : { nx: 1, ny: 1 };
      const label = boxLabel(box, numberOfBox(order, box, nx, ny));
      const room = grid ? roomById.get(grid.roomId) : undefined;
      const name = [room?.Name, grid?.Name, label].filter(Boolean).join(' · ');
      names.set(box.id, name);
      if (typeof box.serverId === 'number') names.set(String(box.serverId), name);
    }
    // Called at render, so its words are in the reader's language.
    return (id) => (id === null ? i18next.t('places.nowhere', { ns: plantMovesTexts }) : (names.get(String(id)) ?? i18next.t('places.boxNotOnTablet', { ns: plantMovesTexts })));
  }, [boxes, grids.documents, rooms.documents, order]);
}
