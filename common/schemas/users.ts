/**
 * The answers of the users domain (server/domains/users): a company's users and its pending
 * invitations. Its requests are in session.ts, beside sign-up's. Never a password or a token's hash:
 * the server writes only what these schemas name.
 */
import { z } from 'zod';
import { INVITABLE_ROLES, ROLES } from '../roles';
import { answer, timestamp } from './answers';

/** A user, as answers and the synced company document's `users` show one (server/domains/users/queries.ts `userJson`). */
export const userRecord = z.object({
  user_id: z.number().int(),
  company_id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(ROLES),
  threshold: z.number().nullable(),
  location: z.string().nullable(),
});

export type UserRecord = z.infer<typeof userRecord>;

/** An invitation not yet accepted, withdrawn or expired (its token is shown once, at creation, never here). */
export const pendingInvitationRecord = z.object({
  invitation_id: z.number().int(),
  email: z.string(),
  role: z.enum(INVITABLE_ROLES),
  created_at: timestamp,
  expires_at: timestamp,
  created_by: z.number().int(),
});

export type PendingInvitationRecord = z.infer<typeof pendingInvitationRecord>;

/** The invitation's token is answered to the Admin who made it (the sign-up link is mailed too); only its hash is kept. */
export const createInvitationAnswer = answer({ invite_token: z.string(), invitation_id: z.number().int() });
export const pendingInvitationsAnswer = answer({ invitations: z.array(pendingInvitationRecord) });
export const loadUsersAnswer = answer({ users: z.array(userRecord) });
export const thresholdAnswer = answer({ threshold: z.number().nullable() });
export const setThresholdAnswer = answer({ threshold: z.number() });
export const locationAnswer = answer({ location: z.string() });
