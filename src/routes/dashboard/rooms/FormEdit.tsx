import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/rooms/FormEdit')({
  component: () => <Upcoming title="Room form" what="The scouting form used in rooms." />,
});
