/**
 * A consultant's bar at the top of every screen (issue 18 "Consultants"): "Read-only: consultant access
 * to <company> until <date>", and the switch to another company that granted them access. Once the
 * access ended (revoked or expired: the server refuses every request there, and the sync says so), it
 * says that instead, and offers the other companies or signing out.
 *
 * Their companies are read online (GET /consultants/my_companies), again whenever the sync meets a new
 * refusal, so a revocation shows as soon as the tablet next talks to the server. Offline the bar says
 * read-only with the company's name from the tablet's copy. A switch needs this user's changes sent
 * first (they belong to the company they were made in), then empties the tablet's store and loads the
 * app again on the new company's data (src/db/store-company.ts).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consultantClientMessages as cm } from '../../../common/messages/consultants';
import { type SignedInUser, useAction } from '../../app/hooks';
import { leaveOnPurpose } from '../../app/leaving';
import { translateMessage } from '../../i18n/messages';
import { holdNext } from '../../db/store-company';
import { useSyncStatus } from '../../sync/sync-store';
import { useCompany } from '../company/useCompany';
import { FormError, SelectField } from '../shell/forms';
import { dateText, switchCompany, useMyCompanies } from './hooks';
import { consultantsTexts } from './texts';
import './consultants.css';

export function ConsultantBar({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(consultantsTexts);
  const online = useSyncStatus((status) => status.online);
  // A new refusal (a failed change, a failed pull) may mean the access ended: read the companies again.
  const round = useSyncStatus((status) => `${status.failed.length}|${status.lastError ?? ''}`);
  const waiting = useSyncStatus((status) => {
    const mine = status.users.find((queue) => queue.userId === user.userId);
    return mine ? mine.pending - mine.failed : 0;
  });
  const read = useMyCompanies(online, round);
  const local = useCompany(user.companyId).document;
  const companies = read.data ?? [];
  const current = companies.find((company) => company.current) ?? null;
  const name = current?.company_name ?? local?.company_name ?? t('bar.thisCompany');
  const ended = read.data !== null && current === null;
  const others = companies.filter((company) => !company.current);

  return (
    <section className={`banner consultant-bar${ended ? ' ended' : ''}`} aria-label={t('bar.label')}>
      {ended ? (
        <p role="alert">
          {t('bar.ended', { name })} {others.length > 0 ? t('bar.endedSwitch') : t('bar.endedSignOut')}
        </p>
      ) : (
        <p role="status">
          <strong>{t('bar.readOnly')}</strong> {current ? t('bar.accessUntil', { name, date: dateText(current.expires_at) }) : t('bar.access', { name })}
        </p>
      )}
      {others.length > 0 && <CompanySwitch companies={others} waiting={waiting} />}
      {read.error && <span className="muted">{translateMessage(read.error)}</span>}
    </section>
  );
}

function CompanySwitch({ companies, waiting }: { companies: ReadonlyArray<{ company_id: number; company_name: string }>; waiting: number }) {
  const { t } = useTranslation(consultantsTexts);
  const [chosen, setChosen] = useState(String(companies[0]?.company_id ?? ''));
  const switching = useAction(
    async (context, companyId: number) => {
      if (waiting > 0) throw new Error(cm.pendingChanges);
      const session = await switchCompany(context, { companyId });
      holdNext(session.company_id);
      // A page load: the store is emptied before the new company's data is pulled into it.
      leaveOnPurpose('/dashboard/quickview');
    },
    undefined,
    { inlineErrors: true },
  );
  return (
    <form
      className="consultant-switch"
      aria-label={t('bar.switchLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        void switching.run(Number(chosen));
      }}
    >
      <SelectField label={t('bar.company')}>
        {(id) => (
          <select id={id} className="control" value={chosen} onChange={(event) => setChosen(event.target.value)}>
            {companies.map((company) => (
              <option key={company.company_id} value={company.company_id}>
                {company.company_name}
              </option>
            ))}
          </select>
        )}
      </SelectField>
      <button type="submit" className="button" disabled={switching.busy}>
        {switching.busy ? t('bar.switching') : t('bar.switch')}
      </button>
      <FormError error={switching.error} />
    </form>
  );
}
