import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientIdOf, createBatch, createGrid as createServerGrid, createRoom as createServerRoom, createTenant, createUser } from '../support/factories';
import { useFleet } from '../support/fleet';
import { createGrid, deleteGrid, updateCullingStatus } from '../../src/api/grids';
import { createRoom, deleteRoom } from '../../src/api/rooms';
import { linkGridboxBatch } from '../../src/api/batches';
import { OVERLAID, PULL_BATCH_SIZE } from '../../sync/pull';

const JWT_SECRET = 'engine-test-secret-that-is-long-enough';
const fleet = useFleet({ server: { jwtSecret: JWT_SECRET }, settle: false });
const { tablet } = fleet;

describe('offline work reaches the server once, under the ids the tablet gave it', () => {
  it('a room, a grid in it, a cull of one of its boxes and a batch link, made offline', async () => {
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    const device = await tablet();
    await device.engine.settle();
    fleet.proxy.setOnline(false);

    const name = `Offline room ${Date.now()}`;
    const { RoomID } = await createRoom(device.context, { companyId: fleet.farm.companyId, name, description: 'Made without signal' });
    const { GridID, boxIds } = await createGrid(device.context, { companyId: fleet.farm.companyId, roomId: RoomID, name: 'Bench A', nx: 3, ny: 2 });
    await updateCullingStatus(device.context, { gridBoxId: boxIds[4]!, userId: fleet.farm.regular.id, culled: true });
    await linkGridboxBatch(device.context, { batchId, gridBoxIds: [boxIds[0]!, boxIds[1]!] });

    // The screens see it all at once, offline.
    const offlineGrids = await device.database.grids.find({ selector: { roomId: RoomID } }).exec();
    expect(offlineGrids.map((grid) => grid.id)).toEqual([GridID]);
    expect((await device.database.grid_boxes.find({ selector: { gridId: GridID } }).exec()).length).toBe(6);
    expect(await device.outbox.count()).toBe(4);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();

    const rooms = await fleet.server.database.db.selectFrom('rooms').selectAll().where('name', '=', name).execute();
    expect(rooms).toHaveLength(1);
    const room = rooms[0] as (typeof rooms)[number];
    const grids = await fleet.server.database.db.selectFrom('grids').selectAll().where('room_id', '=', room.id).execute();
    expect(grids).toHaveLength(1);
    const grid = grids[0] as (typeof grids)[number];
    const boxes = await fleet.server.database.db.selectFrom('grid_boxes').selectAll().where('grid_id', '=', grid.id).orderBy('y').orderBy('x').execute();
    expect(boxes.map((box) => box.culled)).toEqual([false, false, false, false, true, false]);
    const links = await fleet.server.database.db.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId).orderBy('grid_box_id').execute();
    expect(links.map((link) => link.grid_box_id)).toEqual([boxes[0]?.id, boxes[1]?.id]);

    // The server took the tablet's client ids; the local documents kept their keys and now carry the server's ids.
    expect(room.client_id).toBe(RoomID);
    expect(grid.client_id).toBe(GridID);
    const boxClientIds = await fleet.server.database.db.selectFrom('grid_box_client_ids').select(['grid_box_id', 'client_id']).where('grid_box_id', 'in', boxes.map((box) => box.id)).execute();
    expect(boxes.map((box) => boxClientIds.find((row) => row.grid_box_id === box.id)?.client_id)).toEqual(boxIds);
    expect(await device.outbox.count()).toBe(0);
    const localRoom = await device.database.rooms.findOne(RoomID).exec();
    expect(localRoom?.get('Name')).toBe(name);
    expect(localRoom?.get('serverId')).toBe(room.id);
    const localBoxes = await device.database.grid_boxes.find({ selector: { gridId: GridID } }).exec();
    expect(localBoxes.map((box) => box.id).sort()).toEqual([...boxIds].sort());
    expect(localBoxes.find((box) => box.get('X') === 2 && box.get('Y') === 2)?.get('culled')).toBe(true);
    expect(localBoxes.every((box) => typeof box.get('serverId') === 'number')).toBe(true);
  });
});

