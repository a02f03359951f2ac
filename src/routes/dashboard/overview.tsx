import { createFileRoute } from '@tanstack/react-router';
import { OverviewScreen } from '../../features/overview/Dashboards';

export const Route = createFileRoute('/dashboard/overview')({
  component: OverviewScreen,
});
