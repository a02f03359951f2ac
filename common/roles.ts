/**
 * The roles of spec part 1 §1, exactly as the access token's `user_role` claim spells them, and the
 * outside consultant's (issue 18, "Consultants"): an account of its own that belongs to no company and
 * reads, read-only, the companies that granted it access (server/domains/consultants).
 */
export const ROLES = ['Regular', 'Admin', 'SuperAdmin', 'Consultant'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a company Admin may hand out in an invitation; SuperAdmin is the platform operator's own, Consultant comes by a grant. */
export const INVITABLE_ROLES = ['Regular', 'Admin'] as const;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
