import { createFileRoute } from '@tanstack/react-router';
import { idParameter } from '../../../features/forms/fill/search';
import { CorrectResponseScreen } from '../../../features/observations/CorrectResponse';

/** `?response=`: the response to correct, by its client id (or the server's id, from a loaded list). */
export const Route = createFileRoute('/dashboard/rooms/FormEdit')({
  validateSearch: (search: Record<string, unknown>): { response?: string | number } => idParameter(search, 'response'),
  component: FormEditRoute,
});

function FormEditRoute() {
  const { response } = Route.useSearch();
  // Keyed by the response: another one starts a fresh form.
  return <CorrectResponseScreen key={String(response ?? '')} responseId={response === undefined ? null : String(response)} />;
}
