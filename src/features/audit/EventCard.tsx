/**
 * One event of the trail: what happened, when and by whom, the room, batch and box it concerned, its
 * details in words, and its sync state when it was recorded on this tablet. Admins correct and delete
 * it here (deleting asks first, in the card); others see no such buttons, as the server would refuse them.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditMessages as m } from '../../../common/messages/audit';
import { deleteAuditEvent } from '../../api/audit';
import { reachedServer, type RecordId } from '../../api/records';
import { useAction } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { when } from '../rooms/model';
import { ConfirmPanel, FormError } from '../shell/forms';
import { type Correction, CorrectEventForm } from './EventForm';
import type { TrailNames } from './hooks';
import { describeDetails, type TrailEvent, whoDid } from './model';
import { auditTexts } from './texts';

export function EventCard(props: {
  item: TrailEvent;
  names: TrailNames;
  box: string | null;
  isAdmin: boolean;
  /** Told of a correction or deletion, so an event read from the server shows it before it is read again. */
  onChanged: (item: TrailEvent, changes: Correction | null) => void;
}) {
  const { t } = useTranslation(auditTexts);
  const { item, names } = props;
  const { event, document } = item;
  const [mode, setMode] = useState<'view' | 'correct' | 'delete'>('view');
  const remove = useAction(deleteAuditEvent, m.deleted);
  // Recorded on this tablet and refused by the server: the sync indicator offers retry and discard.
  const refused = useSyncStatus((status) => (document ? (status.failed.find((entry) => entry.creates.includes(document.id))?.error ?? null) : null));
  const pending = document !== null && !reachedServer(document);

  const room = event.RoomID === null ? null : (names.room(event.RoomID) ?? t('event.roomNotHere'));
  const batch = event.BatchID === null ? null : (names.batch(event.BatchID) ?? t('event.batchNotHere'));
  const facts = describeDetails(event.Details, names);
  const at = when(event.CreatedAt);
  // The server's titles are its words in English (common/messages/audit-titles.ts), read in the reader's
  // language; a title an Admin typed matches none of them and shows as typed.
  const title = translateMessage(event.EventTitle);

  async function confirmDelete() {
    const eventId: RecordId = document ? document.id : (event.EventID as RecordId);
    if (await remove.run({ eventId })) props.onChanged(item, null);
  }

  return (
    <li className={`card audit-event${pending ? ' pending' : ''}`} aria-label={title}>
      <div className="audit-event-head">
        {/* The event's title: the server's words in the reader's language, an Admin's as written (a record of the company's). */}
        <h3 data-record-text>{title}</h3>
        {refused ? (
          <span className="chip refused" title={translateMessage(refused)}>
            {t('event.notAccepted', { reason: translateMessage(refused) })}
          </span>
        ) : (
          pending && <span className="chip waiting">{t('event.waiting')}</span>
        )}
      </div>
      <p className="audit-meta">
        <time dateTime={event.CreatedAt}>{at || t('event.unknownTime')}</time> · {whoDid(event, names.users)}
      </p>
      {(room || batch || props.box) && (
        <p className="audit-places">
          {room && <span className="tag">{t('event.room', { name: room })}</span>}
          {batch && <span className="tag">{t('event.batch', { name: batch })}</span>}
          {props.box && <span className="tag">{t('event.box', { name: props.box })}</span>}
        </p>
      )}
      {facts.length > 0 && (
        <dl className="audit-details">
          {facts.map((fact, index) => (
            <div key={`${fact.label}-${index}`}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {props.isAdmin && mode === 'correct' && (
        <CorrectEventForm
          item={item}
          names={names}
          onCancel={() => setMode('view')}
          onSaved={(changes) => {
            setMode('view');
            if (Object.keys(changes).length > 0) props.onChanged(item, changes);
          }}
        />
      )}
      {props.isAdmin && mode === 'delete' && (
        <ConfirmPanel
          question={t('event.deleteQuestion', { title })}
          message={t('event.deleteMessage', { title })}
          busy={remove.busy}
          onConfirm={() => void confirmDelete()}
          onKeep={() => setMode('view')}
        />
      )}
      {props.isAdmin && mode === 'view' && (
        <div className="audit-actions">
          <button type="button" className="button" onClick={() => setMode('correct')}>
            {t('event.correct')}
          </button>
          <button type="button" className="button danger" onClick={() => setMode('delete')}>
            {t('event.delete')}
          </button>
        </div>
      )}
      <FormError error={remove.error} />
    </li>
  );
}
