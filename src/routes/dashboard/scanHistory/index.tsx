import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/scanHistory/')({
  component: () => <Upcoming title="Scan history" what="Past disease scans and their results." />,
});
