/**
 * A box's latest observations in its panel (rooms/BoxPanel.tsx), each with "Make a task" or its task
 * (issue 16: a task is made from an observation, from the observations screen or the box panel).
 * Decision: the latest BOX_PANEL_RESPONSES only, from the tablet's copy; the observations screen has
 * the rest, by days.
 */
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { newestFirst } from '../../api/form-responses';
import { useLocalQuery } from '../../app/hooks';
import { ResponseCard } from '../observations/ResponseCard';
import type { CompanyDoc } from '../rooms/model';
import type { TaskResponseDoc } from './model';
import { TaskAction } from './TaskAction';
import { tasksTexts } from './texts';

const BOX_PANEL_RESPONSES = 3;

export function BoxObservations({ boxId, roomId, gridId, company }: { boxId: string; roomId: string; gridId: string; company: CompanyDoc | null }) {
  const { t } = useTranslation(tasksTexts);
  const list = useLocalQuery<TaskResponseDoc>('form_responses', { gridBoxId: boxId }, `box-responses-${boxId}`);
  const latest = useMemo(() => [...list.documents].sort(newestFirst).slice(0, BOX_PANEL_RESPONSES), [list.documents]);
  return (
    <section className="panel-section" aria-label={t('box.heading')}>
      <h3>{t('box.heading')}</h3>
      {list.loading ? (
        <p className="muted">{t('box.loading')}</p>
      ) : latest.length === 0 ? (
        <p className="muted">{t('box.none')}</p>
      ) : (
        <ul className="responses">
          {latest.map((response) => (
            <ResponseCard key={response.id} response={response} company={company}>
              <TaskAction response={response} />
            </ResponseCard>
          ))}
        </ul>
      )}
      {list.documents.length > latest.length && (
        <Link to="/dashboard/observations" search={{ room: roomId, grid: gridId }}>
          {t('box.all')}
        </Link>
      )}
    </section>
  );
}
