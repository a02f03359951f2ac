/**
 * Asking for a password reset (spec part 1 §2 `/ResetPassword`, §7 `request_password_reset`). The
 * server answers the same whether or not the address has an account (so no one learns who has one),
 * and the screen says exactly that: a link was sent if the address has an account.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { sessionMessages as m } from '../../../common/messages/session';
import { requestPasswordReset } from '../../api/session';
import { client } from '../../app/services';
import './session.css';

export function ResetPassword() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    setBusy(true);
    setError(null);
    try {
      const answer = await requestPasswordReset({ client }, { email });
      setSent(answer.message || m.resetRequested);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page narrow session-page">
      <h1>Reset your password</h1>
      {sent ? (
        <>
          <p className="banner" role="status">
            {sent}
          </p>
          <p className="muted">The link works for a limited time. Check your spam folder if it does not arrive.</p>
          <button type="button" className="button" onClick={() => setSent(null)}>
            Use another address
          </button>
        </>
      ) : (
        <>
          <p className="muted">Enter the email address you sign in with. We will send you a link to choose a new password.</p>
          <form className="form" onSubmit={(event) => void submit(event)} onChange={() => setError(null)} noValidate>
            <label>
              Email
              <input name="email" type="email" autoComplete="email" />
            </label>
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
            <button className="button primary" type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Send reset link'}
            </button>
          </form>
        </>
      )}
      <p>
        <Link to="/signIn">Back to sign in</Link>
      </p>
    </main>
  );
}
