/**
 * Sign-up by invitation (spec part 1 §1, §2, §3, §7): first name, last name, email and password, with
 * the invite_token from the invitation link (`/signUp?invite_token=…`). createNewUser checks the
 * fields with the server's rules and messages; on success the new user goes to /signIn with a toast.
 *
 * Where the spec is silent: opened without a token (a link cut short by a mail program), the screen
 * asks for the invitation code so it can be pasted from the email.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { createNewUser } from '../../api/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';
import { sessionTexts } from './texts';

export function SignUp({ inviteToken }: { inviteToken?: string }) {
  const { t } = useTranslation(sessionTexts);
  const navigate = useNavigate();
  const toast = useToast();
  const sending = useFormSubmit(async (form) => {
    const field = (name: string) => String(form.get(name) ?? '');
    await createNewUser(
      { client },
      { firstName: field('first_name'), lastName: field('last_name'), email: field('email'), password: field('password'), inviteToken: inviteToken ?? field('invite_token') },
    );
    toast(t('signUp.ready'), 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage
      title={t('signUp.title')}
      className="session-page"
      footer={
        <>
          {t('signUp.alreadyHaveAccount')} <Link to="/signIn">{t('signUp.signIn')}</Link>
        </>
      }
    >
      <p className="muted">{inviteToken ? t('signUp.invited') : t('signUp.pasteCode')}</p>
      <PublicForm sending={sending} submitLabel={t('signUp.submit')} busyLabel={t('signUp.busy')}>
        {!inviteToken && (
          <Field label={t('signUp.invitationCode')}>
            <input name="invite_token" autoComplete="off" spellCheck={false} />
          </Field>
        )}
        <div className="name-fields">
          <Field label={t('signUp.firstName')}>
            <input name="first_name" autoComplete="given-name" />
          </Field>
          <Field label={t('signUp.lastName')}>
            <input name="last_name" autoComplete="family-name" />
          </Field>
        </div>
        <Field label={t('email')}>
          <input name="email" type="email" autoComplete="email" />
        </Field>
        <Field label={t('password')}>
          <input name="password" type="password" autoComplete="new-password" aria-describedby="password-rule" />
        </Field>
        <p id="password-rule" className="hint">
          {t('passwordRule', { min: MIN_PASSWORD_LENGTH })}
        </p>
      </PublicForm>
    </PublicPage>
  );
}
