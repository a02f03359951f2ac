import { createFileRoute } from '@tanstack/react-router';
import { SavedReportsScreen } from '../../../features/reports/SavedReportsScreen';

export const Route = createFileRoute('/dashboard/reports/')({
  component: SavedReportsScreen,
});
