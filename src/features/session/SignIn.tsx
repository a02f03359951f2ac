/** Sign in (spec part 1 §2, §4): then Admin goes to /dashboard, everyone else to /dashboard/quickview. */
import { Link, useNavigate } from '@tanstack/react-router';
import { isRole } from '../../../common/roles';
import { login } from '../../api/session';
import { client, startSync } from '../../app/services';
import { homeOf } from '../../app/home';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';

export function SignIn() {
  const navigate = useNavigate();
  const sending = useFormSubmit(async (form) => {
    const session = await login({ client }, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
    await startSync();
    await navigate({ to: homeOf(isRole(session.user_role) ? session.user_role : null), replace: true });
  });

  return (
    <PublicPage title="Sign in" footer={<Link to="/ResetPassword">Forgot your password?</Link>}>
      <PublicForm sending={sending} submitLabel="Sign in" busyLabel="Signing in…" browserChecks>
        <Field label="Email">
          <input name="email" type="email" autoComplete="username" required />
        </Field>
        <Field label="Password">
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
      </PublicForm>
    </PublicPage>
  );
}
