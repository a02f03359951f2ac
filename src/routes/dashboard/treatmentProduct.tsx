import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/treatmentProduct')({
  component: () => <Upcoming title="Treatments" what="Treatments and spray products, and where they were applied." />,
});
