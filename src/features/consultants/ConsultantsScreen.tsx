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
import { CONSULTANT_PERIOD_DAYS, type ConsultantStatus, consultantMessages as m } from '../../../common/messages/consultants';
import type { ConsultantAccess } from '../../api/consultants';
import { type SignedInUser, useAction } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormError, SelectField } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { dateText, inviteConsultant, revokeConsultant, useConsultants } from './hooks';
import './consultants.css';

const TITLE = 'Consultants';
const OFFLINE_TEXT = 'Offline: consultants are invited and revoked on the server. Their list shows when the connection returns.';

const STATUS_LABELS: Record<ConsultantStatus, string> = { invited: 'Invited', active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const periodLabel = (days: number) => (days === 7 ? '1 week' : days === 365 ? '1 year' : `${days} days`);

export function ConsultantsScreen() {
  return <SignedIn title={TITLE}>{(user) => <Consultants user={user} />}</SignedIn>;
}

function Consultants({ user }: { user: SignedInUser }) {
  const online = useSyncStatus((status) => status.online);
  const read = useConsultants(user.companyId);
  const consultants = read.data ?? [];
  return (
    <Screen title={TITLE} offline={OFFLINE_TEXT} loading={online && read.loading && read.data === null}>
      {online && (
        <div className="consultants">
          <p className="muted">
            A consultant reads your rooms, observations, problems, reports and tasks, and may comment on observations. They change nothing else, and their access ends
            on its date or when you revoke it.
          </p>
          <InviteForm companyId={user.companyId} onInvited={read.reload} />
          <section className="card" aria-labelledby="consultants-list">
            <h2 id="consultants-list">Consultants and their access</h2>
            {read.error ? (
              <div className="consultants-problem">
                <p className="error-text" role="alert">
                  {read.error}
                </p>
                <button type="button" className="button" onClick={read.reload}>
                  Try again
                </button>
              </div>
            ) : read.loading && read.data === null ? (
              <p className="muted" role="status">
                Loading the consultants…
              </p>
            ) : consultants.length === 0 ? (
              <p className="empty">No consultants yet. Invite one above.</p>
            ) : (
              <ul className="consultant-list" aria-label="Consultants">
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
      <h2 id="consultants-invite">Invite a consultant</h2>
      <form className="form consultant-invite" onSubmit={(event) => void submit(event)} noValidate aria-label="Invite a consultant">
        <Field label="Consultant’s email">
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" />
        </Field>
        <SelectField label="Access for">
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
            {invite.busy ? 'Sending…' : 'Send invitation'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** When a grant ends or ended, as the list says it. */
function untilText(access: ConsultantAccess): string {
  switch (access.status) {
    case 'invited':
      return `Invited ${dateText(access.invited_at)} · access until ${dateText(access.expires_at)}`;
    case 'active':
      return `Until ${dateText(access.expires_at)}`;
    case 'expired':
      return `Ended ${dateText(access.expires_at)}`;
    case 'revoked':
      return `Revoked ${dateText(access.revoked_at)}`;
  }
}

function ConsultantRow({ access, onRevoked }: { access: ConsultantAccess; onRevoked: () => void }) {
  const [asking, setAsking] = useState(false);
  const revoke = useAction(revokeConsultant, m.revoked);
  const name = [access.first_name, access.last_name].filter(Boolean).join(' ').trim();
  const who = name || access.email;
  const revocable = access.status === 'invited' || access.status === 'active';
  return (
    <li className="consultant-row" aria-label={`${who}, ${STATUS_LABELS[access.status]}`}>
      <span className="consultant-name">{who}</span>
      <span className={`chip consultant-status ${access.status}`}>{STATUS_LABELS[access.status]}</span>
      {name && <span className="muted consultant-email">{access.email}</span>}
      <span className="consultant-until">{untilText(access)}</span>
      {revocable &&
        (asking ? (
          <ConfirmPanel
            className="consultant-actions"
            question={`Revoke the access of ${who}?`}
            message={`${who} loses access to your company at once.`}
            confirmLabel="Revoke access"
            keepLabel="Keep access"
            busy={revoke.busy}
            onKeep={() => setAsking(false)}
            onConfirm={() => void revoke.run({ accessId: access.access_id }).then((done) => done && onRevoked())}
          />
        ) : (
          <div className="form-actions consultant-actions">
            <button type="button" className="button danger" onClick={() => setAsking(true)}>
              Revoke…
            </button>
          </div>
        ))}
    </li>
  );
}
