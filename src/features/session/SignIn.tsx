/** Sign in (spec part 1 §2, §4): then Admin goes to /dashboard, everyone else to /dashboard/quickview. */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { isRole } from '../../../common/roles';
import { login } from '../../api/session';
import { client, startSync } from '../../app/services';
import { homeOf } from '../../app/home';

export function SignIn() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await login({ client }, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      await startSync();
      await navigate({ to: homeOf(isRole(session.user_role) ? session.user_role : null), replace: true });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page narrow">
      <h1>Sign in</h1>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button className="button primary" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/ResetPassword">Forgot your password?</Link>
      </p>
    </main>
  );
}
