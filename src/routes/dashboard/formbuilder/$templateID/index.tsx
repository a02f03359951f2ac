import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../../../app/guards';
import { FormBuilderScreen } from '../../../../features/forms/builder/FormBuilderScreen';

export const Route = createFileRoute('/dashboard/formbuilder/$templateID/')({
  // Templates and automations are company configuration: Admins only.
  beforeLoad: requireRole(ADMIN_ROLES),
  component: FormBuilderRoute,
});

/** `new` as the template id builds a new form. */
function FormBuilderRoute() {
  const { templateID } = Route.useParams();
  return <FormBuilderScreen templateId={templateID} />;
}
