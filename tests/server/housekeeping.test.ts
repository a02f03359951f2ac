/**
 * Upkeep (server/housekeeping.ts): the planner's statistics, which the embedded database never gathers
 * on its own (no autovacuum), are refreshed, so a report's plan knows how many rows a table holds.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStatistics } from '../../server/housekeeping';
import { createRoom, createTenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** What the planner believes a table holds: pg_class.reltuples, -1 before any ANALYZE. */
async function plannedRows(table: string): Promise<number> {
  const { rows } = await sql<{ reltuples: number }>`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE oid = ${table}::regclass`.execute(server.database.db);
  return Number(rows[0]?.reltuples);
}

describe('refreshStatistics', () => {
  it('gives the planner the rows a table holds', async () => {
    const farm = await createTenant(server);
    for (let room = 0; room < 30; room += 1) await createRoom(server, farm.companyId);
    const held = Number((await server.database.db.selectFrom('rooms').select((eb) => eb.fn.countAll().as('rooms')).executeTakeFirstOrThrow()).rooms);
    await refreshStatistics(server.database.db);
    expect(await plannedRows('rooms')).toBe(held);
  });
});
