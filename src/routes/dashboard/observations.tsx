import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/observations')({
  component: () => <Upcoming title="Observations" what="Scouting observations across rooms." />,
});
