/**
 * Sessions (spec part 1 §4, §7): sign-in, token refresh, sign-out, sign-up by invitation and password
 * reset. These are the public routes; everything else needs an access token.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { sessionMessages as m } from '../../../common/messages/session';
import type { INVITABLE_ROLES } from '../../../common/roles';
import { doneAnswer, errorAnswer } from '../../../common/schemas/answers';
import {
  createNewUserAnswer,
  loginAnswer,
  loginBody,
  passwordResetRequestBody,
  refreshTokenAnswer,
  resetPasswordBody,
  resetPasswordQuery,
  signUpBody,
} from '../../../common/schemas/session';
import type { User } from '../../db/schema';
import { writer } from '../../db/writes';
import { badRequest, conflict, conflictOnUnique, unauthorized } from '../../http/errors';
import { bearerToken } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { companyWords } from '../../notifications/words';
import { actorOf, recordAudit } from '../audit/record';
import { sessionCompanyOf } from '../consultants/sessions';
import { hashPassword, verifyPassword } from './passwords';
import { authQueries } from './queries';
import { PASSWORD_RESET_MINUTES, REFRESH_GRACE_SECONDS, hashToken } from './tokens';

const loginSchema = { body: loginBody, response: { 200: loginAnswer } };
/** A reused refresh token is answered (not thrown) with the error envelope: see refreshToken. */
const refreshSchema = { response: { 200: refreshTokenAnswer, 401: errorAnswer } };
const logoutSchema = { response: { 200: doneAnswer } };
const signUpSchema = { body: signUpBody, response: { 200: createNewUserAnswer } };
const resetRequestSchema = { body: passwordResetRequestBody, response: { 200: doneAnswer } };
const resetSchema = { querystring: resetPasswordQuery, body: resetPasswordBody, response: { 200: doneAnswer } };

/**
 * A session of `user`: in a sign-in's new family, or a refresh's (`familyId`, keeping the `company` its
 * token acted in). A consultant's company comes from their grants (consultants/sessions.ts) and is kept
 * on the refresh token; a member's is their own.
 */
async function issueSession(request: FastifyRequest, user: User, familyId?: string, company?: number | null) {
  const company_id = await sessionCompanyOf(request.db, user, company);
  const refresh_token = await authQueries.createRefreshToken(request.db, user.id, familyId, user.role === 'Consultant' ? company_id : null);
  const claims = { user_id: user.id, user_role: user.role, company_id };
  const access_token = await request.server.deps.tokens.signAccess(claims);
  return { access_token, refresh_token, ...claims };
}

async function login(request: RequestOf<typeof loginSchema>) {
  const user = await authQueries.activeUserByEmail(request.db, request.body.email);
  const valid = await verifyPassword(user?.password_hash, request.body.password);
  if (!user || !valid) throw unauthorized(m.invalidCredentials);
  return success(await issueSession(request, user));
}

/**
 * Rotates a refresh token (sent as the bearer credential). The token just replaced keeps working for
 * REFRESH_GRACE_SECONDS, so two tabs refreshing at once both stay signed in; a reuse after that is
 * treated as theft and ends the whole family (every device session descended from that sign-in).
 */
async function refreshToken(request: FastifyRequest, reply: FastifyReply) {
  const presented = bearerToken(request);
  if (!presented) throw unauthorized(m.refreshTokenMissing);
  const row = await authQueries.refreshTokenForUpdate(request.db, presented);
  if (!row || row.revoked_at) throw unauthorized(m.refreshTokenInvalid);
  if (new Date(row.expires_at) <= new Date()) throw unauthorized(m.refreshTokenExpired);
  if (row.replaced_at && Date.now() - new Date(row.replaced_at).getTime() > REFRESH_GRACE_SECONDS * 1000) {
    await authQueries.revokeFamily(request.db, row.family_id);
    // Answered, not thrown: a thrown error would roll the revocation back. Returned, not sent: the
    // transaction wrapper commits the revocation before the answer leaves.
    reply.code(401);
    return { status: 'error' as const, message: m.refreshTokenReused };
  }
  const user = await authQueries.activeUserById(request.db, row.user_id);
  if (!user) throw unauthorized(m.refreshTokenInvalid);
  await authQueries.markReplaced(request.db, row.id);
  const session = await issueSession(request, user, row.family_id, row.company_id);
  return success({ access_token: session.access_token, refresh_token: session.refresh_token });
}

/** Ends this device's session: the refresh token (bearer credential) and its family. Always succeeds. */
async function logout(request: FastifyRequest) {
  const presented = bearerToken(request);
  const row = presented ? await authQueries.refreshTokenForUpdate(request.db, presented) : undefined;
  if (row) await authQueries.revokeFamily(request.db, row.family_id);
  return success({}, m.loggedOut);
}

