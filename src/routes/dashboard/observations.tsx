import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { type ObservationsSearch, ObservationsScreen } from '../../features/observations/ObservationsScreen';
import { idParameter } from '../../features/forms/fill/search';
import { textParameter } from '../../features/session/search';

/** `?room=&grid=&start=&end=` (days yyyy-mm-dd): what the observations screen shows. */
export const Route = createFileRoute('/dashboard/observations')({
  validateSearch: (search: Record<string, unknown>): ObservationsSearch => ({
    ...idParameter(search, 'room'),
    ...idParameter(search, 'grid'),
    ...textParameter(search, 'start'),
    ...textParameter(search, 'end'),
  }),
  component: ObservationsRoute,
});

function ObservationsRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return <ObservationsScreen search={search} onSearch={(next) => void navigate({ to: '/dashboard/observations', search: next, replace: true })} />;
}
