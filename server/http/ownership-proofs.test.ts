/**
 * The tenancy guard's remembered proofs (ownership-proofs.ts) on the real server and database: a read
 * of a room proven lately skips the look-up, yet a room deleted since (by the company's own request, or
 * by any write that reaches the database) answers 404 at once, and another company's caller is never
 * let through by a proof of the owner's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { systemActor, writer } from '../db/writes';
import { createGrid, createRoom, createTenant, type Tenant } from '../../tests/support/factories';
import { startServer, type TestServer } from '../../tests/support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(async () => {
  await server?.close();
});

const readProblems = (token: string, roomId: number) => server.request('GET', '/get_unresolved_problems_for_room', { token, query: { room_id: roomId } });
const readCircles = (token: string, gridId: number) => server.request('GET', '/get_unresolved_problems_for_grid_circles', { token, query: { grid_id: gridId } });

describe('remembered ownership proofs', () => {
  it('a room deleted by the company answers 404 on the next read; another company is refused before and after', async () => {
    const roomId = await createRoom(server, farm.companyId);
    for (let read = 0; read < 3; read += 1) expect((await readProblems(farm.regular.token, roomId)).status).toBe(200);
    expect(await readProblems(other.admin.token, roomId)).toMatchObject({ status: 403, body: { status: 'error', message: httpMessages.otherCompany } });

    expect((await server.request('DELETE', '/delete_room', { token: farm.admin.token, query: { room_id: roomId } })).status).toBe(200);
    expect(await readProblems(farm.regular.token, roomId)).toMatchObject({ status: 404, body: { status: 'error', message: httpMessages.recordNotFound(`room ${roomId}`) } });
    expect((await readProblems(other.admin.token, roomId)).status).toBe(404);
  });

  it('a grid deleted by a write outside any request (its change notification) answers 404 on the next read', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 2);
    expect((await readCircles(farm.regular.token, grid.id)).status).toBe(200);
    expect((await readCircles(farm.regular.token, grid.id)).status).toBe(200);

    await writer(server.database.db, systemActor(farm.companyId)).softDelete('grids', grid.id);
    // The change reaches this instance as the database's notification, after the commit.
    await expect.poll(async () => (await readCircles(farm.regular.token, grid.id)).status, { timeout: 5_000 }).toBe(404);
  });
});
