import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/Payments')({
  component: () => <Upcoming standalone title="Payments" what="Your subscription and payment details." />,
});
