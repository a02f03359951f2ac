/**
 * The page's heavy services, loaded on first use rather than with the first page (src/app/services.ts
 * imports this module on demand): the local database (RxDB on IndexedDB) and the sync worker. A
 * sign-in page never needs them; a signed-in screen asks for them through `apiContext()`.
 */
import type { ApiContext } from '../api/context';
import { localDatabase } from '../db/database';
import { rxLocalReader } from '../db/local-store';
import { startSyncWorker, workerRecorder } from '../sync/sync-store';
import { apiBaseUrl, client, session, sessions, signedOut } from './services';

let context: Promise<ApiContext> | undefined;

/** The domain functions' context; the sync worker is told of every change recorded through it. */
export function apiContext(): Promise<ApiContext> {
  context ??= localDatabase().then((database) => ({
    client,
    recorder: workerRecorder,
    store: rxLocalReader(database),
    database,
  }));
  return context;
}

/** Starts (or reaches) the sync worker for `current`'s company; see `startSync` in services.ts. */
export async function startSyncFor(current: { company_id: number }) {
  const worker = await startSyncWorker({ baseURL: apiBaseUrl, replicationIdentifier: `${apiBaseUrl}|company-${current.company_id}|client-ids` }, sessions, (userId) => {
    // A parked kiosk user's session ending is theirs alone: their changes wait for their next sign-in.
    void session.get().then((signedIn) => {
      if (userId === null || !signedIn || signedIn.user_id === userId) signedOut();
    });
  });
  // A sign-in or a switch may be what entries of another user were waiting for.
  await worker.sessionsChanged();
  return worker;
}
