/** Users of a company, invitations, and each user's own threshold and location (spec part 1 §3, §7). */
import { auditTitles } from '../../../common/messages/audit-titles';
import { sessionMessages as m } from '../../../common/messages/session';
import {
  createInvitationBody,
  deleteInvitationQuery,
  loadUsersQuery,
  pendingInvitationsQuery,
  thresholdBody,
  thresholdQuery,
  updateLocationBody,
} from '../../../common/schemas/session';
import { doneAnswer } from '../../../common/schemas/answers';
import {
  createInvitationAnswer,
  loadUsersAnswer,
  locationAnswer,
  pendingInvitationsAnswer,
  setThresholdAnswer,
  thresholdAnswer,
} from '../../../common/schemas/users';
import { writer } from '../../db/writes';
import { conflict } from '../../http/errors';
import { actingCompany, assertCaller, caller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { companyWords } from '../../notifications/words';
import { actorOfRequest, recordAudit } from '../audit/record';
import { authQueries } from '../auth/queries';
import { INVITATION_DAYS } from '../auth/tokens';
import { teamFor } from '../consultants/team';
import { pendingInvitationJson, userJson, userQueries } from './queries';

const createInvitationSchema = { body: createInvitationBody, response: { 200: createInvitationAnswer } };
const pendingSchema = { querystring: pendingInvitationsQuery, response: { 200: pendingInvitationsAnswer } };
const deleteInvitationSchema = { querystring: deleteInvitationQuery, response: { 200: doneAnswer } };
const loadUsersSchema = { querystring: loadUsersQuery, response: { 200: loadUsersAnswer } };
const getThresholdSchema = { querystring: thresholdQuery, response: { 200: thresholdAnswer } };
const setThresholdSchema = { body: thresholdBody, response: { 200: setThresholdAnswer } };
const locationSchema = { body: updateLocationBody, response: { 200: locationAnswer } };

async function createInvitation(request: RequestOf<typeof createInvitationSchema>) {
  const auth = caller(request);
  const companyId = actingCompany(request, request.body.company_id);
  const { email, role } = request.body;
  if (await userQueries.emailTaken(request.db, email)) throw conflict(m.emailTaken);
  const invitation = await userQueries.createInvitation(request.db, { companyId, email, role, createdBy: auth.user_id, days: INVITATION_DAYS });
  await recordAudit(request.db, actorOfRequest(request, companyId), { title: auditTitles.invited[role](email), details: { invitation_id: invitation.id } });
  const { mailer, config } = request.server.deps;
  const link = `${config.publicUrl}/signUp?invite_token=${encodeURIComponent(invitation.token)}`;
  const said = (await companyWords(request.db, companyId)).notice.invitation;
  request.afterCommit(() =>
    mailer.send({
      to: email,
      subject: said.subject,
      text: `${role === 'Admin' ? said.asAdmin : said.asRegular}\n\n${said.createAccount(INVITATION_DAYS)}\n${link}\n`,
    }),
  );
  return success({ invite_token: invitation.token, invitation_id: invitation.id }, m.invitationCreated);
}

async function pendingInvitations(request: RequestOf<typeof pendingSchema>) {
  const invitations = await userQueries.pendingInvitations(request.db, request.query.company_id);
  return success({ invitations: invitations.map(pendingInvitationJson) });
}

async function deleteInvitation(request: RequestOf<typeof deleteInvitationSchema>) {
  const deleted = await userQueries.deleteInvitation(request.db, request.query.invitation_id);
  if (deleted) await recordAudit(request.db, actorOfRequest(request, deleted.company_id), { title: auditTitles.withdrewInvitation(deleted.email) });
  return success({}, m.invitationDeleted);
}

async function loadUsers(request: RequestOf<typeof loadUsersSchema>) {
  const users = await userQueries.byCompany(request.db, [request.query.company_id], request.query.user_id);
  return success({ users: teamFor(request, users.map(userJson)) });
}

async function getThreshold(request: RequestOf<typeof getThresholdSchema>) {
  assertCaller(request, request.query.user_id);
  const user = await authQueries.activeUserById(request.db, request.query.user_id);
  return success({ threshold: user?.threshold ?? null });
}

async function setThreshold(request: RequestOf<typeof setThresholdSchema>) {
  const auth = caller(request);
  assertCaller(request, request.body.user_id);
  const actor = actorOfRequest(request);
  await writer(request.db, actor).update('users', auth.user_id, { threshold: request.body.threshold });
  await writer(request.db, actor).touch('companies', auth.company_id);
  await recordAudit(request.db, actor, { title: auditTitles.setThreshold(request.body.threshold) });
  return success({ threshold: request.body.threshold }, m.thresholdUpdated);
}

async function updateLocation(request: RequestOf<typeof locationSchema>) {
  const auth = caller(request);
  assertCaller(request, request.body.user_id);
  const actor = actorOfRequest(request);
  await writer(request.db, actor).update('users', auth.user_id, { location: request.body.location });
  await writer(request.db, actor).touch('companies', auth.company_id);
  await recordAudit(request.db, actor, { title: auditTitles.updatedLocation });
  return success({ location: request.body.location }, m.locationUpdated);
}

export async function userRoutes(app: App) {
  app.post('/create_invitation', { schema: createInvitationSchema, config: { access: 'admin' } }, createInvitation);
  app.get('/pending_invitations', { schema: pendingSchema, config: { access: 'admin' } }, pendingInvitations);
  app.delete('/delete_invitation', { schema: deleteInvitationSchema, config: { access: 'admin' } }, deleteInvitation);
  app.get('/load_users', { schema: loadUsersSchema }, loadUsers);
  app.get('/threshold', { schema: getThresholdSchema }, getThreshold);
  app.post('/threshold', { schema: setThresholdSchema }, setThreshold);
  app.put('/update_location', { schema: locationSchema }, updateLocation);
}
