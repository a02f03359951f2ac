/**
 * Sign-up by invitation (spec part 1 §1, §2, §3, §7): first name, last name, email and password, with
 * the invite_token from the invitation link (`/signUp?invite_token=…`). createNewUser checks the
 * fields with the server's rules and messages; on success the new user goes to /signIn with a toast.
 *
 * Where the spec is silent: opened without a token (a link cut short by a mail program), the screen
 * asks for the invitation code so it can be pasted from the email.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { createNewUser } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';

export function SignUp({ inviteToken }: { inviteToken?: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const sending = useFormSubmit(async (form) => {
    const field = (name: string) => String(form.get(name) ?? '');
    await createNewUser(
      { client },
      { firstName: field('first_name'), lastName: field('last_name'), email: field('email'), password: field('password'), inviteToken: inviteToken ?? field('invite_token') },
    );
    toast('Your account is ready. Sign in with your email and password.', 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage
      title="Create your account"
      className="session-page"
      footer={
        <>
          Already have an account? <Link to="/signIn">Sign in</Link>
        </>
      }
    >
      <p className="muted">{inviteToken ? 'You were invited to join your company on Grow Room. Use the email address the invitation was sent to.' : 'Paste the invitation code from your email, or open the link in the email again.'}</p>
      <PublicForm sending={sending} submitLabel="Create account" busyLabel="Creating your account…">
        {!inviteToken && (
          <Field label="Invitation code">
            <input name="invite_token" autoComplete="off" spellCheck={false} />
          </Field>
        )}
        <div className="name-fields">
          <Field label="First name">
            <input name="first_name" autoComplete="given-name" />
          </Field>
          <Field label="Last name">
            <input name="last_name" autoComplete="family-name" />
          </Field>
        </div>
        <Field label="Email">
          <input name="email" type="email" autoComplete="email" />
        </Field>
        <Field label="Password">
          <input name="password" type="password" autoComplete="new-password" aria-describedby="password-rule" />
        </Field>
        <p id="password-rule" className="hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </p>
      </PublicForm>
    </PublicPage>
  );
}
