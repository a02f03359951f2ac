/**
 * The database's tables as Kysely sees them. Columns that every synced table carries (ids, audit
 * columns, change tracking and tombstones) are `SyncColumns`; `change_seq`/`change_xid` are written by
 * the `track_change` trigger only (migrations.ts), never by application code.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role } from '../../common/roles';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type ReadOnly<T> = ColumnType<T, never, never>;

export interface SyncColumns {
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: number | null;
  updated_by: number | null;
  deleted_at: Timestamp | null;
  change_seq: ReadOnly<number>;
  change_xid: ReadOnly<string>;
}

export interface CompaniesTable extends SyncColumns {
  id: Generated<number>;
  name: string;
  contact_name: string | null;
  contact_email: string | null;
  company_type: string | null;
  contact_phone: string | null;
  grid_order: Generated<string>;
  grid_opacity: Generated<number>;
  offline_mode: Generated<number>;
  ai_model: Generated<string>;
  auto_refresh: Generated<number>;
  stickytrap_render: Generated<number>;
  language: Generated<string>;
}

export interface UsersTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  password_hash: string;
  threshold: number | null;
  location: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  replaced_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface InvitationsTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  role: Role;
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  created_by: number;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AuditEventsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  event_title: string;
  room_id: number | null;
  batch_id: number | null;
  response_id: number | null;
  details: unknown | null;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: unknown | null;
  created_at: Timestamp;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface DB {
  companies: CompaniesTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  server_secrets: ServerSecretsTable;
}

export type Company = Selectable<CompaniesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuditEvent = Selectable<AuditEventsTable>;
