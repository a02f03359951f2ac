import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/company')({
  component: () => <Upcoming title="Company" what="Your company’s details and users." />,
});
