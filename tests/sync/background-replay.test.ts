/**
 * Sending queued changes with no page of the app open (issue 19): what the service worker runs
 * (workers/background-send.ts over sync/background-replay.ts), against the real server through the
 * network proxy, on a tablet's outbox filled offline by its engine, then stopped (the page closed).
 * The service worker sends with the sessions the page mirrored, never refreshing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRoom, deleteRoom } from '../../src/api/rooms';
import { Outbox } from '../../sync/outbox';
import { mirroredSession, sessionMirror } from '../../sync/session-mirror';
import { sendQueuedChanges } from '../../workers/background-send';
import { sessionFromUser, type Tablet } from '../support/client';
import type { SignedInUser } from '../support/factories';
import { useFleet } from '../support/fleet';

const fleet = useFleet({ room: true });

const freeLock = <T>(task: () => Promise<T>) => task();

/** The tablet's sessions, as the page mirrors them. */
async function mirrorOf(...users: SignedInUser[]) {
  const mirror = sessionMirror(`sessions-${randomUUID()}`);
  await mirror.replaceAll(users.map((user, index) => mirroredSession(sessionFromUser(user), index === 0)));
  return mirror;
}

/** Changes recorded offline, then every page closed: the engine stops with them queued. */
async function closedWithQueued(device: Tablet, names: string[]) {
  fleet.proxy.setOnline(false);
  for (const name of names) await createRoom(device.context, { companyId: fleet.farm.companyId, name, description: 'Recorded offline' });
  await device.engine.stop();
  fleet.proxy.setOnline(true);
}

const roomsNamed = (name: string) => fleet.server.database.db.selectFrom('rooms').select(['id', 'client_id']).where('name', '=', name).execute();

describe('the service worker sends the outbox while no page is open', () => {
  it('in order, each once, under its author’s session, and leaves the queue empty', async () => {
    const device = await fleet.tablet();
    const names = [`Closed A ${Date.now()}`, `Closed B ${Date.now()}`];
    await closedWithQueued(device, names);
    const queued = await device.outbox.all();
    expect(queued).toHaveLength(2);

    const result = await sendQueuedChanges({ outbox: device.outbox, mirror: await mirrorOf(fleet.farm.regular), baseURL: `${fleet.proxy.url}/api`, pageOpen: async () => false, withLockIfFree: freeLock, ignoreBackoff: true });
    expect(result).toMatchObject({ state: 'idle', sent: 2 });
    expect(await device.outbox.count()).toBe(0);
    const rooms = await Promise.all(names.map(roomsNamed));
    expect(rooms.map((found) => found.length)).toEqual([1, 1]);
    expect(rooms[0]![0]!.id).toBeLessThan(rooms[1]![0]!.id);
    expect(rooms.map((found) => found[0]?.client_id)).toEqual(queued.flatMap((entry) => entry.creates));
    const author = await fleet.server.database.db.selectFrom('rooms').select('created_by').where('name', '=', names[0]!).executeTakeFirst();
    expect(author?.created_by).toBe(fleet.farm.regular.id);
  });

  it('an answer lost on the way: the entry waits with backoff, and its next send makes nothing twice', async () => {
    const device = await fleet.tablet();
    const name = `Closed lost ${Date.now()}`;
    await closedWithQueued(device, [name]);
    const mirror = await mirrorOf(fleet.farm.regular);
    const send = () => sendQueuedChanges({ outbox: device.outbox, mirror, baseURL: `${fleet.proxy.url}/api`, pageOpen: async () => false, withLockIfFree: freeLock, ignoreBackoff: true });

    // The engine tried once while offline.
    const attempts = (await device.outbox.all())[0]?.attempts ?? 0;
    const lost = fleet.proxy.loseAnswerOnce((call) => call.url.includes('/create_room'));
    const first = await send();
    await lost;
    expect(first).toMatchObject({ state: 'waiting', network: true, sent: 0 });
    const [waiting] = await device.outbox.all();
    expect(waiting).toMatchObject({ state: 'pending', attempts: attempts + 1 });
    expect(waiting?.nextAttemptAt).toBeGreaterThan(Date.now() - 1000);
    expect(await roomsNamed(name)).toHaveLength(1);

    expect(await send()).toMatchObject({ state: 'idle', sent: 1 });
    expect(await roomsNamed(name)).toHaveLength(1);
    expect(await device.outbox.count()).toBe(0);
  });

  it('a refusal is marked failed for the page to show; a 403, which a refresh might cure, is left for the app', async () => {
    const device = await fleet.tablet();
    const name = `Closed refused ${Date.now()}`;
    fleet.proxy.setOnline(false);
    // Refused by the server's validation (the client's checks are passed by recording the call itself).
    await device.engine.record([{ method: 'POST', path: '/create_room', query: { company_id: fleet.farm.companyId }, body: { kind: 'json', data: { name: '', description: 'x' } }, label: 'Create room (blank)', userId: fleet.farm.regular.id }]);
    // A Regular user may not delete a room (Admins only): 403.
    await deleteRoom(device.context, { roomId: fleet.roomId });
    await createRoom(device.context, { companyId: fleet.farm.companyId, name, description: 'After the refusals' });
    await device.engine.stop();
    fleet.proxy.setOnline(true);

    const result = await sendQueuedChanges({ outbox: device.outbox, mirror: await mirrorOf(fleet.farm.regular), baseURL: `${fleet.proxy.url}/api`, pageOpen: async () => false, withLockIfFree: freeLock, ignoreBackoff: true });
    expect(result.state).toBe('idle');
    const left = await device.outbox.all();
    // The refusal stays, failed with the server's message; the 403 waits for the app (that user's
    // session is in doubt). The room after it travelled in the same push and was applied: it is done.
    expect(left.map((entry) => [entry.path, entry.state])).toEqual([
      ['/create_room', 'failed'],
      ['/delete_room', 'pending'],
    ]);
    expect(left[0]?.error).toBeTruthy();
    expect(await roomsNamed(name)).toHaveLength(1);
    expect(await fleet.server.database.db.selectFrom('rooms').select('id').where('id', '=', fleet.roomId).where('deleted_at', 'is', null).execute()).toHaveLength(1);
  });

  it('sends nothing for an author whose token has expired or expires within a minute, nor with another’s session', async () => {
    const device = await fleet.tablet();
    const name = `Closed expired ${Date.now()}`;
    await closedWithQueued(device, [name]);
    const mirror = sessionMirror(`sessions-${randomUUID()}`);
    const own = mirroredSession(sessionFromUser(fleet.farm.regular), true);
    const send = () => sendQueuedChanges({ outbox: device.outbox, mirror, baseURL: `${fleet.proxy.url}/api`, pageOpen: async () => false, withLockIfFree: freeLock, ignoreBackoff: true });
    const [before] = await device.outbox.all();
    const sentBefore = fleet.proxy.sent.length;

    await mirror.replaceAll([{ ...own, expiresAt: Date.now() + 30_000 }]);
    expect(await send()).toMatchObject({ state: 'idle', sent: 0 });
    // Only another user's session is here (an Admin parked on the kiosk): it never sends this user's change.
    await mirror.replaceAll([mirroredSession(sessionFromUser(fleet.farm.admin), false)]);
    expect(await send()).toMatchObject({ state: 'idle', sent: 0 });
    expect(await device.outbox.all()).toMatchObject([{ state: 'pending', attempts: before?.attempts }]);
    expect(await roomsNamed(name)).toHaveLength(0);
    expect(fleet.proxy.sent.slice(sentBefore)).toEqual([]);
  });

  it('does nothing while a page of the app is open or another replay holds the lock', async () => {
    const device = await fleet.tablet();
    const name = `Closed busy ${Date.now()}`;
    await closedWithQueued(device, [name]);
    const options = { outbox: device.outbox, mirror: await mirrorOf(fleet.farm.regular), baseURL: `${fleet.proxy.url}/api`, ignoreBackoff: true };

    expect(await sendQueuedChanges({ ...options, pageOpen: async () => true, withLockIfFree: freeLock })).toEqual({ state: 'page-open' });
    expect(await sendQueuedChanges({ ...options, pageOpen: async () => false, withLockIfFree: async () => 'busy' as const })).toEqual({ state: 'busy' });
    // A page that opened while the lock was asked for.
    let asked = 0;
    expect(await sendQueuedChanges({ ...options, pageOpen: async () => (asked += 1) > 1, withLockIfFree: freeLock })).toEqual({ state: 'page-open' });
    expect(await device.outbox.count()).toBe(1);
    expect(await roomsNamed(name)).toHaveLength(0);
  });
});

