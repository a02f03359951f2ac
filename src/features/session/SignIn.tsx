/**
 * Sign in (spec part 1 §2, §4): then Admin goes to /dashboard, everyone else to /dashboard/quickview.
 * On a shared kiosk it is also "Another user" and the way back after five wrong PINs: a password
 * sign-in makes PIN switching work again for that user, and their changes waiting on this tablet go
 * out under their own session. While other users are parked here, it links back to the switch screen.
 * Whoever was at the screen before is parked when they have a PIN here, else signed out
 * (kiosk/actions.ts `afterPasswordSignIn`): never replaced silently.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isRole } from '../../../common/roles';
import { kioskMembers } from '../../api/kiosk';
import { client, kiosk, session } from '../../app/services';
import { homeOf } from '../../app/home';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import { sessionTexts } from './texts';

export function SignIn() {
  const { t } = useTranslation(sessionTexts);
  const navigate = useNavigate();
  const sending = useFormSubmit(async (form) => {
    // The sign-in's work (the shared validation schemas, the kiosk's hand-over) loads when the form is
    // sent, not with the page: a first visit shows the sign-in with the least code (issue 13, ≤ 150 kB).
    const [{ login }, { afterPasswordSignIn }] = await Promise.all([import('../../api/session'), import('../kiosk/actions')]);
    const replaced = await session.get();
    const signedIn = await login({ client }, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
    await afterPasswordSignIn(signedIn, replaced);
    await navigate({ to: homeOf(isRole(signedIn.user_role) ? signedIn.user_role : null), replace: true });
  });
  const parked = kioskMembers(kiosk).some((member) => member.parked);
  const someoneSignedIn = session.isLoggedIn();

  return (
    <PublicPage
      title={t('signIn.title')}
      footer={
        <>
          <Link to="/ResetPassword">{t('signIn.forgotPassword')}</Link>
          {parked && (
            <>
              {' · '}
              <Link to="/switchUser">{t('signIn.switchToParked')}</Link>
            </>
          )}
        </>
      }
    >
      {someoneSignedIn && (
        <p role="status">
          {t('signIn.someoneSignedIn')}
        </p>
      )}
      <PublicForm sending={sending} submitLabel={t('signIn.submit')} busyLabel={t('signIn.busy')} browserChecks>
        <Field label={t('email')}>
          <input name="email" type="email" autoComplete="username" required />
        </Field>
        <Field label={t('password')}>
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
      </PublicForm>
    </PublicPage>
  );
}