const roomsNamed = (prefix: string) =>
  fleet.server.database.db.selectFrom('rooms').select(['id', 'name']).where('name', 'like', `${prefix}%`).orderBy('id').execute();

describe('answers lost and servers stopped', () => {
  it('a create whose answer is lost after the server committed makes one room', async () => {
    const device = await tablet();
    const name = `Lost answer ${Date.now()}`;
    const lost = fleet.proxy.loseAnswerOnce((request) => request.url?.startsWith('/api/create_room') ?? false);
    const { RoomID } = await createRoom(device.context, { companyId: fleet.farm.companyId, name, description: 'The answer never came back' });
    await lost;
    // The server has it; the tablet does not know and keeps the entry.
    expect(await roomsNamed(name)).toHaveLength(1);
    expect(await device.outbox.count()).toBe(1);

    await device.engine.settle();
    const rooms = await roomsNamed(name);
    expect(rooms).toHaveLength(1);
    expect(await device.outbox.count()).toBe(0);
    // The room kept its key: the server's copy (with its integer id) replaced the optimistic one in place.
    const localRoom = await device.database.rooms.findOne(RoomID).exec();
    expect(localRoom?.get('Name')).toBe(name);
    expect(localRoom?.get('serverId')).toBe(rooms[0]?.id);
    expect(fleet.proxy.sent.filter((request) => request.url.startsWith('/api/create_room')).length).toBeGreaterThanOrEqual(2);
  });

  it('200 entries replayed while the server is stopped and started again arrive once each, in order', async () => {
    const device = await tablet();
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const prefix = `Restart ${Date.now()} #`;
    for (let index = 0; index < 200; index += 1) {
      await createRoom(device.context, { companyId: fleet.farm.companyId, name: `${prefix}${String(index).padStart(3, '0')}`, description: 'Queued' });
    }
    expect(await device.outbox.count()).toBe(200);

    fleet.proxy.setOnline(true);
    void device.engine.syncNow();
    await expect.poll(async () => (await roomsNamed(prefix)).length, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(20);
    await fleet.server.stop();
    const arrivedBeforeStop = (await roomsNamed(prefix)).length;
    expect(arrivedBeforeStop).toBeLessThan(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fleet.server.resume();
    await device.engine.settle();

    const rooms = await roomsNamed(prefix);
    expect(rooms.map((room) => room.name)).toEqual(Array.from({ length: 200 }, (_, index) => `${prefix}${String(index).padStart(3, '0')}`));
    expect(await device.outbox.count()).toBe(0);
  });
});

describe('what the tablet says during a long replay', () => {
  it('the pending count falls push by push, not only when the whole queue has gone', async () => {
    const grid = await createServerGrid(fleet.server, fleet.farm.companyId, await createServerRoom(fleet.server, fleet.farm.companyId), 5, 5);
    const device = await tablet();
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    for (let index = 0; index < 250; index += 1) {
      await updateCullingStatus(device.context, { gridBoxId: grid.boxIds[index % grid.boxIds.length] as number, userId: fleet.farm.regular.id, culled: index % 2 === 0 });
    }
    const counts: number[] = [];
    const unsubscribe = device.engine.subscribe((status) => counts.push(status.pending));
    await expect.poll(() => counts.at(-1)).toBe(250);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    unsubscribe();
    // Pushes of 100: the count says 150 and 50 on the way down.
    expect(counts).toContain(150);
    expect(counts).toContain(50);
    expect(counts.at(-1)).toBe(0);
  });
});

describe('sessions', () => {
  it('an access token that expired while offline is refreshed once on reconnect, and the replay goes on', async () => {
    const device = await tablet();
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const name = `After expiry ${Date.now()}`;
    await createRoom(device.context, { companyId: fleet.farm.companyId, name, description: 'Queued while the token expired' });
    const expired = await new SignJWT({ user_id: fleet.farm.regular.id, user_role: 'Regular', company_id: fleet.farm.companyId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(new TextEncoder().encode(JWT_SECRET));
    const before = device.session.current;
    device.session.current = { ...(before as NonNullable<typeof before>), access_token: expired };
    const refreshesBefore = fleet.proxy.sent.filter((request) => request.url.startsWith('/api/refresh_token')).length;

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    expect(await roomsNamed(name)).toHaveLength(1);
    expect(device.session.current?.access_token).not.toBe(expired);
    expect(device.session.current?.refresh_token).not.toBe(before?.refresh_token);
    expect(fleet.proxy.sent.filter((request) => request.url.startsWith('/api/refresh_token')).length - refreshesBefore).toBe(1);
    expect(device.signedOut).toBe(0);
  });
});

describe('two tablets change the same grid box offline', () => {
  it('both end with the state of the change that reached the server last', async () => {
    const roomId = await createServerRoom(fleet.server, fleet.farm.companyId);
    const grid = await createServerGrid(fleet.server, fleet.farm.companyId, roomId, 2, 1);
    const boxId = grid.boxIds[0] as number;
    const boxKey = await clientIdOf(fleet.server, 'grid_boxes', boxId);
    // Two tablets in one process: each opens only the collections this test reads (RxDB's per-process limit).
    const collections = ['rooms', 'grids', 'grid_boxes', 'batches'] as const;
    const first = await tablet(fleet.farm.regular, { collections });
    const second = await tablet(fleet.farm.admin, { collections });
    await first.engine.settle();
    await second.engine.settle();
    expect((await first.database.grid_boxes.findOne(boxKey).exec())?.get('culled')).toBe(false);

    fleet.proxy.setOnline(false);
    await updateCullingStatus(first.context, { gridBoxId: boxKey, userId: fleet.farm.regular.id, culled: true });
    await updateCullingStatus(second.context, { gridBoxId: boxKey, userId: fleet.farm.admin.id, culled: true });
    await updateCullingStatus(second.context, { gridBoxId: boxKey, userId: fleet.farm.admin.id, culled: false });
    // Each tablet shows its own pending change meanwhile.
    expect((await first.database.grid_boxes.findOne(boxKey).exec())?.get('culled')).toBe(true);
    expect((await second.database.grid_boxes.findOne(boxKey).exec())?.get('culled')).toBe(false);

    fleet.proxy.setOnline(true);
    await first.engine.settle();
    await second.engine.settle();
    await first.engine.settle();

    const row = await fleet.server.database.db.selectFrom('grid_boxes').select(['culled', 'culled_by']).where('id', '=', boxId).executeTakeFirstOrThrow();
    expect(row).toEqual({ culled: false, culled_by: null });
    for (const device of [first, second]) {
      const box = await device.database.grid_boxes.findOne(boxKey).exec();
      expect(box?.get('culled')).toBe(false);
    }
  });
});

describe('pulled documents and pending changes', () => {
  it('a pending change stays shown over what the pull brings, until the server has applied it', async () => {
    const grid = await createServerGrid(fleet.server, fleet.farm.companyId, await createServerRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const boxId = grid.boxIds[0] as number;
    const boxKey = await clientIdOf(fleet.server, 'grid_boxes', boxId);
    // Another tab holds the replay lock: this tablet pulls but does not send.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const device = await tablet(fleet.farm.regular, { withReplayLock: async (task) => held.then(task) });
    await expect.poll(async () => (await device.database.grid_boxes.findOne(boxKey).exec()) !== null).toBe(true);

    await updateCullingStatus(device.context, { gridBoxId: boxKey, userId: fleet.farm.regular.id, culled: true });
    const renamed = await fleet.server.request('POST', '/update_grid_box_name', { token: fleet.farm.admin.token, form: { GridBoxID: boxId, custom_name: 'Mother plant' } });
    expect(renamed.status).toBe(200);

    await expect.poll(async () => (await device.database.grid_boxes.findOne(boxKey).exec())?.get('CustomName'), { timeout: 10_000 }).toBe('Mother plant');
    expect((await device.database.grid_boxes.findOne(boxKey).exec())?.get('culled')).toBe(true);
    expect((await fleet.server.database.db.selectFrom('grid_boxes').select('culled').where('id', '=', boxId).executeTakeFirstOrThrow()).culled).toBe(false);

    release();
    await device.engine.settle();
    expect(await fleet.server.database.db.selectFrom('grid_boxes').select(['culled', 'custom_name']).where('id', '=', boxId).executeTakeFirstOrThrow()).toEqual({ culled: true, custom_name: 'Mother plant' });
    const box = await device.database.grid_boxes.findOne(boxKey).exec();
    expect({ culled: box?.get('culled'), name: box?.get('CustomName') }).toEqual({ culled: true, name: 'Mother plant' });
  });

  it('a pull page laid over a change, stored only after that change was applied, is read back from the server', async () => {
    const grid = await createServerGrid(fleet.server, fleet.farm.companyId, await createServerRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const boxKey = await clientIdOf(fleet.server, 'grid_boxes', grid.boxIds[0] as number);
    const device = await tablet(fleet.farm.regular);
    await expect.poll(async () => (await device.database.grid_boxes.findOne(boxKey).exec()) !== null).toBe(true);
    await updateCullingStatus(device.context, { gridBoxId: boxKey, userId: fleet.farm.regular.id, culled: true });
    await device.engine.settle();
    const applied = (await device.database.grid_boxes.findOne(boxKey).exec())?.toJSON() as Record<string, unknown>;
    expect(applied.culled).toBe(true);

    // RxDB stores a pull page after its handler returns: a page read while the cull was in flight, with
    // the cull laid over an older server state, can land after the push answer. Written here as RxDB
    // would write it, since the timing cannot be forced through the network.
    await device.database.grid_boxes.upsert({ ...applied, culled: false, UpdatedDateTime: '2020-01-01T00:00:00.000Z', [OVERLAID]: true });
    await device.engine.settle();
    const stored = (await device.database.grid_boxes.findOne(boxKey).exec())?.toJSON() as Record<string, unknown>;
    expect({ culled: stored.culled, updated: stored.UpdatedDateTime, overlaid: stored[OVERLAID] }).toEqual({ culled: true, updated: applied.UpdatedDateTime, overlaid: undefined });
  });
});

describe('a shared tablet', () => {
  it('sends each user’s changes only in their own session', async () => {
    const device = await tablet(fleet.farm.regular);
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const mine = `Grower's room ${Date.now()}`;
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: mine, description: 'Made by the grower' });
    // The grower signs out; the manager signs in on the same tablet.
    const manager = fleet.farm.admin;
    device.session.current = { access_token: manager.token, refresh_token: manager.refreshToken, user_id: manager.id, user_role: manager.role, company_id: manager.companyId };
    const theirs = `Manager's room ${Date.now()}`;
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: theirs, description: 'Made by the manager' });

    fleet.proxy.setOnline(true);
    await device.engine.settle();
    expect(await roomsNamed(theirs)).toHaveLength(1);
    expect(await roomsNamed(mine)).toHaveLength(0);
    expect(device.engine.current()).toMatchObject({ pending: 1, otherUsers: 1 });

    const grower = await fleet.server.request<{ access_token: string; refresh_token: string }>('POST', '/login', { form: { email: fleet.farm.regular.email, password: fleet.farm.regular.password } });
    device.session.current = { access_token: grower.body.access_token, refresh_token: grower.body.refresh_token, user_id: fleet.farm.regular.id, user_role: 'Regular', company_id: fleet.farm.companyId };
    await device.engine.settle();
    const rooms = await roomsNamed(mine);
    expect(rooms).toHaveLength(1);
    const audit = await fleet.server.database.db.selectFrom('audit_events').select('user_id').where('room_id', '=', rooms[0]?.id as number).executeTakeFirstOrThrow();
    expect(audit.user_id).toBe(fleet.farm.regular.id);
    expect(device.engine.current()).toMatchObject({ pending: 0, otherUsers: 0 });
  });
});

describe('entries the server refuses', () => {
  it('are kept as failed with its message; their dependents wait, others pass; retry and discard', async () => {
    const grower = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const doomedRoom = await createServerRoom(fleet.server, fleet.farm.companyId);
    const otherGrid = await createServerGrid(fleet.server, fleet.farm.companyId, await createServerRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const device = await tablet(grower);
    await device.engine.settle();
    fleet.proxy.setOnline(false);

    const stamp = Date.now();
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `Before ${stamp}`, description: 'Independent' });
    const doomed = await createGrid(device.context, { companyId: fleet.farm.companyId, roomId: doomedRoom, name: 'In a room about to go', nx: 2, ny: 1 });
    await updateCullingStatus(device.context, { gridBoxId: doomed.boxIds[0]!, userId: grower.id, culled: true });
    await deleteGrid(device.context, { gridId: otherGrid.id });
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `After ${stamp}`, description: 'Independent' });
    // Meanwhile a manager deletes the room the grid was meant for.
    expect((await fleet.server.request('DELETE', '/delete_room', { token: fleet.farm.admin.token, query: { room_id: doomedRoom } })).status).toBe(200);

    fleet.proxy.setOnline(true);
    await device.engine.settle();
    expect(await roomsNamed(`Before ${stamp}`)).toHaveLength(1);
    expect(await roomsNamed(`After ${stamp}`)).toHaveLength(1);
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.state])).toEqual([
      ['/Create_grid', 'failed'],
      ['/update_culling_status', 'pending'],
      ['/delete_grid', 'failed'],
    ]);
    expect(entries[0]?.error).toBe(`No record found for room ${doomedRoom}.`);
    expect(entries[2]?.error).toBe('Your role does not allow this action.');
    expect(device.engine.current().failed.map((failed) => failed.error)).toEqual([entries[0]?.error, entries[2]?.error]);
    // The grower still sees the grid they made, with the cull, until they decide.
    expect((await device.database.grid_boxes.findOne(doomed.boxIds[0] as string).exec())?.get('culled')).toBe(true);

    // The manager makes the grower an Admin; the retry refreshes the session and goes through.
    await fleet.server.database.db.updateTable('users').set({ role: 'Admin' }).where('id', '=', grower.id).execute();
    await device.engine.retry(entries[2]?.id as string);
    await device.engine.settle();
    expect((await fleet.server.database.db.selectFrom('grids').select('deleted_at').where('id', '=', otherGrid.id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();

    // Discarding the grid's create discards the cull that needs it, and undoes both locally.
    expect(await device.engine.discard(entries[0]?.id as string)).toBe(2);
    expect(await device.outbox.count()).toBe(0);
    expect(await device.database.grids.findOne(doomed.GridID).exec()).toBeNull();
    expect(await device.database.grid_boxes.find({ selector: { gridId: doomed.GridID } }).exec()).toHaveLength(0);
    expect(device.engine.current()).toMatchObject({ pending: 0, failed: [] });
  });

  it('discarded one after another, leave nothing of a record the server never made (a later refused delete does not bring it back)', async () => {
    const roomId = await createServerRoom(fleet.server, fleet.farm.companyId);
    const device = await tablet(fleet.farm.admin);
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    // Offline: a grid made in a room, then the room deleted (which takes the new grid with it locally).
    const roomKey = await clientIdOf(fleet.server, 'rooms', roomId);
    const grid = await createGrid(device.context, { companyId: fleet.farm.companyId, roomId: roomKey, name: 'Never made', nx: 1, ny: 2 });
    await deleteRoom(device.context, { roomId: roomKey });
    // Meanwhile another tablet deletes the room: both changes are refused.
    expect((await fleet.server.request('DELETE', '/delete_room', { token: fleet.farm.admin.token, query: { room_id: roomId } })).status).toBe(200);
    fleet.proxy.setOnline(true);
    await device.engine.settle();
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.state])).toEqual([
      ['/Create_grid', 'failed'],
      ['/delete_room', 'failed'],
    ]);

    // The grid's create first, then the room's delete, whose undo holds the grid as it was before.
    await device.engine.discard(entries[0]?.id as string);
    await device.engine.discard(entries[1]?.id as string);
    await device.engine.settle();
    expect(await device.database.grids.findOne(grid.GridID).exec()).toBeNull();
    expect(await device.database.grid_boxes.find({ selector: { gridId: grid.GridID } }).exec()).toHaveLength(0);
    expect(await device.database.rooms.findOne(roomKey).exec()).toBeNull();
  });
});

