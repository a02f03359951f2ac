/**
 * Moving one plant (move_plant): from a room, a box and a plant of it, to a box (of this room or
 * another) and a free position there, with a reason and notes. Everything it offers is read live from
 * the local store, and the move shows at once: the plant leaves its box, takes its new place and joins
 * the history as waiting until the server has it.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { subgridMessages } from '../../../common/messages/subgrids';
import { movePlant, type Position, type SubGridbox, subGridboxDisplayName, subGridboxesOf } from '../../api/subgrids';
import { useAction, type SignedInUser } from '../../app/hooks';
import type { PlacedBox } from '../forms/fill/model';
import type { CompanyDoc, RoomDoc } from '../rooms/model';
import { Field, FormButtons, FormError } from '../shell/forms';
import { parsePositionKey, positionChoices, positionKey } from './model';
import { BoxSelect, positionName, RoomSelect, useRoomBoxes } from './places';

/** Sub-gridboxes holding a plant (one without a plant id cannot be moved: move_plant names the plant), row by row. */
const plantsOf = (placed: PlacedBox | undefined): SubGridbox[] =>
  subGridboxesOf(placed?.box ?? null)
    .filter((sub) => Boolean(sub.PlantID))
    .sort((a, b) => a.SubY - b.SubY || a.SubX - b.SubX);

const plantCount = (count: number) => `${count} ${count === 1 ? 'plant' : 'plants'}`;

export function MoveForm({ user, rooms, company }: { user: SignedInUser; rooms: RoomDoc[]; company: CompanyDoc | null }) {
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
      ? 'Loading the room’s boxes…'
      : boxesWithPlants.length === 0
        ? 'No box of this room holds a plant with a plant id. Divide a box into positions (room screen, or a SubGrid template) first; plant ids arrive once the division has synced.'
        : null;

  return (
    <form className="form card move-form" onSubmit={(event) => void submit(event)} noValidate aria-label="Move a plant">
      <h2>Move a plant</h2>
      <fieldset className="move-step">
        <legend>Plant</legend>
        <div className="move-fields">
          <RoomSelect label="Room" value={roomId} rooms={rooms} none="Choose a room" onChange={chooseRoom} />
          <BoxSelect
            label="Box"
            value={sourceBox ? boxId : ''}
            boxes={boxesWithPlants}
            none={roomId ? 'Choose a box' : 'Choose a room first'}
            disabled={!roomId}
            note={(placed) => plantCount(plantsOf(placed).length)}
            onChange={(id) => {
              setBoxId(id);
              setPlantId('');
            }}
          />
          <Field label="Plant">
            <select value={plant ? plantId : ''} disabled={!sourceBox} onChange={(event) => setPlantId(event.target.value)}>
              <option value="">{sourceBox ? 'Choose a plant' : 'Choose a box first'}</option>
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
        <legend>Move to</legend>
        <div className="move-fields">
          <RoomSelect label="Target room" value={targetRoomId} rooms={rooms} none="Choose a room" onChange={chooseTargetRoom} />
          <BoxSelect
            label="Target box"
            value={targetBox ? targetBoxId : ''}
            boxes={target.placed}
            none={targetRoomId ? 'Choose a box' : 'Choose a room first'}
            disabled={!targetRoomId}
            note={(placed) => {
              if (placed.box.id === sourceBox?.box.id) return 'the plant’s box';
              const count = subGridboxesOf(placed.box).length;
              return count === 0 ? 'empty' : `${count} taken`;
            }}
            onChange={(id) => {
              setTargetBoxId(id);
              setPositionChoice('');
            }}
          />
          <Field label="Position">
            <select value={chosenKey} disabled={!targetBox} onChange={(event) => setPositionChoice(event.target.value)}>
              {!targetBox && <option value="">Choose a box first</option>}
              {choices.map((choice) => (
                <option key={positionKey(choice.position)} value={positionKey(choice.position)}>
                  {positionName(choice.position)}
                  {choice.newRow ? ' (new row)' : ''}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {targetBox && (
          <p className="muted">
            {occupants.length === 0 ? 'This box is empty: the plant starts its first row.' : `${occupants.length} of this box’s positions are taken; only free ones are offered.`}
          </p>
        )}
      </fieldset>
      <div className="move-fields">
        <Field label="Reason">
          <input value={reason} onChange={(event) => setReason(event.target.value)} autoComplete="off" placeholder="e.g. Spacing" />
        </Field>
        <Field label="Notes">
          <textarea rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </Field>
      </div>
      <FormError error={move.error} />
      <FormButtons submitLabel="Move plant" busy={move.busy} busyLabel="Moving…" />
    </form>
  );
}
