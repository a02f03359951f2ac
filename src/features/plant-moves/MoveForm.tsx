/**
 * Moving one plant (move_plant): from a room, a box and a plant of it, to a box (of this room or
 * another) and a free position there, with a reason and notes. Everything it offers is read live from
 * the local store, and the move shows at once: the plant leaves its box, takes its new place and joins
 * the history as waiting until the server has it.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { subgridMessages } from '../../../common/messages/subgrids';
import { movePlant, type Position, type SubGridbox, subGridboxDisplayName, subGridboxesOf } from '../../api/subgrids';
import { useAction, type SignedInUser } from '../../app/hooks';
import type { PlacedBox } from '../forms/fill/model';
import type { CompanyDoc, RoomDoc } from '../rooms/model';
import { Field, FormButtons, FormError } from '../shell/forms';
import { parsePositionKey, positionChoices, positionKey } from './model';
import { BoxSelect, positionName, RoomSelect, useRoomBoxes } from './places';
import { plantMovesTexts } from './texts';

/** Sub-gridboxes holding a plant (one without a plant id cannot be moved: move_plant names the plant), row by row. */
const plantsOf = (placed: PlacedBox | undefined): SubGridbox[] =>
  subGridboxesOf(placed?.box ?? null)
    .filter((sub) => Boolean(sub.PlantID))
    .sort((a, b) => a.SubY - b.SubY || a.SubX - b.SubX);

