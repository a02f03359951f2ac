/**
 * One grid drawn as its boxes: X columns × Y rows, each box at its position, numbered by the company's
 * grid order, showing its custom name (or number), colour, status, culled state and batch. The grid's
 * background image shows behind the boxes; the company's grid opacity applies to the boxes' colour
 * fill only, so names and marks stay readable whatever the setting (decision: the spec names the
 * setting, not what it dims).
 */
import type { CSSProperties } from 'react';
import type { GridOrder } from '../../../common/messages/settings';
import { useStoredImage } from './hooks';
import { boxNumber } from '../../../common/grid-order';
import { type BatchDoc, type BoxDoc, boxLabel, type GridDoc, gridSize } from './model';

/** A box without a colour of its own or of its batch. */
const DEFAULT_FILL = '#d9eadf';

export function GridView(props: {
  grid: GridDoc;
  boxes: BoxDoc[];
  order: GridOrder;
  opacity: number;
  batches: Map<string, BatchDoc>;
  /** Boxes whose sticky trap was read lately (RoomScreen): they show a trap marker. */
  trapBoxIds?: ReadonlySet<string>;
  /** A background picked on this tablet and not yet on the server (shown until the pull brings it). */
  previewImage: string | null;
  selectedId: string | null;
  onSelect: (box: BoxDoc) => void;
}) {
  const { grid, boxes, order, opacity, batches } = props;
  const { nx, ny } = gridSize(grid, boxes);
  const background = useStoredImage(props.previewImage ? null : grid.ImageName);
  const image = props.previewImage ?? background.url;
  const style: CSSProperties = {
    gridTemplateColumns: `repeat(${nx}, minmax(64px, 1fr))`,
    gridTemplateRows: `repeat(${ny}, minmax(64px, auto))`,
    ...(image ? { backgroundImage: `url("${image}")` } : {}),
  };
  return (
    <div className="grid-scroll">
      <div className={`grid-boxes${image ? ' with-image' : ''}`} style={style} role="group" aria-label={`${grid.Name ?? 'Grid'}: ${nx} columns × ${ny} rows`}>
        {boxes.map((box) => {
          const x = Number(box.X) || 1;
          const y = Number(box.Y) || 1;
          const number = boxNumber(order, x, y, nx, ny);
          const label = boxLabel(box, number);
          const batch = (box.BatchIDs ?? []).map((id) => batches.get(String(id))).find(Boolean);
          const fill = box.Color || batch?.Color || DEFAULT_FILL;
          const culled = box.culled === true;
          const named = Boolean(box.CustomName?.trim());
          const trap = props.trapBoxIds?.has(box.id) ?? false;
          return (
            <button
              key={box.id}
              type="button"
              className={`grid-box${culled ? ' culled' : ''}${props.selectedId === box.id ? ' selected' : ''}`}
              style={{ gridColumn: x, gridRow: y }}
              data-x={x}
              data-y={y}
              data-culled={culled}
              aria-label={[label, named ? `box ${number}` : '', box.Status ?? '', culled ? 'culled' : '', batch ? `batch ${batch.BatchNumber}` : '', trap ? 'sticky trap read' : ''].filter(Boolean).join(', ')}
              onClick={() => props.onSelect(box)}
            >
              <span className="box-fill" style={{ backgroundColor: fill, opacity }} aria-hidden="true" />
              <span className="box-text" aria-hidden="true">
                <span className="box-name">{named ? label : number}</span>
                {named && <span className="box-number">#{number}</span>}
                {box.Status && <span className="box-status">{box.Status}</span>}
                {batch && <span className="box-batch">{batch.BatchNumber}</span>}
                {culled && <span className="box-culled">Culled</span>}
                {trap && <span className="box-trap">Trap</span>}
              </span>
            </button>
          );
        })}
      </div>
      {background.error && !props.previewImage && <p className="muted">Background image not available here: {background.error}</p>}
    </div>
  );
}
