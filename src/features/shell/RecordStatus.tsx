import { reachedServer } from '../../api/records';
import { useSyncStatus } from '../../sync/sync-store';

/**
 * "Waiting to sync" (or `waitingLabel`, e.g. "Waiting to sync (with photo)") until the server has the
 * record; "Not accepted: …" when it refused it.
 */
export function RecordStatus({ document, waitingLabel = 'Waiting to sync' }: { document: { id: string }; waitingLabel?: string }) {
  const refused = useSyncStatus((status) => status.failed.find((entry) => entry.creates.includes(document.id))?.error ?? null);
  if (refused)
    return (
      <span className="chip refused" title={refused}>
        Not accepted: {refused}
      </span>
    );
  return reachedServer(document) ? null : <span className="chip waiting">{waitingLabel}</span>;
}
