/**
 * "A new version of the app is ready": shown while a new version waits (src/register-service-worker.ts,
 * issue 19). The grower reloads when it suits them, not in the middle of a form; what they queued is
 * kept and sent by the new version.
 */
import { useTranslation } from 'react-i18next';
import { reloadIntoUpdate, useUpdateWaiting } from '../../register-service-worker';
import { useSyncStatus } from '../../sync/sync-store';
import { shellTexts } from './texts';

export function UpdateOffer() {
  const { t } = useTranslation(shellTexts);
  const waiting = useUpdateWaiting();
  const pending = useSyncStatus((status) => status.pending);
  if (!waiting) return null;
  return (
    <div className="banner update-offer" role="status">
      <p>{pending > 0 ? t('update.readyWithChanges', { count: pending }) : t('update.ready')}</p>
      <button type="button" className="button primary" onClick={reloadIntoUpdate}>
        {t('update.reload')}
      </button>
    </div>
  );
}
