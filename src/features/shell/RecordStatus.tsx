import { reachedServer } from '../../api/records';
import { useSyncStatus } from '../../sync/sync-store';
import { useTranslation } from 'react-i18next';
import { shellTexts } from './texts';
import { translateMessage } from '../../i18n/messages';

/**
 * "Waiting to sync" (or `waitingLabel`, e.g. "Waiting to sync (with photo)") until the server has the
 * record; "Not accepted: …" when it refused it.
 */
export function RecordStatus({ document, waitingLabel }: { document: { id: string }; waitingLabel?: string }) {
  const { t } = useTranslation(shellTexts);
  const refused = useSyncStatus((status) => status.failed.find((entry) => entry.creates.includes(document.id))?.error ?? null);
  if (refused)
    return (
      <span className="chip refused" title={translateMessage(refused)}>
        {t('record.notAccepted', { reason: translateMessage(refused) })}
      </span>
    );
  return reachedServer(document) ? null : <span className="chip waiting">{waitingLabel ?? t('record.waiting')}</span>;
}
