/**
 * The `consultants` screen (spec part 1 §2 names it; issue 18 "Consultants"): an Admin invites an outside
 * consultant (an IPM advisor, an agronomist) by email for a period of read-only access, sees every grant
 * with its status and dates, and revokes one at once, after a question. Grants live on the server only,
 * so the screen works online and says so offline; a failed read says why and offers to try again.
 *
 * Where the spec is silent (server/domains/consultants/routes.ts has the rules): the period is chosen
 * from a few lengths (a week to a year); the list shows the newest first, each with its consultant's name
 * once accepted, its status (invited, active, expired, revoked) and until when; invited and active
 * grants can be revoked. The invitation link is mailed, never shown: it is a credential.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTANT_PERIOD_DAYS, consultantMessages as m } from '../../../common/messages/consultants';
import type { ConsultantAccess } from '../../api/consultants';
import { type SignedInUser, useAction } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormError, SelectField } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { dateText, inviteConsultant, revokeConsultant, useConsultants } from './hooks';
import { consultantsTexts } from './texts';
import './consultants.css';

/** A period of access as the form offers it: "1 week", "30 days", "1 year". */
const periodLabel = (days: number) =>
  days === 7 ? i18next.t('period.week', { ns: consultantsTexts }) : days === 365 ? i18next.t('period.year', { ns: consultantsTexts }) : i18next.t('period.days', { ns: consultantsTexts, count: days });

export function ConsultantsScreen() {
  const { t } = useTranslation(consultantsTexts);
  return <SignedIn title={t('title')}>{(user) => <Consultants user={user} />}</SignedIn>;
}

function Consultants({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(consultantsTexts);
  const online = useSyncStatus((status) => status.online);
  const read = useConsultants(user.companyId);
  const consultants = read.data ?? [];
  return (
    <Screen title={t('title')} offline={t('offline')} loading={online && read.loading && read.data === null}>
      {online && (
        <div className="consultants">
          <p className="muted">{t('about')}</p>
          <InviteForm companyId={user.companyId} onInvited={read.reload} />
          <section className="card" aria-labelledby="consultants-list">
            <h2 id="consultants-list">{t('list.heading')}</h2>
            {read.error ? (
              <div className="consultants-problem">
                <p className="error-text" role="alert">
                  {translateMessage(read.error)}
                </p>
                <button type="button" className="button" onClick={read.reload}>
                  {t('list.tryAgain')}
                </button>
              </div>
            ) : read.loading && read.data === null ? (
              <p className="muted" role="status">
                {t('list.loading')}
              </p>
            ) : consultants.length === 0 ? (
              <p className="empty">{t('list.none')}</p>
            ) : (
              <ul className="consultant-list" aria-label={t('list.label')}>
                {consultants.map((access) => (
                  <ConsultantRow key={access.access_id} access={access} onRevoked={read.reload} />
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </Screen>
  );
}

function InviteForm({ companyId, onInvited }: { companyId: number; onInvited: () => void }) {
  const { t } = useTranslation(consultantsTexts);
  const [email, setEmail] = useState('');
  const [days, setDays] = useState<number>(30);
  const invite = useAction(inviteConsultant, m.invited, { inlineErrors: true });
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await invite.run({ email, days, companyId })) {
      setEmail('');
      onInvited();
    }
  }
  return (
    <section className="card" aria-labelledby="consultants-invite">
      <h2 id="consultants-invite">{t('invite.heading')}</h2>
      <form className="form consultant-invite" onSubmit={(event) => void submit(event)} noValidate aria-label={t('invite.heading')}>
        <Field label={t('invite.email')}>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
        </Field>
        <SelectField label={t('invite.period')}>
          {(id) => (
            <select id={id} value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {CONSULTANT_PERIOD_DAYS.map((period) => (
                <option key={period} value={period}>
                  {periodLabel(period)}
                </option>
              ))}
            </select>
          )}
        </SelectField>
        <FormError error={invite.error} />
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={invite.busy}>
            {invite.busy ? t('invite.sending') : t('invite.send')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** When a grant ends or ended, as the list says it. */
function untilText(access: ConsultantAccess): string {
  const t = i18next.getFixedT(null, consultantsTexts);
  switch (access.status) {
    case 'invited':
      return t('until.invited', { invited: dateText(access.invited_at), until: dateText(access.expires_at) });
    case 'active':
      return t('until.active', { until: dateText(access.expires_at) });
    case 'expired':
      return t('until.expired', { until: dateText(access.expires_at) });
    case 'revoked':
      return t('until.revoked', { revoked: dateText(access.revoked_at) });
  }
}

function ConsultantRow({ access, onRevoked }: { access: ConsultantAccess; onRevoked: () => void }) {
  const { t } = useTranslation(consultantsTexts);
  const [asking, setAsking] = useState(false);
  const revoke = useAction(revokeConsultant, m.revoked);
  const name = [access.first_name, access.last_name].filter(Boolean).join(' ').trim();
  const who = name || access.email;
  const revocable = access.status === 'invited' || access.status === 'active';
  const status = t(`status.${access.status}`);
  return (
    <li className="consultant-row" aria-label={t('list.row', { who, status })}>
      <span className="consultant-name">{who}</span>
      <span className={`chip consultant-status ${access.status}`}>{status}</span>
      {name && <span className="muted consultant-email">{access.email}</span>}
      <span className="consultant-until">{untilText(access)}</span>
      {revocable &&
        (asking ? (
          <ConfirmPanel
            className="consultant-actions"
            question={t('revoke.question', { who })}
            message={t('revoke.message', { who })}
            confirmLabel={t('revoke.confirm')}
            keepLabel={t('revoke.keep')}
            busy={revoke.busy}
            onKeep={() => setAsking(false)}
            onConfirm={() => void revoke.run({ accessId: access.access_id }).then((done) => done && onRevoked())}
          />
        ) : (
          <div className="form-actions consultant-actions">
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              {t('revoke.ask')}
            </button>
          </div>
        ))}
    </li>
  );
}
