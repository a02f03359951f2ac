import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

/** Where Admin users land (spec part 1 §2). */
export const Route = createFileRoute('/dashboard/')({
  component: () => <Upcoming title="Dashboard" what="Your farm at a glance: rooms, batches, open problems and this tablet’s pending changes." />,
});
