import { createFileRoute } from '@tanstack/react-router';
import { SavedReportScreen } from '../../../features/reports/SavedReportsScreen';

export const Route = createFileRoute('/dashboard/reports/$reportID')({
  component: function SavedReportRoute() {
    const { reportID } = Route.useParams();
    return <SavedReportScreen reportId={reportID} />;
  },
});