describe('the first pull', () => {
  it('brings every document of a collection larger than two pages (each next page fetched ahead), with its link keys; says it is done once they are stored', async () => {
    const company = await createTenant(fleet.server);
    const roomId = await createServerRoom(fleet.server, company.companyId);
    const rows = (2 * PULL_BATCH_SIZE) / 100 + 1;
    const grid = await createServerGrid(fleet.server, company.companyId, roomId, 100, rows);
    const device = await tablet(company.regular, { start: false });
    // What a screen would count the moment the loading message gives way to it.
    const countedWhenDone = new Promise<number>((resolve) => {
      const unsubscribe = device.engine.subscribe((status) => {
        if (status.initialPull !== null) return;
        resolve(device.database.grid_boxes.count().exec());
        queueMicrotask(() => unsubscribe());
      });
    });
    await device.engine.start();
    expect(await countedWhenDone).toBe(100 * rows);
    await device.engine.settle();
    expect(await device.database.grid_boxes.count().exec()).toBe(100 * rows);
    const gridKey = await clientIdOf(fleet.server, 'grids', grid.id);
    expect(await device.database.grid_boxes.count({ selector: { gridId: gridKey } }).exec()).toBe(100 * rows);
    expect((await device.database.grids.findOne(gridKey).exec())?.get('roomId')).toBe(await clientIdOf(fleet.server, 'rooms', roomId));
  });
});

