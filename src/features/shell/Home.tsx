import { Link } from '@tanstack/react-router';
import { session } from '../../app/services';
import { homeOf } from '../../app/home';

export function Home() {
  const signedIn = session.isLoggedIn();
  return (
    <main className="page narrow">
      <h1>Grow Room</h1>
      <p>Cultivation management for grow rooms: rooms, grids, batches, scouting and treatments, on tablets that keep working without signal.</p>
      {signedIn ? (
        <Link className="button primary" to={homeOf(session.role())}>
          Open the dashboard
        </Link>
      ) : (
        <Link className="button primary" to="/signIn">
          Sign in
        </Link>
      )}
    </main>
  );
}
