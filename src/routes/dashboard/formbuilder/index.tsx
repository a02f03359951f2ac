import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../../app/guards';
import { FormListScreen } from '../../../features/forms/builder/FormListScreen';

export const Route = createFileRoute('/dashboard/formbuilder/')({
  // Templates and automations are company configuration: Admins only.
  beforeLoad: requireRole(ADMIN_ROLES),
  component: FormListScreen,
});
