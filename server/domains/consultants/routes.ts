/**
 * Outside consultants (issue 18 "Consultants"): an Admin invites an IPM advisor or an agronomist by email
 * to read the company's data, read-only, for a period, revocable at any time; the consultant may comment.
 * One consultant account serves several companies and switches between them. The spec names only the
 * `consultants` screen; what follows is decided here (README "Roles" says the same in short).
 *
 * Who a consultant is
 * - A user account of its own, role `Consultant` (common/roles.ts; not an invitable company role), that
 *   belongs to no company: `users.company_id` is null for a consultant and only for one (migration 0024
 *   made the column nullable with a CHECK tying it to the role). That is the least invasive way: every
 *   query of a company's users (the company document, load_users, task assignees by name) finds
 *   members by company_id, so none of them ever lists a consultant, and the tenancy guard finds a
 *   consultant's user id in no company, so a member naming one (an assignee) gets 403. Pretending a
 *   consultant belongs to the first company that invited them would have made them that company's
 *   member everywhere; a shadow company would have shown in the platform's list of companies.
 * - Access comes from grants (`consultant_access`): company, email, the consultant once accepted,
 *   invited_by, expires_at, revoked_at/revoked_by, accepted_at, last_used_at, created_at. A grant is
 *   invited (mailed, not accepted), active, expired (past expires_at) or revoked; all are kept and listed.
 *
 * The Admin's calls (Admins of the company; SuperAdmin for any; another company's ids answer 403)
 * - POST /consultants/invite {company_id?, email, days | expires_at}: mails an invitation link
 *   (`/consultantInvite?invite_token=…`, the token style of user invitations: 256 random bits, only its
 *   hash kept, never answered to the Admin), through the same mailer after the commit. The link works
 *   for 7 days and while the grant is live. An address of a company's user is refused (409): a
 *   consultant needs an address of their own, and one account cannot be both. An address with an active
 *   grant here is refused (409: revoke it first); an earlier invitation not yet accepted is replaced.
 * - GET /consultants?company_id: every grant with its status, dates and the consultant's name.
 * - POST /consultants/revoke {company_id?, access_id}: revoked at once (409 when it already was).
 *
 * The consultant's calls
 * - GET /consultants/invitation?invite_token (public): which company invites whom, until when, and
 *   whether the address already has an account. POST /consultants/accept {invite_token, first_name,
 *   last_name, password}: without an account, makes one (the name and password are then required);
 *   with one, the grant joins it (the link, mailed to that address, is the proof).
 * - Sign-in is the usual POST /login. The access token's company_id is the company they act in now: a
 *   sign-in takes the last used active grant (the first accepted when none was used), a refresh keeps
 *   the session's (kept on the refresh token), and a consultant without any active grant cannot sign in (403).
 * - GET /consultants/my_companies: their active grants (`current`: the token's company).
 * - POST /consultants/switch_company {company_id}: with the session's refresh token as the bearer
 *   credential, as /refresh_token: it rotates that token within its family and answers a whole new
 *   session for that company, if its grant is active (else 403). By the refresh token because a switch is
 *   a session's change (the old token must stop, not live on beside the new one), and because the
 *   tenancy guard rightly refuses a member's request naming another company's company_id.
 *
 * What a consultant may do (server/http/guards.ts, the one mechanism)
 * - Every request of a consultant is checked in the guard against the grant of the token's company being
 *   active at this moment (accepted, not revoked, not past its end), one indexed lookup per request:
 *   otherwise 403 at once, whatever the token says (tokens live 15 minutes; revocation does not wait for
 *   them). Their own session calls (`config.consultant: 'account'`) need no grant, so a consultant whose
 *   access ended can still list and switch to the others.
 * - They read: GET routes, the sync pull and read-back (so the tablet's screens work from its local
 *   store as for anyone), and the few POST routes that only read (`config.consultant: 'read'`). They
 *   comment: the comment routes (`config.consultant: 'comment'`), their own comments only (as Regular
 *   users: only the author edits; the author or an Admin deletes). Every other route answers 403 (default
 *   deny, so a route added later is safe), pushed entries included: each is guarded as its own request.
 *   Admin-only routes stay Admin-only.
 * - They see the team's names and roles, not its email addresses (the company document's users and
 *   load_users answer them with an empty email): the addresses are the team's, not an outsider's.
 *   Cameras' addresses (which may carry credentials) are shown to Admins only.
 */
