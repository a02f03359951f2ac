import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/reports/')({
  component: () => <Upcoming title="Reports" what="Saved trend reports." />,
});