export function MoveForm({ user, rooms, company }: { user: SignedInUser; rooms: RoomDoc[]; company: CompanyDoc | null }) {
  const { t } = useTranslation(plantMovesTexts);
  // A company with one room needs no choosing.
  const [roomChoice, setRoomChoice] = useState('');
  const roomId = roomChoice || (rooms.length === 1 ? rooms[0]!.id : '');
  const [boxId, setBoxId] = useState('');
  const [plantId, setPlantId] = useState('');
  // '' keeps the target room the same as the plant's.
  const [targetRoomChoice, setTargetRoomChoice] = useState('');
  const targetRoomId = targetRoomChoice || roomId;
  const [targetBoxId, setTargetBoxId] = useState('');
  // '' is the first free position of the target box, which follows the box as it fills.
  const [positionChoice, setPositionChoice] = useState('');
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  const move = useAction(movePlant, subgridMessages.moved, { inlineErrors: true });

  const source = useRoomBoxes(roomId || null, company);
  const target = useRoomBoxes(targetRoomId || null, company);
  const boxesWithPlants = useMemo(() => source.placed.filter((placed) => plantsOf(placed).length > 0), [source.placed]);
  const sourceBox = source.placed.find((placed) => placed.box.id === boxId);
  const plants = plantsOf(sourceBox);
  const plant = plants.find((sub) => String(sub.Sub_gridboxID) === plantId);
  const targetBox = target.placed.find((placed) => placed.box.id === targetBoxId);
  const occupants = subGridboxesOf(targetBox?.box ?? null);
  const choices = targetBox ? positionChoices(occupants.map((sub) => ({ subx: sub.SubX, suby: sub.SubY }))) : [];
  const chosenKey = choices.some((choice) => positionKey(choice.position) === positionChoice) ? positionChoice : choices[0] ? positionKey(choices[0].position) : '';

  function chooseRoom(id: string) {
    setRoomChoice(id);
    setBoxId('');
    setPlantId('');
    if (!targetRoomChoice) setTargetBoxId('');
  }
  function chooseTargetRoom(id: string) {
    setTargetRoomChoice(id === roomId ? '' : id);
    setTargetBoxId('');
    setPositionChoice('');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const position: Position | undefined = parsePositionKey(chosenKey) ?? undefined;
    const done = await move.run({
      // Blank when nothing is chosen: the domain function answers the spec's '… is required'.
      plantUid: plant?.PlantID ?? '',
      targetParentGridboxId: targetBox?.box.id ?? '',
      userId: user.userId,
      ...(position ? { targetPosition: position } : {}),
      ...(reason.trim() ? { movementReason: reason.trim() } : {}),
      ...(notes.trim() ? { notes: notes.trim() } : {}),
      ...(sourceBox ? { fromParentGridboxId: sourceBox.box.id } : {}),
    });
    if (done) {
      setPlantId('');
      setPositionChoice('');
      setNotes('');
    }
  }

  const noPlantsNote = !roomId
    ? null
    : source.loading
      ? t('move.loadingBoxes')
      : boxesWithPlants.length === 0
        ? t('move.noPlants')
        : null;

  return (
    <form className="form card move-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('move.title')}>
      <h2>{t('move.title')}</h2>
      <fieldset className="move-step">
        <legend>{t('move.plant')}</legend>
        <div className="move-fields">
          <RoomSelect label={t('move.room')} value={roomId} rooms={rooms} none={t('move.chooseRoom')} onChange={chooseRoom} />
          <BoxSelect
            label={t('move.box')}
            value={sourceBox ? boxId : ''}
            boxes={boxesWithPlants}
            none={roomId ? t('move.chooseBox') : t('move.chooseRoomFirst')}
            disabled={!roomId}
            note={(placed) => t('move.plantCount', { count: plantsOf(placed).length })}
            onChange={(id) => {
              setBoxId(id);
              setPlantId('');
            }}
          />
          <Field label={t('move.plant')}>
            <select value={plant ? plantId : ''} disabled={!sourceBox} onChange={(event) => setPlantId(event.target.value)}>
              <option value="">{sourceBox ? t('move.choosePlant') : t('move.chooseBoxFirst')}</option>
              {plants.map((sub) => (
                <option key={String(sub.Sub_gridboxID)} value={String(sub.Sub_gridboxID)}>
                  {subGridboxDisplayName(sub.CustomName, sub.SubX, sub.SubY)} · {sub.PlantID}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {noPlantsNote && <p className="muted">{noPlantsNote}</p>}
      </fieldset>
      <fieldset className="move-step">
        <legend>{t('move.moveTo')}</legend>
        <div className="move-fields">
          <RoomSelect label={t('move.targetRoom')} value={targetRoomId} rooms={rooms} none={t('move.chooseRoom')} onChange={chooseTargetRoom} />
          <BoxSelect
            label={t('move.targetBox')}
            value={targetBox ? targetBoxId : ''}
            boxes={target.placed}
            none={targetRoomId ? t('move.chooseBox') : t('move.chooseRoomFirst')}
            disabled={!targetRoomId}
            note={(placed) => {
              if (placed.box.id === sourceBox?.box.id) return t('move.plantsBox');
              const count = subGridboxesOf(placed.box).length;
              return count === 0 ? t('move.empty') : t('move.taken', { taken: count });
            }}
            onChange={(id) => {
              setTargetBoxId(id);
              setPositionChoice('');
            }}
          />
          <Field label={t('move.position')}>
            <select value={chosenKey} disabled={!targetBox} onChange={(event) => setPositionChoice(event.target.value)}>
              {!targetBox && <option value="">{t('move.chooseBoxFirst')}</option>}
              {choices.map((choice) => (
                <option key={positionKey(choice.position)} value={positionKey(choice.position)}>
                  {choice.newRow ? t('move.newRow', { position: positionName(choice.position) }) : positionName(choice.position)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {targetBox && (
          <p className="muted">
            {occupants.length === 0 ? t('move.boxEmpty') : t('move.positionsTaken', { taken: occupants.length })}
          </p>
        )}
      </fieldset>
      <div className="move-fields">
        <Field label={t('move.reason')}>
          <input value={reason} onChange={(event) => setReason(event.target.value)} autoComplete="off" placeholder={t('move.reasonPlaceholder')} />
        </Field>
        <Field label={t('move.notes')}>
          <textarea rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </Field>
      </div>
      <FormError error={move.error} />
      <FormButtons submitLabel={t('move.submit')} busy={move.busy} busyLabel={t('move.moving')} />
    </form>
  );
}
