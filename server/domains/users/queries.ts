/** Users and invitations of a company. */
import type { Kysely, Selectable } from 'kysely';
import type { INVITABLE_ROLES } from '../../../common/roles';
import { isoTime } from '../../../common/schemas/answers';
import type { PendingInvitationRecord, UserRecord } from '../../../common/schemas/users';
import type { DB, InvitationsTable, User } from '../../db/schema';
import { noteTombstones } from '../../db/writes';
import { hashToken, newOpaqueToken } from '../auth/tokens';

/** A person's name as messages and answers show it ("Ada Lovelace"); null for no one (a join that found no user). */
export const personName = (person: { first_name: string | null; last_name: string | null }): string | null =>
  person.first_name === null ? null : `${person.first_name} ${person.last_name ?? ''}`.trim();

/** A user as the API and the synced company document show it: never the password hash. A company's user (never a consultant, who has no company). */
export const userJson = (user: Pick<User, 'id' | 'email' | 'first_name' | 'last_name' | 'role' | 'threshold' | 'location'> & { company_id: number }): UserRecord => ({
  user_id: user.id,
  company_id: user.company_id,
  email: user.email,
  first_name: user.first_name,
  last_name: user.last_name,
  role: user.role,
  threshold: user.threshold,
  location: user.location,
});

/** A pending invitation as the Admin's list shows it: never its token or the token's hash. */
export const pendingInvitationJson = (invitation: Pick<Selectable<InvitationsTable>, 'id' | 'email' | 'role' | 'created_at' | 'expires_at' | 'created_by'>): PendingInvitationRecord => ({
  invitation_id: invitation.id,
  email: invitation.email,
  // The invitations table's CHECK allows only the invitable roles.
  role: invitation.role as (typeof INVITABLE_ROLES)[number],
  created_at: isoTime(invitation.created_at),
  expires_at: isoTime(invitation.expires_at),
  created_by: invitation.created_by,
});

export const userQueries = {
  byCompany: (db: Kysely<DB>, companyIds: number[], userId?: number) => {
    let query = db.selectFrom('users').selectAll().where('company_id', 'in', companyIds).where('deleted_at', 'is', null);
    if (userId !== undefined) query = query.where('id', '=', userId);
    // Found by their company: never a consultant (company_id null, migration 0024).
    return query.orderBy('id').$narrowType<{ company_id: number }>().execute();
  },

  emailTaken: async (db: Kysely<DB>, email: string) =>
    (await db.selectFrom('users').select('id').where((eb) => eb.fn('lower', ['email']), '=', email).where('deleted_at', 'is', null).executeTakeFirst()) !== undefined,

  /** Creates an invitation and returns its token (shown once; only its hash is kept). */
  async createInvitation(db: Kysely<DB>, values: { companyId: number; email: string; role: 'Regular' | 'Admin'; createdBy: number; days: number }) {
    // A new invitation replaces any earlier pending one for the same address.
    noteTombstones();
    await db
      .updateTable('invitations')
      .set({ deleted_at: new Date() })
      .where('company_id', '=', values.companyId)
      .where('email', '=', values.email)
      .where('accepted_at', 'is', null)
      .where('deleted_at', 'is', null)
      .execute();
    const token = newOpaqueToken();
    const { id } = await db
      .insertInto('invitations')
      .values({
        company_id: values.companyId,
        email: values.email,
        role: values.role,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + values.days * 86_400_000),
        created_by: values.createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id, token };
  },

  pendingInvitations: (db: Kysely<DB>, companyId: number) =>
    db
      .selectFrom('invitations')
      .select(['id', 'email', 'role', 'created_at', 'expires_at', 'created_by'])
      .where('company_id', '=', companyId)
      .where('accepted_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('expires_at', '>', new Date())
      .orderBy('created_at', 'desc')
      .execute(),

  deleteInvitation: (db: Kysely<DB>, id: number) =>
    db.updateTable('invitations').set({ deleted_at: new Date() }).where('id', '=', id).where('deleted_at', 'is', null).returning(['email', 'company_id']).executeTakeFirst(),
};