import type { FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { CONSULTANT_INVITATION_DAYS, consultantMessages as m } from '../../../common/messages/consultants';
import { sessionMessages as sm } from '../../../common/messages/session';
import {
  acceptConsultantAnswer,
  acceptConsultantBody,
  consultantAccessAnswer,
  consultantInvitationAnswer,
  consultantInvitationQuery,
  consultantsAnswer,
  consultantsQuery,
  grantEnd,
  inviteConsultantBody,
  myCompaniesAnswer,
  revokeConsultantBody,
  switchCompanyAnswer,
  switchCompanyBody,
} from '../../../common/schemas/consultants';
import { writer } from '../../db/writes';
import { badRequest, conflict, conflictOnUnique, forbidden, notFound, unauthorized } from '../../http/errors';
import { actingCompany, bearerToken, caller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { companyWords } from '../../notifications/words';
import { actorOfRequest, recordAudit } from '../audit/record';
import { hashPassword } from '../auth/passwords';
import { authQueries } from '../auth/queries';
import { hashToken } from '../auth/tokens';
import { companyQueries } from '../companies/queries';
import { type ConsultantAccess, consultantAccessJson, consultantQueries as q, statusOf } from './queries';

const inviteSchema = { body: inviteConsultantBody, response: { 200: consultantAccessAnswer } };
const listSchema = { querystring: consultantsQuery, response: { 200: consultantsAnswer } };
const revokeSchema = { body: revokeConsultantBody, response: { 200: consultantAccessAnswer } };
const invitationSchema = { querystring: consultantInvitationQuery, response: { 200: consultantInvitationAnswer } };
const acceptSchema = { body: acceptConsultantBody, response: { 200: acceptConsultantAnswer } };
const myCompaniesSchema = { response: { 200: myCompaniesAnswer } };
const switchSchema = { body: switchCompanyBody, response: { 200: switchCompanyAnswer } };

/** A moment as mail and messages say it, the same on every server: `2026-05-01 14:00 UTC`. */
const momentText = (moment: Date | string) => `${new Date(moment).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const INVITATION_MS = CONSULTANT_INVITATION_DAYS * 86_400_000;

/** Why an invitation link cannot be used now, or null: unknown, accepted, withdrawn, past its grant's end or its own 7 days. */
function linkRefusal(access: ConsultantAccess | undefined): string | null {
  if (!access) return m.inviteInvalid;
  if (access.accepted_at !== null) return m.inviteUsed;
  const status = statusOf(access);
  if (status !== 'invited' || Date.now() - new Date(access.created_at).getTime() > INVITATION_MS) return m.inviteExpired;
  return null;
}

/** The consultant's account of an address, or null; an address of a company's user is refused (409). */
async function consultantOfEmail(request: FastifyRequest, email: string) {
  const user = await authQueries.activeUserByEmail(request.db, email);
  if (user && user.role !== 'Consultant') throw conflict(m.emailIsMember);
  return user ?? null;
}

async function invite(request: RequestOf<typeof inviteSchema>) {
  const auth = caller(request);
  const companyId = actingCompany(request, request.body.company_id);
  const { email, days, expires_at } = request.body;
  const account = await consultantOfEmail(request, email);
  const live = await q.liveOfEmail(request.db, companyId, email);
  const active = live.find((access) => access.accepted_at !== null);
  if (active) throw conflict(m.alreadyActive(momentText(active.expires_at)));
  // An invitation not yet accepted is replaced by the new one (its link stops working).
  for (const pending of live) await q.revoke(request.db, pending.id, auth.user_id);
  const expiresAt = expires_at !== undefined ? new Date(expires_at) : grantEnd(days ?? 0);
  const { access, token } = await q.invite(request.db, { companyId, email, invitedBy: auth.user_id, expiresAt });
  const company = await companyQueries.existing(request.db, companyId);
  await recordAudit(request.db, actorOfRequest(request, companyId), {
    title: auditTitles.invitedConsultant(email, momentText(expiresAt)),
    details: { consultant_access_id: access.id },
  });
  const { mailer, config } = request.server.deps;
  const link = `${config.publicUrl}/consultantInvite?invite_token=${encodeURIComponent(token)}`;
  const said = (await companyWords(request.db, companyId)).notice.consultant;
  const how = account ? said.accept(CONSULTANT_INVITATION_DAYS) : said.createAccount(CONSULTANT_INVITATION_DAYS);
  request.afterCommit(() =>
    mailer.send({
      to: email,
      subject: said.subject(company.name),
      text: `${said.access(company.name, momentText(expiresAt))}\n\n${how}\n${link}\n`,
    }),
  );
  return success({ access: consultantAccessJson({ ...access, first_name: null, last_name: null }) }, m.invited);
}

async function listConsultants(request: RequestOf<typeof listSchema>) {
  const grants = await q.ofCompany(request.db, request.query.company_id);
  return success({ consultants: grants.map(consultantAccessJson) });
}

async function revoke(request: RequestOf<typeof revokeSchema>) {
  const auth = caller(request);
  // The guard proved the grant the caller's company's; a SuperAdmin naming a company must name its own grant.
  const access = await q.byId(request.db, request.body.access_id);
  const named = request.body.company_id;
  if (!access || (named !== undefined && access.company_id !== named)) throw notFound(`No record found for consultant_access ${request.body.access_id}.`);
  if (!(await q.revoke(request.db, access.id, auth.user_id))) throw conflict(m.alreadyRevoked);
  await recordAudit(request.db, actorOfRequest(request, access.company_id), { title: auditTitles.revokedConsultant(access.email), details: { consultant_access_id: access.id } });
  const revoked = await q.byId(request.db, access.id);
  if (!revoked) throw notFound();
  return success({ access: consultantAccessJson(revoked) }, m.revoked);
}

async function invitation(request: RequestOf<typeof invitationSchema>) {
  const access = await q.byToken(request.db, request.query.invite_token);
  const refusal = linkRefusal(access);
  if (refusal || !access) throw badRequest(refusal ?? m.inviteInvalid);
  const company = await companyQueries.existing(request.db, access.company_id);
  const account = await consultantOfEmail(request, access.email);
  return success({ company_name: company.name, email: access.email, expires_at: new Date(access.expires_at).toISOString(), has_account: account !== null });
}

async function accept(request: RequestOf<typeof acceptSchema>) {
  const { invite_token, first_name, last_name, password } = request.body;
  const access = await q.byTokenForUpdate(request.db, invite_token);
  const refusal = linkRefusal(access);
  if (refusal || !access) throw badRequest(refusal ?? m.inviteInvalid);
  let consultant = await consultantOfEmail(request, access.email);
  if (!consultant) {
    if (!first_name || !last_name || !password) throw badRequest(m.nameAndPasswordRequired);
    // The inviting Admin is the account's maker; it belongs to no company (company_id null).
    const { id } = await writer(request.db, { userId: access.invited_by, companyId: access.company_id })
      .insert('users', {
        company_id: null,
        email: access.email.toLowerCase(),
        first_name,
        last_name,
        role: 'Consultant',
        password_hash: await hashPassword(password),
        threshold: null,
        location: null,
      })
      .catch(conflictOnUnique('users_email', sm.emailTaken));
    consultant = (await authQueries.activeUserById(request.db, id)) ?? null;
    if (!consultant) throw new Error(`The consultant account ${id} just made is missing`);
  }
  await q.accept(request.db, access.id, consultant.id);
  await recordAudit(request.db, { userId: consultant.id, companyId: access.company_id }, {
    title: auditTitles.consultantAccepted(consultant.first_name, consultant.last_name),
    details: { consultant_access_id: access.id },
  });
  const company = await companyQueries.existing(request.db, access.company_id);
  return success({ user_id: consultant.id, company_id: access.company_id, email: consultant.email }, m.accepted(company.name));
}

async function myCompanies(request: FastifyRequest) {
  const auth = caller(request);
  const grants = await q.activeGrantsOf(request.db, auth.user_id);
  const companies = grants
    .map((grant) => ({ company_id: grant.company_id, company_name: grant.company_name, expires_at: new Date(grant.expires_at).toISOString(), current: grant.company_id === auth.company_id }))
    .sort((a, b) => a.company_name.localeCompare(b.company_name) || a.company_id - b.company_id);
  return success({ companies });
}

/** Rotates the session's refresh token (the bearer credential) into a session of another company with an active grant. */
async function switchCompany(request: RequestOf<typeof switchSchema>) {
  const presented = bearerToken(request);
  if (!presented) throw unauthorized(sm.refreshTokenMissing);
  const row = await authQueries.refreshTokenForUpdate(request.db, presented);
  // Only the session's latest token: a replaced one (another tab refreshed) is for /refresh_token to judge.
  if (!row || row.revoked_at || row.replaced_at) throw unauthorized(sm.refreshTokenInvalid);
  if (new Date(row.expires_at) <= new Date()) throw unauthorized(sm.refreshTokenExpired);
  const user = await authQueries.activeUserById(request.db, row.user_id);
  if (!user) throw unauthorized(sm.refreshTokenInvalid);
  if (user.role !== 'Consultant') throw forbidden(m.onlyConsultants);
  const { company_id } = request.body;
  const grant = await q.activeGrant(request.db, user.id, company_id);
  if (!grant) throw forbidden(m.noAccessThere);
  await authQueries.markReplaced(request.db, row.id);
  const refresh_token = await authQueries.createRefreshToken(request.db, user.id, row.family_id, company_id);
  await q.markUsed(request.db, grant.id);
  const claims = { user_id: user.id, user_role: 'Consultant' as const, company_id };
  const access_token = await request.server.deps.tokens.signAccess(claims);
  const company = await companyQueries.existing(request.db, company_id);
  return success({ access_token, refresh_token, ...claims }, m.switched(company.name));
}

export async function consultantRoutes(app: App) {
  const { loginRateLimitPerMinute } = app.deps.config;
  // As sign-in's: per address and what is presented (a link's or a session's token), counted after the body is read.
  const presented = (request: FastifyRequest) => bearerToken(request) ?? String((request.body as { invite_token?: unknown } | undefined)?.invite_token ?? (request.query as { invite_token?: unknown } | undefined)?.invite_token ?? '');
  const perToken = (request: FastifyRequest) => `${request.ip}|${hashToken(presented(request)).slice(0, 16)}`;
  const sessionLimit = { max: loginRateLimitPerMinute, timeWindow: '1 minute', hook: 'preHandler' as const, keyGenerator: perToken };
  app.post('/consultants/invite', { schema: inviteSchema, config: { access: 'admin' } }, invite);
  app.get('/consultants', { schema: listSchema, config: { access: 'admin' } }, listConsultants);
  app.post('/consultants/revoke', { schema: revokeSchema, config: { access: 'admin' } }, revoke);
  app.get('/consultants/invitation', { schema: invitationSchema, config: { access: 'public', rateLimit: sessionLimit } }, invitation);
  app.post('/consultants/accept', { schema: acceptSchema, config: { access: 'public', rateLimit: sessionLimit } }, accept);
  app.get('/consultants/my_companies', { schema: myCompaniesSchema, config: { access: 'consultant', consultant: 'account' } }, myCompanies);
  app.post('/consultants/switch_company', { schema: switchSchema, config: { access: 'public', rateLimit: sessionLimit } }, switchCompany);
}
