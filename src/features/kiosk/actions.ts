/**
 * The kiosk's steps as the screens take them, over the page's services (src/api/kiosk.ts does the
 * work): switching away, switching in by PIN, and signing out fully. Each tells the sync worker that
 * the tablet's sessions changed, so entries waiting for a session go (or stop going) at once.
 */
import { isRole } from '../../../common/roles';
import type { Session } from '../../api/client';
import { kioskMembers, leaveKiosk, parkReplaced, parkSignedIn, signedInWithPassword, switchByPin } from '../../api/kiosk';
import { endSession, logout } from '../../api/session';
import { homeOf } from '../../app/home';
import { client, kiosk, session, startSync } from '../../app/services';
import { syncWorker } from '../../sync/sync-store';

/**
 * Tells the sync worker the sessions changed, without waiting for the replay it starts (a kiosk
 * switch must not wait for a queue of changes to reach the server). Starts the worker after a
 * sign-in on a page that had none.
 */
export function resumeSync(): void {
  startSync().catch((error: unknown) => console.warn('Starting the sync after a sign-in failed:', error));
}

/** The signed-in user steps away: parked (still signed in, their changes keep syncing). Requires their PIN. */
export async function switchAway(): Promise<void> {
  await parkSignedIn(kiosk, session);
  void syncWorker()?.sessionsChanged();
}

/** Switches the screen to a parked user by their PIN; returns where they land. */
export async function switchTo(userId: number, pin: string): Promise<ReturnType<typeof homeOf>> {
  const switched = await switchByPin(kiosk, session, { userId, pin });
  resumeSync();
  return homeOf(isRole(switched.user_role) ? switched.user_role : null);
}

/**
 * After a password sign-in: PIN switching works again for this user, and their waiting changes may go.
 * `replaced` is whoever was at the screen before, if someone else: parked when they have a PIN here,
 * else their session ends on the server (their waiting changes stay for their own next sign-in).
 */
export async function afterPasswordSignIn(signedIn: Session, replaced: Session | null): Promise<void> {
  if (replaced && replaced.user_id !== signedIn.user_id && !parkReplaced(kiosk, replaced)) {
    await endSession({ client }, replaced);
    leaveKiosk(kiosk, replaced.user_id);
  }
  signedInWithPassword(kiosk, signedIn.user_id);
  resumeSync();
}

/**
 * Signs the user at the screen out fully: the session ends on the server and here, they leave the
 * kiosk (their PIN too). Their changes still waiting stay in the outbox, sent when they sign in again,
 * never as someone else. Returns where the tablet goes next: the switch screen while other users are
 * parked on it, else the sign-in screen.
 */
export async function signOutFully(): Promise<'/switchUser' | '/signIn'> {
  const current = await session.get();
  await logout({ client });
  if (current) leaveKiosk(kiosk, current.user_id);
  void syncWorker()?.sessionsChanged();
  return kioskMembers(kiosk).some((member) => member.parked) ? '/switchUser' : '/signIn';
}
