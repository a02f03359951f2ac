import { Link } from '@tanstack/react-router';
import { session } from '../../app/services';
import { homeOf } from '../../app/home';

/** A role that may not see a screen lands here (spec part 1 §2, §6). */
export function Unauthorized() {
  return (
    <main className="page narrow">
      <h1>Access denied</h1>
      <p>Your role does not allow this screen. Ask an Admin of your company if you need it.</p>
      <Link className="button" to={session.isLoggedIn() ? homeOf(session.role()) : '/signIn'}>
        Go back
      </Link>
    </main>
  );
}