async function createNewUser(request: RequestOf<typeof signUpSchema>) {
  const { first_name, last_name, email, password, invite_token } = request.body;
  const invitation = await authQueries.invitationForUpdate(request.db, invite_token);
  if (!invitation || invitation.deleted_at) throw badRequest(m.inviteInvalid);
  if (invitation.accepted_at) throw badRequest(m.inviteUsed);
  if (new Date(invitation.expires_at) <= new Date()) throw badRequest(m.inviteExpired);
  if (invitation.email.toLowerCase() !== email) throw badRequest(m.inviteEmailMismatch);
  if (await authQueries.activeUserByEmail(request.db, email)) throw conflict(m.emailTaken);

  const inviter = { userId: invitation.created_by, companyId: invitation.company_id };
  // Two sign-ups for one address at once (invitations of two companies): the unique index decides.
  const { id } = await writer(request.db, inviter).insert('users', {
    company_id: invitation.company_id,
    email,
    first_name,
    last_name,
    role: invitation.role,
    password_hash: await hashPassword(password),
    threshold: null,
    location: null,
  }).catch(conflictOnUnique('users_email', m.emailTaken));
  await writer(request.db, inviter).touch('companies', invitation.company_id);
  await request.db.updateTable('invitations').set({ accepted_at: new Date() }).where('id', '=', invitation.id).execute();
  // The invitations table's CHECK allows only the invitable roles.
  const user_role = invitation.role as (typeof INVITABLE_ROLES)[number];
  await recordAudit(request.db, { userId: id, companyId: invitation.company_id }, {
    title: auditTitles.joined[user_role](first_name, last_name),
    details: { invitation_id: invitation.id },
  });
  return success({ user_id: id, company_id: invitation.company_id, user_role }, m.userCreated);
}

/** Always the same answer, whether or not the email has an account (no account enumeration). */
async function requestPasswordReset(request: RequestOf<typeof resetRequestSchema>) {
  const user = await authQueries.activeUserByEmail(request.db, request.body.email);
  if (user) {
    const token = await authQueries.createPasswordReset(request.db, user.id, PASSWORD_RESET_MINUTES);
    const { mailer, config } = request.server.deps;
    const link = `${config.publicUrl}/NewPassword?token=${encodeURIComponent(token)}`;
    // In the language of the member's company; a consultant's, of no company, in English.
    const said = (await companyWords(request.db, user.company_id)).notice.passwordReset;
    request.afterCommit(() =>
      mailer.send({
        to: user.email,
        subject: said.subject,
        text: `${said.hello(user.first_name)}\n\n${said.setNew}\n${link}\n\n${said.notYou}`,
      }),
    );
  }
  return success({}, m.resetRequested);
}

async function resetPassword(request: RequestOf<typeof resetSchema>) {
  const claimed = await authQueries.claimPasswordReset(request.db, request.query.token);
  if (!claimed) throw badRequest(m.resetTokenInvalid);
  const user = await authQueries.activeUserById(request.db, claimed.user_id);
  if (!user) throw badRequest(m.resetTokenInvalid);
  // A consultant belongs to no company (migration 0024): their account's writes name none (0, as the
  // system's company creation does), and no company's trail records their password.
  await writer(request.db, actorOf({ user_id: user.id, company_id: user.company_id ?? 0 })).update('users', user.id, {
    password_hash: await hashPassword(request.body.new_password),
  });
  // A new password ends every session that the old one opened.
  await authQueries.revokeAllOfUser(request.db, user.id);
  await authQueries.expireResetsOfUser(request.db, user.id);
  if (user.company_id !== null) await recordAudit(request.db, { userId: user.id, companyId: user.company_id }, { title: auditTitles.resetPassword });
  return success({}, m.passwordUpdated);
}

export async function authRoutes(app: App) {
  const { loginRateLimitPerMinute, resetRateLimitPerMinute } = app.deps.config;
  // Counted per address and account (after the body is read): a farm's tablets share one address.
  const perAccount = (request: FastifyRequest) => `${request.ip}|${String((request.body as { email?: unknown } | undefined)?.email ?? '')}`;
  const loginLimit = { max: loginRateLimitPerMinute, timeWindow: '1 minute', hook: 'preHandler' as const, keyGenerator: perAccount };
  // Refreshes carry no email: counted per address and token, so each tablet has its own budget (a
  // refresh token is 256 random bits: guessing is not what this limit is for).
  const perToken = (request: FastifyRequest) => `${request.ip}|${hashToken(bearerToken(request) ?? '').slice(0, 16)}`;
  const refreshLimit = { max: loginRateLimitPerMinute, timeWindow: '1 minute', keyGenerator: perToken };
  const resetLimit = { max: resetRateLimitPerMinute, timeWindow: '1 minute', hook: 'preHandler' as const, keyGenerator: perAccount };
  app.post('/login', { schema: loginSchema, config: { access: 'public', rateLimit: loginLimit } }, login);
  app.post('/refresh_token', { schema: refreshSchema, config: { access: 'public', rateLimit: refreshLimit } }, refreshToken);
  app.post('/logout', { schema: logoutSchema, config: { access: 'public' } }, logout);
  app.post('/Create_new_user', { schema: signUpSchema, config: { access: 'public', rateLimit: loginLimit } }, createNewUser);
  app.post('/request_password_reset', { schema: resetRequestSchema, config: { access: 'public', rateLimit: resetLimit } }, requestPasswordReset);
  app.post('/reset_password', { schema: resetSchema, config: { access: 'public', rateLimit: resetLimit } }, resetPassword);
}
