/**
 * The session calls of spec part 1 §3, §4, §5 and §7: those that open it (login, sign-up), end it
 * (logout) and recover a password. All of them need the server's answer now, so none is queued in the
 * outbox; the token refresh itself lives in the client (client.ts), and where the session is kept in
 * session-store.ts.
 */
import { sessionClientMessages as cm } from '../../common/messages/session';
import { isRole } from '../../common/roles';
import type { z } from 'zod';
import type { doneAnswer } from '../../common/schemas/answers';
import { type createNewUserAnswer, loginBody, passwordResetRequestBody, resetPasswordBody, resetPasswordQuery, signUpBody } from '../../common/schemas/session';
import type { Session } from './client';
import { type ApiContext, ApiError, check, online, formData } from './context';

type Online = Pick<ApiContext, 'client'>;

/**
 * POST /login (spec part 1 §4, §7): multipart email and password, online. The answer must carry both
 * tokens (else 'Invalid API response format.'); the session is stored (and isLoggedIn set) at once.
 * A wrong password fails with the server's 'Invalid email or password.'.
 */
export async function login(context: Online, input: { email: string; password: string }): Promise<Session> {
  const values = check(loginBody, { email: input.email, password: input.password });
  // A 401 here is a wrong password, not an expired token: no refresh.
  const answer = await online<Partial<Session> | null>(context, { method: 'POST', path: '/login', body: formData(values), skipRefresh: true }, cm.loginFailed);
  const { access_token, refresh_token, user_id, user_role, company_id } = answer ?? {};
  if (typeof access_token !== 'string' || !access_token || typeof refresh_token !== 'string' || !refresh_token || typeof user_id !== 'number' || typeof company_id !== 'number' || !isRole(user_role)) {
    throw new ApiError(cm.invalidResponse);
  }
  const session: Session = { access_token, refresh_token, user_id, user_role, company_id };
  await context.client.session.set(session);
  return session;
}

/**
 * POST /logout with the refresh token as the bearer credential (it ends that sign-in's refresh tokens
 * on the server), then clears all five items and the isLoggedIn flag (spec part 1 §4). The device's
 * session ends even when the server cannot be reached: that failure is only warned about.
 *
 * WARNING: the outbox is not touched. Entries still waiting are sent after the next sign-in, with that
 * user's token; the screen that offers logout should show the pending count first.
 */
export async function logout(context: Online): Promise<void> {
  try {
    const current = await context.client.session.get();
    if (current) await endSession(context, current);
  } finally {
    await context.client.session.clear();
  }
}

/**
 * POST /logout for `ended`, a session this tablet no longer holds (a kiosk user replaced by another's
 * password sign-in): its refresh tokens end on the server. An unreachable server is only warned about.
 */
export async function endSession(context: Online, ended: Session): Promise<void> {
  try {
    if (ended.refresh_token) {
      await online(context, { method: 'POST', path: '/logout', headers: { Authorization: `Bearer ${ended.refresh_token}` }, skipRefresh: true }, cm.logoutFailed);
    }
  } catch (error) {
    console.warn(cm.logoutFailed, error);
  }
}

/**
 * POST /Create_new_user (spec part 1 §3, §7): sign-up by invitation, multipart first_name, last_name,
 * email, password, invite_token. Returns the answer body (`user_id`, `company_id`, `user_role`,
 * `message`); the new user then signs in.
 */
export async function createNewUser(context: Online, input: { firstName: string; lastName: string; email: string; password: string; inviteToken: string }) {
  const values = check(signUpBody, { first_name: input.firstName, last_name: input.lastName, email: input.email, password: input.password, invite_token: input.inviteToken });
  return online<z.infer<typeof createNewUserAnswer>>(
    context,
    { method: 'POST', path: '/Create_new_user', body: formData(values) },
    cm.signUpFailed,
  );
}

/** POST /request_password_reset (spec part 1 §7): multipart email. The answer is the same whether or not the address has an account. */
export async function requestPasswordReset(context: Online, input: { email: string }) {
  const values = check(passwordResetRequestBody, { email: input.email });
  return online<z.infer<typeof doneAnswer>>(context, { method: 'POST', path: '/request_password_reset', body: formData(values) }, cm.resetRequestFailed);
}

/** POST /reset_password (spec part 1 §7): the token from the /NewPassword link as query `token`, multipart new_password. */
export async function resetPassword(context: Online, input: { token: string; newPassword: string }) {
  const { token } = check(resetPasswordQuery, { token: input.token });
  const { new_password } = check(resetPasswordBody, { new_password: input.newPassword });
  return online<z.infer<typeof doneAnswer>>(
    context,
    { method: 'POST', path: '/reset_password', query: { token }, body: formData({ new_password }) },
    cm.resetFailed,
  );
}
