/**
 * What the service worker sends with (workers/background-replay.ts), apart from its event listeners
 * so tests can run it: the app's API client and transport (src/api/client.ts) over the sessions the
 * page mirrored (sync/session-mirror.ts), never refreshing, and the shared replay
 * (sync/background-replay.ts). axios works in a service worker: without XMLHttpRequest it takes its
 * fetch adapter.
 */
import { clientsOf, type SessionVault, transportOf } from '../src/api/client';
import { isRole } from '../common/roles';
import { type BackgroundReplayOptions, type BackgroundReplayResult, leavingSessionRefusalsToTheApp, replayWithNoPageOpen, usableSession } from '../sync/background-replay';
import type { ApiTransport } from '../sync/replay';
import type { MirroredSession, SessionMirror } from '../sync/session-mirror';

/** A transport over mirrored sessions: each entry under its author's, while their access token lasts. */
export function backgroundTransport(options: { baseURL: string; sessions: readonly MirroredSession[]; now?: () => number }): ApiTransport {
  const now = options.now ?? Date.now;
  const vault: SessionVault = {
    async get(userId) {
      const session = usableSession(options.sessions, userId, now());
      if (!session || !isRole(session.role)) return null;
      // No refresh token: these clients never refresh (neverRefresh), and the mirror holds none.
      return { access_token: session.accessToken, refresh_token: '', user_id: session.userId, user_role: session.role, company_id: session.companyId };
    },
    // Called only by a refresh, which these clients never make: the page's storage stays the one truth.
    async set() {},
    async clear() {},
  };
  return leavingSessionRefusalsToTheApp(transportOf(clientsOf({ baseURL: options.baseURL, vault, neverRefresh: true })));
}

/** Sends the outbox with the sessions mirrored now, if no page of the app is open and no replay runs. */
export async function sendQueuedChanges(options: Omit<BackgroundReplayOptions, 'transport'> & { baseURL: string; mirror: SessionMirror; now?: () => number }): Promise<BackgroundReplayResult> {
  const sessions = await options.mirror.all();
  return replayWithNoPageOpen({ ...options, transport: backgroundTransport({ baseURL: options.baseURL, sessions, now: options.now }) });
}
