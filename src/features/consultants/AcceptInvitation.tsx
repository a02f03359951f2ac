/**
 * A consultant's invitation (`/consultantInvite?invite_token=…`, the link an Admin's invitation mails;
 * issue 18 "Consultants"): which company gives read-only access to which address, until when. Without an
 * account the consultant chooses a name and a password; with one (another company invited them before)
 * accepting is one tap. Then they sign in as anyone does.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { MIN_PASSWORD_LENGTH } from '../../../common/schemas/session';
import { useToast } from '../../app/hooks';
import { client } from '../../app/services';
import { Field } from '../shell/forms';
import { PublicForm, PublicPage, useFormSubmit } from '../shell/PublicPage';
import { acceptConsultantInvitation, dateText, useInvitation } from './hooks';
import '../session/session.css';

export function AcceptInvitation({ inviteToken }: { inviteToken?: string }) {
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
    toast(accepted.message ?? 'Invitation accepted. Sign in to start.', 'success');
    await navigate({ to: '/signIn', replace: true });
  });

  return (
    <PublicPage
      title="Consultant invitation"
      className="session-page"
      footer={
        <>
          Already accepted? <Link to="/signIn">Sign in</Link>
        </>
      }
    >
      {!inviteToken ? (
        <p className="error-text" role="alert">
          This link has no invitation in it. Open the link in the invitation email again.
        </p>
      ) : read.loading ? (
        <p className="muted" role="status">
          Reading the invitation…
        </p>
      ) : read.error || !invitation ? (
        <p className="error-text" role="alert">
          {read.error ?? 'This invitation is not valid.'}
        </p>
      ) : (
        <>
          <p>
            <strong>{invitation.company_name}</strong> gives <strong>{invitation.email}</strong> read-only access to its rooms, observations, problems, reports and
            tasks until {dateText(invitation.expires_at)}. You may comment on observations; you change nothing else.
          </p>
          <PublicForm sending={sending} submitLabel="Accept invitation" busyLabel="Accepting…">
            {invitation.has_account ? (
              <p className="muted">You already have a consultant account with this address: accepting adds {invitation.company_name} to your companies.</p>
            ) : (
              <>
                <div className="name-fields">
                  <Field label="First name">
                    <input name="first_name" autoComplete="given-name" />
                  </Field>
                  <Field label="Last name">
                    <input name="last_name" autoComplete="family-name" />
                  </Field>
                </div>
                <Field label="Password">
                  <input name="password" type="password" autoComplete="new-password" aria-describedby="password-rule" />
                </Field>
                <p id="password-rule" className="hint">
                  At least {MIN_PASSWORD_LENGTH} characters. You sign in with {invitation.email} and this password.
                </p>
              </>
            )}
          </PublicForm>
        </>
      )}
    </PublicPage>
  );
}
