import { createFileRoute } from '@tanstack/react-router';
import { QuickviewScreen } from '../../features/overview/Dashboards';

/** Where Regular users land (spec part 1 §2). */
export const Route = createFileRoute('/dashboard/quickview')({
  component: QuickviewScreen,
});
