/**
 * Messages of outside consultants (issue 18 "Consultants"; the spec names only the `consultants`
 * screen, so these are our own words). The server's answers and the tablet's checks use the same strings.
 */

/** Grant periods the Admin's form offers, in days; the API takes any whole number of days within bounds, or a date. */
export const CONSULTANT_PERIOD_DAYS = [7, 30, 90, 180, 365] as const;
export const CONSULTANT_MAX_DAYS = 366;
/** How long an invitation link works (and never past its grant's end). */
export const CONSULTANT_INVITATION_DAYS = 7;

/** What a grant is now: mailed and not accepted yet, in use, past its end, or withdrawn. */
export const CONSULTANT_STATUSES = ['invited', 'active', 'expired', 'revoked'] as const;
export type ConsultantStatus = (typeof CONSULTANT_STATUSES)[number];

export const consultantMessages = {
  // The guard's refusals (server/http/guards.ts).
  readOnly: 'Consultants have read-only access: they may read and comment, nothing else.',
  accessEnded: 'Your consultant access to this company has ended: it was revoked or it expired.',
  onlyConsultants: 'Only consultants switch between companies.',
  noActiveAccess: 'You have no active consultant access: every company’s access has ended or was revoked.',
  // The Admin's calls.
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  periodRequired: 'Give the period of access: a number of days or the date it ends.',
  daysInvalid: `The period must be a whole number of days from 1 to ${CONSULTANT_MAX_DAYS}.`,
  expiresAtInvalid: `The end of access must be a date and time in the next ${CONSULTANT_MAX_DAYS} days.`,
  companyIdRequired: 'company_id is required.',
  accessIdRequired: 'access_id is required.',
  emailIsMember: 'This address belongs to a user of a company. A consultant needs an address of their own.',
  alreadyActive: (until: string) => `This consultant already has access until ${until}. Revoke it first to give another period.`,
  invited: 'Invitation sent to the consultant.',
  revoked: 'Access revoked.',
  alreadyRevoked: 'This access was already revoked.',
  // The consultant's calls.
  inviteTokenRequired: 'Invitation token is required.',
  inviteInvalid: 'This invitation is not valid.',
  inviteUsed: 'This invitation has already been accepted. Sign in to use it.',
  inviteExpired: 'This invitation has expired or was withdrawn. Ask the company for a new one.',
  nameAndPasswordRequired: 'A new account needs a first name, a last name and a password.',
  accepted: (company: string) => `You now have read-only access to ${company}. Sign in to start.`,
  switched: (company: string) => `You are now reading ${company}.`,
  noAccessThere: 'You have no active consultant access to that company.',
} as const;

/** The tablet's fallbacks when the server gives no message (no answer at all). */
export const consultantClientMessages = {
  listFailed: 'Failed to load the consultants.',
  inviteFailed: 'Failed to invite the consultant.',
  revokeFailed: 'Failed to revoke the access.',
  invitationFailed: 'Failed to read the invitation.',
  acceptFailed: 'Failed to accept the invitation.',
  companiesFailed: 'Failed to load your companies.',
  switchFailed: 'Failed to switch company.',
  pendingChanges: 'Changes made here are still waiting to reach the server: wait until they are sent before switching company.',
} as const;
