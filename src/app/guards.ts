/**
 * Screens that need a session (the dashboard, and the payment pages outside its frame, where Stripe's
 * page returns): without one, the sign-in page. Screens only some roles may see (spec part 1 §2, §6;
 * README "Roles": Admin also manages templates and automations): any other role goes to /unauthorized.
 */
import { redirect } from '@tanstack/react-router';
import type { Role } from '../../common/roles';
import { session } from './services';

export function requireSession() {
  if (!session.isLoggedIn() || session.role() === null) throw redirect({ to: '/signIn', replace: true });
}

export const ADMIN_ROLES: readonly Role[] = ['Admin', 'SuperAdmin'];

export function requireRole(roles: readonly Role[]) {
  return () => {
    const role = session.role();
    if (role === null || !roles.includes(role)) throw redirect({ to: '/unauthorized', replace: true });
  };
}
