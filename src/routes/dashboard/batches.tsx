import { createFileRoute } from '@tanstack/react-router';
import { BatchesScreen } from '../../features/batches/BatchesScreen';

/** `?batch=<id>` opens that batch (the batch-info screen links here to manage it). */
export const Route = createFileRoute('/dashboard/batches')({
  validateSearch: (search: Record<string, unknown>): { batch?: string } => (search.batch === undefined || search.batch === null || search.batch === '' ? {} : { batch: String(search.batch) }),
  component: BatchesRoute,
});

function BatchesRoute() {
  const { batch } = Route.useSearch();
  return <BatchesScreen openBatch={batch} />;
}
