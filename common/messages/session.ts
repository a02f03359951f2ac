/**
 * Spec messages of the session area (spec part 1 §4, §5, §8; part 2 §5, §8). The client checks and
 * the server validation use these same strings.
 */
export const sessionMessages = {
  emailRequired: 'Email is required.',
  emailInvalid: 'Please enter a valid email address.',
  passwordRequired: 'Password is required.',
  passwordTooShort: 'Password must be at least 8 characters.',
  invalidCredentials: 'Invalid email or password.',
  refreshTokenMissing: 'Refresh token is required.',
  refreshTokenInvalid: 'Invalid refresh token.',
  refreshTokenExpired: 'Refresh token has expired. Please sign in again.',
  refreshTokenReused: 'This session was ended because its refresh token was used twice. Please sign in again.',
  loggedOut: 'Logged out.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  inviteTokenRequired: 'Invitation token is required.',
  inviteInvalid: 'This invitation is not valid.',
  inviteExpired: 'This invitation has expired.',
  inviteUsed: 'This invitation has already been used.',
  inviteEmailMismatch: 'This invitation was sent to a different email address.',
  emailTaken: 'An account with this email already exists.',
  userCreated: 'Account created.',
  roleInvalid: 'Role must be Regular or Admin.',
  invitationCreated: 'Invitation sent.',
  invitationIdRequired: 'invitation_id is required.',
  invitationDeleted: 'Invitation deleted.',
  pendingInvitationsFailed: 'Failed to fetch pending invitations.',
  companyIdRequired: 'companyID is required.',
  resetRequested: 'If an account exists for this email, a reset link has been sent.',
  resetTokenRequired: 'Reset token is required.',
  resetTokenInvalid: 'This reset link is not valid or has expired.',
  passwordUpdated: 'Password updated.',
  userIdRequired: 'user_id is required.',
  thresholdRequired: 'threshold must be a number.',
  thresholdUpdated: 'Threshold updated.',
  locationRequired: 'userID and location are required.',
  locationUpdated: 'Location updated.',
  companyNameRequired: 'company_name is required.',
  contactNameRequired: 'contact_name is required.',
  contactEmailRequired: 'contact_email is required.',
  companyCreated: 'Company created.',
  companyCreateFailed: 'Failed to create company.',
  companyNotFound: 'Company not found.',
  companyIdInvalid: 'Company id must be a positive whole number.',
} as const;

/**
 * The browser's fallbacks for the session, users and company calls (spec part 1 §8, part 2 §8): shown
 * when the server gives no message of its own (no answer at all, or an answer without one).
 */
export const sessionClientMessages = {
  loginFailed: 'Failed to sign in.',
  /** Spec part 2 §8's generic fallback: a sign-in answer must carry both tokens (spec part 1 §7). */
  invalidResponse: 'Invalid API response format.',
  signUpFailed: 'Failed to create account.',
  resetRequestFailed: 'Failed to request a password reset.',
  resetFailed: 'Failed to set the new password.',
  /** Only warned about: the device's session ends anyway (spec part 1 §4). */
  logoutFailed: 'Could not end the session on the server; it ends on this device.',
  noStorage: 'No local storage is available to keep the session.',
  /** Spec part 1 §8: a failed threshold save is only logged, with this text before the error. */
  thresholdUpdateFailed: 'An error occurred while updating the threshold:',
  thresholdFetchFailed: 'Failed to fetch threshold.',
  usersFetchFailed: 'Failed to load users.',
  invitationFailed: 'Failed to send invitation.',
  invitationDeleteFailed: 'Failed to withdraw invitation.',
  companyFetchFailed: 'Failed to load company.',
} as const;
