/**
 * The signed-in user's profile (spec part 1 §2 `profile`, §3 "Threshold", §4; part 2 §7
 * `update_location`): who they are, their threshold and their location, from the company's local
 * document (its `users`), so the screen works offline.
 *
 * Spec part 1 §4: the threshold is loaded when a user id is present, and every later change is saved
 * automatically; §8: a failed save is only logged (setThreshold does that), a refusal by the server
 * shows in the sync indicator. The screen saves a typed threshold a moment after typing stops.
 *
 * Where the spec is silent: the location is free text (a site, a greenhouse, a town),
 * saved with its button; the threshold accepts any number, as the server does.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionMessages as m } from '../../../common/messages/session';
import { setThreshold, updateLocation } from '../../api/users';
import { useAction, useApiContext, type SignedInUser } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import { useCompany, userName } from '../company/useCompany';
import { SignedIn } from '../session/SignedIn';
import { Screen } from '../shell/Screen';
import { roleName } from '../shell/texts';
import './profile.css';
import { profileTexts } from './texts';

/** How long after the last keystroke a threshold is saved. */
const THRESHOLD_SAVE_DELAY_MS = 800;

export function ProfileScreen() {
  const { t } = useTranslation(profileTexts);
  return <SignedIn title={t('title')}>{(user) => <Profile user={user} />}</SignedIn>;
}

function Profile({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(profileTexts);
  const company = useCompany(user.companyId);
  const me = company.document?.users?.find((candidate) => candidate.user_id === user.userId) ?? null;

  return (
    <Screen
      title={t('title')}
      loading={company.loading}
      empty={me ? null : t('arrivesWithSync')}
    >
      {me && (
        <div className="profile">
          <section className="card profile-who" aria-label={t('you')}>
            <h2>{userName(me)}</h2>
            <dl className="facts">
              <dt>{t('email')}</dt>
              <dd>{me.email}</dd>
              <dt>{t('role')}</dt>
              <dd>{roleName(me.role)}</dd>
              {company.document?.company_name && (
                <>
                  <dt>{t('company')}</dt>
                  <dd>{company.document.company_name}</dd>
                </>
              )}
            </dl>
          </section>
          <ThresholdSetting user={user} value={me.threshold} />
          <LocationSetting user={user} value={me.location} />
        </div>
      )}
    </Screen>
  );
}

function ThresholdSetting({ user, value }: { user: SignedInUser; value: number | null }) {
  const { t } = useTranslation(profileTexts);
  const context = useApiContext();
  const current = value === null ? '' : String(value);
  const [draft, setDraft] = useState(current);
  const [state, setState] = useState<'idle' | 'waiting' | 'saved'>('idle');
  const editing = useRef(false);
  // Another tablet's change arrives by the pull: shown unless the grower is typing.
  useEffect(() => {
    if (!editing.current) setDraft(current);
  }, [current]);

  useEffect(() => {
    if (!context || !editing.current) return undefined;
    const threshold = Number(draft);
    if (draft.trim() === '' || !Number.isFinite(threshold) || draft === current) return undefined;
    setState('waiting');
    const timer = setTimeout(() => {
      editing.current = false;
      // Never throws: a failure is only logged (spec part 1 §8).
      void setThreshold(context, { userId: user.userId, threshold }).then(() => setState('saved'));
    }, THRESHOLD_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [context, draft, current, user.userId]);

  const invalid = draft.trim() !== '' && !Number.isFinite(Number(draft));
  return (
    <section className="card profile-setting" aria-labelledby="profile-threshold">
      <h2 id="profile-threshold">{t('threshold.heading')}</h2>
      <p className="muted">{t('threshold.help')}</p>
      <input
          aria-label={t('threshold.heading')}
          type="number"
          inputMode="decimal"
          step="any"
          value={draft}
          onChange={(event) => {
            editing.current = true;
            setState('idle');
            setDraft(event.target.value);
          }}
        />
      <p className="muted" role="status">
        {invalid ? translateMessage(m.thresholdRequired) : state === 'waiting' ? t('threshold.saving') : state === 'saved' ? t('threshold.saved') : value === null ? t('threshold.notSet') : ''}
      </p>
    </section>
  );
}

function LocationSetting({ user, value }: { user: SignedInUser; value: string | null }) {
  const { t } = useTranslation(profileTexts);
  const [draft, setDraft] = useState(value ?? '');
  const save = useAction(updateLocation, m.locationUpdated);
  useEffect(() => setDraft(value ?? ''), [value]);
  function submit(event: FormEvent) {
    event.preventDefault();
    void save.run({ userId: user.userId, location: draft });
  }
  return (
    <section className="card profile-setting" aria-labelledby="profile-location">
      <h2 id="profile-location">{t('location.heading')}</h2>
      <p className="muted">{t('location.help')}</p>
      <form className="profile-form" onSubmit={submit} noValidate>
        <input aria-label={t('location.heading')} value={draft} onChange={(event) => setDraft(event.target.value)} autoComplete="off" />
        <button className="button primary" type="submit" disabled={save.busy}>
          {t('location.save')}
        </button>
      </form>
      {save.error && (
        <p className="error-text" role="alert">
          {save.error}
        </p>
      )}
    </section>
  );
}
