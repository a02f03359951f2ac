import type { Role } from '../../common/roles';

/** Where a signed-in user lands (spec part 1 §2, §6): Admin on /dashboard, everyone else on /dashboard/quickview. */
export const homeOf = (role: Role | null) => (role === 'Admin' ? '/dashboard' : '/dashboard/quickview');
