import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/signUp')({
  component: () => <Upcoming title="Create your account" what="Sign up with the invitation link your manager sent you (the invite_token comes from the link)." />,
});
