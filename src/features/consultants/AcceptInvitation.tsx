/**
 * A consultant's invitation (`/consultantInvite?invite_token=…`, the link an Admin's invitation mails;
 * issue 18 "Consultants"): which company gives read-only access to which address, until when. Without an
 * account the consultant chooses a name and a password; with one (another company invited them before)
 * accepting is one tap. Then they sign in as anyone does.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useTranslation } from 'react-i18next';
import { consultantMessages as m } from '../../../common/messages/consultants';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { translateMessage } from '../../i18n/messages';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import { acceptConsultantInvitation, dateText, useInvitation } from './hooks';
import { consultantsTexts } from './texts';
import '../session/session.css';

export function AcceptInvitation({ inviteToken }: { inviteToken?: string }) {
  const { t } = useTranslation(consultantsTexts);
  const navigate = useNavigate();
  const toast = useToast();
  const read = useInvitation(inviteToken);
  const invitation = read.invitation;
  const sending = useFormSubmit(async (form) => {
    const field = (name: string) => String(form.get(name) ?? '');
    const accepted = await acceptConsultantInvitation(
      { client },
      invitation?.has_account ? { token: inviteToken ?? '' } : { token: inviteToken ?? '', firstName: field('first_name'), lastName: field('last_name'), password: field('password') },
    );
    toast(accepted.message ?? t('accept.accepted'), 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage
      title={t('accept.title')}
      className="session-page"
      footer={
        <>
          {t('accept.alreadyAccepted')} <Link to="/signIn">{t('accept.signIn')}</Link>
        </>
      }
    >
      {!inviteToken ? (
        <p className="error-text" role="alert">
          {t('accept.noToken')}
        </p>
      ) : read.loading ? (
        <p className="muted" role="status">
          {t('accept.reading')}
        </p>
      ) : read.error || !invitation ? (
        <p className="error-text" role="alert">
          {translateMessage(read.error ?? m.inviteInvalid)}
        </p>
      ) : (
        <>
          <p>
            <Trans
              t={t}
              i18nKey="accept.grant"
              values={{ company: invitation.company_name, email: invitation.email, date: dateText(invitation.expires_at) }}
              components={{ strong: <strong /> }}
            />
          </p>
          <PublicForm sending={sending} submitLabel={t('accept.submit')} busyLabel={t('accept.busy')}>
            {invitation.has_account ? (
              <p className="muted">{t('accept.hasAccount', { company: invitation.company_name })}</p>
            ) : (
              <>
                <div className="name-fields">
                  <Field label={t('accept.firstName')}>
                    <input name="first_name" autoComplete="given-name" />
                  </Field>
                  <Field label={t('accept.lastName')}>
                    <input name="last_name" autoComplete="family-name" />
                  </Field>
                </div>
                <Field label={t('accept.password')}>
                  <input name="password" type="password" autoComplete="new-password" aria-describedby="password-rule" />
                </Field>
                <p id="password-rule" className="hint">
                  {t('accept.passwordRule', { min: MIN_PASSWORD_LENGTH, email: invitation.email })}
                </p>
              </>
            )}
          </PublicForm>
        </>
      )}
    </PublicPage>
  );
}
