import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/trays')({
  component: () => <Upcoming title="Trays" what="Trays of plants and tray templates." />,
});
