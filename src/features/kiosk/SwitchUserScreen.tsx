/**
 * The shared kiosk's switch screen (/switchUser, open signed out too). Reached from "Switch user" in
 * the top bar: the user at the screen is parked (still signed in, their changes keep syncing under
 * their own session) and the next one taps their name and PIN, or "Another user" to sign in with a
 * password. A user without a PIN on this tablet sets one first, so they can come back without their
 * password. Also where a full sign-out lands while other users are parked.
 *
 * Where the spec is silent (it has no kiosk): five wrong PINs lock PIN switching for that user (the
 * API's rule) and the screen then offers the password sign-in; users whose session is no longer on
 * the tablet but whose changes wait are listed apart, with how many, so nobody wonders where they went.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { kioskMessages } from '../../../common/messages/kiosk';
import { kioskMembers, setPin } from '../../api/kiosk';
import { homeOf } from '../../app/home';
import { messageOf, translateMessage } from '../../i18n/messages';
import { kiosk, session } from '../../app/services';
import { useSyncStatus } from '../../sync/sync-store';
import { FormError } from '../shell/forms';
import { switchAway, switchTo } from './actions';
import { Keypad, PinField } from './PinPad';
import { useUserNames } from './useUserNames';
import './kiosk.css';
import { kioskTexts } from './texts';

type Member = ReturnType<typeof kioskMembers>[number];

/** What the screen shows: the signed-in user's PIN to set first, the list, or one user's PIN pad. */
type Stage = { kind: 'starting' } | { kind: 'set-pin'; userId: number } | { kind: 'list' } | { kind: 'pin'; member: Member };

export function SwitchUserScreen() {
  const { t } = useTranslation(kioskTexts);
  const navigate = useNavigate();
  const [stage, setStage] = useState<Stage>({ kind: 'starting' });
  const [error, setError] = useState<string | null>(null);
  const nameOf = useUserNames();

  useEffect(() => {
    let alive = true;
    void (async () => {
      const current = await session.get();
      if (!current) return alive && setStage({ kind: 'list' });
      // The user at the screen steps away: with a PIN they are parked at once, else they set one first.
      const hasPin = kioskMembers(kiosk).some((member) => member.userId === current.user_id);
      if (!hasPin) return alive && setStage({ kind: 'set-pin', userId: current.user_id });
      try {
        await switchAway();
      } catch (caught) {
        if (alive) setError(messageOf(caught));
      }
      if (alive) setStage({ kind: 'list' });
    })();
    return () => {
      alive = false;
    };
  }, []);

  const back = async () => {
    const current = await session.get();
    await navigate({ to: current ? homeOf(session.role()) : '/signIn', replace: true });
  };

  if (stage.kind === 'starting') return null;
  if (stage.kind === 'set-pin') {
    return (
      <main className="page kiosk-page">
        <SetPinForm
          userId={stage.userId}
          onDone={async () => {
            await switchAway();
            setStage({ kind: 'list' });
          }}
          onCancel={() => void back()}
        />
      </main>
    );
  }
  if (stage.kind === 'pin') {
    return (
      <main className="page kiosk-page">
        <PinPrompt member={stage.member} name={nameOf(stage.member.userId)} onBack={() => setStage({ kind: 'list' })} onSwitched={(home) => void navigate({ to: home, replace: true })} onPassword={() => void navigate({ to: '/signIn' })} />
      </main>
    );
  }
  return (
    <main className="page kiosk-page">
      <h1>{t('switchUser.title')}</h1>
      <p>{t('switchUser.intro')}</p>
      <FormError error={error} banner />
      <MemberList
        onPick={(member) => (member.parked && !member.locked ? setStage({ kind: 'pin', member }) : void navigate({ to: '/signIn' }))}
        another={
          <div className="kiosk-actions">
            <button type="button" className="button primary kiosk-another" onClick={() => void navigate({ to: '/signIn' })}>
              {t('switchUser.anotherUser')}
            </button>
          </div>
        }
      />
    </main>
  );
}

