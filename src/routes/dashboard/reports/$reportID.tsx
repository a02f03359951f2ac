import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/reports/$reportID')({
  component: () => <Upcoming title="Report" what="One saved report." />,
});
