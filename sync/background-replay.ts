/**
 * Sending the outbox while no page of the app is open (issue 19): the service worker runs this on the
 * browser's `sync` event (Background Sync: the connection returned) and `periodicsync` event
 * (workers/background-replay.ts).
 *
 * - The same replay as the sync worker's (`Replayer.runOnce`, replay.ts): the same order per author,
 *   the same Idempotency-Key per entry, refusals marked failed for the page to show, the same backoff
 *   bookkeeping in the outbox. Only what the engine does with the local store is left out (the
 *   service worker opens no RxDB): the page's pull brings the server's documents when it opens.
 * - One replay at a time: it takes the sync worker's Web Lock only if it is free, and does nothing
 *   while a window of the app is open (that page's sync worker replays).
 * - Sessions come from the mirror the page writes (session-mirror.ts). The service worker never
 *   refreshes a session: refresh tokens rotate, and a refresh here would sign the page out. So an
 *   author's entries go only while their access token lasts (a minute's margin); an author whose token
 *   has expired, or whom the server refuses (401, or a 403 that a refresh might have cured), is left for
 *   the app, which sends their entries, refreshing as it does, when it is opened again.
 */
import type { Outbox } from './outbox';
import { type ApiTransport, type ReplayOutcome, Replayer } from './replay';
import type { MirroredSession } from './session-mirror';

/** The Web Lock held around every replay, by the sync worker of any tab and by the service worker. */
export const REPLAY_LOCK = 'growroom-outbox-replay';

/** The Background Sync and periodic sync tag the page registers and the service worker answers. */
export const BACKGROUND_SYNC_TAG = 'growroom-outbox';

/** How long before its expiry an access token is no longer used: a request must arrive before it expires. */
export const TOKEN_MARGIN_MS = 60_000;

/**
 * The mirrored session that may send `userId`'s entries at `now`, or null. For entries of nobody in
 * particular (null), the one the page would use: the signed-in user's, else the first parked one.
 */
export function usableSession(sessions: readonly MirroredSession[], userId: number | null, now: number): MirroredSession | null {
  const chosen = userId === null ? (sessions.find((session) => session.signedIn) ?? sessions[0]) : sessions.find((session) => session.userId === userId);
  if (!chosen || chosen.expiresAt === null || chosen.expiresAt - TOKEN_MARGIN_MS <= now) return null;
  return chosen;
}

/**
 * A transport that answers a 403 as a 401. WARNING: for the service worker only. The page's client
 * refreshes once on a 403 (a token older than the user's new role) before taking it as a refusal; the
 * service worker cannot refresh, so a 403 there says nothing sure about the entry: its author's
 * entries are left for the app (as after a 401) instead of being marked refused.
 */
export function leavingSessionRefusalsToTheApp(transport: ApiTransport): ApiTransport {
  return {
    ...transport,
    async send(call, userId) {
      const answer = await transport.send(call, userId);
      return answer.status === 403 ? { status: 401, data: answer.data } : answer;
    },
  };
}

export type BackgroundReplayResult = { state: 'page-open' } | { state: 'busy' } | ReplayOutcome;

export interface BackgroundReplayOptions {
  outbox: Outbox;
  /** Sends with the mirrored sessions, never refreshing (see the file's header). */
  transport: ApiTransport;
  /** Whether a window of the app is open: its sync worker replays then, not the service worker. */
  pageOpen: () => Promise<boolean>;
  /** Runs `task` holding REPLAY_LOCK if nobody holds it (`navigator.locks` with `ifAvailable`); else answers 'busy'. */
  withLockIfFree: <T>(task: () => Promise<T>) => Promise<T | 'busy'>;
  /** The browser says the connection is back (a `sync` event): entries waiting out a backoff go now. */
  ignoreBackoff: boolean;
}

/** One replay of the outbox with no page open; says why it did nothing, or how the replay ended. */
export async function replayWithNoPageOpen(options: BackgroundReplayOptions): Promise<BackgroundReplayResult> {
  if (await options.pageOpen()) return { state: 'page-open' };
  const result = await options.withLockIfFree(async (): Promise<BackgroundReplayResult> => {
    // A page may have opened while the lock was asked for.
    if (await options.pageOpen()) return { state: 'page-open' };
    return new Replayer(options.outbox, options.transport).runOnce({ ignoreBackoff: options.ignoreBackoff });
  });
  return result === 'busy' ? { state: 'busy' } : result;
}
