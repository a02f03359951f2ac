import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/audittrail')({
  component: () => <Upcoming title="Audit trail" what="Who did what, when, in which room and batch." />,
});
