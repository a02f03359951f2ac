import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/consultants')({
  component: () => <Upcoming title="Consultants" what="Outside experts who can see your data." />,
});
