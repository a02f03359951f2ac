import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/automations')({
  component: () => <Upcoming title="Automations" what="Notifications by email, Slack or Microsoft Teams when problems are found." />,
});
