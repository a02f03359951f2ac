import { createFileRoute } from '@tanstack/react-router';
import { AcceptInvitation } from '../features/consultants/AcceptInvitation';
import { textParameter } from '../features/session/search';

/** A consultant's invitation link (issue 18): the invite_token comes from the mailed link's query. */
export const Route = createFileRoute('/consultantInvite')({
  validateSearch: (search: Record<string, unknown>): { invite_token?: string } => textParameter(search, 'invite_token'),
  component: ConsultantInviteRoute,
});

function ConsultantInviteRoute() {
  return <AcceptInvitation inviteToken={Route.useSearch().invite_token} />;
}
