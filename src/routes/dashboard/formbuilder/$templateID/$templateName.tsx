import { createFileRoute } from '@tanstack/react-router';
import { ADMIN_ROLES, requireRole } from '../../../../app/guards';
import { FormBuilderScreen } from '../../../../features/forms/builder/FormBuilderScreen';

export const Route = createFileRoute('/dashboard/formbuilder/$templateID/$templateName')({
  // Templates and automations are company configuration: Admins only.
  beforeLoad: requireRole(ADMIN_ROLES),
  component: FormBuilderRoute,
});

/** The name in the address is for people reading it; the form is found by its id. */
function FormBuilderRoute() {
  const { templateID } = Route.useParams();
  return <FormBuilderScreen templateId={templateID} />;
}