describe('a page opening while the service worker sends', () => {
  it('stops overlaying and counting what the service worker sent before the page’s first replay', async () => {
    // One outbox database, opened by the closed page, the page opened again, and the service worker (three realms).
    const outboxName = `outbox-${randomUUID()}`;
    const collections = ['rooms'] as const;
    const closed = await fleet.tablet(undefined, { outboxName, collections });
    const name = `Sent meanwhile ${Date.now()}`;
    fleet.proxy.setOnline(false);
    const { RoomID } = await createRoom(closed.context, { companyId: fleet.farm.companyId, name, description: 'Sent by the service worker' });
    await closed.engine.stop();
    fleet.proxy.setOnline(true);

    // The page opens: it reads the queue (its change still waits) before its engine has replayed.
    const reopened = await fleet.tablet(undefined, { outboxName, collections, start: false });
    expect(await reopened.engine.awaitsCreate([RoomID])).toBe(true);
    // Meanwhile the service worker, holding the replay lock, sends it.
    const serviceWorkerOutbox = new Outbox(outboxName);
    expect(await sendQueuedChanges({ outbox: serviceWorkerOutbox, mirror: await mirrorOf(fleet.farm.regular), baseURL: `${fleet.proxy.url}/api`, pageOpen: async () => false, withLockIfFree: freeLock, ignoreBackoff: true })).toMatchObject({ sent: 1 });
    serviceWorkerOutbox.close();

    // The page's engine gets the lock once the service worker is done: its first round drops what was sent.
    await reopened.engine.start();
    await reopened.engine.settle();
    expect(await reopened.engine.awaitsCreate([RoomID])).toBe(false);
    expect(await reopened.engine.hasPendingEffects('rooms', RoomID)).toBe(false);
    expect(reopened.engine.current().pending).toBe(0);
    expect(await roomsNamed(name)).toHaveLength(1);
    expect((await reopened.database.rooms.findOne(RoomID).exec())?.get('serverId')).toBe((await roomsNamed(name))[0]?.id);
  });
});
