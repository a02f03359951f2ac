import { createFileRoute } from '@tanstack/react-router';
import { SharedReportPage } from '../features/reports/SharedReportPage';

export const Route = createFileRoute('/reporting')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' ? { token: search.token } : {}),
  component: function ReportingRoute() {
    const { token } = Route.useSearch();
    return <SharedReportPage token={token} />;
  },
});
