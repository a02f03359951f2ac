/**
 * Schema migrations, applied in order at start (and by the CLI). Plain SQL, valid on PGlite and on
 * PostgreSQL 13+. Never edit a migration that has shipped; add a new one.
 *
 * Sync contract (ARCHITECTURE.md "Sync protocol"): every synced table gets `sync_columns` and the
 * `track_change` trigger, which stamps each inserted or updated row with the next `change_seq` and the
 * writing transaction's id (`change_xid`), and notifies `sync_changes` with the table and company.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

const syncColumns = `
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by integer,
  updated_by integer,
  deleted_at timestamptz,
  change_seq bigint NOT NULL DEFAULT 0,
  change_xid xid8 NOT NULL DEFAULT '0'`;

/** SQL that makes `table` synced: the trigger and the index the pull reads by. */
export function trackChanges(table: string, companyColumn = 'company_id'): string {
  return `
    CREATE TRIGGER ${table}_track_change BEFORE INSERT OR UPDATE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION track_change('${companyColumn}');
    CREATE INDEX ${table}_pull ON ${table} (${companyColumn}, change_xid, change_seq);`;
}

const migrations: Record<string, string> = {
  '0001_foundation': `
    CREATE SEQUENCE change_seq;

    -- Stamps the row for the sync pull and tells listeners which company's table changed. Identical
    -- payloads within one transaction are delivered once, at commit.
    CREATE FUNCTION track_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE company integer;
    BEGIN
      NEW.change_seq := nextval('change_seq');
      NEW.change_xid := pg_current_xact_id();
      IF TG_OP = 'UPDATE' THEN NEW.updated_at := now(); END IF;
      company := (to_jsonb(NEW) ->> TG_ARGV[0])::integer;
      PERFORM pg_notify('sync_changes', json_build_object('table', TG_TABLE_NAME, 'company_id', company)::text);
      RETURN NEW;
    END $$;

    CREATE TABLE companies (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL,
      contact_name text,
      contact_email text,
      company_type text,
      contact_phone text,
      grid_order text NOT NULL DEFAULT 'row',
      grid_opacity double precision NOT NULL DEFAULT 1,
      offline_mode smallint NOT NULL DEFAULT 1,
      ai_model text NOT NULL DEFAULT 'plantDiseaseRecognition',
      auto_refresh smallint NOT NULL DEFAULT 0,
      stickytrap_render double precision NOT NULL DEFAULT 1,
      language text NOT NULL DEFAULT 'en',
      ${syncColumns}
    );
    ${trackChanges('companies', 'id')}

    CREATE TABLE users (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      role text NOT NULL CHECK (role IN ('Regular', 'Admin', 'SuperAdmin')),
      password_hash text NOT NULL,
      threshold double precision,
      location text,
      ${syncColumns}
    );
    -- A removed user's address may be invited again.
    CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE deleted_at IS NULL;
    ${trackChanges('users')}

    CREATE TABLE refresh_tokens (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id),
      family_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      replaced_at timestamptz,
      revoked_at timestamptz
    );
    CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

    CREATE TABLE invitations (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('Regular', 'Admin')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      created_by integer NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE INDEX invitations_company ON invitations (company_id);

    CREATE TABLE password_resets (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE audit_events (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      user_id integer REFERENCES users(id),
      event_title text NOT NULL,
      room_id integer,
      batch_id integer,
      response_id integer,
      details jsonb,
      ${syncColumns}
    );
    ${trackChanges('audit_events')}
    CREATE INDEX audit_events_recent ON audit_events (company_id, created_at DESC);

    -- Responses of mutating requests by Idempotency-Key, stored in the request's own transaction.
    CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      status_code integer,
      response jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (scope, key)
    );
    CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

    CREATE TABLE server_secrets (
      name text PRIMARY KEY,
      value text NOT NULL
    );
  `,
};

class InCodeMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, text]) => [name, { up: async (db: Kysely<unknown>) => void (await sql.raw(text).execute(db)) }]),
    );
  }
}

/** Applies the pending migrations; throws with the failing migration's error. */
export async function migrate(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeMigrations() });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
}
