import { createFileRoute } from '@tanstack/react-router';
import { ScanHistoryScreen } from '../../../features/scans/ScanHistoryScreen';

export const Route = createFileRoute('/dashboard/scanHistory/')({
  component: ScanHistoryScreen,
});
