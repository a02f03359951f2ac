import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/ResetPassword')({
  component: () => <Upcoming title="Reset your password" what="Ask for a link to set a new password, sent to your email." />,
});
