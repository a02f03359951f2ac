import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/rooms/unresolvedRoom/$roomID')({
  component: () => <Upcoming title="Unresolved problems" what="A room’s open problems, to resolve by type or all at once." />,
});
