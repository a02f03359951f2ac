import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/formbuilder/submit/$templateID/$templateName')({
  component: () => <Upcoming title="Fill in a form" what="Fill in a scouting form for a room or plants." />,
});
