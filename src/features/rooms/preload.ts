/**
 * A room's data, read from the local store before its screen opens: when its card is in view in the
 * rooms list or is touched (the router's preload), the room's grids and boxes are queried with exactly
 * the queries RoomScreen makes (`roomQueries`), and kept subscribed for a while. RxDB answers a query it
 * already holds at once, so a room of 2,000 boxes opens without waiting for its boxes to be read from
 * IndexedDB.
 */
import type { Subscription } from 'rxjs';
import { byCreation } from '../../api/records';
import { localDocumentSelector } from '../../app/hooks';
import { apiContext } from '../../app/services';
import type { LocalDocument } from '../../db/schemas';
import { roomQueries } from './model';

/** How long a preloaded room's queries stay subscribed (held by RxDB) after the preload. */
const KEEP_MS = 60_000;

const kept = new Map<string, { subscriptions: Subscription[]; timer: ReturnType<typeof setTimeout> }>();

/** Preloads the room named by `roomKey` (its client id, or the spec's integer id). Never throws: it only warms. */
export async function preloadRoom(roomKey: string): Promise<void> {
  try {
    const { database } = await apiContext();
    const collections = database.collections;
    const room = (await collections.rooms.findOne({ selector: localDocumentSelector('rooms', roomKey) }).exec())?.toJSON() as LocalDocument | undefined;
    const roomId = room?.id ?? roomKey;
    const gridsQuery = collections.grids.find({ selector: roomQueries.grids(roomId) });
    const grids = (await gridsQuery.exec()).map((grid) => grid.toJSON() as LocalDocument).sort(byCreation);
    const boxesQuery = collections.grid_boxes.find({ selector: roomQueries.boxes(grids.map((grid) => grid.id)) });
    await boxesQuery.exec();
    const previous = kept.get(roomId);
    if (previous) {
      clearTimeout(previous.timer);
      for (const subscription of previous.subscriptions) subscription.unsubscribe();
    }
    const subscriptions = [gridsQuery.$.subscribe(), boxesQuery.$.subscribe()];
    const timer = setTimeout(() => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      kept.delete(roomId);
    }, KEEP_MS);
    kept.set(roomId, { subscriptions, timer });
  } catch (error) {
    console.warn('Preloading a room failed:', error);
  }
}
