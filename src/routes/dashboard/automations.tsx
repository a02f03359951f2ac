import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../app/guards';
import { AutomationsScreen } from '../../features/automations/AutomationsScreen';

export const Route = createFileRoute('/dashboard/automations')({
  // Templates and automations are company configuration: Admins only.
  beforeLoad: requireRole(ADMIN_ROLES),
  component: AutomationsScreen,
});
