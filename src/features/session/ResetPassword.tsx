/**
 * Asking for a password reset (spec part 1 §2 `/ResetPassword`, §7 `request_password_reset`). The
 * server answers the same whether or not the address has an account (so no one learns who has one),
 * and the screen says exactly that: a link was sent if the address has an account.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { sessionMessages as m } from '../../../common/messages/session';
import { requestPasswordReset } from '../../api/session';
import { client } from '../../app/services';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';

export function ResetPassword() {
  const [sent, setSent] = useState<string | null>(null);
  const sending = useFormSubmit(async (form) => {
    const answer = await requestPasswordReset({ client }, { email: String(form.get('email') ?? '') });
    setSent(answer.message || m.resetRequested);
  });

  return (
    <PublicPage title="Reset your password" className="session-page" footer={<Link to="/signIn">Back to sign in</Link>}>
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
          <PublicForm sending={sending} submitLabel="Send reset link" busyLabel="Sending…">
            <Field label="Email">
              <input name="email" type="email" autoComplete="email" />
            </Field>
          </PublicForm>
        </>
      )}
    </PublicPage>
  );
}
