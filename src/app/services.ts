/**
 * The page's services, made once: the session (local storage), the kiosk's other sessions and the one
 * API client. The local database and the sync worker (src/app/local-services.ts) are loaded on first
 * use, so the sign-in page carries none of RxDB, Dexie or the worker's code. StrictMode renders twice
 * and routes load on demand, so everything here is a module-level singleton.
 */
import { backendUrl, createApiClient } from '../api/client';
import type { ApiContext } from '../api/context';
import { localSessionStore } from '../api/session-store';
import { kioskStore, kioskVault, mirroringSessions } from '../api/kiosk';
import type { SessionMirrorWriter } from '../../sync/session-mirror';
import { leaveOnPurpose } from './leaving';

// Every session change is also copied where the service worker reads it, to send queued changes
// while no page of the app is open (src/app/background-sync.ts).
// The mirror's code (IndexedDB, a token's expiry) loads with the first session to copy, not with the
// sign-in page (issue 13's budget of JavaScript for it).
const mirrorWriter: SessionMirrorWriter = { copy: async (sessions) => (await import('../../sync/session-mirror')).sessionMirrorWriter().copy(sessions) };
const mirrored = mirroringSessions(localSessionStore(), kioskStore(), mirrorWriter);
export const session = mirrored.session;
export const kiosk = mirrored.kiosk;
/** Every session on this tablet: the signed-in user's and the kiosk's parked ones. */
export const sessions = kioskVault(session, kiosk);
export const apiBaseUrl = backendUrl(window.location.host, import.meta.env);

/** Where a session that can no longer be refreshed ends (spec part 1 §4). */
export function signedOut() {
  leaveOnPurpose('/signIn');
}

export const client = createApiClient({ baseURL: apiBaseUrl, session, onSignedOut: signedOut });

const localServices = () => import('./local-services');

/** The domain functions' context (loads the local database on first use). */
export async function apiContext(): Promise<ApiContext> {
  return (await localServices()).localContext(client);
}

/**
 * Starts the sync worker when there is a session: at page open (work resumes after a reload or a
 * crash) and after a sign-in. Pull checkpoints are kept per server and company, so another
 * company's session on this tablet starts its own. Without a session nothing heavy is loaded.
 */
export async function startSync() {
  // With nobody at the screen (a kiosk on its switch screen after a reload), a parked user's session
  // keeps the tablet syncing: the parked users' changes keep going out.
  const current = await sessions.get(null);
  if (!current) return null;
  const worker = await (await localServices()).startSyncFor(current, { apiBaseUrl, session, sessions, signedOut });
  // A tablet signed in before the mirror existed has sessions it lacks.
  void mirrored.mirrorNow();
  void import('./background-sync').then(({ startBackgroundSending }) => startBackgroundSending());
  return worker;
}
