import { createFileRoute } from '@tanstack/react-router';
import { NewPassword } from '../features/session/NewPassword';
import { textParameter } from '../features/session/search';

/** Setting a new password (spec part 1 §2): the reset token arrives as the query parameter `token`. */
export const Route = createFileRoute('/NewPassword')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => textParameter(search, 'token'),
  component: NewPasswordRoute,
});

function NewPasswordRoute() {
  return <NewPassword token={Route.useSearch().token} />;
}
