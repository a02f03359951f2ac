import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/formbuilder/')({
  component: () => <Upcoming title="Form builder" what="Build scouting form templates." />,
});
