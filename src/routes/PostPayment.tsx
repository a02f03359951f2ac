import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/PostPayment')({
  component: () => <Upcoming standalone title="Payment received" what="The confirmation after a payment." />,
});
