/**
 * Outside consultants (issue 18; server/domains/consultants/routes.ts says what each call does): the
 * Admin's invitation, list and revocation, the consultant's acceptance, companies and switch. Requests
 * and answers, each shape once.
 */
import { z } from 'zod';
import { CONSULTANT_MAX_DAYS, CONSULTANT_STATUSES, consultantMessages as m } from '../messages/consultants';
import { sessionMessages as sm } from '../messages/session';
import { MIN_PASSWORD_LENGTH, issuedSession } from './session';
import { answer, timestamp } from './answers';
import { formBody, optionalId, optionalText, requiredEmail, requiredId, requiredText } from './fields';

const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);
const DAY_MS = 86_400_000;

/** The end of a grant of `days` days from `now`. */
export const grantEnd = (days: number, now = Date.now()) => new Date(now + days * DAY_MS);

/** Whether a moment is after now and within the longest period a grant may have. */
export const isGrantEnd = (moment: string, now = Date.now()) => {
  const at = new Date(moment).getTime();
  return Number.isFinite(at) && at > now && at <= now + CONSULTANT_MAX_DAYS * DAY_MS;
};

/**
 * POST /consultants/invite (Admins): the consultant's address and the period, as a number of days from
 * now or the moment it ends (`expires_at`, ISO 8601 with its offset); `company_id` defaults to the caller's.
 */
export const inviteConsultantBody = z.preprocess(
  (value) => value ?? {},
  z
    .object({
      company_id: optionalId(),
      email: requiredEmail(m.emailRequired, m.emailInvalid),
      days: z.preprocess(blankToUndefined, z.coerce.number({ error: m.daysInvalid }).int({ error: m.daysInvalid }).min(1, { error: m.daysInvalid }).max(CONSULTANT_MAX_DAYS, { error: m.daysInvalid }).optional()),
      expires_at: z.preprocess(blankToUndefined, z.iso.datetime({ offset: true, error: m.expiresAtInvalid }).refine((value) => isGrantEnd(value), { error: m.expiresAtInvalid }).optional()),
    })
    .refine((body) => body.days !== undefined || body.expires_at !== undefined, { error: m.periodRequired }),
);

export const consultantsQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const revokeConsultantBody = formBody({ company_id: optionalId(), access_id: requiredId(m.accessIdRequired) });

/** GET /consultants/invitation (public): what an invitation link is for, before accepting it. */
export const consultantInvitationQuery = z.object({ invite_token: requiredText(m.inviteTokenRequired, 200) });

/**
 * POST /consultants/accept (public): the link's token; a consultant without an account also gives a
 * name and a password (checked by the handler, which alone knows whether the address has an account).
 */
export const acceptConsultantBody = formBody({
  invite_token: requiredText(m.inviteTokenRequired, 200),
  first_name: optionalText(100),
  last_name: optionalText(100),
  password: z.preprocess(
    (value) => (value === null || value === '' ? undefined : value),
    z.string({ error: sm.passwordTooShort }).min(MIN_PASSWORD_LENGTH, { error: sm.passwordTooShort }).max(1024, { error: sm.passwordTooShort }).optional(),
  ),
});

/** POST /consultants/switch_company (the session's refresh token as the bearer credential). */
export const switchCompanyBody = formBody({ company_id: requiredId(m.companyIdRequired) });

// ——— Answers ———

/** A grant as the Admin's list shows it: never its token or the token's hash. */
export const consultantAccessRecord = z.object({
  access_id: z.number().int(),
  email: z.string(),
  /** The consultant's name once they accepted (null before). */
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  status: z.enum(CONSULTANT_STATUSES),
  invited_by: z.number().int(),
  invited_at: timestamp,
  expires_at: timestamp,
  accepted_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});

export type ConsultantAccessRecord = z.infer<typeof consultantAccessRecord>;

/** A company a consultant may read now. `current`: the one their session acts in. */
export const consultantCompanyRecord = z.object({
  company_id: z.number().int(),
  company_name: z.string(),
  expires_at: timestamp,
  current: z.boolean(),
});

export type ConsultantCompanyRecord = z.infer<typeof consultantCompanyRecord>;

export const consultantsAnswer = answer({ consultants: z.array(consultantAccessRecord) });
export const consultantAccessAnswer = answer({ access: consultantAccessRecord });
export const consultantInvitationAnswer = answer({ company_name: z.string(), email: z.string(), expires_at: timestamp, has_account: z.boolean() });
export const acceptConsultantAnswer = answer({ user_id: z.number().int(), company_id: z.number().int(), email: z.string() });
export const myCompaniesAnswer = answer({ companies: z.array(consultantCompanyRecord) });
/** A switch answers a whole session, as a sign-in does, for the company switched to. */
export const switchCompanyAnswer = answer(issuedSession.shape);
