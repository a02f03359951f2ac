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

/**
 * The synced tables that belong to a company (all but `companies` itself) and hold their client id,
 * unique per company. Grid boxes keep theirs beside them, in `grid_box_client_ids` (migration 0006).
 */
export const CLIENT_ID_TABLES = [
  'users',
  'audit_events',
  'rooms',
  'grids',
  'sub_gridboxes',
  'scans',
  'batches',
  'custom_batch_statuses',
  'batch_problems',
  'plant_moves',
  'grid_templates',
  'trays',
  'tray_templates',
  'form_templates',
  'form_fields',
  'form_field_hide_rules',
  'form_responses',
  'form_field_responses',
  'form_response_images',
] as const;

/** Synced tables made after migration 0006, each with its own client id column and unique index. */
export const LATER_CLIENT_ID_TABLES = [
  'plant_problems',
  'problem_color_mappings',
  'custom_solutions',
  'spray_products',
  'treatments',
  'spray_applications',
  'saved_reports',
  // Migration 0013.
  'task_automations',
  'tasks',
  'response_comments',
  // Migration 0015.
  'notifications',
  // Migration 0017.
  'scan_boxes',
  // Migration 0018.
  'box_videos',
  // Migration 0023.
  'form_corrections',
  // Migration 0021.
  'commands',
] as const;

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
  '0002_grow': `
    ALTER TABLE companies ADD COLUMN max_sub_gridboxes integer NOT NULL DEFAULT 64;
    -- The plant (grid box) a change concerned, for a box's history by date.
    ALTER TABLE audit_events ADD COLUMN grid_box_id integer;
    CREATE INDEX audit_events_grid_box ON audit_events (grid_box_id, created_at) WHERE grid_box_id IS NOT NULL;

    -- Uploaded files: stored by the file store under a key, served only to the owning company.
    CREATE TABLE files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_id integer NOT NULL REFERENCES companies(id),
      storage_key text NOT NULL,
      content_type text NOT NULL,
      size_bytes integer NOT NULL,
      original_name text,
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE rooms (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      name text NOT NULL,
      description text NOT NULL,
      scanned boolean NOT NULL DEFAULT false,
      scanned_at timestamptz,
      last_scanned_by integer REFERENCES users(id),
      whiteboard_image text,
      start_scroll double precision NOT NULL DEFAULT 0,
      ${syncColumns}
    );
    ${trackChanges('rooms')}

    CREATE TABLE whiteboard_images (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      room_id integer NOT NULL REFERENCES rooms(id),
      file_id uuid NOT NULL REFERENCES files(id),
      uploaded_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX whiteboard_images_room ON whiteboard_images (room_id, created_at DESC);

    CREATE TABLE grids (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      room_id integer NOT NULL REFERENCES rooms(id),
      name text NOT NULL,
      description text,
      nx integer NOT NULL CHECK (nx > 0),
      ny integer NOT NULL CHECK (ny > 0),
      image_name text,
      scanned boolean NOT NULL DEFAULT false,
      scanned_at timestamptz,
      last_scanned_by integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('grids')}
    CREATE INDEX grids_room ON grids (room_id);

    CREATE TABLE grid_boxes (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      grid_id integer NOT NULL REFERENCES grids(id),
      x integer NOT NULL,
      y integer NOT NULL,
      color text,
      status text,
      content text,
      image_name text,
      custom_name text,
      culled boolean NOT NULL DEFAULT false,
      culled_by integer REFERENCES users(id),
      culled_at timestamptz,
      ${syncColumns}
    );
    ${trackChanges('grid_boxes')}
    CREATE INDEX grid_boxes_grid ON grid_boxes (grid_id, y, x);

    CREATE TABLE sub_gridboxes (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      parent_gridbox_id integer NOT NULL REFERENCES grid_boxes(id),
      subx integer NOT NULL CHECK (subx >= 1),
      suby integer NOT NULL CHECK (suby >= 1),
      plant_id text,
      custom_name text,
      color text,
      status text,
      content text,
      image_name text,
      ${syncColumns}
    );
    ${trackChanges('sub_gridboxes')}
    CREATE UNIQUE INDEX sub_gridboxes_position ON sub_gridboxes (parent_gridbox_id, subx, suby) WHERE deleted_at IS NULL;
    CREATE UNIQUE INDEX sub_gridboxes_plant ON sub_gridboxes (company_id, plant_id) WHERE deleted_at IS NULL AND plant_id IS NOT NULL;

    CREATE TABLE scans (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      room_id integer REFERENCES rooms(id),
      grid_id integer REFERENCES grids(id),
      grid_box_id integer REFERENCES grid_boxes(id),
      file_id uuid REFERENCES files(id),
      model text,
      result jsonb,
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('scans')}

    CREATE TABLE batches (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      batch_number text NOT NULL,
      number_of_plants integer NOT NULL CHECK (number_of_plants >= 0),
      strain_name text,
      batch_status text NOT NULL,
      color text,
      start_date date,
      end_date date,
      harvested_at timestamptz,
      harvested_by integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('batches')}

    -- Links travel inside the batch document; a link change touches the batch (and the box).
    CREATE TABLE batch_rooms (
      batch_id integer NOT NULL REFERENCES batches(id),
      room_id integer NOT NULL REFERENCES rooms(id),
      company_id integer NOT NULL REFERENCES companies(id),
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (batch_id, room_id)
    );
    CREATE INDEX batch_rooms_room ON batch_rooms (room_id);
    CREATE TABLE batch_grids (
      batch_id integer NOT NULL REFERENCES batches(id),
      grid_id integer NOT NULL REFERENCES grids(id),
      company_id integer NOT NULL REFERENCES companies(id),
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (batch_id, grid_id)
    );
    CREATE INDEX batch_grids_grid ON batch_grids (grid_id);
    CREATE TABLE batch_grid_boxes (
      batch_id integer NOT NULL REFERENCES batches(id),
      grid_box_id integer NOT NULL REFERENCES grid_boxes(id),
      company_id integer NOT NULL REFERENCES companies(id),
      created_by integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (batch_id, grid_box_id)
    );
    CREATE INDEX batch_grid_boxes_box ON batch_grid_boxes (grid_box_id);

    CREATE TABLE custom_batch_statuses (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      name text NOT NULL,
      ${syncColumns}
    );
    ${trackChanges('custom_batch_statuses')}
    CREATE UNIQUE INDEX custom_batch_statuses_name ON custom_batch_statuses (company_id, lower(name)) WHERE deleted_at IS NULL;

    CREATE TABLE batch_problems (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      batch_id integer NOT NULL REFERENCES batches(id),
      room_id integer REFERENCES rooms(id),
      problem_type text NOT NULL,
      severity double precision NOT NULL,
      notes text,
      user_id integer REFERENCES users(id),
      resolved_at timestamptz,
      resolved_by integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('batch_problems')}
    CREATE INDEX batch_problems_batch ON batch_problems (batch_id);

    -- A batch's history: moves between rooms, harvest, status changes.
    CREATE TABLE batch_events (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      batch_id integer NOT NULL REFERENCES batches(id),
      kind text NOT NULL,
      from_room_id integer REFERENCES rooms(id),
      to_room_id integer REFERENCES rooms(id),
      details jsonb,
      user_id integer REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX batch_events_batch ON batch_events (batch_id, created_at);

    CREATE TABLE plant_moves (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      plant_uid text NOT NULL,
      sub_gridbox_id integer REFERENCES sub_gridboxes(id),
      from_parent_gridbox_id integer REFERENCES grid_boxes(id),
      to_parent_gridbox_id integer NOT NULL REFERENCES grid_boxes(id),
      from_subx integer,
      from_suby integer,
      to_subx integer NOT NULL,
      to_suby integer NOT NULL,
      movement_reason text,
      notes text,
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('plant_moves')}

    CREATE TABLE grid_templates (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_name text NOT NULL,
      template_type text NOT NULL CHECK (template_type IN ('Grid', 'SubGrid')),
      rows integer NOT NULL CHECK (rows > 0),
      columns integer NOT NULL CHECK (columns > 0),
      description text,
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('grid_templates')}

    CREATE TABLE trays (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      tray_name text NOT NULL,
      number_of_plants integer NOT NULL CHECK (number_of_plants > 0),
      batch_id integer REFERENCES batches(id),
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('trays')}

    CREATE TABLE tray_templates (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_name text NOT NULL,
      number_of_plants integer NOT NULL CHECK (number_of_plants > 0),
      description text,
      default_batch_id integer REFERENCES batches(id),
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('tray_templates')}
  `,
  '0003_names': `
    -- A batch number names one live batch of a company: labels and QR codes are printed from it.
    CREATE UNIQUE INDEX batches_number ON batches (company_id, lower(batch_number)) WHERE deleted_at IS NULL;
    CREATE INDEX batch_problems_company ON batch_problems (company_id, resolved_at);
    CREATE INDEX batch_events_rooms ON batch_events (company_id, from_room_id, to_room_id);
    -- Two templates of one type with one name could not be told apart in a picker.
    CREATE UNIQUE INDEX grid_templates_name ON grid_templates (company_id, template_type, lower(template_name)) WHERE deleted_at IS NULL;
  `,
  '0004_forms': `
    -- Form templates (spec part 2 §3): a company's forms; one default per category.
    CREATE TABLE form_templates (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_name text NOT NULL,
      form_category text NOT NULL DEFAULT 'Scouting',
      page_css text,
      is_default boolean NOT NULL DEFAULT false,
      user_id integer REFERENCES users(id),
      ${syncColumns}
    );
    ${trackChanges('form_templates')}
    CREATE UNIQUE INDEX form_templates_default ON form_templates (company_id, form_category) WHERE is_default AND deleted_at IS NULL;

    -- Fields travel inside their template's document (they touch it).
    CREATE TABLE form_fields (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_id integer NOT NULL REFERENCES form_templates(id),
      field_name text NOT NULL,
      field_type text NOT NULL,
      field_options jsonb NOT NULL DEFAULT '[]',
      report_id integer,
      css_class text,
      is_required smallint NOT NULL DEFAULT 0 CHECK (is_required IN (0, 1)),
      position integer NOT NULL DEFAULT 0,
      is_active smallint NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
      ${syncColumns}
    );
    ${trackChanges('form_fields')}
    CREATE INDEX form_fields_template ON form_fields (template_id, position);

    -- A field stays hidden until the linked field is answered with linked_input; one live rule per hidden field.
    CREATE TABLE form_field_hide_rules (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_id integer NOT NULL REFERENCES form_templates(id),
      hidden_field_id integer NOT NULL REFERENCES form_fields(id),
      linked_field_id integer NOT NULL REFERENCES form_fields(id),
      linked_input text NOT NULL DEFAULT '',
      ${syncColumns}
    );
    ${trackChanges('form_field_hide_rules')}
    CREATE UNIQUE INDEX form_field_hide_rules_hidden ON form_field_hide_rules (hidden_field_id) WHERE deleted_at IS NULL;

    -- A submitted form: for one grid box, or a room (grid_box_id null); several boxes make several responses.
    CREATE TABLE form_responses (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_id integer NOT NULL REFERENCES form_templates(id),
      grid_box_id integer REFERENCES grid_boxes(id),
      room_id integer REFERENCES rooms(id),
      batch_id integer REFERENCES batches(id),
      submitted_by integer REFERENCES users(id),
      submitted_at timestamptz NOT NULL DEFAULT now(),
      ${syncColumns}
    );
    ${trackChanges('form_responses')}
    CREATE INDEX form_responses_box ON form_responses (grid_box_id, submitted_at);
    CREATE INDEX form_responses_room ON form_responses (room_id, submitted_at);
    CREATE INDEX form_responses_batch ON form_responses (batch_id, submitted_at);

    CREATE TABLE form_field_responses (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      response_id integer NOT NULL REFERENCES form_responses(id),
      field_id integer NOT NULL REFERENCES form_fields(id),
      input_data text,
      ${syncColumns}
    );
    ${trackChanges('form_field_responses')}
    CREATE INDEX form_field_responses_response ON form_field_responses (response_id);

    -- Photos of a response, stored in files.
    CREATE TABLE form_response_images (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      response_id integer NOT NULL REFERENCES form_responses(id),
      field_id integer REFERENCES form_fields(id),
      file_id uuid NOT NULL REFERENCES files(id),
      ${syncColumns}
    );
    ${trackChanges('form_response_images')}
    CREATE INDEX form_response_images_response ON form_response_images (response_id);
  `,
  '0005_audit_change_key': `
    -- The Idempotency-Key of the request that recorded the event: the tablet change (outbox entry) it
    -- came from, so an event can be traced to the change that made it (a push applies many changes in
    -- one transaction, so the transaction does not tell them apart).
    ALTER TABLE audit_events ADD COLUMN idempotency_key text;
  `,
  '0006_client_ids': `
    -- Every synced record has a client id (ARCHITECTURE.md "One write, end to end"): a uuid the tablet
    -- that made it chose (v7, time-sorted), or the server when it was made elsewhere; unique per company.
    -- Tablets key their documents by it, and any parameter that names a record accepts it in place of
    -- the spec's integer id (server/http/client-ids.ts), so a change can name a record made offline
    -- before the server has answered its create. Rows that exist get a random one here.
    ALTER TABLE companies ADD COLUMN client_id uuid NOT NULL DEFAULT gen_random_uuid();
    CREATE UNIQUE INDEX companies_client_id ON companies (client_id);
    -- Client id first: a client id is looked up without knowing its company (another company's
    -- answers 403, not 404).
${CLIENT_ID_TABLES.map((table) => `    ALTER TABLE ${table} ADD COLUMN client_id uuid NOT NULL DEFAULT gen_random_uuid();
    CREATE UNIQUE INDEX ${table}_client_id ON ${table} (client_id, company_id);`).join('\n')}
    -- A grid's boxes take client ids derived from the grid's and their place (common/client-ids.ts
    -- boxClientId), kept here rather than on grid_boxes: a cull writes a new version of its box row (the
    -- pull index changes, so the update is never HOT), and a unique index on the row would be written
    -- and checked on every cull (5,000 queued culls drained at 141/s with it, 224/s without, PGlite).
    CREATE TABLE grid_box_client_ids (
      client_id uuid NOT NULL,
      company_id integer NOT NULL REFERENCES companies (id),
      grid_box_id integer NOT NULL REFERENCES grid_boxes (id),
      PRIMARY KEY (client_id, company_id)
    );
    INSERT INTO grid_box_client_ids (client_id, company_id, grid_box_id) SELECT gen_random_uuid(), company_id, id FROM grid_boxes;
  `,
  '0007_grid_box_client_id_lookup': `
    -- Documents sent to tablets name boxes by client id (replication/client-naming.ts): a pull page of
    -- 2,500 boxes looks theirs up by box id.
    CREATE INDEX grid_box_client_ids_box ON grid_box_client_ids (grid_box_id);
  `,
  '0008_plant_problems': `
    -- Problems seen on plants (issue 14): on a grid box, or on one plant of its sub-gridboxes. The type
    -- is the catalogue's name (problem_slug names the entry, common/plant-problems) or the company's own.
    -- observed_at is when the grower saw it (the act's time, also offline); status moves by the manage
    -- calls' actions (common/messages/problems.ts PROBLEM_ACTIONS), status_at/status_by say when and who.
    CREATE TABLE plant_problems (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      room_id integer NOT NULL REFERENCES rooms(id),
      grid_id integer NOT NULL REFERENCES grids(id),
      grid_box_id integer NOT NULL REFERENCES grid_boxes(id),
      sub_gridbox_id integer REFERENCES sub_gridboxes(id),
      problem_type text NOT NULL,
      problem_slug text,
      severity double precision NOT NULL,
      notes text,
      image_name text,
      source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'form', 'scan')),
      form_response_id integer REFERENCES form_responses(id),
      user_id integer REFERENCES users(id),
      observed_at timestamptz NOT NULL,
      status text NOT NULL DEFAULT 'unresolved' CHECK (status IN ('unresolved', 'resolved', 'dismissed', 'treated')),
      status_at timestamptz,
      status_by integer REFERENCES users(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('plant_problems')}
    CREATE UNIQUE INDEX plant_problems_client_id ON plant_problems (client_id, company_id);
    -- A room's history by week (the map's week slider), and the open problems of a room or grid: most of
    -- a room's problems are closed, so the readers of open ones go through partial indexes that hold only
    -- the open (status 'unresolved' or 'treated', common/messages/problems.ts OPEN_PROBLEM_STATUSES).
    CREATE INDEX plant_problems_room ON plant_problems (room_id, observed_at) WHERE deleted_at IS NULL;
    CREATE INDEX plant_problems_open_room ON plant_problems (room_id) WHERE status IN ('unresolved', 'treated') AND deleted_at IS NULL;
    CREATE INDEX plant_problems_open_grid ON plant_problems (grid_id) WHERE status IN ('unresolved', 'treated') AND deleted_at IS NULL;
    CREATE INDEX plant_problems_box ON plant_problems (grid_box_id) WHERE deleted_at IS NULL;

    -- The company's colour and abbreviation for a problem (spec problemColorMapping); extras keeps the
    -- other fields a mapping was sent with.
    CREATE TABLE problem_color_mappings (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      problem text NOT NULL,
      color text,
      abbreviation text,
      extras jsonb NOT NULL DEFAULT '{}',
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('problem_color_mappings')}
    CREATE UNIQUE INDEX problem_color_mappings_client_id ON problem_color_mappings (client_id, company_id);
    CREATE UNIQUE INDEX problem_color_mappings_problem ON problem_color_mappings (company_id, lower(problem)) WHERE deleted_at IS NULL;

    -- A company's own solutions to a catalogue problem.
    CREATE TABLE custom_solutions (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      problem_slug text NOT NULL,
      solution text NOT NULL,
      user_id integer REFERENCES users(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('custom_solutions')}
    CREATE UNIQUE INDEX custom_solutions_client_id ON custom_solutions (client_id, company_id);
    CREATE INDEX custom_solutions_problem ON custom_solutions (company_id, problem_slug);
  `,
  '0009_treatments': `
    -- Spray products (issue 14): re-entry interval in hours, pre-harvest interval in days; details keeps
    -- the other fields a product was sent with. A name is taken once per company, whatever its case.
    CREATE TABLE spray_products (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      name text NOT NULL,
      active_ingredient text,
      rate double precision CHECK (rate >= 0),
      rate_unit text,
      reentry_hours double precision CHECK (reentry_hours >= 0),
      preharvest_days double precision CHECK (preharvest_days >= 0),
      details jsonb NOT NULL DEFAULT '{}',
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('spray_products')}
    CREATE UNIQUE INDEX spray_products_client_id ON spray_products (client_id, company_id);
    CREATE UNIQUE INDEX spray_products_name ON spray_products (company_id, lower(name)) WHERE deleted_at IS NULL;

    -- A treatment of a type (biological, chemical, cultural, mechanical) for a product, with its data:
    -- one per company, type and product (the spec's calls name it so). Deleting is a toggle (spec):
    -- removed_at set and cleared; deleted_at is for treatments gone with their product.
    CREATE TABLE treatments (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      treatment_type text NOT NULL CHECK (treatment_type IN ('biological', 'chemical', 'cultural', 'mechanical')),
      sub_type text,
      product_id integer NOT NULL REFERENCES spray_products(id),
      data jsonb NOT NULL DEFAULT '{}',
      removed_at timestamptz,
      user_id integer REFERENCES users(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('treatments')}
    CREATE UNIQUE INDEX treatments_client_id ON treatments (client_id, company_id);
    CREATE UNIQUE INDEX treatments_type ON treatments (company_id, treatment_type, product_id) WHERE deleted_at IS NULL;

    -- A spray of a product on grid boxes (spec: ApplicationDate, ProductName, QuantityUsed, Grid_boxIDs).
    -- The ends of its re-entry and pre-harvest intervals are fixed when it is recorded, from the product
    -- as it was then: a later edit of the product does not move a past spray's markers.
    CREATE TABLE spray_applications (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      product_id integer REFERENCES spray_products(id),
      product_name text NOT NULL,
      application_date timestamptz NOT NULL,
      quantity_used double precision NOT NULL CHECK (quantity_used > 0),
      quantity_unit text,
      notes text,
      grid_box_ids integer[] NOT NULL,
      reentry_until timestamptz,
      preharvest_until timestamptz,
      user_id integer REFERENCES users(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('spray_applications')}
    CREATE UNIQUE INDEX spray_applications_client_id ON spray_applications (client_id, company_id);
    CREATE INDEX spray_applications_boxes ON spray_applications USING gin (grid_box_ids);
  `,
  '0010_saved_reports': `
    -- Saved reports (issue 15; spec part 2 §3): what a report screen showed, kept to be shown again, on
    -- the dashboard and offline. report_data is the chart's data as the screen sent it; filters the date
    -- option with its dates or weeks (and the screen's other choices); the author is created_by.
    CREATE TABLE saved_reports (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      report_name text NOT NULL,
      chart_type text NOT NULL CHECK (chart_type IN ('line', 'bar', 'stacked_bar', 'area', 'heatmap')),
      report_type text,
      report_data jsonb NOT NULL DEFAULT '[]',
      filters jsonb,
      room_ids integer[] NOT NULL DEFAULT '{}',
      -- When report_data was computed: the save's act time. updated_at moves with any change (its
      -- dashboard slot too), so it cannot say how old the data is.
      computed_at timestamptz NOT NULL DEFAULT now(),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('saved_reports')}
    CREATE UNIQUE INDEX saved_reports_client_id ON saved_reports (client_id, company_id);
    CREATE INDEX saved_reports_company ON saved_reports (company_id) WHERE deleted_at IS NULL;

    -- The company's dashboard (spec §3: report_id1 to report_id4), on the company's row, so that it can
    -- travel in the company document (ARCHITECTURE.md). A deleted report is taken off it in the same
    -- transaction.
    ALTER TABLE companies
      ADD COLUMN dashboard_report_id1 integer REFERENCES saved_reports(id),
      ADD COLUMN dashboard_report_id2 integer REFERENCES saved_reports(id),
      ADD COLUMN dashboard_report_id3 integer REFERENCES saved_reports(id),
      ADD COLUMN dashboard_report_id4 integer REFERENCES saved_reports(id);

    -- Read-only links to a saved report (the public /reporting page): only a SHA-256 of the token is
    -- kept (as refresh tokens and invitations keep theirs); a revoked link stays listed for its Admins.
    CREATE TABLE report_shares (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      report_id integer NOT NULL REFERENCES saved_reports(id),
      token_hash text NOT NULL UNIQUE,
      created_by integer NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      revoked_by integer REFERENCES users(id)
    );
    CREATE INDEX report_shares_report ON report_shares (report_id);
  `,
  '0011_report_indexes': `
    -- Trends read a form's responses by week, a field's answers, and a company's sprays by date
    -- (server/domains/reports): without these each reads every response or spray of the company.
    CREATE INDEX form_responses_template ON form_responses (template_id, submitted_at) WHERE deleted_at IS NULL;
    CREATE INDEX form_field_responses_field ON form_field_responses (field_id) WHERE deleted_at IS NULL;
    CREATE INDEX spray_applications_company_date ON spray_applications (company_id, application_date) WHERE deleted_at IS NULL;
  `,
  '0013_tasks': `
    -- Task automations (issue 16): "when field form_field_id of form template_id answers keyword
    -- (case-insensitive, anywhere in the answer), make a task from the Task form task_template_id,
    -- assigned to assignee_user_id". Applied by the submission that makes the response, in its
    -- transaction (server/domains/tasks/automations.ts).
    CREATE TABLE task_automations (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      template_id integer NOT NULL REFERENCES form_templates(id),
      form_field_id integer NOT NULL REFERENCES form_fields(id),
      keyword text NOT NULL,
      task_template_id integer NOT NULL REFERENCES form_templates(id),
      assignee_user_id integer REFERENCES users(id),
      title text,
      description text,
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('task_automations')}
    CREATE UNIQUE INDEX task_automations_client_id ON task_automations (client_id, company_id);
    CREATE INDEX task_automations_template ON task_automations (template_id) WHERE deleted_at IS NULL;

    -- A task made from a form response (spec part 2 §3 "Task"): at most one live task per response,
    -- since the spec's calls name a task by its response (update_task_fields, update_task_description_title).
    -- template_id is the response's form (get_task_form_responses filters by it); task_template_id the
    -- Task form the work follows, when one was chosen (an automation's). The task travels inside its
    -- response's form_responses document, so every write of it touches the response.
    CREATE TABLE tasks (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      response_id integer NOT NULL REFERENCES form_responses(id),
      template_id integer NOT NULL REFERENCES form_templates(id),
      task_template_id integer REFERENCES form_templates(id),
      title text NOT NULL,
      description text NOT NULL DEFAULT '',
      assignee_user_id integer REFERENCES users(id),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_progress', 'done')),
      due_at timestamptz,
      closed_at timestamptz,
      closed_by integer REFERENCES users(id),
      automation_id integer REFERENCES task_automations(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('tasks')}
    CREATE UNIQUE INDEX tasks_client_id ON tasks (client_id, company_id);
    CREATE UNIQUE INDEX tasks_response ON tasks (response_id) WHERE deleted_at IS NULL;
    -- The company's tasks by status (get_task_form_responses; the pull keeps responses with an open
    -- task beyond its window), and a user's (get_tasks).
    CREATE INDEX tasks_company_status ON tasks (company_id, status) WHERE deleted_at IS NULL;
    CREATE INDEX tasks_assignee ON tasks (assignee_user_id, status) WHERE deleted_at IS NULL;

    -- Comments on a form response (spec part 2 §3 "Comment"); the author is user_id. They travel inside
    -- the response's form_responses document. edited_at: when the text was last changed (the act's time).
    CREATE TABLE response_comments (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      response_id integer NOT NULL REFERENCES form_responses(id),
      user_id integer REFERENCES users(id),
      comment_text text NOT NULL,
      edited_at timestamptz,
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('response_comments')}
    CREATE UNIQUE INDEX response_comments_client_id ON response_comments (client_id, company_id);
    CREATE INDEX response_comments_response ON response_comments (response_id) WHERE deleted_at IS NULL;
  `,
  '0014_deliveries': `
    -- Notification deliveries (issue 16): the outbox and the log Admins read. A row is written in the
    -- transaction of the change that triggers it, with its pg-boss job (server/notifications/delivery.ts),
    -- so a delivery exists if and only if that change committed; the worker then updates it on each try.
    -- notification_id names the rule (no foreign key: rules may be deleted, their log stays); a
    -- triggering change delivers once per rule: (company, rule, trigger_key) is unique, a test send
    -- has no rule and a trigger key of its own. recipient: e-mail addresses joined by ';', or the
    -- webhook URL. attachment: {filename, content, contentType}; link: {url, label}. job_id: the
    -- pg-boss job that will make the next try (a start-up sweep gives a new one to a row whose job is gone).
    CREATE TABLE notification_deliveries (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      notification_id integer,
      trigger_key text NOT NULL,
      method text NOT NULL CHECK (method IN ('email', 'Slack', 'Microsoft Teams')),
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      html text,
      attachment jsonb,
      link jsonb,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'retrying')),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      next_try_at timestamptz,
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      acted_at timestamptz NOT NULL,
      job_id uuid
    );
    CREATE UNIQUE INDEX notification_deliveries_trigger ON notification_deliveries (company_id, COALESCE(notification_id, 0), trigger_key);
    CREATE INDEX notification_deliveries_log ON notification_deliveries (company_id, id DESC);
    CREATE INDEX notification_deliveries_rule ON notification_deliveries (notification_id, id DESC) WHERE notification_id IS NOT NULL;
    CREATE INDEX notification_deliveries_pending ON notification_deliveries (id) WHERE status IN ('queued', 'retrying');
  `,
  '0015_notifications': `
    -- Notification rules (issue 16; spec part 2 §3 "Automation or notification", "Task notification",
    -- "Template notification"): a company's rule, saved by an Admin (created_by), saying what notifies
    -- whom. The method decides the recipient: only its own column is set (email_recipient: addresses
    -- joined by ';'; slack_webhook_url; teams_webhook_url). The trigger decides which other columns it
    -- uses (common/schemas/automations.ts): problem_recorded (problem_type, room_id: any room when null),
    -- form_submitted (form_category), keyword (template_id, form_field_id, keyword), task_assigned,
    -- task_done, template_due (template_id, room_id, frequency, weekday 1 = Monday … 7, day_of_month,
    -- notification_time "HH:MM" in UTC) and weekly_report (weekday, notification_time,
    -- report_duration_weeks). Deliveries name their rule in notification_deliveries.notification_id.
    CREATE TABLE notifications (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      method text NOT NULL CHECK (method IN ('email', 'Slack', 'Microsoft Teams')),
      email_recipient text,
      slack_webhook_url text,
      teams_webhook_url text,
      trigger text NOT NULL CHECK (trigger IN ('problem_recorded', 'form_submitted', 'keyword', 'task_assigned', 'task_done', 'template_due', 'weekly_report')),
      problem_type text,
      room_id integer REFERENCES rooms(id),
      form_category text,
      template_id integer REFERENCES form_templates(id),
      form_field_id integer REFERENCES form_fields(id),
      keyword text,
      frequency text CHECK (frequency IN ('daily', 'weekly', 'monthly')),
      weekday smallint CHECK (weekday BETWEEN 1 AND 7),
      day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 31),
      notification_time text CHECK (notification_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      report_duration_weeks smallint CHECK (report_duration_weeks BETWEEN 1 AND 52),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('notifications')}
    CREATE UNIQUE INDEX notifications_client_id ON notifications (client_id, company_id);
    -- The rules a change may fire (triggers.ts reads a company's live rules once per transaction), and
    -- the clock's rules of every company (schedules.ts, each minute).
    CREATE INDEX notifications_company ON notifications (company_id) WHERE deleted_at IS NULL;
    CREATE INDEX notifications_scheduled ON notifications (id) WHERE deleted_at IS NULL AND trigger IN ('template_due', 'weekly_report');
  `,
  '0017_scan_sessions': `
    -- A scan becomes a session (issue 17): one walk of a grid (or one camera image) by one user with one
    -- model, its boxes' photos and findings in scan_boxes. The table already has client_id (0006), room_id,
    -- grid_id and user_id. Its per-box columns of 0002 (grid_box_id, file_id, model, result) stay, nullable,
    -- unused by sessions: no call ever made a scan, but a shipped migration's columns are not dropped, and a
    -- server of the previous version may still run on this database during an update. Rows made before
    -- get their model as key and name, and their creation as their scan time.
    ALTER TABLE scans
      ADD COLUMN scan_type text NOT NULL DEFAULT 'disease' CHECK (scan_type IN ('disease', 'sticky_trap', 'camera')),
      ADD COLUMN model_key text,
      ADD COLUMN model_name text,
      ADD COLUMN model_version text,
      ADD COLUMN scanned_at timestamptz,
      -- Counts of boxes, findings and confirmed problems, and for trap scans the insects by size class
      -- (common/schemas/scans.ts scanSummaryRecord), kept up to date as boxes are recorded.
      ADD COLUMN summary jsonb NOT NULL DEFAULT '{}';
    UPDATE scans SET scanned_at = created_at, model_key = model, model_name = model;
    ALTER TABLE scans ALTER COLUMN scanned_at SET NOT NULL, ALTER COLUMN scanned_at SET DEFAULT now();
    -- get_scans: a company's scans, newest first.
    CREATE INDEX scans_company_scanned ON scans (company_id, scanned_at DESC, id DESC) WHERE deleted_at IS NULL;

    -- A box's photo in a scan: findings [{label, problem_type, problem_slug, confidence, confirmed,
    -- severity, problem_client_id}], the trap's marks [{id, x, y, radius, sizeClass}] and counts by size
    -- class, and the Sticky Trap form response the counts filled. Boxes travel inside their scan's
    -- document (a box recorded touches its scan), and go with it when it is deleted; the problems and
    -- responses they made stay (they are records of their own).
    CREATE TABLE scan_boxes (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      scan_id integer NOT NULL REFERENCES scans(id),
      grid_box_id integer NOT NULL REFERENCES grid_boxes(id),
      file_id uuid NOT NULL REFERENCES files(id),
      captured_at timestamptz NOT NULL,
      findings jsonb NOT NULL DEFAULT '[]',
      marks jsonb NOT NULL DEFAULT '[]',
      counts jsonb,
      form_response_id integer REFERENCES form_responses(id),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('scan_boxes')}
    CREATE UNIQUE INDEX scan_boxes_client_id ON scan_boxes (client_id, company_id);
    CREATE INDEX scan_boxes_scan ON scan_boxes (scan_id, captured_at) WHERE deleted_at IS NULL;
  `,
  '0016_ai_models': `
    -- The company's own image classifiers (issue 17): ONNX files an Admin uploads, each upload one
    -- version. No client id: only Admins make them, online (as whiteboard images), and tablets receive
    -- them (operations collection, kind ai_model) but never name them in a request they queue. key
    -- names the model across its versions ("custom-" and its name's slug, common/models/catalogue.ts);
    -- the company's ai_model setting holds keys and means the newest live version. version counts on
    -- across deletions (the unique index includes deleted rows), so a version number never names two
    -- files. superseded_at: when a newer version took its place (older versions stay, for the scans
    -- that name them). labels: [{label, problem_slug}] in the output's order; input: {width, height,
    -- layout, mean, std} (common/schemas/models.ts). The bytes are the file file_id (files storage).
    CREATE TABLE ai_models (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      key text NOT NULL,
      name text NOT NULL,
      description text,
      version integer NOT NULL CHECK (version >= 1),
      labels jsonb NOT NULL,
      input jsonb NOT NULL,
      input_name text NOT NULL,
      output_name text NOT NULL,
      file_id uuid NOT NULL REFERENCES files(id),
      superseded_at timestamptz,
      ${syncColumns}
    );
    ${trackChanges('ai_models')}
    CREATE UNIQUE INDEX ai_models_version ON ai_models (company_id, key, version);
    CREATE INDEX ai_models_live ON ai_models (company_id, key) WHERE deleted_at IS NULL AND superseded_at IS NULL;
  `,
  '0019_cameras': `
    -- Automated cameras (issue 17; server/domains/cameras). A camera photographs a room (a grid of it,
    -- one box of that grid): kind 'ip', an IP camera whose still image the server fetches from
    -- snapshot_url every interval_seconds (the address may hold credentials: never logged, masked in
    -- answers); or kind 'device', a phone on the public /camera page that uploads at that interval
    -- with a device token. next_capture_at: when the server fetches next (the scheduler claims a due
    -- camera by moving it on, in the transaction that queues the fetch, so one instance fetches each
    -- slot). failures: fetches failed in a row; state 'failing' after a few (or at once when the address
    -- is refused), 'waiting' until the first image, else 'ok'. model_key: the model its images are
    -- analysed with (null: the company's ai_model setting). Admins make cameras online; the client id
    -- is the server's own (the writer answers it), ready should tablets ever name cameras by it.
    CREATE TABLE cameras (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      name text NOT NULL,
      room_id integer NOT NULL REFERENCES rooms(id),
      grid_id integer REFERENCES grids(id),
      grid_box_id integer REFERENCES grid_boxes(id),
      kind text NOT NULL CHECK (kind IN ('ip', 'device')),
      snapshot_url text,
      interval_seconds integer NOT NULL CHECK (interval_seconds BETWEEN 1 AND 86400),
      model_key text,
      enabled boolean NOT NULL DEFAULT true,
      next_capture_at timestamptz,
      last_capture_at timestamptz,
      last_error text,
      failures integer NOT NULL DEFAULT 0,
      state text NOT NULL DEFAULT 'waiting' CHECK (state IN ('ok', 'failing', 'waiting')),
      CHECK ((kind = 'ip') = (snapshot_url IS NOT NULL)),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('cameras')}
    CREATE INDEX cameras_company ON cameras (company_id) WHERE deleted_at IS NULL;
    CREATE INDEX cameras_due ON cameras (next_capture_at) WHERE deleted_at IS NULL AND enabled AND kind = 'ip';

    -- A camera's images. captured_at is the camera's time (the server's at a fetch, the phone's at an
    -- upload, so photos kept offline keep theirs); created_at is when the server received it. analysis:
    -- the model's result (common/schemas/cameras.ts cameraAnalysis), null until the image job made it.
    -- client_id: the capture's own uuid (a phone's upload sent again is stored once). Removed after
    -- CAMERA_RETENTION_DAYS with their files (server/domains/cameras/retention.ts).
    CREATE TABLE camera_images (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      camera_id integer NOT NULL REFERENCES cameras(id),
      company_id integer NOT NULL REFERENCES companies(id),
      file_id uuid NOT NULL REFERENCES files(id),
      thumbnail_file_id uuid REFERENCES files(id),
      captured_at timestamptz NOT NULL,
      analysis jsonb,
      source text NOT NULL CHECK (source IN ('fetch', 'device')),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('camera_images')}
    CREATE UNIQUE INDEX camera_images_client_id ON camera_images (camera_id, client_id);
    CREATE INDEX camera_images_timeline ON camera_images (camera_id, captured_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX camera_images_company ON camera_images (company_id, captured_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX camera_images_age ON camera_images (captured_at);

    -- The links an Admin makes for a phone camera: the token is answered once, only its SHA-256 is
    -- kept (as report links' and invitations'). A revoked link keeps its row (the Admins' list shows
    -- it); deleting the camera revokes its links.
    CREATE TABLE camera_device_tokens (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      camera_id integer NOT NULL REFERENCES cameras(id),
      company_id integer NOT NULL REFERENCES companies(id),
      token_hash text NOT NULL UNIQUE,
      created_by integer NOT NULL REFERENCES users(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      revoked_by integer REFERENCES users(id),
      last_used_at timestamptz
    );
    CREATE INDEX camera_device_tokens_camera ON camera_device_tokens (camera_id);
  `,
  '0018_box_videos': `
    -- Videos of a box or of a row of a grid (issue 17; server/domains/videos). A tablet records one
    -- offline and uploads it in chunks when it has signal: video_uploads keeps what the server has of
    -- each video so far (its first received_bytes bytes, in the file store under storage_key), named by
    -- the video's client id, so an upload cut at 90 % goes on from there. No sync columns: an upload is
    -- the server's bookkeeping, not a record tablets keep; it goes when its video is made (or, left
    -- unfinished, after 30 days: server/domains/videos/queries.ts). size_bytes is declared when it
    -- starts; content_type is what the first chunk's bytes showed (null before it). The place and
    -- duration are kept from the start for the video. Sizes are integers: VIDEO_MAX_BYTES (200 MB,
    -- common/messages/videos.ts) is far below 2 GB.
    CREATE TABLE video_uploads (
      client_id uuid PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      user_id integer NOT NULL REFERENCES users(id),
      what text NOT NULL CHECK (what IN ('box', 'row')),
      room_id integer NOT NULL REFERENCES rooms(id),
      grid_id integer REFERENCES grids(id),
      grid_box_id integer REFERENCES grid_boxes(id),
      row_number integer CHECK (row_number >= 1),
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      received_bytes integer NOT NULL DEFAULT 0 CHECK (received_bytes >= 0 AND received_bytes <= size_bytes),
      content_type text CHECK (content_type IN ('video/webm', 'video/mp4')),
      storage_key text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX video_uploads_company_updated ON video_uploads (company_id, updated_at);

    -- A video made: of a box (grid_box_id, with its grid and room) or of a row of a grid (grid_id and
    -- row_number, from 1: the boxes whose Y is that row). recorded_at is when the grower recorded it
    -- (the act's time), recorded_by who. The bytes are the file file_id, checked by their content.
    -- They travel to tablets in the operations collection (kind video), so a box's history shows them.
    CREATE TABLE box_videos (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      what text NOT NULL CHECK (what IN ('box', 'row')),
      room_id integer NOT NULL REFERENCES rooms(id),
      grid_id integer REFERENCES grids(id),
      grid_box_id integer REFERENCES grid_boxes(id),
      row_number integer CHECK (row_number >= 1),
      file_id uuid NOT NULL REFERENCES files(id),
      content_type text NOT NULL CHECK (content_type IN ('video/webm', 'video/mp4')),
      size_bytes integer NOT NULL,
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      recorded_at timestamptz NOT NULL,
      recorded_by integer REFERENCES users(id),
      CHECK ((what = 'box') = (grid_box_id IS NOT NULL)),
      CHECK ((what = 'row') = (row_number IS NOT NULL AND grid_id IS NOT NULL)),
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('box_videos')}
    CREATE UNIQUE INDEX box_videos_client_id ON box_videos (client_id, company_id);
    CREATE INDEX box_videos_box ON box_videos (grid_box_id, recorded_at) WHERE deleted_at IS NULL AND grid_box_id IS NOT NULL;
    CREATE INDEX box_videos_row ON box_videos (grid_id, row_number, recorded_at) WHERE deleted_at IS NULL AND row_number IS NOT NULL;
  `,
  '0020_weather_cache': `
    -- What the server fetched from Open-Meteo (issue 18; server/domains/weather), so a dashboard opened
    -- on every tablet asks upstream once. No sync columns and no company: public weather, shared by all.
    -- weather_places: a place name as asked (spaces collapsed, lower case) and what geocoding resolved
    -- it to; places do not move, so a row is kept for good.
    CREATE TABLE weather_places (
      query text PRIMARY KEY,
      name text NOT NULL,
      country text,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      timezone text,
      fetched_at timestamptz NOT NULL DEFAULT now()
    );

    -- weather_days: one local day at a point (coordinates rounded to 0.01°, about 1 km, finer than
    -- Open-Meteo's grid), in the point's time zone. final: the day was over everywhere when fetched, so
    -- the row is kept for good; otherwise it is fetched again after fetched_at + 1 hour.
    CREATE TABLE weather_days (
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      day date NOT NULL,
      timezone text NOT NULL,
      temperature_max double precision,
      temperature_min double precision,
      temperature_mean double precision,
      humidity_mean double precision,
      precipitation double precision,
      weather_code integer,
      source text NOT NULL CHECK (source IN ('forecast', 'archive')),
      final boolean NOT NULL,
      fetched_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (latitude, longitude, day)
    );
  `,
  '0021_commands': `
    -- The command bar's commands (issue 18; spec part 2 "AI chat: command text and a parsed data list";
    -- server/domains/commands): what a user typed or said, as said, and the actions the tablet's parser
    -- read from it (common/commands/actions.ts CommandAction, a JSON array, in the order said), in the
    -- language it was read in. acted_at: when it was given (the act's time, also when queued offline).
    -- Kept for the user and the company to look back on (get_commands, online); no collection holds
    -- them, so they do not travel to tablets. Named by the tablet's client id, unique per company.
    CREATE TABLE commands (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      user_id integer NOT NULL REFERENCES users(id),
      command text NOT NULL CHECK (command <> ''),
      parsed jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(parsed) = 'array'),
      language text NOT NULL,
      acted_at timestamptz NOT NULL,
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('commands')}
    CREATE UNIQUE INDEX commands_client_id ON commands (client_id, company_id);
    CREATE INDEX commands_newest ON commands (company_id, acted_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX commands_by_user ON commands (user_id, acted_at DESC, id DESC) WHERE deleted_at IS NULL;
  `,
  '0022_subscriptions': `
    -- The company's subscription, paid through Stripe Checkout (issue 18; server/domains/payments). One row
    -- per company, as Stripe last said it: the plan (by its price), Stripe's status, its customer and
    -- subscription, and when the paid period ends (current_period_end, the renewal date). stripe_state_at:
    -- when the server read from Stripe the state the row holds, so a slower, older read never rolls a
    -- newer one back. Read online by Admins: not synced.
    CREATE TABLE company_subscriptions (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL UNIQUE REFERENCES companies(id),
      plan text NOT NULL CHECK (plan IN ('monthly', 'yearly')),
      status text NOT NULL,
      stripe_customer_id text,
      stripe_subscription_id text UNIQUE,
      current_period_end timestamptz,
      stripe_state_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    -- Stripe's events handled, by their id: Stripe delivers an event at least once, and each is applied once.
    CREATE TABLE stripe_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    );
  `,
  '0023_form_corrections': `
    -- Corrections of submitted form responses (issue 18, rooms/FormEdit; server/domains/forms/corrections.ts).
    -- A correction is one act: who (created_by), when (created_at: the act's time, an offline correction
    -- keeps it) and why (reason), on one response. Its values say, per field, what the answer was before
    -- (previous_value; a field's first correction keeps the value as submitted) and what it became
    -- (corrected_value), so the original stays readable after the answer in form_field_responses changed.
    -- Both travel inside the response's form_responses document: each write touches the response.
    CREATE TABLE form_corrections (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      response_id integer NOT NULL REFERENCES form_responses(id),
      reason text NOT NULL,
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('form_corrections')}
    CREATE UNIQUE INDEX form_corrections_client_id ON form_corrections (client_id, company_id);
    CREATE INDEX form_corrections_response ON form_corrections (response_id) WHERE deleted_at IS NULL;

    CREATE TABLE form_correction_values (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      correction_id integer NOT NULL REFERENCES form_corrections(id),
      field_id integer NOT NULL REFERENCES form_fields(id),
      previous_value text,
      corrected_value text,
      client_id uuid NOT NULL DEFAULT gen_random_uuid(),
      ${syncColumns}
    );
    ${trackChanges('form_correction_values')}
    CREATE INDEX form_correction_values_correction ON form_correction_values (correction_id) WHERE deleted_at IS NULL;
  `,
  '0024_consultants': `
    -- Outside consultants (issue 18 "Consultants"; server/domains/consultants/routes.ts says why each rule).
    -- A consultant is a user of role Consultant who belongs to no company: company_id is null for them and
    -- only for them (a company's queries by company_id never find a consultant; the tenancy guard finds a
    -- consultant's user id of no company, so naming one answers 403).
    ALTER TABLE users DROP CONSTRAINT users_role_check;
    ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('Regular', 'Admin', 'SuperAdmin', 'Consultant'));
    ALTER TABLE users ALTER COLUMN company_id DROP NOT NULL;
    ALTER TABLE users ADD CONSTRAINT users_consultant_no_company CHECK ((role = 'Consultant') = (company_id IS NULL));

    -- The company a consultant's session acts in (a switch rotates the token into another one's); null for
    -- company members, whose company is users.company_id.
    ALTER TABLE refresh_tokens ADD COLUMN company_id integer REFERENCES companies(id);

    -- A company's grant of read-only access to a consultant, by email: made by an Admin (invited_by), mailed
    -- as an invitation link (token_hash; the link works for 7 days and while the grant is live), accepted
    -- (accepted_at, consultant_id) once, until expires_at, revocable at any time (revoked_at, revoked_by).
    -- Kept after revocation or expiry: the Admin's list shows them. last_used_at: when a sign-in or a switch
    -- last chose this company (a sign-in picks the last used).
    CREATE TABLE consultant_access (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id),
      consultant_id integer REFERENCES users(id),
      email text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      invited_by integer NOT NULL REFERENCES users(id),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      revoked_by integer REFERENCES users(id),
      accepted_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((accepted_at IS NULL) = (consultant_id IS NULL))
    );
    CREATE INDEX consultant_access_company ON consultant_access (company_id, created_at DESC);
    -- The guard's lookup on every request of a consultant.
    CREATE INDEX consultant_access_consultant ON consultant_access (consultant_id, company_id) WHERE consultant_id IS NOT NULL;
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
