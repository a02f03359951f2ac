/**
 * The phone camera's waiting photos (the public /camera page): a small Dexie database of its own,
 * `growroom-camera`, apart from the app's local database (which this page never opens). A photo is
 * kept here from the moment it is taken until the server has stored it, with its capture time and its
 * own uuid, so a phone offline for hours sends every photo later, in the order taken, each once (the
 * server stores an upload sent again once: common/schemas/cameras.ts `deviceUploadBody`).
 *
 * WARNING: photos are large (a JPEG of a phone's frame is 0.2 to 1 MB): a phone offline for days at a
 * short interval fills its storage; the page shows how many wait.
 */
import { Dexie, type Table } from 'dexie';

export interface WaitingCapture {
  /** The capture's uuid: its client_id on the server. */
  id: string;
  blob: Blob;
  /** When the photo was taken (ISO), on the phone's clock. */
  capturedAt: string;
}

class CaptureDatabase extends Dexie {
  captures!: Table<WaitingCapture, string>;
  constructor() {
    super('growroom-camera');
    this.version(1).stores({ captures: 'id, capturedAt' });
  }
}

let database: CaptureDatabase | null = null;
const open = () => (database ??= new CaptureDatabase());

export const captureStore = {
  add: (capture: WaitingCapture) => open().captures.put(capture).then(() => undefined),
  /** The oldest waiting photo (the next to send). */
  oldest: () => open().captures.orderBy('capturedAt').first(),
  count: () => open().captures.count(),
  remove: (id: string) => open().captures.delete(id),
  /** Forgets every waiting photo (the link was revoked: they can no longer be sent). Answers how many. */
  async clear(): Promise<number> {
    const count = await open().captures.count();
    await open().captures.clear();
    return count;
  },
};
