/**
 * One grid of the pest-pressure map: its boxes at their positions, each with its problems as circles
 * (the type's colour as a ring, its abbreviation and count as text, so the map reads without colour).
 * A box with problems is a button that opens its problems; the others are plain cells, so a room of
 * 2,000 boxes is not 2,000 tab stops. Boxes are memoised: a week step re-renders the boxes whose
 * circles changed, and a box's circles keep their identity while the same (PestPressureScreen).
 */
import { type CSSProperties, memo } from 'react';
import { useTranslation } from 'react-i18next';
import { boxNumber } from '../../../common/grid-order';
import type { GridOrder } from '../../../common/messages/settings';
import { type BoxDoc, boxLabel, type GridDoc, gridSize } from '../rooms/model';
import type { BoxCircle } from './model';
import { pestPressureTexts } from './texts';

const NO_CIRCLES: BoxCircle[] = [];

export const PressureGrid = memo(function PressureGrid(props: {
  grid: GridDoc;
  boxes: BoxDoc[];
  order: GridOrder;
  circles: ReadonlyMap<string, BoxCircle[]>;
  selectedId: string | null;
  /** Must keep its identity between renders (memoised boxes). */
  onSelect: (boxId: string) => void;
}) {
  const { t } = useTranslation(pestPressureTexts);
  const { grid, boxes, order } = props;
  const { nx, ny } = gridSize(grid, boxes);
  // The word said after a box's number, read out (one string for every box: boxes are memoised).
  const boxWord = t('grid.box');
  return (
    <div className="pp-grid-scroll" style={{ '--grid-rows': ny } as CSSProperties}>
      <div className="pp-grid" style={{ gridTemplateColumns: `repeat(${nx}, minmax(var(--pp-box, 56px), 1fr))` }} role="group" aria-label={t('grid.label', { grid: grid.Name ?? t('grid.unnamed'), columns: nx, rows: ny })}>
        {boxes.map((box) => {
          const x = Number(box.X) || 1;
          const y = Number(box.Y) || 1;
          const number = boxNumber(order, x, y, nx, ny);
          return <PressureBox key={box.id} box={box} x={x} y={y} label={boxLabel(box, number)} number={number} circles={props.circles.get(box.id) ?? NO_CIRCLES} selected={props.selectedId === box.id} onSelect={props.onSelect} boxWord={boxWord} />;
        })}
      </div>
    </div>
  );
});

const PressureBox = memo(function PressureBox(props: { box: BoxDoc; x: number; y: number; label: string; number: number; circles: BoxCircle[]; selected: boolean; onSelect: (boxId: string) => void; boxWord: string }) {
  const { box, circles } = props;
  const place = { gridColumn: props.x, gridRow: props.y };
  const named = Boolean(box.CustomName?.trim());
  const name = named ? props.label : String(props.number);
  if (circles.length === 0) {
    return (
      <div className="pp-box" style={place} data-x={props.x} data-y={props.y}>
        <span className="pp-box-name">{name}</span>
      </div>
    );
  }
  // The button's name is its text (no aria-label): the number or name, then each circle's abbreviation,
  // type (hidden from sight, read out) and count, as seen.
  return (
    <button type="button" className={`pp-box with-problems${props.selected ? ' selected' : ''}`} style={place} data-x={props.x} data-y={props.y} aria-pressed={props.selected} onClick={() => props.onSelect(box.id)}>
      <span className="pp-box-name">
        {name}
        {!named && <span className="pp-hidden"> {props.boxWord}</span>}
      </span>{' '}
      {circles.map((circle) => (
        <span key={circle.type.key} className="pp-circle" style={{ '--pp-color': circle.type.color } as CSSProperties} data-problem={circle.type.key}>
          {circle.type.abbreviation}
          <span className="pp-hidden"> {circle.type.name}</span> <span className="pp-count">{circle.count}</span>{' '}
        </span>
      ))}
    </button>
  );
});
