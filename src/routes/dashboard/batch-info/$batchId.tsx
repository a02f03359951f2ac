import { createFileRoute } from '@tanstack/react-router';
import { BatchInfoScreen } from '../../../features/batches/BatchInfoScreen';

export const Route = createFileRoute('/dashboard/batch-info/$batchId')({
  component: BatchInfoRoute,
});

function BatchInfoRoute() {
  const { batchId } = Route.useParams();
  return <BatchInfoScreen batchId={batchId} />;
}
