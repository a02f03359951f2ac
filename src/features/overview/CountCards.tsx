/**
 * The dashboards' counts as cards: each a number growers read from across the bench, and where it leads.
 * A card is named by what it shows, number first ("3 Rooms"), with no aria-label of its own: a name
 * that reads otherwise ("Rooms: 3") cannot be spoken by voice control from what is on the screen.
 */
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format';
import { useSyncStatus } from '../../sync/sync-store';
import { overviewTexts } from './texts';
import type { FarmCounts } from './useFarmCounts';

type Destination = '/dashboard/rooms' | '/dashboard/batches';

export function CountCards({ counts }: { counts: FarmCounts }) {
  const { t } = useTranslation(overviewTexts);
  const pending = useSyncStatus((status) => status.pending);
  const failed = useSyncStatus((status) => status.failed.length);
  const cards: Array<{ key: string; label: string; value: number; to?: Destination; tone?: 'warn' | 'danger' }> = [
    { key: 'rooms', label: t('cards.rooms'), value: counts.rooms, to: '/dashboard/rooms' },
    { key: 'grids', label: t('cards.grids'), value: counts.grids, to: '/dashboard/rooms' },
    { key: 'plants', label: t('cards.plants'), value: counts.plants, to: '/dashboard/rooms' },
    { key: 'culled', label: t('cards.culled'), value: counts.culled },
    { key: 'batches', label: t('cards.batches'), value: counts.batches, to: '/dashboard/batches' },
    { key: 'problems', label: t('cards.problems'), value: counts.openProblems, to: '/dashboard/batches', tone: counts.openProblems > 0 ? 'warn' : undefined },
    { key: 'pending', label: failed > 0 ? t('cards.pendingFailed', { failed: formatNumber(failed) }) : t('cards.pending'), value: pending, tone: failed > 0 ? 'danger' : pending > 0 ? 'warn' : undefined },
  ];
  return (
    <ul className="count-cards" aria-label={t('cards.label')}>
      {cards.map((card) => {
        // The space between the two is for the name ("3 Rooms"): the flex column shows none.
        const body = (
          <>
            <span className="count-value">{formatNumber(card.value)}</span>{' '}
            <span className="count-label">{card.label}</span>
          </>
        );
        return (
          <li key={card.key} className={`card count-card${card.tone ? ` ${card.tone}` : ''}`} data-count={card.key} data-value={card.value}>
            {card.to ? (
              <Link to={card.to} className="count-link">
                {body}
              </Link>
            ) : (
              <div className="count-link">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
