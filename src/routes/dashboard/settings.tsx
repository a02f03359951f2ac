import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/settings')({
  component: () => <Upcoming title="Settings" what="AI model, grid order and opacity, auto refresh, sticky-trap render and language." />,
});
