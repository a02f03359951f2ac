/**
 * How a company numbers the boxes of a grid (README "Company settings"): `row` left to right, row by
 * row; `column` top to bottom, column by column; the snake orders turn back at every other row (or
 * column), as a grower walks the bench.
 */
import type { GridOrder } from './messages/settings';

/** The number of the box at column x, row y (both from 1) of an nx × ny grid. */
export function boxNumber(order: GridOrder, x: number, y: number, nx: number, ny: number): number {
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
