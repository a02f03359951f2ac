import { createFileRoute } from '@tanstack/react-router';
import { DashboardHome } from '../../features/overview/Dashboards';

/** Where Admin users land (spec part 1 §2). */
export const Route = createFileRoute('/dashboard/')({
  component: DashboardHome,
});
