/** The shared kiosk (src/api/kiosk.ts): PINs, parking and switching, and the vault the sync worker sends with. */
import { describe, expect, it } from 'vitest';
import { kioskMessages as m } from '../../../common/messages/kiosk';
import type { Session } from '../../../src/api/client';
import { ValidationError } from '../../../src/api/context';
import { KIOSK_KEY, kioskMembers, kioskStore, kioskVault, leaveKiosk, MAX_PIN_FAILURES, parkReplaced, parkSignedIn, setPin, signedInWithPassword, switchByPin } from '../../../src/api/kiosk';
import { memorySession } from '../../support/client';

const session = (userId: number): Session => ({ access_token: `access-${userId}`, refresh_token: `refresh-${userId}`, user_id: userId, user_role: 'Regular', company_id: 1 });

function kioskWith(first: number) {
  const storage = new Map<string, string>();
  const current = memorySession(session(first));
  const kiosk = kioskStore(storage);
  return { storage, current, kiosk, vault: kioskVault(current, kiosk) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as Error).message;
}

describe('PINs', () => {
  it('are 4 to 8 digits, kept only as a salted hash', async () => {
    const { storage, current, kiosk } = kioskWith(7);
    expect(await refusal(setPin(kiosk, current, { pin: '123', name: 'Ana' }))).toBe(m.pinFormat);
    expect(await refusal(setPin(kiosk, current, { pin: '12a45', name: 'Ana' }))).toBe(m.pinFormat);
    await setPin(kiosk, current, { pin: '2468', name: 'Ana' });
    const kept = storage.get(KIOSK_KEY) ?? '';
    expect(kept).not.toContain('2468');
    const [member] = kiosk.members();
    expect(member?.pin?.hash).toMatch(/^[0-9a-f]{64}$/);
    // Two users with the same PIN get different hashes (the salt).
    current.current = session(8);
    await setPin(kiosk, current, { pin: '2468', name: 'Ben' });
    const [ana, ben] = kiosk.members();
    expect(ana?.pin?.hash).not.toBe(ben?.pin?.hash);
  });

  it('nobody steps away without one: they could not come back without the password', async () => {
    const { current, kiosk } = kioskWith(7);
    expect(await refusal(parkSignedIn(kiosk, current))).toBe(m.setPinFirst);
    expect(await current.get()).not.toBeNull();
  });
});

describe('switching by PIN', () => {
  it('parks the user at the screen with their session and signs the chosen one in', async () => {
    const { current, kiosk, vault } = kioskWith(7);
    await setPin(kiosk, current, { pin: '1111', name: 'Ana' });
    await parkSignedIn(kiosk, current);
    expect(await current.get()).toBeNull();
    // Ana's session is still on the tablet: her changes keep going out under it.
    expect(await vault.get(7)).toEqual(session(7));

    // Ben signs in with his password, sets a PIN; then Ana comes back by hers.
    await current.set(session(8));
    signedInWithPassword(kiosk, 8);
    await setPin(kiosk, current, { pin: '2222', name: 'Ben' });
    expect(await refusal(switchByPin(kiosk, current, { userId: 7, pin: '2222' }))).toBe(m.wrongPin(MAX_PIN_FAILURES - 1));
    expect((await current.get())?.user_id).toBe(8);
    expect(await switchByPin(kiosk, current, { userId: 7, pin: '1111' })).toEqual(session(7));
    expect((await current.get())?.user_id).toBe(7);
    // Ben is parked now, with his session; the wrong PIN no longer counts against Ana.
    expect(await vault.get(8)).toEqual(session(8));
    expect(kioskMembers(kiosk)).toEqual([
      { userId: 7, name: 'Ana', failures: 0, locked: false, parked: false },
      { userId: 8, name: 'Ben', failures: 0, locked: false, parked: true },
    ]);
  });

  it(`locks after ${MAX_PIN_FAILURES} wrong PINs until a password sign-in`, async () => {
    const { current, kiosk } = kioskWith(7);
    await setPin(kiosk, current, { pin: '1111', name: 'Ana' });
    await parkSignedIn(kiosk, current);
    for (let left = MAX_PIN_FAILURES - 1; left > 0; left -= 1) expect(await refusal(switchByPin(kiosk, current, { userId: 7, pin: '0000' }))).toBe(m.wrongPin(left));
    expect(await refusal(switchByPin(kiosk, current, { userId: 7, pin: '0000' }))).toBe(m.locked);
    // Even the right PIN now.
    expect(await refusal(switchByPin(kiosk, current, { userId: 7, pin: '1111' }))).toBe(m.locked);
    expect(kioskMembers(kiosk)[0]?.locked).toBe(true);
    await current.set(session(7));
    signedInWithPassword(kiosk, 7);
    expect(kioskMembers(kiosk)[0]?.locked).toBe(false);
  });

  it('a password sign-in over a user with a PIN parks them; over one without, nothing is kept for them', async () => {
    const { current, kiosk, vault } = kioskWith(7);
    await setPin(kiosk, current, { pin: '1111', name: 'Ana' });
    // Ben signs in with his password while Ana is at the screen.
    await current.set(session(8));
    expect(parkReplaced(kiosk, session(7))).toBe(true);
    signedInWithPassword(kiosk, 8);
    expect(await vault.get(7)).toEqual(session(7));
    expect(kioskMembers(kiosk)).toEqual([{ userId: 7, name: 'Ana', failures: 0, locked: false, parked: true }]);
    // Now Cleo over Ben, who has no PIN: he is not parked (the caller ends his session).
    await current.set(session(9));
    expect(parkReplaced(kiosk, session(8))).toBe(false);
    expect(await vault.get(8)).toBeNull();
    expect(await vault.get(7)).toEqual(session(7));
  });

  it('a user who signed out fully cannot be switched to', async () => {
    const { current, kiosk, vault } = kioskWith(7);
    await setPin(kiosk, current, { pin: '1111', name: 'Ana' });
    leaveKiosk(kiosk, 7);
    await current.clear();
    expect(await refusal(switchByPin(kiosk, current, { userId: 7, pin: '1111' }))).toBe(m.noPin);
    expect(await vault.get(7)).toBeNull();
  });
});

describe('the vault', () => {
  it('keeps a refreshed session where its user is, and forgets only the one that ended', async () => {
    const { current, kiosk, vault } = kioskWith(7);
    await setPin(kiosk, current, { pin: '1111', name: 'Ana' });
    await parkSignedIn(kiosk, current);
    await current.set(session(8));

    await vault.set({ ...session(7), access_token: 'renewed-7' });
    expect((await vault.get(7))?.access_token).toBe('renewed-7');
    expect((await current.get())?.user_id).toBe(8);
    await vault.set({ ...session(8), access_token: 'renewed-8' });
    expect((await current.get())?.access_token).toBe('renewed-8');
    expect((await vault.get(null))?.access_token).toBe('renewed-8');

    await vault.clear(7);
    expect(await vault.get(7)).toBeNull();
    expect((await current.get())?.user_id).toBe(8);
    await vault.clear(8);
    expect(await current.get()).toBeNull();
  });
});
