/**
 * Page 1 of the multi-select form (spec part 2 §2): the room's grids drawn as their boxes, where the
 * grower picks the plants the form is for — by tapping boxes or a range start → end ('Coordinates'),
 * or by whole rows or columns. The state is the multi-select store's (multiselect-store.ts).
 *
 * Decisions where the spec is silent: see multiselect-store.ts and model.ts `boxesInRange`; culled
 * positions are skipped by rows, columns and ranges, and can still be tapped one by one.
 */
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridOrder } from '../../../../common/messages/settings';
import { type BoxDoc, type GridDoc, gridSize } from '../../rooms/model';
import { formsTexts } from '../texts';
import { boxesInRange, type PlacedBox } from './model';
import { MULTI_SELECT_TYPES, type MultiSelectType, useMultiSelect } from './multiselect-store';
import '../../rooms/rooms.css';

/** Each way of picking's text (texts.ts `picker.types`). */
const TYPE_KEYS = { Coordinates: 'coordinates', Rows: 'rows', Columns: 'columns' } as const satisfies Record<MultiSelectType, string>;

/** The chosen mark on a box (a sign, the same in every language; hidden from screen readers, which hear `aria-pressed`). */
const CHECK_MARK = '✓';

/** Boxes that whole rows, columns and ranges take: culled positions hold no plant. */
const live = (boxes: PlacedBox[]) => boxes.filter((each) => each.box.culled !== true);

export function BoxPicker(props: { grids: GridDoc[]; placed: PlacedBox[]; boxesByGrid: Map<string, BoxDoc[]>; order: GridOrder; onNext: () => void }) {
  const { t } = useTranslation(formsTexts);
  const state = useMultiSelect();
  const [rangeOn, setRangeOn] = useState(false);
  const chosen = new Set(state.pageOneData.gridBoxIds);
  const placedById = new Map(props.placed.map((each) => [each.box.id, each]));
  const count = state.pageOneData.gridBoxIds.filter((id) => placedById.has(id)).length;

  function tap(each: PlacedBox) {
    const { box } = each;
    if (state.multiSelectType === 'Rows') {
      state.toggleRow(`${box.gridId}:${box.Y}`, live(props.placed.filter((other) => other.box.gridId === box.gridId && other.box.Y === box.Y)).map((other) => other.box.id));
    } else if (state.multiSelectType === 'Columns') {
      state.toggleColumn(`${box.gridId}:${box.X}`, live(props.placed.filter((other) => other.box.gridId === box.gridId && other.box.X === box.X)).map((other) => other.box.id));
    } else if (rangeOn) {
      const start = state.rangeStart ? placedById.get(state.rangeStart) : undefined;
      // A first tap (or a tap after a finished range, or in another grid) starts a range; the next one ends it.
      if (!start || state.rangeEnd !== null || start.box.gridId !== box.gridId) {
        state.setRange(box.id, null);
      } else {
        state.setRange(start.box.id, box.id);
        state.addBoxes(boxesInRange(start, each, props.placed).map((other) => other.box.id));
      }
    } else {
      state.toggleBox(box.id);
    }
  }

  const boxName = (id: string) => placedById.get(id)?.label ?? t('picker.someBox');
  const rangeHint = !rangeOn
    ? null
    : state.rangeStart && state.rangeEnd === null
      ? t('picker.rangeStarted', { start: boxName(state.rangeStart) })
      : state.rangeStart && state.rangeEnd
        ? t('picker.rangeAdded', { start: boxName(state.rangeStart), end: boxName(state.rangeEnd) })
        : t('picker.rangeFirst');

  return (
    <div className="box-picker">
      <div className="card picker-controls">
        <div role="radiogroup" aria-label={t('picker.pickBy')} className="choices">
          {MULTI_SELECT_TYPES.map((type) => (
            <label key={type} className="choice">
              <input type="radio" name="multi-select-type" value={type} checked={state.multiSelectType === type} onChange={() => state.setMultiSelectType(type)} />
              <span>{t(`picker.types.${TYPE_KEYS[type]}`)}</span>
            </label>
          ))}
        </div>
        {state.multiSelectType === 'Coordinates' && (
          <div className="range-row">
            <button
              type="button"
              className={`button${rangeOn ? ' primary' : ''}`}
              aria-pressed={rangeOn}
              onClick={() => {
                setRangeOn(!rangeOn);
                state.setRange(null, null);
              }}
            >
              {t('picker.selectRange')}
            </button>
            <p className="muted" role="status">
              {rangeHint ?? t('picker.tapBoxes')}
            </p>
          </div>
        )}
        {state.multiSelectType === 'Rows' && <p className="muted">{t('picker.tapRows')}</p>}
        {state.multiSelectType === 'Columns' && <p className="muted">{t('picker.tapColumns')}</p>}
      </div>

      {props.grids.length === 0 ? (
        <p className="empty">{t('picker.noGrids')}</p>
      ) : (
        props.grids.map((grid) => (
          <PickerGrid key={grid.id} grid={grid} boxes={props.boxesByGrid.get(grid.id) ?? []} placed={props.placed.filter((each) => each.box.gridId === grid.id)} chosen={chosen} onTap={tap} />
        ))
      )}

      <div className="picker-footer card" aria-label={t('picker.chosenPlants')} role="region">
        <strong data-chosen-count={count}>
          {count === 0 ? t('picker.noneChosen') : t('picker.chosen', { count })}
        </strong>
        <div className="form-actions">
          <button type="button" className="button" disabled={count === 0} onClick={state.clearBoxes}>
            {t('picker.clear')}
          </button>
          <button type="button" className="button primary" disabled={count === 0} onClick={props.onNext}>
            {t('picker.next')}
          </button>
        </div>
      </div>
    </div>
  );
}

