/** The three roles of spec part 1 §1, exactly as the access token's `user_role` claim spells them. */
export const ROLES = ['Regular', 'Admin', 'SuperAdmin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a company Admin may hand out in an invitation; SuperAdmin is the platform operator's own. */
export const INVITABLE_ROLES = ['Regular', 'Admin'] as const;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