describe('a shared kiosk', () => {
  it('sends each change under its author, whoever is at the screen; a signed-out author’s wait for them', async () => {
    const ana = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const ben = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const device = await tablet(ana);
    await device.engine.settle();
    fleet.proxy.setOnline(false);

    const stamp = Date.now();
    const anaAt = Date.now();
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `Ana's ${stamp}`, description: 'Made by Ana' });
    // Ana steps away (parked, still signed in); Ben signs in (his password sign-in happened online, in the factory).
    await device.signInAlso(ben);
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `Ben's ${stamp}`, description: 'Made by Ben' });
    await device.switchTo(ana);
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `Ana's second ${stamp}`, description: 'Made by Ana' });
    await device.switchTo(ben);
    // Ben signs out fully with a change waiting: it stays, and goes with nobody else's session.
    await createRoom(device.context, { companyId: fleet.farm.companyId, name: `Ben's last ${stamp}`, description: 'Made by Ben' });
    fleet.proxy.setOnline(true);
    await device.signOut();
    await device.engine.settle();

    const creators = async (name: string) => (await fleet.server.database.db.selectFrom('rooms').select(['created_by', 'created_at']).where('name', '=', name).execute());
    expect((await creators(`Ana's ${stamp}`)).map((row) => row.created_by)).toEqual([ana.id]);
    expect((await creators(`Ana's second ${stamp}`)).map((row) => row.created_by)).toEqual([ana.id]);
    // Each act keeps the moment it was done, not the sync's.
    expect(Math.abs(new Date((await creators(`Ana's ${stamp}`))[0]?.created_at as Date).getTime() - anaAt)).toBeLessThan(1_000);
    // Ben signed out before the network came back: his changes wait for Ben, never sent under Ana's session.
    expect(await creators(`Ben's ${stamp}`)).toHaveLength(0);
    expect(await creators(`Ben's last ${stamp}`)).toHaveLength(0);
    expect(device.engine.current().users).toContainEqual({ userId: ben.id, pending: 2, failed: 0, signedIn: false });

    // Ben signs in again (a fresh password sign-in): they go, under Ben.
    const again = await fleet.server.request<{ access_token: string; refresh_token: string }>('POST', '/login', { form: { email: ben.email, password: ben.password } });
    await device.signInAlso({ ...ben, token: again.body.access_token, refreshToken: again.body.refresh_token });
    await device.engine.settle();
    expect((await creators(`Ben's ${stamp}`)).map((row) => row.created_by)).toEqual([ben.id]);
    expect((await creators(`Ben's last ${stamp}`)).map((row) => row.created_by)).toEqual([ben.id]);
    expect(await device.outbox.count()).toBe(0);
  });
});
