/**
 * The payment pages stand outside the dashboard's frame (Stripe's page returns to /PostPayment), but
 * like the dashboard they need a session: without one, the sign-in page.
 */
import { redirect } from '@tanstack/react-router';
import { session } from '../../app/services';

export function requireSession() {
  if (!session.isLoggedIn() || session.role() === null) throw redirect({ to: '/signIn', replace: true });
}
