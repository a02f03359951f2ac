import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/scanHistory/$scanType/$scanHistoryID')({
  component: () => <Upcoming title="Scan" what="One scan: its image, model and result." />,
});
