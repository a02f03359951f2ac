/**
 * Moving a batch's plants to another room (move_plants): the batch leaves the old room (its room,
 * grid and box links there) and is linked to the new one, where the grower then places it in boxes.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { batchMessages, movePlants } from '../../api/batches';
import { useAction } from '../../app/hooks';
import type { Places } from './hooks';
import { roomName, type LocalBatch } from './model';
import { FormError } from '../shell/forms';
import { NameOptions } from './Entries';
import { batchesTexts } from './texts';

export function MovePanel(props: { batch: LocalBatch; places: Places; roomIds: string[]; onDone: () => void }) {
  const { t } = useTranslation(batchesTexts);
  const { batch, places } = props;
  const [pickedFrom, setFrom] = useState('');
  const from = props.roomIds.includes(pickedFrom) ? pickedFrom : (props.roomIds[0] ?? '');
  const targets = places.rooms.filter((room) => room.id !== from);
  const [to, setTo] = useState('');
  const target = targets.some((room) => room.id === to) ? to : (targets[0]?.id ?? '');
  const move = useAction(movePlants, batchMessages.moved);

  if (props.roomIds.length === 0) {
    return <p className="empty">{t('move.notInRoom', { number: batch.BatchNumber })}</p>;
  }
  if (places.rooms.length < 2) {
    return <p className="empty">{t('move.noOtherRoom')}</p>;
  }

  async function submit() {
    if (await move.run({ batchId: batch.BatchID, oldRoomId: from, newRoomId: target })) props.onDone();
  }

  return (
    <div className="form">
      <label>
        {t('move.fromRoom')}
        <select value={from} onChange={(event) => setFrom(event.target.value)}>
          {props.roomIds.map((id) => (
            <option key={id} value={id}>
              {roomName(places.roomsById.get(id))}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('move.toRoom')}
        <select value={target} onChange={(event) => setTo(event.target.value)}>
          <NameOptions items={targets} />
        </select>
      </label>
      <p className="muted">{t('move.help', { room: roomName(places.roomsById.get(from)) })}</p>
      <FormError banner error={move.error} />
      <div className="bt-row-actions">
        <button type="button" className="button primary" disabled={move.busy || !target} onClick={() => void submit()}>
          {move.busy ? t('move.moving') : t('move.submit')}
        </button>
        <button type="button" className="button" onClick={props.onDone}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