function PickerGrid(props: { grid: GridDoc; boxes: BoxDoc[]; placed: PlacedBox[]; chosen: Set<string>; onTap: (box: PlacedBox) => void }) {
  const { t } = useTranslation(formsTexts);
  const { grid } = props;
  const state = useMultiSelect();
  const { nx, ny } = gridSize(grid, props.boxes);
  const style: CSSProperties = { gridTemplateColumns: `repeat(${nx}, minmax(64px, 1fr))`, gridTemplateRows: `repeat(${ny}, minmax(64px, auto))` };
  const lines = state.multiSelectType === 'Rows' ? ny : state.multiSelectType === 'Columns' ? nx : 0;
  return (
    <section className="card grid-section" aria-label={grid.Name ? t('picker.gridNamed', { grid: grid.Name }).trim() : t('picker.grid')}>
      <div className="section-head">
        <h2>{grid.Name}</h2>
        <p className="muted">
          {t('picker.gridFacts', { columns: nx, rows: ny, chosen: props.placed.filter((each) => props.chosen.has(each.box.id)).length })}
        </p>
      </div>
      {lines > 0 && (
        <div className="line-buttons" role="group" aria-label={t(state.multiSelectType === 'Rows' ? 'picker.rowsOf' : 'picker.columnsOf', { grid: grid.Name ?? t('picker.theGrid') })}>
          {Array.from({ length: lines }, (_, index) => index + 1).map((line) => {
            const rows = state.multiSelectType === 'Rows';
            const key = `${grid.id}:${line}`;
            const selected = (rows ? state.selectedRows : state.selectedColumns).includes(key);
            const first = props.placed.find((each) => (rows ? Number(each.box.Y) : Number(each.box.X)) === line);
            return (
              <button key={line} type="button" className={`button${selected ? ' primary' : ''}`} aria-pressed={selected} disabled={!first} onClick={() => first && props.onTap(first)}>
                {t(rows ? 'picker.row' : 'picker.column', { number: line })}
              </button>
            );
          })}
        </div>
      )}
      <div className="grid-scroll">
        <div className="grid-boxes" style={style} role="group" aria-label={t('picker.gridSize', { grid: grid.Name ?? t('picker.grid'), columns: nx, rows: ny })}>
          {props.placed.map((each) => {
            const { box } = each;
            const x = Number(box.X) || 1;
            const y = Number(box.Y) || 1;
            const selected = props.chosen.has(box.id);
            const culled = box.culled === true;
            const named = Boolean(box.CustomName?.trim());
            const isStart = state.rangeStart === box.id && state.rangeEnd === null;
            return (
              <button
                key={box.id}
                type="button"
                className={`grid-box pick-box${selected ? ' selected chosen' : ''}${culled ? ' culled' : ''}${isStart ? ' range-start' : ''}`}
                style={{ gridColumn: x, gridRow: y }}
                data-x={x}
                data-y={y}
                aria-pressed={selected}
                aria-label={[each.label, named ? t('picker.boxNumber', { number: each.number }) : '', culled ? t('picker.culledState') : '', isStart ? t('picker.rangeStart') : ''].filter(Boolean).join(', ')}
                onClick={() => props.onTap(each)}
              >
                <span className="box-text" aria-hidden="true">
                  <span className="box-name">{named ? each.label : each.number}</span>
                  {named && <span className="box-number">#{each.number}</span>}
                  {culled && <span className="box-culled">{t('picker.culled')}</span>}
                  {selected && <span className="box-check">{CHECK_MARK}</span>}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </section>
  );
}
