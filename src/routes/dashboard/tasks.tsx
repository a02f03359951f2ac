import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/tasks')({
  component: () => <Upcoming title="Tasks" what="Tasks made from form responses, with comments." />,
});
