import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { scanMessages as m } from '../../common/messages/scans';
import { createGrid, createRoom, createScan, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let gridId: number;
let otherRoomId: number;
let otherGridId: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  gridId = (await createGrid(server, farm.companyId, roomId)).id;
  otherRoomId = await createRoom(server, other.companyId);
  otherGridId = (await createGrid(server, other.companyId, otherRoomId)).id;
});
afterAll(() => server.close());

type Query = Record<string, string | number>;
const get = (path: string, token: string, query: Query = {}) => server.request('GET', path, { token, query });
const post = (path: string, token: string, query: Query = {}) => server.request('POST', path, { token, query });
const del = (path: string, token: string, query: Query = {}) => server.request('DELETE', path, { token, query });

const auditTitles = async (companyId: number) =>
  (await server.database.db.selectFrom('audit_events').select(['event_title', 'room_id']).where('company_id', '=', companyId).execute());

const insertScan = (companyId: number, room: number | null) => createScan(server, companyId, room);

describe('marking a room or grid scanned', () => {
  it('a Regular user marks a room scanned as themselves and reads the details back', async () => {
    const room = await createRoom(server, farm.companyId);
    const response = await post('/mark_room_scanned', farm.regular.token, { room_id: room, user_id: farm.regular.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.roomScanned, room: { RoomID: room, Scanned: true, LastScannedBy: farm.regular.id } });
    expect((response.body.room as { ScannedDateTime: string | null }).ScannedDateTime).not.toBeNull();

    const details = await get('/get_room_scan_details', farm.admin.token, { room_id: room });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({ status: 'success', Scanned: true, LastScannedBy: farm.regular.id });
    expect(typeof details.body.LastScannedByName).toBe('string');
    expect(details.body.ScannedDateTime).not.toBeNull();
    expect(await auditTitles(farm.companyId)).toContainEqual(expect.objectContaining({ room_id: room }));
  });

  it('a grid is marked scanned and its details name the scanner', async () => {
    const room = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, room);
    const response = await post('/mark_grid_scanned', farm.admin.token, { grid_id: grid.id, user_id: farm.admin.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.gridScanned, grid: { id: grid.id, Scanned: true, LastScannedBy: farm.admin.id } });
    const details = await get('/get_grid_scan_details', farm.regular.token, { grid_id: grid.id });
    expect(details.body).toMatchObject({ status: 'success', Scanned: true, LastScannedBy: farm.admin.id });
    expect(details.body.LastScannedByName).toEqual(expect.any(String));
    expect(await auditTitles(farm.companyId)).toContainEqual(expect.objectContaining({ room_id: room }));
  });

  it('an unscanned room has no scan details', async () => {
    const room = await createRoom(server, farm.companyId);
    const details = await get('/get_room_scan_details', farm.regular.token, { room_id: room });
    expect(details.body).toEqual({ status: 'success', Scanned: false, ScannedDateTime: null, LastScannedBy: null, LastScannedByName: null });
  });

  it.each([
    ['/mark_room_scanned', 'room_id'],
    ['/mark_grid_scanned', 'grid_id'],
  ])('%s as someone else answers 403', async (path, key) => {
    const response = await post(path, farm.regular.token, { [key]: key === 'room_id' ? roomId : gridId, user_id: farm.admin.id });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.notYourself });
  });

  it.each([
    ['/mark_room_scanned', () => ({ user_id: farm.regular.id }), m.roomIdRequired],
    ['/mark_room_scanned', () => ({ room_id: roomId }), m.userIdRequired],
    ['/mark_grid_scanned', () => ({ user_id: farm.regular.id }), m.gridIdRequired],
    ['/mark_grid_scanned', () => ({ grid_id: gridId }), m.userIdRequired],
  ])('%s with a missing id answers 400', async (path, query, message) => {
    const response = await post(path, farm.regular.token, query());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it.each([
    ['/get_room_scan_details', m.roomIdRequired],
    ['/get_grid_scan_details', m.gridIdRequired],
  ])('%s without an id answers 400', async (path, message) => {
    const response = await get(path, farm.regular.token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it('another company’s room or grid answers 403', async () => {
    for (const response of [
      await post('/mark_room_scanned', farm.regular.token, { room_id: otherRoomId, user_id: farm.regular.id }),
      await post('/mark_grid_scanned', farm.regular.token, { grid_id: otherGridId, user_id: farm.regular.id }),
      await get('/get_room_scan_details', farm.regular.token, { room_id: otherRoomId }),
      await get('/get_grid_scan_details', farm.regular.token, { grid_id: otherGridId }),
      await post('/mark_room_scanned', farm.regular.token, { room_id: roomId, user_id: other.regular.id }),
    ]) {
      expect(response.status).toBe(403);
    }
  });
});

describe('POST /reset_scanned_status', () => {
  it('an Admin clears every scanned room and grid of the company, and only those', async () => {
    const tenant = await createTenant(server);
    const room = await createRoom(server, tenant.companyId);
    const grid = await createGrid(server, tenant.companyId, room);
    await createRoom(server, tenant.companyId);
    await post('/mark_room_scanned', tenant.regular.token, { room_id: room, user_id: tenant.regular.id });
    await post('/mark_grid_scanned', tenant.regular.token, { grid_id: grid.id, user_id: tenant.regular.id });
    await post('/mark_room_scanned', other.regular.token, { room_id: otherRoomId, user_id: other.regular.id });

    const response = await post('/reset_scanned_status', tenant.admin.token, { company_id: tenant.companyId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.statusReset, rooms_reset: 1, grids_reset: 1 });
    const details = await get('/get_grid_scan_details', tenant.regular.token, { grid_id: grid.id });
    expect(details.body).toMatchObject({ Scanned: false, ScannedDateTime: null, LastScannedBy: null });
    // Another company keeps its state.
    expect((await get('/get_room_scan_details', other.regular.token, { room_id: otherRoomId })).body).toMatchObject({ Scanned: true });
    // Without company_id, the caller's own company; nothing left to clear.
    expect((await post('/reset_scanned_status', tenant.admin.token)).body).toMatchObject({ rooms_reset: 0, grids_reset: 0 });
    expect((await auditTitles(tenant.companyId)).map((event) => event.event_title)).toContain('Reset scanned status');
  });

  it('answers 403 to a Regular user and for another company', async () => {
    expect((await post('/reset_scanned_status', farm.regular.token)).status).toBe(403);
    expect((await post('/reset_scanned_status', farm.admin.token, { company_id: other.companyId })).status).toBe(403);
  });
});

describe('DELETE /delete_scan', () => {
  it('an Admin tombstones a scan of the company', async () => {
    const scanId = await insertScan(farm.companyId, roomId);
    const response = await del('/delete_scan', farm.admin.token, { company_id: farm.companyId, scan_id: scanId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.scanDeleted });
    const row = await server.database.db.selectFrom('scans').select('deleted_at').where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await auditTitles(farm.companyId)).toContainEqual({ event_title: `Deleted scan ${scanId}`, room_id: roomId });
    // Deleted once: the scan is gone.
    expect((await del('/delete_scan', farm.admin.token, { company_id: farm.companyId, scan_id: scanId })).status).toBe(404);
  });

  it.each([
    ['company_id', () => ({ scan_id: 1 }), m.companyIdRequired],
    ['scan_id', () => ({ company_id: farm.companyId }), m.scanIdRequired],
  ])('without %s answers 400', async (_missing, query, message) => {
    const response = await del('/delete_scan', farm.admin.token, query());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
  });

  it('answers 403 to a Regular user and for another company’s scan', async () => {
    const scanId = await insertScan(farm.companyId, null);
    expect((await del('/delete_scan', farm.regular.token, { company_id: farm.companyId, scan_id: scanId })).status).toBe(403);
    const otherScan = await insertScan(other.companyId, null);
    expect((await del('/delete_scan', farm.admin.token, { company_id: farm.companyId, scan_id: otherScan })).status).toBe(403);
    expect((await del('/delete_scan', farm.admin.token, { company_id: other.companyId, scan_id: otherScan })).status).toBe(403);
  });
});
