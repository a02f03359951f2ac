/**
 * The service worker's part in sending (issue 19): the outbox goes out while no page of the app is
 * open, when the browser says the connection returned (Background Sync's `sync` event, on the tag the
 * page registers: src/app/background-sync.ts) or on its periodic sync. See sync/background-replay.ts
 * for the rules (one replay at a time, the same replay as the sync worker's, no refresh).
 *
 * Built as a classic script (an IIFE) into the app's build by scripts/build-service-worker.mjs and
 * loaded by the generated sw.js with importScripts: workbox-build's service worker is a classic script.
 * It carries the outbox (Dexie), the API client (axios) and the replay: no React, no RxDB.
 */
import { backendUrl } from '../src/api/client';
import { BACKGROUND_SYNC_TAG, REPLAY_LOCK } from '../sync/background-replay';
import { Outbox } from '../sync/outbox';
import { sessionMirror } from '../sync/session-mirror';
import { sendQueuedChanges } from './background-send';

// The service worker's own types (the project compiles against the DOM's), the little used here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  /** Chromium's last try of this registration: rejecting asks for no more. */
  readonly lastChance?: boolean;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly clients: { matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly unknown[]> };
  addEventListener(type: 'sync' | 'periodicsync', listener: (event: SyncEvent) => void): void;
}

const scope = self as unknown as ServiceWorkerScope;
const baseURL = backendUrl(scope.location.host, import.meta.env);

async function send(ignoreBackoff: boolean) {
  const outbox = new Outbox();
  try {
    return await sendQueuedChanges({
      outbox,
      mirror: sessionMirror(),
      baseURL,
      ignoreBackoff,
      pageOpen: async () => (await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })).length > 0,
      withLockIfFree: (task) => navigator.locks.request(REPLAY_LOCK, { ifAvailable: true }, (lock) => (lock ? task() : ('busy' as const))),
    });
  } finally {
    outbox.close();
  }
}

scope.addEventListener('sync', (event) => {
  if (event.tag !== BACKGROUND_SYNC_TAG) return;
  event.waitUntil(
    send(true).then((result) => {
      // Not through (no answer, a 5xx): a rejection asks the browser to fire the event again later, with
      // its own backoff, until its last chance; after that the app sends when it is opened.
      if (result.state === 'waiting' && !event.lastChance) throw new Error(`Queued changes wait: ${result.error}`);
    }),
  );
});

scope.addEventListener('periodicsync', (event) => {
  if (event.tag !== BACKGROUND_SYNC_TAG) return;
  event.waitUntil(send(false));
});
