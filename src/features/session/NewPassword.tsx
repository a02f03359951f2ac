/**
 * Setting a new password (spec part 1 §2 `/NewPassword`, §7 `reset_password`): the reset token comes
 * from the link's query (`token`); on success the user goes to /signIn with a toast.
 *
 * Where the spec is silent: the password is typed twice (a typo here locks the grower out), and a page
 * opened without a token points to /ResetPassword for a new link.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { resetPassword } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import './session.css';

export const PASSWORDS_DIFFER = 'The two passwords are not the same.';

export function NewPassword({ token }: { token?: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get('new_password') ?? '');
    if (newPassword !== String(form.get('repeat_password') ?? '')) return setError(PASSWORDS_DIFFER);
    setBusy(true);
    setError(null);
    try {
      await resetPassword({ client }, { token: token ?? '', newPassword });
      toast('Your password is changed. Sign in with the new one.', 'success');
      await navigate({ to: '/signIn', replace: true });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  return (
    <main className="page narrow session-page">
      <h1>Set a new password</h1>
      {!token ? (
        <>
          <p className="banner error" role="alert">
            This page needs the link from your password reset email.
          </p>
          <p>
            <Link to="/ResetPassword">Ask for a new link</Link>
          </p>
        </>
      ) : (
        <form className="form" onSubmit={(event) => void submit(event)} onChange={() => setError(null)} noValidate>
          <label>
            New password
            <input name="new_password" type="password" autoComplete="new-password" aria-describedby="new-password-rule" />
          </label>
          <p id="new-password-rule" className="hint">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
          <label>
            Repeat the new password
            <input name="repeat_password" type="password" autoComplete="new-password" />
          </label>
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          <button className="button primary" type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save new password'}
          </button>
        </form>
      )}
      <p>
        <Link to="/signIn">Back to sign in</Link>
      </p>
    </main>
  );
}
