import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/rooms/$roomID')({
  component: () => <Upcoming title="Room" what="A room with its grids drawn as their boxes: cull, rename, link to batches, scan." />,
});
