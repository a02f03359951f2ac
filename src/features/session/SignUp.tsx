/**
 * Sign-up by invitation (spec part 1 §1, §2, §3, §7): first name, last name, email and password, with
 * the invite_token from the invitation link (`/signUp?invite_token=…`). createNewUser checks the
 * fields with the server's rules and messages; on success the new user goes to /signIn with a toast.
 *
 * Where the spec is silent: opened without a token (a link cut short by a mail program), the screen
 * asks for the invitation code so it can be pasted from the email.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { createNewUser } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import './session.css';

export function SignUp({ inviteToken }: { inviteToken?: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '');
    setBusy(true);
    setError(null);
    try {
      await createNewUser(
        { client },
        { firstName: field('first_name'), lastName: field('last_name'), email: field('email'), password: field('password'), inviteToken: inviteToken ?? field('invite_token') },
      );
      toast('Your account is ready. Sign in with your email and password.', 'success');
      await navigate({ to: '/signIn', replace: true });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setBusy(false);
    }
  }

  return (
    <main className="page narrow session-page">
      <h1>Create your account</h1>
      <p className="muted">{inviteToken ? 'You were invited to join your company on Grow Room. Use the email address the invitation was sent to.' : 'Paste the invitation code from your email, or open the link in the email again.'}</p>
      <form className="form" onSubmit={(event) => void submit(event)} onChange={() => setError(null)} noValidate>
        {!inviteToken && (
          <label>
            Invitation code
            <input name="invite_token" autoComplete="off" spellCheck={false} />
          </label>
        )}
        <div className="name-fields">
          <label>
            First name
            <input name="first_name" autoComplete="given-name" />
          </label>
          <label>
            Last name
            <input name="last_name" autoComplete="family-name" />
          </label>
        </div>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="new-password" aria-describedby="password-rule" />
        </label>
        <p id="password-rule" className="hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </p>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button className="button primary" type="submit" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p>
        Already have an account? <Link to="/signIn">Sign in</Link>
      </p>
    </main>
  );
}
