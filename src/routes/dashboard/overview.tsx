import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/overview')({
  component: () => <Upcoming title="Overview" what="Counts of rooms, grids, plants, batches and open problems, from this tablet’s data." />,
});
