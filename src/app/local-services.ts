/**
 * The page's heavy services, loaded on first use rather than with the first page (src/app/services.ts
 * imports this module on demand and hands it the page's light services): the local database (RxDB on
 * IndexedDB) and the sync worker. A sign-in page never needs them; a signed-in screen asks for them
 * through `apiContext()`.
 */
import type { ApiClient, SessionVault } from '../api/client';
import type { ApiContext } from '../api/context';
import type { PageSessionStore } from '../api/session-store';
import { localDatabase } from '../db/database';
import { rxLocalReader } from '../db/local-store';
import { holdStoreFor } from '../db/store-company';
import { startSyncWorker, workerRecorder } from '../sync/sync-store';

let context: Promise<ApiContext> | undefined;

/** The page's local database for the session `current` (emptied first when it held another company's data). */
async function openStoreFor(current: Promise<{ user_role: string; company_id: number } | null>) {
  const session = await current;
  if (session) holdStoreFor(session);
  return localDatabase();
}

/** The domain functions' context over `client`; the sync worker is told of every change recorded through it. */
export function localContext(client: ApiClient): Promise<ApiContext> {
  context ??= openStoreFor(client.session.get()).then((database) => ({
    client,
    recorder: workerRecorder,
    store: rxLocalReader(database),
    database,
  }));
  return context;
}

/** Starts (or reaches) the sync worker for `current`'s company; see `startSync` in services.ts. */
export async function startSyncFor(
  current: { user_role: string; company_id: number },
  page: { apiBaseUrl: string; session: PageSessionStore; sessions: SessionVault; signedOut: () => void },
) {
  // The page opens the database first, emptied when it held another company's (store-company.ts),
  // before the worker opens its own instance.
  await openStoreFor(Promise.resolve(current));
  const worker = await startSyncWorker({ baseURL: page.apiBaseUrl, replicationIdentifier: `${page.apiBaseUrl}|company-${current.company_id}|client-ids` }, page.sessions, (userId) => {
    // A parked kiosk user's session ending is theirs alone: their changes wait for their next sign-in.
    void page.session.get().then((signedIn) => {
      if (userId === null || !signedIn || signedIn.user_id === userId) page.signedOut();
    });
  });
  // A sign-in or a switch may be what entries of another user were waiting for.
  await worker.sessionsChanged();
  return worker;
}
