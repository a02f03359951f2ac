/** Sessions: refresh-token families, password resets and the user lookups sign-in needs. */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB, User } from '../../db/schema';
import { REFRESH_TOKEN_DAYS, hashToken, newOpaqueToken } from './tokens';

const days = (n: number) => new Date(Date.now() + n * 86_400_000);

export const authQueries = {
  activeUserByEmail: (db: Kysely<DB>, email: string): Promise<User | undefined> =>
    db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', email.toLowerCase()).where('deleted_at', 'is', null).executeTakeFirst(),

  activeUserById: (db: Kysely<DB>, id: number): Promise<User | undefined> =>
    db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /**
   * Stores a new refresh token (30 days from now) in a family, a new one unless given; returns the token.
   * `companyId`: the company a consultant's session acts in (null for a company's members).
   */
  async createRefreshToken(db: Kysely<DB>, userId: number, familyId: string = randomUUID(), companyId: number | null = null): Promise<string> {
    const token = newOpaqueToken();
    await db
      .insertInto('refresh_tokens')
      .values({ user_id: userId, family_id: familyId, token_hash: hashToken(token), expires_at: days(REFRESH_TOKEN_DAYS), company_id: companyId })
      .execute();
    return token;
  },

  /** The token's row, locked: two refreshes of one token are decided one after the other. */
  refreshTokenForUpdate: (db: Kysely<DB>, token: string) =>
    db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hashToken(token)).forUpdate().executeTakeFirst(),

  markReplaced: (db: Kysely<DB>, id: number) =>
    db.updateTable('refresh_tokens').set({ replaced_at: new Date() }).where('id', '=', id).where('replaced_at', 'is', null).execute(),

  revokeFamily: (db: Kysely<DB>, familyId: string) =>
    db.updateTable('refresh_tokens').set({ revoked_at: new Date() }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute(),

  revokeAllOfUser: (db: Kysely<DB>, userId: number) =>
    db.updateTable('refresh_tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute(),

  async createPasswordReset(db: Kysely<DB>, userId: number, minutes: number): Promise<string> {
    const token = newOpaqueToken();
    await db
      .insertInto('password_resets')
      .values({ user_id: userId, token_hash: hashToken(token), expires_at: new Date(Date.now() + minutes * 60_000) })
      .execute();
    return token;
  },

  /** An unused, unexpired reset, claimed (marked used) in the same statement so it works once. */
  claimPasswordReset: (db: Kysely<DB>, token: string) =>
    db
      .updateTable('password_resets')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashToken(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst(),

  /** After a reset, every other reset link of the user stops working too. */
  expireResetsOfUser: (db: Kysely<DB>, userId: number) =>
    db.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute(),

  invitationForUpdate: (db: Kysely<DB>, token: string) =>
    db.selectFrom('invitations').selectAll().where('token_hash', '=', hashToken(token)).forUpdate().executeTakeFirst(),
};
