/**
 * Users of a company, each user's threshold and location, and invitations (spec part 1 §3, §4, §7, §8;
 * part 2 §5, §7, §8). The company's local document carries its users (`users`, the server's `userJson`),
 * so reads answer offline and threshold and location changes are queued writes that patch it at once.
 *
 * Invitations are called online: they are not in the local store (nothing could show a queued one),
 * and the Admin needs the answer to go on (the invitation sent, or the address already taken).
 */
import { changeLabels } from '../../common/messages/changes';
import { sessionClientMessages as cm, sessionMessages as m } from '../../common/messages/session';
import type { z } from 'zod';
import type { doneAnswer } from '../../common/schemas/answers';
import { createInvitationBody, deleteInvitationQuery, loadUsersQuery, pendingInvitationsQuery, thresholdBody, thresholdQuery, updateLocationBody } from '../../common/schemas/session';
import type { createInvitationAnswer, loadUsersAnswer, PendingInvitationRecord, pendingInvitationsAnswer, thresholdAnswer, UserRecord } from '../../common/schemas/users';
import type { Effect } from '../../sync/types';
import { localCompany, sessionCompanyId } from './companies';
import { type ApiContext, check, json, online, record, formData } from './context';

/** A user as the server shows one (common/schemas/users.ts `userRecord`): never a password. */
export type CompanyUser = UserRecord;

/** An invitation waiting for its sign-up (common/schemas/users.ts `pendingInvitationRecord`). */
export type PendingInvitation = PendingInvitationRecord;

type Reader = Pick<ApiContext, 'client' | 'store'>;

/** The users in a company's local document, or null before the first pull. */
async function localUsers(context: Pick<ApiContext, 'store'>, companyId: number): Promise<CompanyUser[] | null> {
  const users = (await localCompany(context, companyId))?.users;
  return Array.isArray(users) ? (users as CompanyUser[]) : null;
}

/** The optimistic change of one user inside the signed-in company's document (none before the first pull). */
async function userPatch(context: ApiContext, userId: number, values: Partial<CompanyUser>): Promise<Effect[]> {
  const companyId = await sessionCompanyId(context);
  if (companyId === null) return [];
  const users = await localUsers(context, companyId);
  if (!users?.some((user) => user.user_id === userId)) return [];
  return [{ op: 'patch', collection: 'company', id: String(companyId), data: { users: users.map((user) => (user.user_id === userId ? { ...user, ...values } : user)) } }];
}

/**
 * GET /load_users (query company_id, optional user_id): the company's users, or the one user. Spec
 * part 1 §3 caches the list per user id and company id: the company's local document is that cache
 * (kept fresh by the pull, read offline); the server answers when the tablet has no document yet.
 */
export async function loadUsers(context: Reader, input: { companyId: number; userId?: number | null }): Promise<CompanyUser[]> {
  const { company_id, user_id } = check(loadUsersQuery, { company_id: input.companyId, user_id: input.userId });
  const local = await localUsers(context, company_id);
  if (local) return user_id === undefined ? local : local.filter((user) => user.user_id === user_id);
  const answer = await online<z.infer<typeof loadUsersAnswer>>(context, { path: '/load_users', query: { company_id, user_id } }, cm.usersFetchFailed);
  return answer.users;
}

/**
 * GET /threshold (query user_id): the user's threshold (null when never set). Spec part 1 §4: loaded
 * only when a user id is present, so without one this answers null and asks nothing.
 */
export async function getThreshold(context: Reader, input: { userId?: number | null }): Promise<number | null> {
  if (input.userId === undefined || input.userId === null) return null;
  const { user_id } = check(thresholdQuery, { user_id: input.userId });
  const companyId = await sessionCompanyId(context);
  const local = companyId === null ? null : (await localUsers(context, companyId))?.find((user) => user.user_id === user_id);
  if (local) return local.threshold;
  const answer = await online<z.infer<typeof thresholdAnswer>>(context, { path: '/threshold', query: { user_id } }, cm.thresholdFetchFailed);
  return answer.threshold ?? null;
}

/**
 * POST /threshold (JSON user_id, threshold), queued. Spec part 1 §4, §8: every change is saved
 * automatically and a failure is only logged ("An error occurred while updating the threshold:"),
 * never shown: an invalid value or a failure to record is logged here and nothing is thrown; a refusal
 * by the server shows later in the sync status's failed list.
 */
export async function setThreshold(context: ApiContext, input: { userId: number; threshold: number }): Promise<void> {
  try {
    const { user_id, threshold } = check(thresholdBody, { user_id: input.userId, threshold: input.threshold });
    await record(context, {
      method: 'POST',
      path: '/threshold',
      body: json({ user_id, threshold }),
      effects: await userPatch(context, user_id, { threshold }),
      label: changeLabels.setThreshold(threshold),
    });
  } catch (error) {
    console.error(cm.thresholdUpdateFailed, error);
  }
}

/** PUT /update_location (user_id, location), queued: 'userID and location are required.'. Returns the location written. */
export async function updateLocation(context: ApiContext, input: { userId: number; location: string }) {
  const { user_id, location } = check(updateLocationBody, { user_id: input.userId, location: input.location });
  await record(context, {
    method: 'PUT',
    path: '/update_location',
    body: json({ user_id, location }),
    effects: await userPatch(context, user_id, { location }),
    label: changeLabels.updateLocation,
  });
  return { location };
}

/**
 * POST /create_invitation (Admins; multipart email, role Regular or Admin, optional company_id for a
 * SuperAdmin): online. Answers the invitation's id and token; the server mails the sign-up link.
 */
export async function createInvitation(context: Pick<ApiContext, 'client'>, input: { email: string; role: 'Regular' | 'Admin'; companyId?: number }) {
  const values = check(createInvitationBody, { email: input.email, role: input.role, company_id: input.companyId });
  return online<z.infer<typeof createInvitationAnswer>>(
    context,
    { method: 'POST', path: '/create_invitation', body: formData(values) },
    cm.invitationFailed,
  );
}

/** GET /pending_invitations (Admins): 'companyID is required.'; the server's message or 'Failed to fetch pending invitations.'. */
export async function pendingInvitations(context: Pick<ApiContext, 'client'>, input: { companyId?: number | null }): Promise<PendingInvitation[]> {
  const { company_id } = check(pendingInvitationsQuery, { company_id: input.companyId });
  const answer = await online<z.infer<typeof pendingInvitationsAnswer>>(context, { path: '/pending_invitations', query: { company_id } }, m.pendingInvitationsFailed);
  return answer.invitations;
}

/** DELETE /delete_invitation (Admins; query invitation_id): withdraws a pending invitation, online. */
export async function deleteInvitation(context: Pick<ApiContext, 'client'>, input: { invitationId: number }) {
  const { invitation_id } = check(deleteInvitationQuery, { invitation_id: input.invitationId });
  return online<z.infer<typeof doneAnswer>>(context, { method: 'DELETE', path: '/delete_invitation', query: { invitation_id } }, cm.invitationDeleteFailed);
}
