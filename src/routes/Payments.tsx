import { createFileRoute } from '@tanstack/react-router';
import { PLANS } from '../../common/messages/payments';
import { requireSession } from '../app/guards';
import { PaymentsScreen } from '../features/payments/PaymentsScreen';

/** The company's subscription and the plans to pay for (issue 18). */
export const Route = createFileRoute('/Payments')({
  beforeLoad: requireSession,
  component: () => <PaymentsScreen plans={PLANS} />,
});
