/** A small picture of how a grid order numbers the boxes of a 3 × 3 grid (README "Company settings"). */
import { boxNumber } from '../../../common/grid-order';
import type { GridOrder } from '../../../common/messages/settings';



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
