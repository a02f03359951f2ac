/** A small picture of how a grid order numbers the boxes of a 3 × 3 grid (README "Company settings"). */
import type { GridOrder } from '../../../common/messages/settings';

export const GRID_ORDER_LABELS: Record<GridOrder, { title: string; help: string }> = {
  row: { title: 'Row by row', help: 'Left to right, then the next row' },
  column: { title: 'Column by column', help: 'Top to bottom, then the next column' },
  snake_row: { title: 'Snake by rows', help: 'Every other row runs back, as you walk the bench' },
  snake_column: { title: 'Snake by columns', help: 'Every other column runs back' },
};

/**
 * The number of the box at column x, row y (from 1) of an nx × ny grid. The same rule the rooms
 * screen draws grids with: `row` left to right, row by row; `column` top to bottom, column by column;
 * the snake orders turn back at every other row (or column).
 */
export function orderNumber(order: GridOrder, x: number, y: number, nx: number, ny: number): number {
  switch (order) {
    case 'column':
      return (x - 1) * ny + y;
    case 'snake_row':
      return (y - 1) * nx + (y % 2 === 1 ? x : nx - x + 1);
    case 'snake_column':
      return (x - 1) * ny + (x % 2 === 1 ? y : ny - y + 1);
    case 'row':
    default:
      return (y - 1) * nx + x;
  }
}

const SIZE = 3;

export function GridOrderPicture({ order }: { order: GridOrder }) {
  const cells = [];
  for (let y = 1; y <= SIZE; y += 1) {
    for (let x = 1; x <= SIZE; x += 1) {
      const number = orderNumber(order, x, y, SIZE, SIZE);
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
