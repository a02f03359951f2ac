/**
 * The JWT signing secret when JWT_SECRET is not set: generated once, kept in the database (so every
 * server instance on one database shares it and restarts keep sessions), never written to a file in
 * the repository or to the log.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema';

export async function loadJwtSecret(db: Kysely<DB>): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name: 'jwt', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', 'jwt').executeTakeFirstOrThrow();
  return row.value;
}
