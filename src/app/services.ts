/**
 * The page's services, made once: the session (local storage), the kiosk's other sessions, the one API
 * client, the local database and the context every domain function takes (it records through the sync
 * worker, the outbox's owner). StrictMode renders twice and routes load on demand, so everything here
 * is a module-level singleton.
 */
import { backendUrl, createApiClient } from '../api/client';
import type { ApiContext } from '../api/context';
import { localSessionStore } from '../api/session';
import { kioskStore, kioskVault } from '../api/kiosk';
import { localDatabase } from '../db/database';
import { rxLocalReader } from '../db/local-store';
import { startSyncWorker, workerRecorder } from '../sync/sync-store';

export const session = localSessionStore();
export const kiosk = kioskStore();
/** Every session on this tablet: the signed-in user's and the kiosk's parked ones. */
export const sessions = kioskVault(session, kiosk);
export const apiBaseUrl = backendUrl(window.location.host, import.meta.env);

/** Where a session that can no longer be refreshed ends (spec part 1 §4). */
export function signedOut() {
  window.location.assign('/signIn');
}

export const client = createApiClient({ baseURL: apiBaseUrl, session, onSignedOut: signedOut });

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

/**
 * Starts the sync worker when there is a session: at page open (work resumes after a reload or a
 * crash) and after a sign-in. Pull checkpoints are kept per server and company, so another
 * company's session on this tablet starts its own.
 */
export async function startSync() {
  // With nobody at the screen (a kiosk on its switch screen after a reload), a parked user's session
  // keeps the tablet syncing: the parked users' changes keep going out.
  const current = await sessions.get(null);
  if (!current) return null;
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
