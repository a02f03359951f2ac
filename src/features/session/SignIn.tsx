/**
 * Sign in (spec part 1 §2, §4): then Admin goes to /dashboard, everyone else to /dashboard/quickview.
 * On a shared kiosk it is also "Another user" and the way back after five wrong PINs: a password
 * sign-in makes PIN switching work again for that user, and their changes waiting on this tablet go
 * out under their own session. While other users are parked here, it links back to the switch screen.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { isRole } from '../../../common/roles';
import { kioskMembers } from '../../api/kiosk';
import { login } from '../../api/session';
import { client, kiosk } from '../../app/services';
import { homeOf } from '../../app/home';
import { afterPasswordSignIn } from '../kiosk/actions';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';

export function SignIn() {
  const navigate = useNavigate();
  const sending = useFormSubmit(async (form) => {
    const session = await login({ client }, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
    afterPasswordSignIn(session.user_id);
    await navigate({ to: homeOf(isRole(session.user_role) ? session.user_role : null), replace: true });
  });
  const parked = kioskMembers(kiosk).some((member) => member.parked);

  return (
    <PublicPage
      title="Sign in"
      footer={
        <>
          <Link to="/ResetPassword">Forgot your password?</Link>
          {parked && (
            <>
              {' · '}
              <Link to="/switchUser">Switch to a user signed in on this tablet</Link>
            </>
          )}
        </>
      }
    >
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
