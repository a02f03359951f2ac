/**
 * Screens only some roles may see (spec part 1 §2, §6; README "Roles": Admin also manages templates and
 * automations): any other role goes to /unauthorized. The dashboard itself already requires a session.
 */
import { redirect } from '@tanstack/react-router';
import type { Role } from '../../common/roles';
import { session } from './services';

export const ADMIN_ROLES: readonly Role[] = ['Admin', 'SuperAdmin'];

export function requireRole(roles: readonly Role[]) {
  return () => {
    const role = session.role();
    if (role === null || !roles.includes(role)) throw redirect({ to: '/unauthorized', replace: true });
  };
}
