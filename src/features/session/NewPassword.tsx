/**
 * Setting a new password (spec part 1 §2 `/NewPassword`, §7 `reset_password`): the reset token comes
 * from the link's query (`token`); on success the user goes to /signIn with a toast.
 *
 * Where the spec is silent: the password is typed twice (a typo here locks the grower out), and a page
 * opened without a token points to /ResetPassword for a new link.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { resetPassword } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { Field, FormError } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';

export const PASSWORDS_DIFFER = 'The two passwords are not the same.';

export function NewPassword({ token }: { token?: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const sending = useFormSubmit(async (form) => {
    const newPassword = String(form.get('new_password') ?? '');
    if (newPassword !== String(form.get('repeat_password') ?? '')) throw new Error(PASSWORDS_DIFFER);
    await resetPassword({ client }, { token: token ?? '', newPassword });
    toast('Your password is changed. Sign in with the new one.', 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage title="Set a new password" className="session-page" footer={<Link to="/signIn">Back to sign in</Link>}>
      {!token ? (
        <>
          <FormError banner error="This page needs the link from your password reset email." />
          <p>
            <Link to="/ResetPassword">Ask for a new link</Link>
          </p>
        </>
      ) : (
        <PublicForm sending={sending} submitLabel="Save new password" busyLabel="Saving…">
          <Field label="New password">
            <input name="new_password" type="password" autoComplete="new-password" aria-describedby="new-password-rule" />
          </Field>
          <p id="new-password-rule" className="hint">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
          <Field label="Repeat the new password">
            <input name="repeat_password" type="password" autoComplete="new-password" />
          </Field>
        </PublicForm>
      )}
    </PublicPage>
  );
}
