/**
 * The page's services, made once: the session (local storage), the one API client, the outbox, the
 * local database and the context every domain function takes. StrictMode renders twice and routes
 * load on demand, so everything here is a module-level singleton.
 */
import { backendUrl, createApiClient } from '../api/client';
import type { ApiContext } from '../api/context';
import { localSessionStore } from '../api/session';
import { localDatabase } from '../db/database';
import { rxLocalStore } from '../db/local-store';
import { Outbox } from '../../sync/outbox';
import { startSyncWorker, syncWorker } from '../sync/sync-store';

export const session = localSessionStore();
export const apiBaseUrl = backendUrl(window.location.host, import.meta.env);

/** Where a session that can no longer be refreshed ends (spec part 1 §4). */
export function signedOut() {
  window.location.assign('/signIn');
}

export const client = createApiClient({ baseURL: apiBaseUrl, session, onSignedOut: signedOut });
const outbox = new Outbox();

let context: Promise<ApiContext> | undefined;

/** The domain functions' context; the sync worker is told of every change recorded through it. */
export function apiContext(): Promise<ApiContext> {
  context ??= localDatabase().then((database) => ({
    client,
    outbox,
    store: rxLocalStore(database),
    database,
    notify: () => void syncWorker()?.changed(),
  }));
  return context;
}

/**
 * Starts the sync worker when there is a session: at page open (work resumes after a reload or a
 * crash) and after a sign-in. Pull checkpoints are kept per server and company, so another
 * company's session on this tablet starts its own.
 */
export async function startSync() {
  const current = await session.get();
  if (!current) return null;
  return startSyncWorker({ baseURL: apiBaseUrl, replicationIdentifier: `${apiBaseUrl}|company-${current.company_id}` }, session, signedOut);
}
