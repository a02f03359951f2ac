import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/YearPayment')({
  component: () => <Upcoming standalone title="Yearly payment" what="Paying for a year of Grow Room at once." />,
});
