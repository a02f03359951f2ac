import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/profile')({
  component: () => <Upcoming title="Profile" what="Your alert threshold and location." />,
});
