import { createFileRoute } from '@tanstack/react-router';
import { requireSession } from '../app/guards';
import { PostPaymentScreen } from '../features/payments/PostPaymentScreen';
import { textParameter } from '../features/session/search';

/** Where Stripe's payment page returns (issue 18): the checkout session arrives as the query parameter `session_id`. */
export const Route = createFileRoute('/PostPayment')({
  validateSearch: (search: Record<string, unknown>): { session_id?: string } => textParameter(search, 'session_id'),
  beforeLoad: requireSession,
  component: PostPaymentRoute,
});

function PostPaymentRoute() {
  return <PostPaymentScreen sessionId={Route.useSearch().session_id} />;
}
