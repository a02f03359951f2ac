/**
 * Domain functions of outside consultants (issue 18; server/domains/consultants/routes.ts says what each
 * call does). All online: the Admin's invitations and revocations must be answered at once (a mail goes
 * out, an access ends), the grants live on the server only, and a consultant's switch is a new session.
 * Input is checked first with the server's own schemas, so the same messages come before any call.
 */
import type { z } from 'zod';
import { consultantClientMessages as cm } from '../../common/messages/consultants';
import {
  type acceptConsultantAnswer,
  acceptConsultantBody,
  type ConsultantAccessRecord,
  type consultantAccessAnswer,
  type ConsultantCompanyRecord,
  type consultantInvitationAnswer,
  consultantInvitationQuery,
  consultantsQuery,
  type consultantsAnswer,
  inviteConsultantBody,
  type myCompaniesAnswer,
  revokeConsultantBody,
  type switchCompanyAnswer,
  switchCompanyBody,
} from '../../common/schemas/consultants';
import type { Session } from './client';
import { type ApiContext, ApiError, check, online } from './context';

export type ConsultantAccess = ConsultantAccessRecord;
export type ConsultantCompany = ConsultantCompanyRecord;
type Online = Pick<ApiContext, 'client'>;

/** GET /consultants (Admins): the company's grants, newest first, each with its status and dates. */
export async function listConsultants(context: Online, input: { companyId: number }): Promise<ConsultantAccess[]> {
  const query = check(consultantsQuery, { company_id: input.companyId });
  return (await online<z.infer<typeof consultantsAnswer>>(context, { path: '/consultants', query }, cm.listFailed)).consultants;
}

/** POST /consultants/invite (Admins): mails the consultant an invitation link for `days` days of read-only access. */
export async function inviteConsultant(context: Online, input: { email: string; days: number; companyId?: number }): Promise<ConsultantAccess> {
  const body = check(inviteConsultantBody, { email: input.email, days: input.days, company_id: input.companyId });
  return (await online<z.infer<typeof consultantAccessAnswer>>(context, { method: 'POST', path: '/consultants/invite', body }, cm.inviteFailed)).access;
}

/** POST /consultants/revoke (Admins): the consultant's access ends at once, their very next request is refused. */
export async function revokeConsultant(context: Online, input: { accessId: number }): Promise<ConsultantAccess> {
  const body = check(revokeConsultantBody, { access_id: input.accessId });
  return (await online<z.infer<typeof consultantAccessAnswer>>(context, { method: 'POST', path: '/consultants/revoke', body }, cm.revokeFailed)).access;
}

/** GET /consultants/invitation (no session): which company invites whom, until when, and whether the address has an account. */
export async function consultantInvitation(context: Online, input: { token: string }) {
  const query = check(consultantInvitationQuery, { invite_token: input.token });
  return online<z.infer<typeof consultantInvitationAnswer>>(context, { path: '/consultants/invitation', query, skipRefresh: true }, cm.invitationFailed);
}

/** POST /consultants/accept (no session): a new account needs a name and a password; an existing one only the link. */
export async function acceptConsultantInvitation(context: Online, input: { token: string; firstName?: string; lastName?: string; password?: string }) {
  const body = check(acceptConsultantBody, { invite_token: input.token, first_name: input.firstName, last_name: input.lastName, password: input.password });
  return online<z.infer<typeof acceptConsultantAnswer>>(context, { method: 'POST', path: '/consultants/accept', body, skipRefresh: true }, cm.acceptFailed);
}

/** GET /consultants/my_companies (consultants): the companies they may read now; `current` is the session's. */
export async function myCompanies(context: Online): Promise<ConsultantCompany[]> {
  return (await online<z.infer<typeof myCompaniesAnswer>>(context, { path: '/consultants/my_companies' }, cm.companiesFailed)).companies;
}

/**
 * POST /consultants/switch_company with the session's refresh token as the bearer credential: the
 * session becomes one of `companyId` (its refresh token rotated), kept where the session is kept.
 * WARNING: the tablet's local store still holds the previous company's data: the caller empties it
 * before this company's is pulled (features/consultants/company-store.ts).
 */
export async function switchCompany(context: Online, input: { companyId: number }): Promise<Session> {
  const body = check(switchCompanyBody, { company_id: input.companyId });
  const current = await context.client.session.get();
  if (!current) throw new ApiError(cm.switchFailed, 401);
  const answer = await online<z.infer<typeof switchCompanyAnswer>>(
    context,
    { method: 'POST', path: '/consultants/switch_company', body, headers: { Authorization: `Bearer ${current.refresh_token}` }, skipRefresh: true },
    cm.switchFailed,
  );
  const session: Session = { access_token: answer.access_token, refresh_token: answer.refresh_token, user_id: answer.user_id, user_role: answer.user_role, company_id: answer.company_id };
  await context.client.session.set(session);
  return session;
}
