/**
 * Setting a new password (spec part 1 §2 `/NewPassword`, §7 `reset_password`): the reset token comes
 * from the link's query (`token`); on success the user goes to /signIn with a toast.
 *
 * Where the spec is silent: the password is typed twice (a typo here locks the grower out), and a page
 * opened without a token points to /ResetPassword for a new link.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { resetPassword } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { Field, FormError } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';
import { sessionTexts } from './texts';

export function NewPassword({ token }: { token?: string }) {
  const { t } = useTranslation(sessionTexts);
  const navigate = useNavigate();
  const toast = useToast();
  const sending = useFormSubmit(async (form) => {
    const newPassword = String(form.get('new_password') ?? '');
    if (newPassword !== String(form.get('repeat_password') ?? '')) throw new Error(t('newPassword.passwordsDiffer'));
    await resetPassword({ client }, { token: token ?? '', newPassword });
    toast(t('newPassword.changed'), 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage title={t('newPassword.title')} className="session-page" footer={<Link to="/signIn">{t('backToSignIn')}</Link>}>
      {!token ? (
        <>
          <FormError banner error={t('newPassword.needsLink')} />
          <p>
            <Link to="/ResetPassword">{t('newPassword.askNewLink')}</Link>
          </p>
        </>
      ) : (
        <PublicForm sending={sending} submitLabel={t('newPassword.submit')} busyLabel={t('newPassword.busy')}>
          <Field label={t('newPassword.newPassword')}>
            <input name="new_password" type="password" autoComplete="new-password" aria-describedby="new-password-rule" />
          </Field>
          <p id="new-password-rule" className="hint">
            {t('passwordRule', { min: MIN_PASSWORD_LENGTH })}
          </p>
          <Field label={t('newPassword.repeatPassword')}>
            <input name="repeat_password" type="password" autoComplete="new-password" />
          </Field>
        </PublicForm>
      )}
    </PublicPage>
  );
}
