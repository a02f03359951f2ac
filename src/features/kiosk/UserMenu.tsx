/**
 * The top bar's user menu: who is at the screen, "Switch user" (the shared kiosk: they stay signed in
 * while someone else uses the tablet) and "Sign out" (fully). Both are buttons in sight, not behind a
 * menu: a tablet has no hover, and a grower in gloves should not need two taps to hand the tablet on.
 *
 * A full sign-out with changes still waiting says how many first, and that they stay on this tablet
 * and are sent when this user signs in again, never as someone else (issue 11); where the browser cannot
 * send with the app closed (issue 19), that what stays waits until the app is opened again.
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backgroundSendingSupported } from '../../app/background-sync';
import { useSignedInUser } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { signOutFully } from './actions';
import { useUserNames } from './useUserNames';
import './kiosk.css';
import { kioskTexts } from './texts';

export function UserMenu() {
  const { t } = useTranslation(kioskTexts);
  const navigate = useNavigate();
  const user = useSignedInUser();
  const nameOf = useUserNames();
  const waiting = useSyncStatus((status) => (user ? (status.users.find((queue) => queue.userId === user.userId)?.pending ?? 0) : 0));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = user ? nameOf(user.userId) : '';

  async function signOut() {
    setBusy(true);
    try {
      await navigate({ to: await signOutFully(), replace: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="user-menu" role="group" aria-label={name ? t('userMenu.signedInAs', { name }) : t('userMenu.signedIn')}>
      {name && <span className="user-name">{name}</span>}
      <button type="button" className="button" onClick={() => void navigate({ to: '/switchUser' })}>
        {t('userMenu.switchUser')}
      </button>
      <button type="button" className="button" disabled={busy} aria-expanded={waiting > 0 ? confirming : undefined} onClick={() => (waiting > 0 ? setConfirming(true) : void signOut())}>
        {t('userMenu.signOut')}
      </button>
      {confirming && (
        <div className="sign-out-panel" role="dialog" aria-label={t('userMenu.confirmLabel')}>
          <p className="sign-out-count" data-waiting={waiting}>
            {t('userMenu.waiting', { count: waiting })}
          </p>
          <p>
            {t('userMenu.staysHere', { count: waiting })}
          </p>
          {!backgroundSendingSupported() && <p className="sign-out-closed">{t('userMenu.onlyWhileOpen')}</p>}
          <div className="form-actions">
            <button type="button" className="button danger" disabled={busy} onClick={() => void signOut()}>
              {busy ? t('userMenu.signingOut') : t('userMenu.signOutNow')}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              {t('userMenu.staySignedIn')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
