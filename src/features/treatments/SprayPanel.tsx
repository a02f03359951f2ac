/**
 * Spraying: pick a room, a grid of it and boxes on the grid (tapped, large targets), the product, the
 * quantity and unit, when it was sprayed (now unless changed) and notes, then "Spray N boxes"
 * (link_treatment_products_gridboxes). Below, the recent sprays with their re-entry ends.
 *
 * Where the spec is silent:
 * - The form's BoxPicker (forms/fill) is not reused: it drives the scouting form's multi-select state
 *   and its "fill the form" step; a spray needs only boxes tapped on one grid at a time. Boxes chosen
 *   stay chosen across the room's grids, and clear when the room changes or after a spray (the
 *   product, unit and notes stay: growers spray bench after bench).
 * - Boxes inside a running re-entry interval are marked "REI until …" on the picker.
 * - When the time is left as it was, it follows the clock and the spray takes the moment the button is
 *   pressed (offline too, not when it syncs).
 * - The list shows the 20 most recent sprays, newest first.
 */
import { type CSSProperties, type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { treatmentMessages as m } from '../../../common/messages/treatments';
import { type SprayApplicationDocument, type SprayProductDocument, sprayBoxes } from '../../api/treatments';
import { useAction, type SignedInUser } from '../../app/hooks';
import type { PlacedBox } from '../forms/fill/model';
import { RoomSelect, useBoxNames, useCompanyDoc, useCompanyRooms, useRoomBoxes } from '../plant-moves/places';
import { gridSize, when } from '../rooms/model';
import { Field, FormError } from '../shell/forms';
import { reentryByBox, type Reentry, reentryEndText } from './intervals';
import { boxList, byNewestSpray, isoFromLocalInput, localInputValue, preharvestText, reentryText } from './model';
import { RecordStatus } from '../shell/RecordStatus';
import { treatmentsTexts } from './texts';

const RECENT_SPRAYS = 20;
/** A chosen box's mark (hidden from screen readers: the button is pressed). */
const CHECK_MARK = '✓';

export function SprayPanel({ user, products, sprays }: { user: SignedInUser; products: SprayProductDocument[]; sprays: SprayApplicationDocument[] }) {
  const { t } = useTranslation(treatmentsTexts);
  const company = useCompanyDoc(user.companyId);
  const { rooms } = useCompanyRooms(user.companyId);
  const [roomId, setRoomId] = useState('');
  const [gridId, setGridId] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [productId, setProductId] = useState('');
  const [quantity, setQuantity] = useState('');
  const [unit, setUnit] = useState('');
  const [notes, setNotes] = useState('');
  const [sprayedAt, setSprayedAt] = useState(() => localInputValue(new Date()));
  const [timeChanged, setTimeChanged] = useState(false);
  const spray = useAction(sprayBoxes, m.productsLinked, { inlineErrors: true });
  const { placed } = useRoomBoxes(roomId || null, company);
  const grids = useMemo(() => [...new Map(placed.flatMap((each) => (each.grid ? [[each.box.gridId, each.grid] as const] : []))).values()], [placed]);
  const now = Date.now();
  const inReentry = reentryByBox(sprays, now);

  // The room's first grid is shown when a room is chosen (or its grids arrive).
  useEffect(() => {
    if (!grids.some((grid) => grid.id === gridId)) setGridId(grids[0]?.id ?? '');
  }, [grids, gridId]);

  // A time left as it was follows the clock (the spray takes the moment of the press); this also keeps re-entry states current.
  useEffect(() => {
    if (timeChanged) return undefined;
    const timer = setInterval(() => setSprayedAt(localInputValue(new Date())), 30_000);
    return () => clearInterval(timer);
  }, [timeChanged]);

  function chooseRoom(id: string) {
    setRoomId(id);
    setGridId('');
    setChosen(new Set());
  }

  function tap(boxId: string) {
    const next = new Set(chosen);
    if (next.has(boxId)) next.delete(boxId);
    else next.add(boxId);
    setChosen(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await spray.run({
      companyId: user.companyId,
      productId: productId || null,
      quantityUsed: quantity,
      quantityUnit: unit.trim() || null,
      notes: notes.trim() || null,
      applicationDate: timeChanged ? isoFromLocalInput(sprayedAt) : undefined,
      gridBoxIds: [...chosen],
    });
    if (done) {
      setChosen(new Set());
      setTimeChanged(false);
      setSprayedAt(localInputValue(new Date()));
    }
  }

  const count = chosen.size;
  const gridBoxes = placed.filter((each) => each.box.gridId === gridId);
  return (
    <section className="treatment-section" aria-labelledby="spray-heading">
      <h2 id="spray-heading">{t('spray.heading')}</h2>
      {rooms.length === 0 ? (
        <p className="empty">{t('spray.noRooms')}</p>
      ) : (
        <form className="form card spray-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('spray.formLabel')}>
          <div className="form-columns">
            <RoomSelect label={t('spray.room')} value={roomId} rooms={rooms} onChange={chooseRoom} none={t('spray.chooseRoom')} />
            <Field label={t('spray.grid')}>
              <select value={gridId} disabled={grids.length === 0} onChange={(event) => setGridId(event.target.value)}>
                {grids.length === 0 && <option value="">{roomId ? t('spray.noGrids') : t('spray.chooseRoomFirst')}</option>}
                {grids.map((grid) => (
                  <option key={grid.id} value={grid.id}>
                    {grid.Name || t('spray.unnamedGrid')}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          {gridBoxes.length > 0 && <SprayGrid boxes={gridBoxes} chosen={chosen} inReentry={inReentry} now={now} onTap={tap} />}
          <p className="muted" role="status">
            {count === 0 ? t('spray.tapBoxes') : t('spray.chosen', { count })}
            {count > 0 && (
              <button type="button" className="button link-button" onClick={() => setChosen(new Set())}>
                {t('spray.clear')}
              </button>
            )}
          </p>
          <div className="form-columns">
            <Field label={t('spray.product')}>
              <select value={productId} onChange={(event) => setProductId(event.target.value)}>
                <option value="">{products.length === 0 ? t('spray.noProducts') : t('spray.chooseProduct')}</option>
                {products.map((product) => (
                  <option key={product.id} value={product.id}>
                    {product.ProductName}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('spray.quantity')}>
              <input value={quantity} inputMode="decimal" autoComplete="off" onChange={(event) => setQuantity(event.target.value)} />
            </Field>
            <Field label={t('spray.unit')}>
              <input value={unit} autoComplete="off" placeholder={t('spray.unitPlaceholder')} onChange={(event) => setUnit(event.target.value)} />
            </Field>
          </div>
          <Field label={t('spray.sprayedAt')} className="spray-when">
            <input
              type="datetime-local"
              value={sprayedAt}
              onChange={(event) => {
                setSprayedAt(event.target.value);
                setTimeChanged(true);
              }}
            />
          </Field>
          <Field label={t('notes')}>
            <textarea rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
          </Field>
          <FormError error={spray.error} />
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={spray.busy}>
              {t('spray.submit', { count })}
            </button>
          </div>
        </form>
      )}
      <RecentSprays user={user} sprays={sprays} now={now} />
    </section>
  );
}

function SprayGrid(props: { boxes: PlacedBox[]; chosen: ReadonlySet<string>; inReentry: ReadonlyMap<string, Reentry>; now: number; onTap: (boxId: string) => void }) {
  const { boxes, chosen, inReentry, now, onTap } = props;
  const { t } = useTranslation(treatmentsTexts);
  const grid = boxes[0]?.grid;
  const { nx, ny } = grid ? gridSize(grid, boxes.map((each) => each.box)) : { nx: 1, ny: 1 };
  const style: CSSProperties = { gridTemplateColumns: `repeat(${nx}, minmax(64px, 1fr))`, gridTemplateRows: `repeat(${ny}, minmax(64px, auto))` };
  return (
    <div className="spray-grid-scroll">
      <div className="spray-grid" style={style} role="group" aria-label={t('spray.gridLabel', { grid: grid?.Name ?? t('spray.grid'), columns: nx, rows: ny })}>
        {boxes.map((each) => {
          const selected = chosen.has(each.box.id);
          const reentry = inReentry.get(each.box.id)?.until;
          return (
            <button
              key={each.box.id}
              type="button"
              className={`spray-box${selected ? ' chosen' : ''}`}
              style={{ gridColumn: Number(each.box.X) || 1, gridRow: Number(each.box.Y) || 1 }}
              aria-pressed={selected}
              onClick={() => onTap(each.box.id)}
            >
              {/* The box's name and its re-entry end are its accessible name, as shown. */}
              <span className="spray-box-name">{each.label}</span>
              {reentry && <span className="spray-box-rei">{t('spray.reiUntil', { time: reentryEndText(reentry, now) })}</span>}
              {selected && (
                <span aria-hidden="true" className="spray-box-check">
                  {CHECK_MARK}
                </span>
              )}
            </button>
          );
        })}
      </div>
    </div>
  );
}

function RecentSprays({ user, sprays, now }: { user: SignedInUser; sprays: SprayApplicationDocument[]; now: number }) {
  const { t } = useTranslation(treatmentsTexts);
  const company = useCompanyDoc(user.companyId);
  const recent = useMemo(() => [...sprays].sort(byNewestSpray).slice(0, RECENT_SPRAYS), [sprays]);
  const nameOf = useBoxNames(
    recent.flatMap((spray) => spray.Grid_boxIDs),
    company,
  );
  return (
    <div className="recent-sprays">
      <h3 id="recent-sprays-heading">{t('recent.heading')}</h3>
      {recent.length === 0 ? (
        <p className="empty">{t('recent.none')}</p>
      ) : (
        <ul className="treatment-list single" aria-labelledby="recent-sprays-heading">
          {recent.map((spray) => (
            <li key={spray.id} className="card treatment-card" aria-label={`${spray.ProductName}, ${when(spray.ApplicationDate)}`}>
              <div className="treatment-head">
                <h4>{spray.ProductName}</h4>
                <RecordStatus document={spray} />
              </div>
              <p className="spray-facts">
                <span>{when(spray.ApplicationDate)}</span>
                <span>
                  {spray.QuantityUsed}
                  {spray.QuantityUnit ? ` ${spray.QuantityUnit}` : ''}
                </span>
                <span>
                  {t('recent.boxes', { count: spray.Grid_boxIDs.length })}
                </span>
              </p>
              <p className="muted">{boxList(spray.Grid_boxIDs.map((id) => nameOf(id)))}</p>
              <p className={spray.reentry_until && Date.parse(spray.reentry_until) > now ? 'reentry-running' : 'muted'}>{reentryText(spray, now)}</p>
              {preharvestText(spray, now) && <p className="muted">{preharvestText(spray, now)}</p>}
              {spray.Notes && <p>{spray.Notes}</p>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
