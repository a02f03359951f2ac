/** Shown while a screen's code or data loads (spec part 1 §2: "Loading..."). */
import { useTranslation } from 'react-i18next';
import { appTexts } from '../../app/texts';

export function Loading() {
  // The fallback of every screen's loading must not itself wait for Spanish or Dutch: English until they arrive.
  const { t } = useTranslation(appTexts, { useSuspense: false });
  return (
    <p className="loading" role="status" aria-live="polite">
      {t('loading')}
    </p>
  );
}
