import { createFileRoute } from '@tanstack/react-router';
import { SignUp } from '../features/session/SignUp';
import { textParameter } from '../features/session/search';

/** Sign-up by invitation (spec part 1 §2, §3): the invite_token comes from the invitation link's query. */
export const Route = createFileRoute('/signUp')({
  validateSearch: (search: Record<string, unknown>): { invite_token?: string } => textParameter(search, 'invite_token'),
  component: SignUpRoute,
});

function SignUpRoute() {
  return <SignUp inviteToken={Route.useSearch().invite_token} />;
}
