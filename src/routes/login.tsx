import { createFileRoute, redirect } from '@tanstack/react-router';

/** Spec part 1 §2: /login redirects to /signIn. */
export const Route = createFileRoute('/login')({
  beforeLoad: () => {
    throw redirect({ to: '/signIn', replace: true });
  },
});
