/**
 * What the batch screens list the same way: one line of a batch's history, one of its problems, and the
 * rooms or grids offered in a select.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchProblemRecord } from '../../../common/schemas/batches';
import type { BatchEvent } from '../../api/batches';
import type { Places } from './hooks';
import { describeEvent, formatMoment, roomName, type UserLike, userName } from './model';
import { batchesTexts } from './texts';

export function HistoryEntry({ event, users, places }: { event: BatchEvent; users: UserLike[]; places: Places }) {
  // describeEvent's words are in the reader's language: this follows a change of language.
  useTranslation(batchesTexts);
  const by = userName(users, event.user_id);
  return (
    <li>
      <span>{describeEvent(event, places.roomsById)}</span>
      <small className="muted">
        {formatMoment(event.created_at)}
        {by ? ` · ${by}` : ''}
      </small>
    </li>
  );
}

/** `children`: the line under the problem (when and by whom it was reported, resolved). */
export function ProblemEntry({ problem, places, children }: { problem: BatchProblemRecord; places: Places; children: ReactNode }) {
  const { t } = useTranslation(batchesTexts);
  return (
    <li className={`bt-problem${problem.resolved ? ' bt-resolved' : ''}`}>
      <span className="bt-severity" aria-label={t('problems.severityLabel', { severity: problem.severity })}>
        {problem.severity}
      </span>
      <span className="bt-problem-text">
        <span>
          <strong>{problem.problem_type}</strong>
          {problem.room_id !== null && <span> · {roomName(places.roomsById.get(String(problem.room_id)))}</span>}
        </span>
        {problem.notes && <span className="bt-notes">{problem.notes}</span>}
        {children}
      </span>
    </li>
  );
}

/** A select's options for rooms or grids from the local store: the document's id as value, its Name as text. */
export function NameOptions({ items }: { items: { id: string; Name?: unknown }[] }) {
  return items.map((item) => (
    <option key={item.id} value={item.id}>
      {String(item.Name)}
    </option>
  ));
}
