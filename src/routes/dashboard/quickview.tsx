import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/quickview')({
  component: () => <Upcoming title="Quick view" what="Today at a glance: rooms to scout, open problems and pending changes." />,
});
