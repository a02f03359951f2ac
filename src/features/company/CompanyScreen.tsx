/**
 * The company (spec part 1 §2 `company`, §3 "Users"; part 2 §3 "Pending invitation", §7): its details
 * and users from the company's local document (offline too), and for Admins the pending invitations
 * and inviting a user (src/api/users.ts). Invitations are online calls (the server mails the sign-up
 * link and must say at once whether the address is taken), so that part needs a connection and says so.
 *
 * Where the spec is silent:
 * - Users are sorted by last name, then first name; the signed-in user is marked "you".
 * - An Admin may withdraw a pending invitation (DELETE /delete_invitation), after confirming.
 * - The invitation's link is not shown: it is a credential, and it is mailed to the invited address.
 * - Admins reach the company's subscription (/Payments) from here.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionMessages as m } from '../../../common/messages/session';
import { createInvitation, deleteInvitation, type PendingInvitation, pendingInvitations } from '../../api/users';
import { useAction, useApiContext, type SignedInUser } from '../../app/hooks';
import { formatDate } from '../../i18n/format';
import { messageOf } from '../../i18n/messages';
import { SignedIn } from '../session/SignedIn';
import { Screen } from '../shell/Screen';
import { roleName } from '../shell/texts';
import { companyTexts } from './texts';
import { type CompanyDocument, useCompany, userName } from './useCompany';
import './company.css';

const dateText = (value: string | null | undefined) => formatDate(value, { year: 'numeric', month: 'short', day: 'numeric' }) || null;

export function CompanyScreen() {
  const { t } = useTranslation(companyTexts);
  return <SignedIn title={t('title')}>{(user) => <CompanyView user={user} />}</SignedIn>;
}

function CompanyView({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(companyTexts);
  const company = useCompany(user.companyId);
  const document = company.document;

  return (
    <Screen title={t('title')} loading={company.loading} empty={document ? null : t('arrivesWithSync')}>
      {document && (
        <div className="company">
          <CompanyDetails company={document} />
          <UserList company={document} user={user} />
          {user.isAdmin && <Invitations user={user} />}
          {user.isAdmin && <Subscription />}
        </div>
      )}
    </Screen>
  );
}

/** Where an Admin finds the company's plan (the spec's /Payments screen; src/features/payments). */
function Subscription() {
  const { t } = useTranslation(companyTexts);
  return (
    <section className="card" aria-labelledby="company-subscription">
      <h2 id="company-subscription">{t('subscription.heading')}</h2>
      <p>{t('subscription.text')}</p>
      <Link to="/Payments" className="button">
        {t('subscription.link')}
      </Link>
    </section>
  );
}

