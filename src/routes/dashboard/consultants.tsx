import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../app/guards';
import { ConsultantsScreen } from '../../features/consultants/ConsultantsScreen';

export const Route = createFileRoute('/dashboard/consultants')({
  // Inviting and revoking outside consultants is the company's Admins' (server/domains/consultants).
  beforeLoad: requireRole(ADMIN_ROLES),
  component: ConsultantsScreen,
});
