import { createFileRoute } from '@tanstack/react-router';
import { ScanDetailScreen } from '../../../../features/scans/ScanDetailScreen';

export const Route = createFileRoute('/dashboard/scanHistory/$scanType/$scanHistoryID')({
  component: ScanDetailRoute,
});

function ScanDetailRoute() {
  const { scanType, scanHistoryID } = Route.useParams();
  return <ScanDetailScreen key={scanHistoryID} scanType={scanType} scanId={scanHistoryID} />;
}
