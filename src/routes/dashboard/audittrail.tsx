import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { type AuditTrailSearch, AuditTrailScreen } from '../../features/audit/AuditTrailScreen';
import { idParameter } from '../../features/forms/fill/search';
import { textParameter } from '../../features/session/search';

/** The audit trail (spec part 2 §3, §7); `?room=&batch=&user=&from=&to=` (days yyyy-mm-dd) are its filters. */
export const Route = createFileRoute('/dashboard/audittrail')({
  validateSearch: (search: Record<string, unknown>): AuditTrailSearch => ({
    ...idParameter(search, 'room'),
    ...idParameter(search, 'batch'),
    ...idParameter(search, 'user'),
    ...textParameter(search, 'from'),
    ...textParameter(search, 'to'),
  }),
  component: AuditTrailRoute,
});

function AuditTrailRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return <AuditTrailScreen search={search} onSearch={(next) => void navigate({ to: '/dashboard/audittrail', search: next, replace: true })} />;
}
