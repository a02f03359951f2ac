/**
 * Consultants' grants (migration 0024 `consultant_access`): what a grant is now, the lookups of the
 * Admin's list, the invitation link, and the one the guard makes on every request of a consultant
 * (`activeGrant`). A grant is active while accepted, not revoked and before its end; the database's
 * clock decides, so every instance agrees at once.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ConsultantStatus } from '../../../common/messages/consultants';
import { isoTime } from '../../../common/schemas/answers';
import type { ConsultantAccessRecord } from '../../../common/schemas/consultants';
import type { ConsultantAccessTable, DB } from '../../db/schema';
import { hashToken, newOpaqueToken } from '../auth/tokens';

export type ConsultantAccess = Selectable<ConsultantAccessTable>;
type Named = ConsultantAccess & { first_name: string | null; last_name: string | null };

/** What a grant is at `now`: withdrawn, past its end, mailed and not accepted, or in use. */
export function statusOf(access: Pick<ConsultantAccess, 'revoked_at' | 'expires_at' | 'accepted_at'>, now = new Date()): ConsultantStatus {
  if (access.revoked_at !== null) return 'revoked';
  if (new Date(access.expires_at) <= now) return 'expired';
  return access.accepted_at === null ? 'invited' : 'active';
}

/** A grant as the Admin's list shows it. */
export const consultantAccessJson = (access: Named): ConsultantAccessRecord => ({
  access_id: access.id,
  email: access.email,
  first_name: access.first_name,
  last_name: access.last_name,
  status: statusOf(access),
  invited_by: access.invited_by,
  invited_at: isoTime(access.created_at),
  expires_at: isoTime(access.expires_at),
  accepted_at: isoTime(access.accepted_at),
  revoked_at: isoTime(access.revoked_at),
});

/** Grants with their consultant's name (null until accepted). */
const named = (db: Kysely<DB>) =>
  db
    .selectFrom('consultant_access')
    .leftJoin('users', 'users.id', 'consultant_access.consultant_id')
    .selectAll('consultant_access')
    .select(['users.first_name', 'users.last_name']);

/** Live: not revoked and before its end, by the database's clock. */
const live = sql<boolean>`consultant_access.revoked_at IS NULL AND consultant_access.expires_at > now()`;

export const consultantQueries = {
  /**
   * The consultant's active grant of `companyId`, if any: what the guard asks on every request of a
   * consultant (guards.ts), so a revocation or an expiry refuses the very next request.
   */
  activeGrant: (db: Kysely<DB>, consultantId: number, companyId: number) =>
    db
      .selectFrom('consultant_access')
      .select(['id', 'company_id', 'expires_at'])
      .where('consultant_id', '=', consultantId)
      .where('company_id', '=', companyId)
      .where('accepted_at', 'is not', null)
      .where(live)
      .orderBy('expires_at', 'desc')
      .executeTakeFirst(),

  /** The consultant's active grants with their companies' names, the last used first, then the oldest accepted. */
  activeGrantsOf: (db: Kysely<DB>, consultantId: number) =>
    db
      .selectFrom('consultant_access')
      .innerJoin('companies', 'companies.id', 'consultant_access.company_id')
      .select(['consultant_access.id', 'consultant_access.company_id', 'consultant_access.expires_at', 'consultant_access.last_used_at', 'companies.name as company_name'])
      .where('consultant_access.consultant_id', '=', consultantId)
      .where('consultant_access.accepted_at', 'is not', null)
      .where('companies.deleted_at', 'is', null)
      .where(live)
      .orderBy(sql`consultant_access.last_used_at DESC NULLS LAST`)
      .orderBy('consultant_access.accepted_at')
      .orderBy('consultant_access.id')
      .execute(),

  /** Notes that a sign-in or a switch chose this grant's company (the next sign-in starts there). */
  markUsed: (db: Kysely<DB>, accessId: number) => db.updateTable('consultant_access').set({ last_used_at: new Date() }).where('id', '=', accessId).execute(),

  /** The company's grants, newest first, with their consultants' names. */
  ofCompany: (db: Kysely<DB>, companyId: number) => named(db).where('consultant_access.company_id', '=', companyId).orderBy('consultant_access.created_at', 'desc').orderBy('consultant_access.id', 'desc').execute(),

  byId: (db: Kysely<DB>, accessId: number) => named(db).where('consultant_access.id', '=', accessId).executeTakeFirst(),

  /** The company's live grant of an address (invited or active), locked: an invitation decides against it. */
  liveOfEmail: (db: Kysely<DB>, companyId: number, email: string) =>
    db
      .selectFrom('consultant_access')
      .selectAll()
      .where('company_id', '=', companyId)
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .where(live)
      .forUpdate()
      .execute(),

  /** A new grant, invited; answers it and its link's token (mailed, never stored: only its hash). */
  async invite(db: Kysely<DB>, values: { companyId: number; email: string; invitedBy: number; expiresAt: Date }) {
    const token = newOpaqueToken();
    const access = await db
      .insertInto('consultant_access')
      .values({ company_id: values.companyId, email: values.email, token_hash: hashToken(token), invited_by: values.invitedBy, expires_at: values.expiresAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { access, token };
  },

  /** The grant of an invitation link. */
  byToken: (db: Kysely<DB>, token: string) => db.selectFrom('consultant_access').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst(),

  /** The grant of an invitation link, locked: two acceptances of one link are decided one after the other. */
  byTokenForUpdate: (db: Kysely<DB>, token: string) => db.selectFrom('consultant_access').selectAll().where('token_hash', '=', hashToken(token)).forUpdate().executeTakeFirst(),

  accept: (db: Kysely<DB>, accessId: number, consultantId: number) =>
    db.updateTable('consultant_access').set({ consultant_id: consultantId, accepted_at: new Date(), last_used_at: new Date() }).where('id', '=', accessId).execute(),

  /** Revokes a live or invited grant; answers nothing when it was already revoked. */
  revoke: (db: Kysely<DB>, accessId: number, by: number) =>
    db.updateTable('consultant_access').set({ revoked_at: new Date(), revoked_by: by }).where('id', '=', accessId).where('revoked_at', 'is', null).returning('id').executeTakeFirst(),
};
