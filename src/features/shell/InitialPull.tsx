/**
 * A new tablet's first pull of the company's data, said as such: the screens that list company data
 * show this (with its progress) instead of their empty state while it runs, so a grower never reads
 * "No rooms yet" about a company that has rooms (issue 11, "Saying what is happening").
 */
import { useSyncStatus } from '../../sync/sync-store';
import type { InitialPull as Progress } from '../../../sync/types';
import { useTranslation } from 'react-i18next';
import { shellTexts } from './texts';
import { formatNumber } from '../../i18n/format';

/** The first pull's progress while it runs; null once this tablet holds the company's data. */
export function useInitialPull(): Progress | null {
  return useSyncStatus((status) => status.initialPull);
}

/** "Loading your company's data… (3 of 12 collections, 1,250 records)" with a progress bar. */
export function InitialPull({ progress }: { progress: Progress }) {
  const { t } = useTranslation(shellTexts);
  const counted = progress.total > 0;
  const text = counted ? t('initialPull.counted', { done: progress.done, total: progress.total, count: progress.documents, records: formatNumber(progress.documents) }) : t('initialPull.loading');
  return (
    <div className="initial-pull card" role="status" aria-live="polite">
      <p>{text}</p>
      {/* Without a total yet the bar is indeterminate (no value). */}
      <progress aria-label={t('initialPull.label')} max={counted ? progress.total : undefined} value={counted ? progress.done : undefined} />
      <p className="muted">{t('initialPull.firstTime')}</p>
    </div>
  );
}

/** The first pull's progress where a screen would say it is empty; nothing once the data is here. */
export function InitialPullNotice() {
  const progress = useInitialPull();
  return progress ? <InitialPull progress={progress} /> : null;
}
