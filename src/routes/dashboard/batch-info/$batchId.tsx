import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/batch-info/$batchId')({
  component: () => <Upcoming title="Batch" what="One batch at a glance, with its printable QR label." />,
});
