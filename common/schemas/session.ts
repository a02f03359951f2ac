import { z } from 'zod';
import { sessionMessages as m } from '../messages/session';
import { INVITABLE_ROLES, ROLES } from '../roles';
import { answer } from './answers';
import { formBody, optionalId, optionalText, requiredEmail, requiredId, requiredNumber, requiredText } from './fields';

export const MIN_PASSWORD_LENGTH = 8;

const password = z
  .string({ error: m.passwordRequired })
  .min(1, { error: m.passwordRequired })
  .min(MIN_PASSWORD_LENGTH, { error: m.passwordTooShort })
  .max(1024, { error: m.passwordTooShort });

export const loginBody = formBody({
  email: requiredEmail(m.emailRequired, m.emailInvalid),
  // Any stored password is accepted at sign-in; length rules apply when one is chosen.
  password: z.string({ error: m.passwordRequired }).min(1, { error: m.passwordRequired }).max(1024, { error: m.invalidCredentials }),
});

export const signUpBody = formBody({
  first_name: requiredText(m.firstNameRequired, 100),
  last_name: requiredText(m.lastNameRequired, 100),
  email: requiredEmail(m.emailRequired, m.emailInvalid),
  password,
  invite_token: requiredText(m.inviteTokenRequired, 200),
});

export const passwordResetRequestBody = formBody({ email: requiredEmail(m.emailRequired, m.emailInvalid) });
export const resetPasswordQuery = z.object({ token: requiredText(m.resetTokenRequired, 200) });
export const resetPasswordBody = formBody({ new_password: password });

export const createInvitationBody = formBody({
  email: requiredEmail(m.emailRequired, m.emailInvalid),
  role: z.enum(INVITABLE_ROLES, { error: m.roleInvalid }),
  company_id: optionalId(),
});
export const pendingInvitationsQuery = z.object({ company_id: requiredId(m.companyIdRequired) });
export const deleteInvitationQuery = z.object({ invitation_id: requiredId(m.invitationIdRequired) });

export const loadUsersQuery = z.object({ company_id: requiredId(m.companyIdRequired), user_id: optionalId() });
export const thresholdQuery = z.object({ user_id: requiredId(m.userIdRequired) });
export const thresholdBody = formBody({ user_id: requiredId(m.userIdRequired), threshold: requiredNumber(m.thresholdRequired) });
export const updateLocationBody = formBody({ user_id: requiredId(m.locationRequired), location: requiredText(m.locationRequired, 200) });

export const createCompanyBody = formBody({
  company_name: requiredText(m.companyNameRequired, 200),
  contact_name: requiredText(m.contactNameRequired, 200),
  contact_email: requiredEmail(m.contactEmailRequired, m.emailInvalid),
  company_type: optionalText(100),
  contact_phone: optionalText(50),
});
export const companyIdPath = z.object({ id: requiredId(m.companyIdInvalid) });

// ——— Answers ———

/**
 * A session as sign-in opens it (server/domains/auth/routes.ts `issueSession`): both tokens and the
 * access token's claims. The tablet keeps exactly this (src/api/client.ts `Session`).
 */
export const issuedSession = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.number().int(),
  user_role: z.enum(ROLES),
  company_id: z.number().int(),
});

export type IssuedSession = z.infer<typeof issuedSession>;

export const loginAnswer = answer(issuedSession.shape);
/** A refresh rotates both tokens; the claims stay the session's. */
export const refreshTokenAnswer = answer(issuedSession.pick({ access_token: true, refresh_token: true }).shape);
/** Sign-up by invitation: the new user, who then signs in. */
export const createNewUserAnswer = answer({ user_id: z.number().int(), company_id: z.number().int(), user_role: z.enum(INVITABLE_ROLES) });

/** GET /health (public, like the session calls): which database the server runs on, and its version. */
export const healthAnswer = answer({ database: z.enum(['pglite', 'postgres']), version: z.string() });