/** The kiosk's users as large buttons, with their changes waiting; then those waiting to sign in again. */
function MemberList({ onPick, another }: { onPick: (member: Member) => void; another: ReactNode }) {
  const members = kioskMembers(kiosk);
  const users = useSyncStatus((status) => status.users);
  const { t } = useTranslation(kioskTexts);
  const nameOf = useUserNames();
  const pendingOf = (userId: number | null) => users.find((user) => user.userId === userId)?.pending ?? 0;
  // Changes of users who signed out fully: kept here, sent when they sign in again.
  const signedOut = users.filter((user) => user.pending > 0 && !user.signedIn && !members.some((member) => member.userId === user.userId));
  return (
    <>
      {members.length === 0 ? (
        <p className="empty">{t('switchUser.nobody')}</p>
      ) : (
        <ul className="kiosk-members" aria-label={t('switchUser.members')}>
          {members.map((member) => (
            <li key={member.userId}>
              <button type="button" className="kiosk-member" onClick={() => onPick(member)} data-user={member.userId}>
                <span className="kiosk-member-name">{nameOf(member.userId)}</span>
                <span className="kiosk-member-facts">{pendingOf(member.userId) > 0 ? t('switchUser.changesWaiting', { count: pendingOf(member.userId) }) : t('switchUser.noChangesWaiting')}</span>
                {(member.locked || !member.parked) && <span className="kiosk-member-note">{t('switchUser.usePassword')}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {another}
      {signedOut.length > 0 && (
        <section className="card kiosk-waiting" aria-labelledby="kiosk-waiting">
          <h2 id="kiosk-waiting">{t('switchUser.waitingForAuthors')}</h2>
          <ul>
            {signedOut.map((user) => (
              <li key={user.userId ?? 'none'}>
                {t(user.userId === null ? 'switchUser.keptForUnknown' : 'switchUser.keptForUser', { name: nameOf(user.userId), count: user.pending })}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** One user's PIN: a wrong one says how many tries are left; locked, it offers the password sign-in. */
function PinPrompt({ member, name, onBack, onSwitched, onPassword }: { member: Member; name: string; onBack: () => void; onSwitched: (home: string) => void; onPassword: () => void }) {
  const [pin, setPinValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [locked, setLocked] = useState(member.locked);
  const { t } = useTranslation(kioskTexts);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSwitched(await switchTo(member.userId, pin));
    } catch (caught) {
      setError(messageOf(caught));
      setPinValue('');
      setLocked(kioskMembers(kiosk).find((other) => other.userId === member.userId)?.locked ?? false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="kiosk-pin" onSubmit={(event) => void submit(event)} aria-label={t('pinPrompt.label', { name })} noValidate>
      <h1>{name}</h1>
      {!locked && <p>{t('pinPrompt.typePin', { name })}</p>}
      {locked ? (
        <>
          <p className="banner error" role="alert">
            {translateMessage(kioskMessages.locked)}
          </p>
          <div className="kiosk-actions">
            <button type="button" className="button primary" onClick={onPassword}>
              {t('pinPrompt.usePassword')}
            </button>
            <button type="button" className="button" onClick={onBack}>
              {t('back')}
            </button>
          </div>
        </>
      ) : (
        <>
          <PinField label={t('pin')} name="pin" value={pin} onChange={setPinValue} autoFocus invalid={Boolean(error)} />
          <FormError error={error} />
          <Keypad label={t('pin')} value={pin} onChange={setPinValue} disabled={busy} />
          <div className="kiosk-actions">
            <button type="submit" className="button primary" disabled={busy || pin.length < 4}>
              {busy ? t('pinPrompt.checking') : t('pinPrompt.switch')}
            </button>
            <button type="button" className="button" onClick={onBack}>
              {t('back')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}

/** The signed-in user sets a PIN for this tablet (4 to 8 digits, typed twice) before stepping away. */
function SetPinForm({ userId, onDone, onCancel }: { userId: number; onDone: () => Promise<void>; onCancel: () => void }) {
  const nameOf = useUserNames();
  const [pin, setPinValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const [active, setActive] = useState<'pin' | 'confirm'>('pin');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = nameOf(userId);
  const { t } = useTranslation(kioskTexts);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!/^\d{4,8}$/.test(pin)) return setError(kioskMessages.pinFormat);
    if (pin !== confirm) return setError(t('setPin.pinsDiffer'));
    setBusy(true);
    try {
      await setPin(kiosk, session, { pin, name });
      await onDone();
    } catch (caught) {
      setError(messageOf(caught));
      setBusy(false);
    }
  }

  const typing = active === 'pin' ? { label: t('pin'), value: pin, onChange: setPinValue } : { label: t('confirmPin'), value: confirm, onChange: setConfirm };
  return (
    <form className="kiosk-pin" onSubmit={(event) => void submit(event)} aria-label={t('setPin.title')} noValidate>
      <h1>{t('setPin.title')}</h1>
      <p>
        {t('setPin.intro', { name })}
      </p>
      <div className="pin-pair">
        <PinField label={t('pin')} name="pin" value={pin} onChange={setPinValue} onFocus={() => setActive('pin')} autoFocus />
        <PinField label={t('confirmPin')} name="confirm" value={confirm} onChange={setConfirm} onFocus={() => setActive('confirm')} />
      </div>
      <FormError error={error} />
      <Keypad {...typing} disabled={busy} />
      <div className="kiosk-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t('saving') : t('setPin.submit')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
