/** "Install this app", where the browser offers to install it (src/app/install.ts; issue 19). */
import { useTranslation } from 'react-i18next';
import { install, useInstallOffer } from '../../app/install';
import { shellTexts } from './texts';

export function InstallOffer() {
  const { t } = useTranslation(shellTexts);
  const offered = useInstallOffer();
  if (!offered) return null;
  return (
    <button type="button" className="button install-offer" onClick={() => void install()}>
      {t('install.offer')}
    </button>
  );
}
