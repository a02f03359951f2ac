import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/rooms/')({
  component: () => <Upcoming title="Rooms" what="Your grow rooms: create, open and delete them." />,
});
