/**
 * The service worker's copy of the tablet's sessions (sync/session-mirror.ts), written by the page's
 * stores (src/api/kiosk.ts `mirroringSessions`), and which of them the service worker may send with
 * (sync/background-replay.ts `usableSession`).
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/api/client';
import { kioskStore, kioskVault, leaveKiosk, mirroringSessions, parkSignedIn, setPin, switchByPin } from '../../../src/api/kiosk';
import { TOKEN_MARGIN_MS, usableSession } from '../../../sync/background-replay';
import { accessTokenExpiry, type MirroredSession, sessionMirror, sessionMirrorWriter } from '../../../sync/session-mirror';
import { memorySession } from '../../support/client';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT as the server's look (unsigned: the mirror reads `exp` without verifying). */
const jwt = (claims: Record<string, unknown>) => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.signature`;
const EXP = 1_900_000_000;
const session = (userId: number, exp = EXP): Session => ({ access_token: jwt({ sub: String(userId), exp }), refresh_token: `refresh-${userId}`, user_id: userId, user_role: 'Regular', company_id: 3 });

function mirroredTablet(first: Session | null) {
  const name = `sessions-${randomUUID()}`;
  const mirror = sessionMirror(name);
  const { session: current, kiosk, mirrorNow } = mirroringSessions(memorySession(first), kioskStore(new Map()), sessionMirrorWriter(name));
  return { mirror, current, kiosk, vault: kioskVault(current, kiosk), mirrorNow };
}

const byUser = (sessions: MirroredSession[]) => sessions.map(({ userId, signedIn }) => ({ userId, signedIn })).sort((a, b) => a.userId - b.userId);

describe('the session mirror', () => {
  it('reads the access token’s expiry, and never keeps a refresh token', async () => {
    expect(accessTokenExpiry(jwt({ exp: EXP }))).toBe(EXP * 1000);
    expect(accessTokenExpiry(jwt({ sub: '1' }))).toBeNull();
    expect(accessTokenExpiry('not a token')).toBeNull();
    expect(accessTokenExpiry('a.%%%.c')).toBeNull();

    const tablet = mirroredTablet(null);
    await tablet.current.set(session(7));
    const [kept] = await tablet.mirror.all();
    expect(kept).toEqual({ userId: 7, accessToken: session(7).access_token, expiresAt: EXP * 1000, role: 'Regular', companyId: 3, signedIn: true });
    expect(JSON.stringify(await tablet.mirror.all())).not.toContain('refresh-7');
  });

  it('follows sign-in, a refresh, kiosk parking and switching, and sign-out', async () => {
    const tablet = mirroredTablet(null);
    await tablet.current.set(session(7));
    await setPin(tablet.kiosk, tablet.current, { pin: '2468', name: 'Ana' });

    // A refresh (the sync worker's client, through the vault) replaces the token.
    await tablet.vault.set(session(7, EXP + 900));
    expect((await tablet.mirror.all())[0]?.expiresAt).toBe((EXP + 900) * 1000);

    // Ana parks; Ben signs in: both are mirrored, Ben at the screen.
    await parkSignedIn(tablet.kiosk, tablet.current);
    await tablet.current.set(session(8));
    await tablet.mirrorNow();
    expect(byUser(await tablet.mirror.all())).toEqual([
      { userId: 7, signedIn: false },
      { userId: 8, signedIn: true },
    ]);

    // A parked user's refresh lands in the kiosk, and in the mirror.
    await tablet.vault.set(session(7, EXP + 1800));
    await tablet.mirrorNow();
    expect((await tablet.mirror.all()).find((kept) => kept.userId === 7)?.expiresAt).toBe((EXP + 1800) * 1000);

    // Ben sets a PIN and switches back to Ana: still both, Ana at the screen.
    await setPin(tablet.kiosk, tablet.current, { pin: '1357', name: 'Ben' });
    await switchByPin(tablet.kiosk, tablet.current, { userId: 7, pin: '2468' });
    await tablet.mirrorNow();
    expect(byUser(await tablet.mirror.all())).toEqual([
      { userId: 7, signedIn: true },
      { userId: 8, signedIn: false },
    ]);

    // Ana signs out fully: only Ben's parked session is left; then his session ends too.
    leaveKiosk(tablet.kiosk, 7);
    await tablet.current.clear();
    expect(byUser(await tablet.mirror.all())).toEqual([{ userId: 8, signedIn: false }]);
    await tablet.vault.clear(8);
    await tablet.mirrorNow();
    expect(await tablet.mirror.all()).toEqual([]);
  });

  it('copies a session the page held before the mirror existed', async () => {
    const tablet = mirroredTablet(session(9));
    expect(await tablet.mirror.all()).toEqual([]);
    await tablet.mirrorNow();
    expect(byUser(await tablet.mirror.all())).toEqual([{ userId: 9, signedIn: true }]);
  });
});

describe('which mirrored session the service worker may send with', () => {
  const at = EXP * 1000;
  const kept = (userId: number, expiresAt: number | null, signedIn = false): MirroredSession => ({ userId, accessToken: `t${userId}`, expiresAt, role: 'Regular', companyId: 3, signedIn });

  it('its author’s own, while it lasts a minute more', () => {
    const sessions = [kept(7, at + TOKEN_MARGIN_MS + 1), kept(8, at + TOKEN_MARGIN_MS), kept(9, null)];
    expect(usableSession(sessions, 7, at)?.userId).toBe(7);
    expect(usableSession(sessions, 8, at)).toBeNull();
    expect(usableSession(sessions, 9, at)).toBeNull();
    // Never another user's.
    expect(usableSession(sessions, 10, at)).toBeNull();
  });

  it('for entries of nobody in particular, the one the page would use: the signed-in user’s, else the first parked', () => {
    expect(usableSession([kept(7, at + 120_000), kept(8, at + 120_000, true)], null, at)?.userId).toBe(8);
    expect(usableSession([kept(7, at + 120_000), kept(8, at + 120_000)], null, at)?.userId).toBe(7);
    // The page's choice has expired: not another's instead.
    expect(usableSession([kept(7, at + 120_000), kept(8, at, true)], null, at)).toBeNull();
  });
});
