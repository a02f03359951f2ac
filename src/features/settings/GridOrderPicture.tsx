/** A small picture of how a grid order numbers the boxes of a 3 × 3 grid (README "Company settings"). */
import { boxNumber } from '../../../common/grid-order';
import type { GridOrder } from '../../../common/messages/settings';

export const GRID_ORDER_LABELS: Record<GridOrder, { title: string; help: string }> = {
  row: { title: 'Row by row', help: 'Left to right, then the next row' },
  column: { title: 'Column by column', help: 'Top to bottom, then the next column' },
  snake_row: { title: 'Snake by rows', help: 'Every other row runs back, as you walk the bench' },
  snake_column: { title: 'Snake by columns', help: 'Every other column runs back' },
};


const SIZE = 3;

export function GridOrderPicture({ order }: { order: GridOrder }) {
  const cells = [];
  for (let y = 1; y <= SIZE; y += 1) {
    for (let x = 1; x <= SIZE; x += 1) {
      const number = boxNumber(order, x, y, SIZE, SIZE);
      cells.push(
        <span key={`${x}-${y}`} className={number === 1 ? 'order-cell first' : 'order-cell'}>
          {number}
        </span>,
      );
    }
  }
  return (
    <span className="order-picture" aria-hidden="true">
      {cells}
    </span>
  );
}
