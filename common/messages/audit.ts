/** Messages of the audit area (spec part 2 §3, §7). */

/** Days of the trail a tablet holds (the `audit_events` pull's window); older events are read online. */
export const AUDIT_WINDOW_DAYS = 90;

export const auditMessages = {
  titleRequired: 'EventTitle is required.',
  idInvalid: 'Audit event id must be a number.',
  notFound: 'Audit event not found.',
  added: 'Audit event recorded.',
  updated: 'Audit event updated.',
  deleted: 'Audit event deleted.',
  nothingToUpdate: 'Nothing to update.',
} as const;

/** Spec part 2 §3: the title recorded after a multi-select form submission. */
export const multiSelectAuditTitle = (room: string) => `Submitted MultiSelect Template in room ${room}`;

/** The browser's fallbacks for the audit calls, used when the server gives no message of its own. */
export const auditClientMessages = {
  fetchFailed: 'Failed to fetch audit events.',
} as const;
