import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../../../app/guards';
import { Upcoming } from '../../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/formbuilder/$templateID/')({
  // Templates and automations are company configuration: Admins only.
  beforeLoad: requireRole(ADMIN_ROLES),
  component: () => <Upcoming title="Form template" what="Edit one form template." />,
});
