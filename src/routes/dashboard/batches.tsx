import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/batches')({
  component: () => <Upcoming title="Batches" what="Batches of plants: create, link to rooms, grids and plants, statuses, harvest, moves and problems." />,
});
