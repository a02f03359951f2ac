/**
 * The two forms of the trail: recording an event by hand (everyone; spec part 2 §7 add_audit_event)
 * and an Admin's correction of one (update_audit_event: title, room, batch). Both take a title and an
 * optional room and batch of this tablet; a correction sends only what changed.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditMessages as m } from '../../../common/messages/audit';
import { addAuditEvent, updateAuditEvent } from '../../api/audit';
import type { RecordId } from '../../api/records';
import { useAction } from '../../app/hooks';
import { Field, FormButtons, FormError } from '../shell/forms';
import type { TrailNames } from './hooks';
import type { TrailEvent } from './model';
import { auditTexts } from './texts';

/** A link the tablet cannot show by name (a room or batch it does not hold): kept as it is unless changed. */
const UNCHANGED = '\u0000unchanged';

function linkValue(reference: unknown, index: ReadonlyMap<string, { id: string }>): string {
  if (reference === null || reference === undefined) return '';
  return index.get(String(reference))?.id ?? UNCHANGED;
}

function PlaceSelects(props: { names: TrailNames; room: string; batch: string; onRoom: (value: string) => void; onBatch: (value: string) => void }) {
  const { t } = useTranslation(auditTexts);
  const { names } = props;
  return (
    <div className="audit-form-row">
      <Field label={t('form.roomOptional')}>
        <select value={props.room} onChange={(event) => props.onRoom(event.target.value)}>
          <option value="">{t('form.noRoom')}</option>
          {props.room === UNCHANGED && <option value={UNCHANGED}>{t('form.roomUnchanged')}</option>}
          {names.rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.Name || t('unnamedRoom')}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('form.batchOptional')}>
        <select value={props.batch} onChange={(event) => props.onBatch(event.target.value)}>
          <option value="">{t('form.noBatch')}</option>
          {props.batch === UNCHANGED && <option value={UNCHANGED}>{t('form.batchUnchanged')}</option>}
          {names.batches.map((batch) => (
            <option key={batch.id} value={batch.id}>
              {batch.BatchNumber || t('unnamedBatch')}
              {batch.StrainName ? ` · ${batch.StrainName}` : ''}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

const linkOf = (value: string): RecordId | null => (value === '' ? null : value);

/** Records an event as the signed-in user; it shows at the top of the trail at once, online or not. */
export function RecordEventForm({ names, onDone }: { names: TrailNames; onDone: () => void }) {
  const { t } = useTranslation(auditTexts);
  const [title, setTitle] = useState('');
  const [room, setRoom] = useState('');
  const [batch, setBatch] = useState('');
  const record = useAction(addAuditEvent, m.added);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await record.run({ eventTitle: title, roomId: linkOf(room), batchId: linkOf(batch) })) onDone();
  }

  return (
    <form className="form card audit-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('recordEvent')}>
      <h2>{t('recordEvent')}</h2>
      <p className="muted">{t('form.recordHelp')}</p>
      <Field label={t('form.whatHappened')}>
        <input value={title} onChange={(event) => setTitle(event.target.value)} maxLength={500} autoComplete="off" autoFocus />
      </Field>
      <PlaceSelects names={names} room={room} batch={batch} onRoom={setRoom} onBatch={setBatch} />
      <FormError error={record.error} />
      <FormButtons className="audit-actions" submitLabel={t('form.recordSubmit')} busy={record.busy} onCancel={onDone} />
    </form>
  );
}

export interface Correction {
  EventTitle?: string;
  RoomID?: RecordId | null;
  BatchID?: RecordId | null;
}

/** An Admin's correction of an event, in its card. `onSaved` gets what changed (nothing when nothing did). */
export function CorrectEventForm({ item, names, onSaved, onCancel }: { item: TrailEvent; names: TrailNames; onSaved: (changes: Correction) => void; onCancel: () => void }) {
  const { t } = useTranslation(auditTexts);
  const { event } = item;
  const initial = { title: event.EventTitle, room: linkValue(event.RoomID, names.roomIndex), batch: linkValue(event.BatchID, names.batchIndex) };
  const [title, setTitle] = useState(initial.title);
  const [room, setRoom] = useState(initial.room);
  const [batch, setBatch] = useState(initial.batch);
  const correct = useAction(updateAuditEvent, m.updated);

  async function submit(submitted: FormEvent) {
    submitted.preventDefault();
    const changes: Correction = {};
    if (title !== initial.title) changes.EventTitle = title;
    if (room !== initial.room) changes.RoomID = linkOf(room);
    if (batch !== initial.batch) changes.BatchID = linkOf(batch);
    if (Object.keys(changes).length === 0) return onSaved(changes);
    // The tablet's own document is named by its client id; an event read from the server by its id.
    const eventId: RecordId = item.document ? item.document.id : (event.EventID as RecordId);
    const done = await correct.run({ eventId, eventTitle: changes.EventTitle, roomId: changes.RoomID, batchId: changes.BatchID });
    if (done) onSaved(changes);
  }

  const name = t('form.correctLabel', { title: event.EventTitle });
  return (
    <form className="form audit-form audit-correct" onSubmit={(submitted) => void submit(submitted)} noValidate aria-label={name}>
      <Field label={t('form.title')}>
        <input value={title} onChange={(changed) => setTitle(changed.target.value)} maxLength={500} autoComplete="off" autoFocus />
      </Field>
      <PlaceSelects names={names} room={room} batch={batch} onRoom={setRoom} onBatch={setBatch} />
      <FormError error={correct.error} />
      <FormButtons className="audit-actions" submitLabel={t('form.saveCorrection')} busy={correct.busy} onCancel={onCancel} />
    </form>
  );
}
