import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/NewPassword')({
  component: () => <Upcoming title="Set a new password" what="Choose a new password with the link from your email." />,
});
