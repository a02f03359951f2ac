import { createFileRoute } from '@tanstack/react-router';
import { requireSession } from '../app/guards';
import { PaymentsScreen } from '../features/payments/PaymentsScreen';

/** The yearly plan alone (issue 18): where a yearly checkout left without paying returns. */
export const Route = createFileRoute('/YearPayment')({
  beforeLoad: requireSession,
  component: () => <PaymentsScreen plans={['yearly']} />,
});
