/**
 * The company a session acts in, for sign-in and refresh (server/domains/auth/routes.ts): a member's
 * own; a consultant's the one their session chose (kept across refreshes, changed by a switch), else,
 * at sign-in, their last used active grant (the first accepted when none was used yet).
 */
import type { Kysely } from 'kysely';
import { consultantMessages as m } from '../../../common/messages/consultants';
import type { DB, User } from '../../db/schema';
import { forbidden } from '../../http/errors';
import { consultantQueries as q } from './queries';

/**
 * `kept`: the company the session being refreshed acts in (refresh_tokens.company_id). A refresh keeps
 * it even when that grant has ended since: the guard refuses every request there (403 at once), and
 * the tablet, whose data is that company's, says so and offers a switch instead of changing company
 * behind the consultant's back.
 */
export async function sessionCompanyOf(db: Kysely<DB>, user: Pick<User, 'id' | 'role' | 'company_id'>, kept?: number | null): Promise<number> {
  if (user.role !== 'Consultant') {
    // migration 0024's CHECK: only a consultant has no company.
    if (user.company_id === null) throw new Error(`User ${user.id} (${user.role}) has no company`);
    return user.company_id;
  }
  if (kept !== undefined && kept !== null) return kept;
  const [grant] = await q.activeGrantsOf(db, user.id);
  if (!grant) throw forbidden(m.noActiveAccess);
  await q.markUsed(db, grant.id);
  return grant.company_id;
}
