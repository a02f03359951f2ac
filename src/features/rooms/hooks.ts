/** Hooks the rooms, pest-pressure and overview screens share: a room's floor, a stored image. */
import { useEffect, useMemo, useState } from 'react';
import { fileObjectUrl } from '../../api/files';
import { byCreation } from '../../api/records';
import { useApiContext, useLocalDocument, useLocalQuery } from '../../app/hooks';
import { useUiState } from '../ui-state/ui-state';
import { type BoxDoc, type GridDoc, roomQueries, type RoomDoc } from './model';

/**
 * A room's floor from the local store: the room by its address (its client id, or the spec's integer
 * id from a QR label), its grids in the screens' order, and their boxes. While the grids are being
 * read, the boxes are asked for by the grid ids this room showed last time on this tablet: both reads
 * go at once. When the grids arrive with the same ids the boxes' query stands; screens draw boxes only
 * under the grids read now.
 */
export function useRoomFloor(addressed: string) {
  const room = useLocalDocument<RoomDoc>('rooms', addressed);
  // The room's key (its client id), also when the address names it by the spec's integer id.
  const roomId = room.document?.id ?? addressed;
  const gridList = useLocalQuery<GridDoc>('grids', roomQueries.grids(roomId), roomId);
  const grids = useMemo(() => [...gridList.documents].sort(byCreation), [gridList.documents]);
  const rememberedGridIds = useUiState((state) => state.roomGridIds[roomId]);
  const setRoomGridIds = useUiState((state) => state.setRoomGridIds);
  const gridIds = gridList.loading ? (rememberedGridIds ?? []) : grids.map((grid) => grid.id);
  const gridKey = gridIds.join(',');
  const boxList = useLocalQuery<BoxDoc>('grid_boxes', roomQueries.boxes(gridIds), gridKey);
  useEffect(() => {
    if (!gridList.loading && gridKey !== rememberedGridIds?.join(',')) setRoomGridIds(roomId, gridKey ? gridKey.split(',') : []);
  }, [gridList.loading, gridKey, rememberedGridIds, roomId, setRoomGridIds]);
  return { room, roomId, gridList, grids, boxList };
}

export interface StoredImage {
  url: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * A stored file (an `ImageName` or `WhiteboardImage` path) as an object URL for <img>, fetched with the
 * session's token (files are not public); the URL is revoked when the reference changes or the image
 * leaves the screen.
 */
export function useStoredImage(reference: string | null | undefined): StoredImage {
  const context = useApiContext();
  const [state, setState] = useState<StoredImage>({ url: null, loading: Boolean(reference), error: null });
  useEffect(() => {
    if (!reference) {
      setState({ url: null, loading: false, error: null });
      return undefined;
    }
    if (!context) return undefined;
    let alive = true;
    let url: string | null = null;
    setState({ url: null, loading: true, error: null });
    fileObjectUrl(context, { file: reference }).then(
      (made) => {
        url = made;
        if (alive) setState({ url: made, loading: false, error: null });
        else URL.revokeObjectURL(made);
      },
      (error: unknown) => alive && setState({ url: null, loading: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      alive = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [context, reference]);
  return state;
}

/** An object URL of a file the grower just picked (a preview until the server's copy arrives), revoked when replaced. */
export function usePreview(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

