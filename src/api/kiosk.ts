/**
 * A shared kiosk tablet: several growers signed in on one tablet, each switching to themselves with a
 * short PIN. The spec has one session per browser; this keeps the others beside it so that each
 * user's queued changes go on reaching the server under their own session (never under whoever is at
 * the screen), and so a switch takes a PIN instead of a password.
 *
 * - The signed-in user's session stays where spec part 1 §3 keeps it (session.ts). Users who switched
 *   away without signing out are "parked" here, with their sessions, in local storage.
 *   WARNING: a parked session's refresh token sits in local storage, not in a cookie (a cookie holds one
 *   user's); it is the same trust the spec already gives the access token.
 * - A PIN (4 to 8 digits) is set by its user on this tablet and kept as a salted PBKDF2-SHA256 hash; it
 *   never leaves the tablet. Five wrong PINs in a row lock PIN switching for that user until they sign
 *   in with their password.
 * - Signing out fully ends that user's session on the server and here; their changes still waiting stay
 *   in the outbox and go out when that user signs in again, never as someone else.
 */
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import { kioskMessages as m } from '../../common/messages/kiosk';
import { Rounds } from '../../sync/rounds';
import type { SessionMirrorWriter } from '../../sync/session-mirror';
import type { Session, SessionStore, SessionVault } from './client';
import { ValidationError } from './errors';
import type { KeyValueStorage } from './session-store';

export interface KioskMember {
  userId: number;
  /** The name shown on the switch screen. */
  name: string;
  pin: { salt: string; hash: string } | null;
  /** Wrong PINs in a row. */
  failures: number;
  /** The parked session (null while this user is the one signed in, or after a full sign-out). */
  session: Session | null;
}

/** The kiosk's members as kept in local storage. */
export interface KioskStore {
  members(): KioskMember[];
  save(members: KioskMember[]): void;
}

export const KIOSK_KEY = 'growroom.kiosk';
export const MAX_PIN_FAILURES = 5;
const PBKDF2_ITERATIONS = 100_000;
const PIN_PATTERN = /^\d{4,8}$/;

export function kioskStore(storage: KeyValueStorage | Map<string, string> | undefined = (globalThis as { localStorage?: Storage }).localStorage): KioskStore {
  const area: KeyValueStorage | null = storage instanceof Map ? { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => void storage.set(key, value), removeItem: (key) => void storage.delete(key) } : (storage ?? null);
  let memory: KioskMember[] = [];
  return {
    members() {
      if (!area) return memory;
      try {
        const parsed = JSON.parse(area.getItem(KIOSK_KEY) ?? '[]') as unknown;
        return Array.isArray(parsed) ? (parsed as KioskMember[]) : [];
      } catch {
        return [];
      }
    },
    save(members) {
      if (area) area.setItem(KIOSK_KEY, JSON.stringify(members));
      else memory = members;
    },
  };
}

/**
 * The vault of every session on this tablet (client.ts `SessionVault`): the signed-in user's from the
 * page's session store, the parked ones from the kiosk. A refresh lands where that user's session is.
 */
export function kioskVault(current: SessionStore, kiosk: KioskStore): SessionVault {
  return {
    async get(userId) {
      const signedIn = await current.get();
      if (signedIn && (userId === null || signedIn.user_id === userId)) return signedIn;
      // Asked for no one in particular (the pull, the change stream) with nobody at the screen: a parked
      // user's session keeps the tablet in step while the kiosk waits for the next user.
      if (userId === null) return parked(kiosk)[0] ?? null;
      return kiosk.members().find((member) => member.userId === userId)?.session ?? null;
    },
    async set(session) {
      const signedIn = await current.get();
      if (!signedIn || signedIn.user_id === session.user_id) return current.set(session);
      kiosk.save(kiosk.members().map((member) => (member.userId === session.user_id ? { ...member, session } : member)));
    },
    async clear(userId) {
      const signedIn = await current.get();
      if (signedIn && (userId === null || signedIn.user_id === userId)) return current.clear();
      const ended = userId ?? parked(kiosk)[0]?.user_id;
      kiosk.save(kiosk.members().map((member) => (member.userId === ended ? { ...member, session: null } : member)));
    },
  };
}

/** The sessions of users parked on this tablet. */
const parked = (kiosk: KioskStore): Session[] => kiosk.members().flatMap((member) => (member.session ? [member.session] : []));

const hashPin = async (pin: string, salt: string) => bytesToHex(await pbkdf2Async(sha256, pin, salt, { c: PBKDF2_ITERATIONS, dkLen: 32 }));

/** The members other users can switch to, and the signed-in one: those with a PIN on this tablet. */
export function kioskMembers(kiosk: KioskStore): Array<Pick<KioskMember, 'userId' | 'name' | 'failures'> & { locked: boolean; parked: boolean }> {
  return kiosk
    .members()
    .filter((member) => member.pin !== null)
    .map((member) => ({ userId: member.userId, name: member.name, failures: member.failures, locked: member.failures >= MAX_PIN_FAILURES, parked: member.session !== null }));
}