function CompanyDetails({ company }: { company: CompanyDocument }) {
  const { t } = useTranslation(companyTexts);
  const rows: Array<[string, string | null | undefined]> = [
    [t('details.contact'), company.contact_name],
    [t('details.contactEmail'), company.contact_email],
    [t('details.phone'), company.contact_phone],
    [t('details.type'), company.company_type],
    [t('details.since'), dateText(company.created_at)],
  ];
  const shown = rows.filter(([, value]) => value);
  return (
    <section className="card" aria-labelledby="company-name">
      <h2 id="company-name">{company.company_name || t('details.yourCompany')}</h2>
      {shown.length > 0 ? (
        <dl className="company-facts">
          {shown.map(([label, value]) => (
            <div key={label} className="company-fact">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">{t('details.none')}</p>
      )}
    </section>
  );
}

function UserList({ company, user }: { company: CompanyDocument; user: SignedInUser }) {
  const { t } = useTranslation(companyTexts);
  const users = useMemo(
    () =>
      [...(company.users ?? [])].sort(
        (a, b) => (a.last_name ?? '').localeCompare(b.last_name ?? '', undefined, { sensitivity: 'base' }) || (a.first_name ?? '').localeCompare(b.first_name ?? '', undefined, { sensitivity: 'base' }),
      ),
    [company.users],
  );
  return (
    <section className="card" aria-labelledby="company-users">
      <h2 id="company-users">{t('users.heading', { number: users.length })}</h2>
      {users.length === 0 ? (
        <p className="empty">{t('users.none')}</p>
      ) : (
        <ul className="user-list" aria-label={t('users.label')}>
          {users.map((member) => (
            <li key={member.user_id} className="user-row">
              <span className="user-name">
                {userName(member)}
                {member.user_id === user.userId && <span className="muted">{t('users.you')}</span>}
              </span>
              <span className="user-email">{member.email}</span>
              <span className={`role-chip ${member.role === 'Regular' ? '' : 'admin'}`}>{roleName(member.role)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Loaded = { state: 'loading' } | { state: 'loaded'; invitations: PendingInvitation[] } | { state: 'failed'; error: string };

function Invitations({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(companyTexts);
  const context = useApiContext();
  const [pending, setPending] = useState<Loaded>({ state: 'loading' });

  const load = useCallback(async () => {
    if (!context) return;
    setPending({ state: 'loading' });
    try {
      const invitations = await pendingInvitations(context, { companyId: user.companyId });
      setPending({ state: 'loaded', invitations: [...invitations].sort((a, b) => b.created_at.localeCompare(a.created_at)) });
    } catch (error) {
      setPending({ state: 'failed', error: messageOf(error) });
    }
  }, [context, user.companyId]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="card" aria-labelledby="company-invitations">
      <h2 id="company-invitations">{t('invitations.heading')}</h2>
      <p className="muted">{t('invitations.help')}</p>
      <InviteForm onInvited={() => void load()} />
      <h3>{t('invitations.pending')}</h3>
      {pending.state === 'loading' ? (
        <p className="muted">{t('invitations.loading')}</p>
      ) : pending.state === 'failed' ? (
        <div className="invite-problem">
          <p className="error-text" role="alert">
            {pending.error}
          </p>
          <button type="button" className="button" onClick={() => void load()}>
            {t('invitations.tryAgain')}
          </button>
        </div>
      ) : pending.invitations.length === 0 ? (
        <p className="empty">{t('invitations.none')}</p>
      ) : (
        <ul className="user-list" aria-label={t('invitations.pending')}>
          {pending.invitations.map((invitation) => (
            <InvitationRow key={invitation.invitation_id} invitation={invitation} onWithdrawn={() => void load()} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const { t } = useTranslation(companyTexts);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'Regular' | 'Admin'>('Regular');
  const invite = useAction(createInvitation, m.invitationCreated);
  const adminName = roleName('Admin');
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await invite.run({ email, role })) {
      setEmail('');
      onInvited();
    }
  }
  return (
    <form className="form invite-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('invite.label')}>
      <label>
        {t('invite.email')}
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
      </label>
      <label>
        {t('invite.role')}
        <select value={role} onChange={(event) => setRole(event.target.value as 'Regular' | 'Admin')}>
          <option value="Regular">{t('invite.regular')}</option>
          <option value="Admin">{adminName}</option>
        </select>
      </label>
      {invite.error && (
        <p className="error-text" role="alert">
          {invite.error}
        </p>
      )}
      <button className="button primary" type="submit" disabled={invite.busy}>
        {invite.busy ? t('invite.sending') : t('invite.send')}
      </button>
    </form>
  );
}

function InvitationRow({ invitation, onWithdrawn }: { invitation: PendingInvitation; onWithdrawn: () => void }) {
  const { t } = useTranslation(companyTexts);
  const [confirming, setConfirming] = useState(false);
  const withdraw = useAction(deleteInvitation, m.invitationDeleted);
  const expires = dateText(invitation.expires_at);
  return (
    <li className="user-row">
      <span className="user-name">{invitation.email}</span>
      <span className="user-email">{expires ? t('invitation.expires', { date: expires }) : ''}</span>
      <span className={`role-chip ${invitation.role === 'Regular' ? '' : 'admin'}`}>{roleName(invitation.role)}</span>
      {confirming ? (
        <span className="invite-actions" role="group" aria-label={t('invitation.withdrawQuestion', { email: invitation.email })}>
          <button type="button" className="button danger" disabled={withdraw.busy} onClick={() => void withdraw.run({ invitationId: invitation.invitation_id }).then((done) => done && onWithdrawn())}>
            {t('invitation.withdraw')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('invitation.keep')}
          </button>
        </span>
      ) : (
        <span className="invite-actions">
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            {t('invitation.withdrawAsk')}
          </button>
        </span>
      )}
    </li>
  );
}
