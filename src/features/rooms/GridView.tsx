/**
 * One grid drawn as its boxes: X columns × Y rows, each box at its position, numbered by the company's
 * grid order, showing its custom name (or number), colour, status, culled state, batch and marks (a
 * sticky trap read lately, a re-entry interval running, with its end). The grid's
 * background image shows behind the boxes; the company's grid opacity applies to the boxes' colour
 * fill only, so names and marks stay readable whatever the setting (decision: the spec names the
 * setting, not what it dims).
 *
 * A room may hold thousands of boxes (two grids of 40×25): every box is a real button in the page, so
 * each is reachable by keyboard and screen reader, but the browser lays out and paints only those near
 * the screen (`content-visibility: auto` in rooms.css), each box is memoised (a document keeps its
 * identity while unchanged, app/hooks.ts), and selecting a box re-renders two boxes, not the grid.
 * Text wraps instead of being cut ("Mother 12", "B-0042", "Culled" stay whole); the box size is the
 * grower's choice on this tablet (RoomScreen).
 */
import { type CSSProperties, memo, useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { GridOrder } from '../../../common/messages/settings';
import { useStoredImage } from './hooks';
import { boxNumber } from '../../../common/grid-order';
import { type BatchDoc, type BoxDoc, boxLabel, type GridDoc, gridSize } from './model';
import { roomsTexts } from './texts';

/** A text with one value, filled in without i18next: a room's thousands of boxes each say "box 12". */
const SLOT = '\u0000';

/**
 * The words every box of the grid may show, in the reader's language, made once per grid and language:
 * the boxes are memoised and keep these (a language change makes new ones, and the boxes follow).
 */
function boxWords(t: TFunction<typeof roomsTexts>) {
  const boxAria = t('grid.boxAria', { number: SLOT }).split(SLOT);
  return {
    culled: t('grid.culled'),
    trap: t('grid.trap'),
    reentry: t('grid.reentry'),
    trapAria: t('grid.trapAria'),
    boxAria: (number: number) => boxAria.join(String(number)),
    reentryAria: (time: string) => t('grid.reentryAria', { time }),
  };
}
type BoxWords = ReturnType<typeof boxWords>;

export const GridView = memo(function GridView(props: {
  grid: GridDoc;
  boxes: BoxDoc[];
  order: GridOrder;
  opacity: number;
  batches: Map<string, BatchDoc>;
  /** Boxes whose sticky trap was read lately (RoomScreen): they show a trap marker. */
  trapBoxIds?: ReadonlySet<string>;
  /** Boxes inside a re-entry interval (RoomScreen), with its end as a box shows it ("14:30"): they show an REI marker. */
  reentryEnds?: ReadonlyMap<string, string>;
  /** A background picked on this tablet and not yet on the server (shown until the pull brings it). */
  previewImage: string | null;
  selectedId: string | null;
  /** Must keep its identity between renders (a memoised box would re-render on each new function). */
  onSelect: (boxId: string) => void;
}) {
  const { t } = useTranslation(roomsTexts);
  const words = useMemo(() => boxWords(t), [t]);
  const { grid, boxes, order, opacity, batches } = props;
  const { nx, ny } = gridSize(grid, boxes);
  const background = useStoredImage(props.previewImage ? null : grid.ImageName);
  const image = props.previewImage ?? background.url;
  const style: CSSProperties & Record<'--box-opacity', number> = {
    // The boxes' fill (a pseudo-element in rooms.css, not an element per box) reads the opacity from here.
    '--box-opacity': opacity,
    gridTemplateColumns: `repeat(${nx}, minmax(var(--box-size, 88px), 1fr))`,
    gridTemplateRows: `repeat(${ny}, minmax(var(--box-size, 88px), auto))`,
    ...(image ? { backgroundImage: `url("${image}")` } : {}),
  };
  return (
    <div className="grid-scroll" style={{ '--grid-rows': ny } as CSSProperties}>
      <div className={`grid-boxes${image ? ' with-image' : ''}`} style={style} role="group" aria-label={t('grid.boxesLabel', { name: grid.Name ?? t('grid.unnamed'), nx, ny })}>
        {boxes.map((box) => {
          const x = Number(box.X) || 1;
          const y = Number(box.Y) || 1;
          return (
            <GridBox
              key={box.id}
              box={box}
              x={x}
              y={y}
              number={boxNumber(order, x, y, nx, ny)}
              batch={(box.BatchIDs ?? []).map((id) => batches.get(String(id))).find(Boolean)}
              trap={props.trapBoxIds?.has(box.id) ?? false}
              reentryEnd={props.reentryEnds?.get(box.id)}
              selected={props.selectedId === box.id}
              words={words}
              onSelect={props.onSelect}
            />
          );
        })}
      </div>
      {background.error && !props.previewImage && <p className="muted">{t('grid.backgroundUnavailable', { error: background.error })}</p>}
    </div>
  );
});

const GridBox = memo(function GridBox(props: { box: BoxDoc; x: number; y: number; number: number; batch: BatchDoc | undefined; trap: boolean; reentryEnd: string | undefined; selected: boolean; words: BoxWords; onSelect: (boxId: string) => void }) {
  const { box, number, batch, trap, reentryEnd, words } = props;
  // The box's colour, else its batch's; without either the default fill of rooms.css.
  const fill = box.Color || batch?.Color || undefined;
  const culled = box.culled === true;
  const named = Boolean(box.CustomName?.trim());
  // Only a named box has a label other than its number (boxLabel's "Box 12" is not shown here).
  const label = named ? boxLabel(box, number) : '';
  // The visible text, in the order it shows, is the start of the name read out (WCAG 2.5.3: a grower
  // saying what they see reaches the box); the rest adds what only colour shows.
  const shown = [named ? label : String(number), named ? `#${number}` : '', box.Status ?? '', batch?.BatchNumber ?? '', culled ? words.culled : '', trap ? words.trap : '', reentryEnd ? `${words.reentry} ${reentryEnd}` : ''].filter(Boolean);
  const parts = [
    <span key="name" className="box-name">
      {named ? label : String(number)}
    </span>,
    named && (
      <span key="number" className="box-number">
        {`#${number}`}
      </span>
    ),
    box.Status && (
      <span key="status" className="box-status">
        {box.Status}
      </span>
    ),
    batch && (
      <span key="batch" className="box-batch">
        {batch.BatchNumber}
      </span>
    ),
    culled && (
      <span key="culled" className="box-culled">
        {words.culled}
      </span>
    ),
    trap && (
      <span key="trap" className="box-trap">
        {words.trap}
      </span>
    ),
    // Re-entry: the letters say it without colour; a small box keeps "REI" and drops the time (its panel has it).
    reentryEnd && (
      <span key="reentry" className="box-reentry">
        {words.reentry} <span className="box-reentry-end">{reentryEnd}</span>
      </span>
    ),
  ].filter(Boolean);
  return (
    <button
      type="button"
      className={`grid-box${culled ? ' culled' : ''}${props.selected ? ' selected' : ''}`}
      style={{ gridColumn: props.x, gridRow: props.y, ...(fill ? { '--fill': fill } : {}) }}
      data-x={props.x}
      data-y={props.y}
      data-number={number}
      data-culled={culled}
      aria-label={[...shown, named ? '' : words.boxAria(number), trap ? words.trapAria : '', reentryEnd ? words.reentryAria(reentryEnd) : ''].filter(Boolean).join(', ')}
      aria-pressed={props.selected}
      onClick={() => props.onSelect(box.id)}
    >
      {/* Spaces between the parts: the text reads as words ("Mother 12 #27"), as the name says it. Only
          between parts shown: a plain box is one span and its text, which keeps a 2,000-box room's
          document small. A button's content is not read out besides its label, so no aria-hidden. */}
      {parts.flatMap((part, index) => (index === 0 ? [part] : [' ', part]))}
    </button>
  );
});