/** The signed-in user sets (or changes) their PIN on this tablet. */
export async function setPin(kiosk: KioskStore, current: SessionStore, input: { pin: string; name: string }): Promise<void> {
  const session = await current.get();
  if (!session) throw new ValidationError(m.signInFirst);
  if (!PIN_PATTERN.test(input.pin)) throw new ValidationError(m.pinFormat);
  const salt = bytesToHex(randomBytes(16));
  const member: KioskMember = { userId: session.user_id, name: input.name.trim() || m.unnamed(session.user_id), pin: { salt, hash: await hashPin(input.pin, salt) }, failures: 0, session: null };
  kiosk.save([...kiosk.members().filter((other) => other.userId !== session.user_id), member]);
}

/**
 * Parks the signed-in user's session (they stay signed in, their changes keep syncing) and leaves the
 * screen to nobody: the next user switches by PIN or signs in with a password. A user without a PIN
 * cannot be parked (nobody could come back to them without the password): they are asked to set one.
 */
export async function parkSignedIn(kiosk: KioskStore, current: SessionStore): Promise<void> {
  const session = await current.get();
  if (!session) return;
  const member = kiosk.members().find((other) => other.userId === session.user_id);
  if (!member?.pin) throw new ValidationError(m.setPinFirst);
  kiosk.save(kiosk.members().map((other) => (other.userId === session.user_id ? { ...other, session } : other)));
  await current.clear();
}

/**
 * Switches the screen to `userId` with their PIN: the signed-in user is parked, the chosen one's
 * session becomes the signed-in one. A wrong PIN counts; the fifth locks PIN switching for that user.
 */
export async function switchByPin(kiosk: KioskStore, current: SessionStore, input: { userId: number; pin: string }): Promise<Session> {
  const member = kiosk.members().find((other) => other.userId === input.userId);
  if (!member?.pin) throw new ValidationError(m.noPin);
  if (member.failures >= MAX_PIN_FAILURES) throw new ValidationError(m.locked);
  if (!member.session) throw new ValidationError(m.signedOut);
  if ((await hashPin(input.pin, member.pin.salt)) !== member.pin.hash) {
    const failures = member.failures + 1;
    kiosk.save(kiosk.members().map((other) => (other.userId === member.userId ? { ...other, failures } : other)));
    throw new ValidationError(failures >= MAX_PIN_FAILURES ? m.locked : m.wrongPin(MAX_PIN_FAILURES - failures));
  }
  const signedIn = await current.get();
  if (signedIn && signedIn.user_id !== member.userId) await parkSignedIn(kiosk, current);
  await current.set(member.session);
  kiosk.save(kiosk.members().map((other) => (other.userId === member.userId ? { ...other, failures: 0, session: null } : other)));
  return member.session;
}

/**
 * Someone signed in with a password over `replaced`, the user who was at the screen (the sign-in screen
 * stays reachable on a kiosk). A user with a PIN here is parked, as if they had switched away: their
 * changes keep going out under their own session and they come back by PIN. Answers false for a user
 * without one: nobody could come back to them without the password, so the caller ends that session
 * (its changes still waiting stay queued for that user's next sign-in, never sent as someone else).
 */
export function parkReplaced(kiosk: KioskStore, replaced: Session): boolean {
  if (!kiosk.members().find((member) => member.userId === replaced.user_id)?.pin) return false;
  kiosk.save(kiosk.members().map((member) => (member.userId === replaced.user_id ? { ...member, session: replaced } : member)));
  return true;
}

/** A user signed in with their password: PIN switching works for them again. */
export function signedInWithPassword(kiosk: KioskStore, userId: number): void {
  kiosk.save(kiosk.members().map((member) => (member.userId === userId ? { ...member, failures: 0, session: null } : member)));
}

/** A full sign-out: the user leaves the kiosk (their PIN too); the caller ends the session itself (session.ts `logout`). */
export function leaveKiosk(kiosk: KioskStore, userId: number): void {
  kiosk.save(kiosk.members().filter((member) => member.userId !== userId));
}

/**
 * The page's session store and kiosk, writing the service worker's copy of every session on this
 * tablet (sync/session-mirror.ts) after each change: the signed-in user's and the parked ones, each
 * with its access token, whether set by a sign-in, a switch, a refresh or cleared by a sign-out. The
 * copy is rewritten whole from the page's storage, one write at a time (writes asked meanwhile make
 * one more), so it never keeps a session the page has ended. `mirrorNow` writes it (at page open: a
 * tablet signed in before the mirror existed). A mirror that cannot be written (IndexedDB refused)
 * costs only sending with the app closed: the page's storage is the session's truth.
 */
export function mirroringSessions<Store extends SessionStore>(current: Store, kiosk: KioskStore, mirror: SessionMirrorWriter): { session: Store; kiosk: KioskStore; mirrorNow(): Promise<void> } {
  const writes = new Rounds(async () => {
    const signedIn = await current.get();
    const others = parked(kiosk).filter((session) => session.user_id !== signedIn?.user_id);
    try {
      await mirror.copy([...(signedIn ? [{ session: signedIn, signedIn: true }] : []), ...others.map((session) => ({ session, signedIn: false }))]);
    } catch (error) {
      console.warn('The sessions could not be copied for sending with the app closed', error);
    }
  });
  const mirrorNow = () => writes.run();
  return {
    session: {
      ...current,
      async set(session: Session) {
        await current.set(session);
        await mirrorNow();
      },
      async clear() {
        await current.clear();
        await mirrorNow();
      },
    },
    kiosk: {
      members: () => kiosk.members(),
      save(members) {
        kiosk.save(members);
        void mirrorNow();
      },
    },
    mirrorNow,
  };
}
