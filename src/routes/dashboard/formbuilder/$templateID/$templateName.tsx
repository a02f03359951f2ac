import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/formbuilder/$templateID/$templateName')({
  component: () => <Upcoming title="Form template" what="Edit one form template." />,
});
