/**
 * Asking for a password reset (spec part 1 §2 `/ResetPassword`, §7 `request_password_reset`). The
 * server answers the same whether or not the address has an account (so no one learns who has one),
 * and the screen says exactly that: a link was sent if the address has an account.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionMessages as m } from '../../../common/messages/session';
import { requestPasswordReset } from '../../api/session';
import { client } from '../../app/services';
import { translateMessage } from '../../i18n/messages';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import './session.css';
import { sessionTexts } from './texts';

export function ResetPassword() {
  const { t } = useTranslation(sessionTexts);
  const [sent, setSent] = useState<string | null>(null);
  const sending = useFormSubmit(async (form) => {
    const answer = await requestPasswordReset({ client }, { email: String(form.get('email') ?? '') });
    setSent(answer.message || m.resetRequested);
  });

  return (
    <PublicPage title={t('resetPassword.title')} className="session-page" footer={<Link to="/signIn">{t('backToSignIn')}</Link>}>
      {sent ? (
        <>
          <p className="banner" role="status">
            {translateMessage(sent)}
          </p>
          <p className="muted">{t('resetPassword.linkLimited')}</p>
          <button type="button" className="button" onClick={() => setSent(null)}>
            {t('resetPassword.anotherAddress')}
          </button>
        </>
      ) : (
        <>
          <p className="muted">{t('resetPassword.intro')}</p>
          <PublicForm sending={sending} submitLabel={t('resetPassword.submit')} busyLabel={t('resetPassword.busy')}>
            <Field label={t('email')}>
              <input name="email" type="email" autoComplete="email" />
            </Field>
          </PublicForm>
        </>
      )}
    </PublicPage>
  );
}
