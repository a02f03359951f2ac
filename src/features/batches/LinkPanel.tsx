/**
 * Where a batch grows: link it to rooms, to grids of a room and to boxes (plant positions) of a grid,
 * picked from the tablet's copy. The spec has no call that removes a link: a batch leaves a room by
 * moving its plants (move_plants), so links already made show as done, not as toggles.
 */
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction, useToast } from '../../app/hooks';
import { linkBatch } from './actions';
import { useCompany, useGridBoxes, type Places } from './hooks';
import { idsOf, type LocalBatch } from './model';
import { boxNumber } from '../../../common/grid-order';
import { gridOrderOf } from '../rooms/model';
import { FormError } from '../shell/forms';
import { NameOptions } from './Entries';
import { batchesTexts } from './texts';

const toggle = (set: ReadonlySet<string>, id: string) => {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
};

export function LinkPanel(props: { batch: LocalBatch; places: Places; onDone: () => void }) {
  const { t } = useTranslation(batchesTexts);
  const { batch, places } = props;
  const linkedRooms = useMemo(() => new Set(idsOf(batch.RoomIDs).map(String)), [batch.RoomIDs]);
  const linkedGrids = useMemo(() => new Set(idsOf(batch.GridIDs).map(String)), [batch.GridIDs]);
  const linkedBoxes = useMemo(() => new Set(idsOf(batch.GridBoxIDs).map(String)), [batch.GridBoxIDs]);
  const [rooms, setRooms] = useState<ReadonlySet<string>>(new Set());
  const [grids, setGrids] = useState<ReadonlySet<string>>(new Set());
  const [boxes, setBoxes] = useState<ReadonlySet<string>>(new Set());
  const [pickedRoom, setRoomId] = useState<string>('');
  // Rooms may arrive from the server while the panel is open: until one is picked, the batch's first room, else the first.
  const roomId = places.rooms.some((room) => room.id === pickedRoom) ? pickedRoom : (places.rooms.find((room) => linkedRooms.has(room.id))?.id ?? places.rooms[0]?.id ?? '');
  const gridsOfRoom = places.grids.filter((grid) => String(grid.roomId) === roomId);
  const [gridId, setGridId] = useState<string>('');
  const chosenGrid = gridsOfRoom.find((grid) => grid.id === gridId) ?? gridsOfRoom[0] ?? null;
  const { boxes: gridBoxes, loading: boxesLoading } = useGridBoxes(chosenGrid?.id ?? null);
  const columns = Math.max(1, Number(chosenGrid?.nx) || 0, ...gridBoxes.map((box) => Number(box.X) || 1));
  const rows = Math.max(1, Number(chosenGrid?.ny) || 0, ...gridBoxes.map((box) => Number(box.Y) || 1));
  // Boxes are numbered as the room screen numbers them (the company's grid order), so "27" is the same box everywhere.
  const company = useCompany(Number(batch.CompanyID)).document;
  const order = gridOrderOf(company);
  const link = useAction(linkBatch);
  const toast = useToast();
  const count = rooms.size + grids.size + boxes.size;

  async function save() {
    const done = await link.run({ batchId: batch.BatchID, roomIds: [...rooms], gridIds: [...grids], gridBoxIds: [...boxes] });
    if (!done) return;
    toast(t('link.linkedToast', { number: batch.BatchNumber, what: describeCount(t, rooms.size, grids.size, boxes.size) }), 'success');
    props.onDone();
  }

  if (places.rooms.length === 0) {
    return <p className="empty">{t('link.noRooms')}</p>;
  }

  return (
    <div className="bt-link-panel">
      <section aria-labelledby="link-rooms">
        <h3 id="link-rooms">{t('link.rooms')}</h3>
        <div className="bt-choices">
          {places.rooms.map((room) => {
            const linked = linkedRooms.has(room.id);
            return (
              <label key={room.id} className={`bt-choice${linked ? ' bt-done' : ''}`}>
                <input type="checkbox" checked={linked || rooms.has(room.id)} disabled={linked} onChange={() => setRooms((set) => toggle(set, room.id))} />
                <span>
                  {String(room.Name)}
                  {linked && <small>{` · ${t('link.linked')}`}</small>}
                </span>
              </label>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="link-grids">
        <h3 id="link-grids">{t('link.gridsHeading')}</h3>
        <label className="bt-field">
          {t('link.room')}
          <select
            className="control"
            value={roomId}
            onChange={(event) => {
              setRoomId(event.target.value);
              setGridId('');
            }}
          >
            {places.rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {String(room.Name)}
              </option>
            ))}
          </select>
        </label>
        {gridsOfRoom.length === 0 ? (
          <p className="muted">{t('link.noGrids')}</p>
        ) : (
          <>
            <div className="bt-choices">
              {gridsOfRoom.map((grid) => {
                const linked = linkedGrids.has(grid.id);
                return (
                  <label key={grid.id} className={`bt-choice${linked ? ' bt-done' : ''}`}>
                    <input type="checkbox" checked={linked || grids.has(grid.id)} disabled={linked} onChange={() => setGrids((set) => toggle(set, grid.id))} />
                    <span>
                      {t('link.wholeGrid', { name: String(grid.Name) })}
                      {linked && <small>{` · ${t('link.linked')}`}</small>}
                    </span>
                  </label>
                );
              })}
            </div>
            <label className="bt-field">
              {t('link.grid')}
              <select className="control" value={chosenGrid?.id ?? ''} onChange={(event) => setGridId(event.target.value)}>
                <NameOptions items={gridsOfRoom} />
              </select>
            </label>
            {boxesLoading ? (
              <p className="muted">{t('link.loadingBoxes')}</p>
            ) : gridBoxes.length === 0 ? (
              <p className="muted">{t('link.noBoxes')}</p>
            ) : (
              <>
                <p className="muted">{t('link.tapHelp')}</p>
                <div
                  className="bt-box-map"
                  style={{ gridTemplateColumns: `repeat(${columns}, minmax(48px, 1fr))` }}
                  role="group"
                  aria-label={t('link.boxesOf', { grid: chosenGrid?.Name === undefined || chosenGrid.Name === null ? t('link.theGrid') : String(chosenGrid.Name) })}
                >
                  {gridBoxes.map((box) => {
                    const linked = linkedBoxes.has(box.id);
                    const chosen = boxes.has(box.id);
                    const x = Number(box.X) || 1;
                    const y = Number(box.Y) || 1;
                    const number = boxNumber(order, x, y, columns, rows);
                    const custom = typeof box.CustomName === 'string' ? box.CustomName.trim() : '';
                    return (
                      <button
                        key={box.id}
                        type="button"
                        className={`bt-box${linked ? ' bt-linked' : ''}${chosen ? ' bt-chosen' : ''}${box.culled ? ' bt-culled' : ''}`}
                        style={{ gridColumn: x, gridRow: y }}
                        aria-pressed={linked || chosen}
                        // The name starts with what the box shows (its custom name or number), then says where it is.
                        aria-label={[
                          custom ? t('link.boxNumberAt', { name: custom, number, x, y }) : t('link.boxAt', { name: number, x, y }),
                          ...(linked ? [t('link.linked')] : []),
                          ...(box.culled ? [t('link.culled')] : []),
                        ].join(', ')}
                        disabled={linked}
                        onClick={() => setBoxes((set) => toggle(set, box.id))}
                      >
                        {custom || number}
                      </button>
                    );
                  })}
                </div>
                <div className="bt-row-actions">
                  <button
                    type="button"
                    className="button"
                    onClick={() => setBoxes((set) => new Set([...set, ...gridBoxes.filter((box) => !linkedBoxes.has(box.id) && !box.culled).map((box) => box.id)]))}
                  >
                    {t('link.chooseFree')}
                  </button>
                  <button type="button" className="button" disabled={boxes.size === 0} onClick={() => setBoxes(new Set())}>
                    {t('link.clearBoxes')}
                  </button>
                </div>
              </>
            )}
          </>
        )}
      </section>

      <FormError banner error={link.error} />
      <div className="bt-row-actions bt-sticky-actions">
        <button type="button" className="button primary" disabled={count === 0 || link.busy} onClick={() => void save()}>
          {link.busy ? t('link.linking') : count === 0 ? t('link.chooseWhat') : t('link.linkWhat', { what: describeCount(t, rooms.size, grids.size, boxes.size) })}
        </button>
        <button type="button" className="button" onClick={props.onDone}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}

/** "2 rooms, 1 grid, 12 boxes". */
function describeCount(t: TFunction<typeof batchesTexts>, rooms: number, grids: number, boxes: number) {
  const parts = [
    rooms ? t('link.roomCount', { count: rooms }) : '',
    grids ? t('link.gridCount', { count: grids }) : '',
    boxes ? t('link.boxCount', { count: boxes }) : '',
  ].filter(Boolean);
  return parts.join(', ');
}
