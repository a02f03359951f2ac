/**
 * Opens the one database the server talks to: PGlite (embedded PostgreSQL, under DATA_DIR/db) through
 * its node-postgres adapter, or a PostgreSQL server when DATABASE_URL is set. Both speak the same
 * dialect through the same Kysely instance, so every query and migration runs unchanged on either.
 *
 * WARNING: PGlite has a single connection. A handler that holds a transaction and then queries through
 * the root `db` instead of its transaction waits forever; always use the transaction you were given.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

// int8 (bigint ids, change_seq) as numbers: they stay far below 2^53 here. xid8 stays a string.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
// Dates stay yyyy-mm-dd strings, as the spec sends and shows them (spec part 1 §9).
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Calls `onMessage` with the payload of each NOTIFY on `channel`, from any server instance. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… ; when absent, PGlite under `dataDir` (or in memory when dataDir is 'memory://'). */
  databaseUrl?: string | undefined;
  dataDir: string;
}

export async function openDatabase({ databaseUrl, dataDir }: OpenOptions): Promise<Database> {
  if (databaseUrl) return openPostgres(databaseUrl);
  return openPglite(dataDir);
}

async function openPglite(dataDir: string): Promise<Database> {
  const location = dataDir === 'memory://' ? 'memory://' : join(dataDir, 'db');
  if (location !== 'memory://') mkdirSync(location, { recursive: true });
  const pglite = await PGlite.create(location);
  const pool = new pg.Pool(createPgConfig(pglite));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    // One process owns the embedded database, so its own notifications are all there is.
    listen: (channel, onMessage) => pglite.listen(channel, onMessage).then((stop) => () => stop()),
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection closed by the server (restart, admin termination) is replaced on next use; without
  // a listener its error would crash the process.
  pool.on('error', (error) => console.warn(`database connection lost: ${error.message}`));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const listeners: pg.Client[] = [];
  return {
    db,
    kind: 'postgres',
    async listen(channel, onMessage) {
      // A dedicated connection: LISTEN does not survive a pooled connection going back to the pool.
      const client = new pg.Client({ connectionString });
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      });
      client.on('error', () => undefined);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => undefined);
      };
    },
    async close() {
      await Promise.all(listeners.splice(0).map((client) => client.end().catch(() => undefined)));
      await db.destroy();
    },
  };
}
