/** The rooms screens' pure helpers: box numbers by the company's grid order, sticky-trap markers. */
import { describe, expect, it } from 'vitest';
import { boxNumber } from '../../../common/grid-order';
import { gridOpacityOf, gridOrderOf, recentTrapBoxIds } from '../../../src/features/rooms/model';

/** The numbers of an nx × ny grid laid out as drawn: one array per row, top to bottom. */
const layout = (order: Parameters<typeof boxNumber>[0], nx: number, ny: number) =>
  Array.from({ length: ny }, (_, row) => Array.from({ length: nx }, (_, column) => boxNumber(order, column + 1, row + 1, nx, ny)));

describe('box numbers by grid order', () => {
  it('row: left to right, row by row', () => {
    expect(layout('row', 3, 2)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });
  it('column: top to bottom, column by column', () => {
    expect(layout('column', 3, 2)).toEqual([
      [1, 3, 5],
      [2, 4, 6],
    ]);
  });
  it('snake_row: every other row runs back', () => {
    expect(layout('snake_row', 3, 3)).toEqual([
      [1, 2, 3],
      [6, 5, 4],
      [7, 8, 9],
    ]);
  });
  it('snake_column: every other column runs back up', () => {
    expect(layout('snake_column', 3, 2)).toEqual([
      [1, 4, 5],
      [2, 3, 6],
    ]);
  });
  it('every order numbers each box once, 1 to nx × ny', () => {
    for (const order of ['row', 'column', 'snake_row', 'snake_column'] as const) {
      expect(layout(order, 4, 6).flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    }
  });
});

describe('company settings as the grid shows them', () => {
  it('falls back to row and full opacity, and keeps opacity within 0–1', () => {
    expect(gridOrderOf(null)).toBe('row');
    expect(gridOrderOf({ id: '1', settings: { grid_order: 'snake_column' } })).toBe('snake_column');
    expect(gridOrderOf({ id: '1', settings: { grid_order: 'diagonal' } })).toBe('row');
    expect(gridOpacityOf(null)).toBe(1);
    expect(gridOpacityOf({ id: '1', settings: { grid_opacity: 0.4 } })).toBe(0.4);
    expect(gridOpacityOf({ id: '1', settings: { grid_opacity: 0 } })).toBe(0);
    expect(gridOpacityOf({ id: '1', settings: { grid_opacity: 3 } })).toBe(1);
  });
});

describe('recentTrapBoxIds', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const read = (gridBoxId: string, daysAgo: number) => ({ gridBoxId, SubmittedAt: new Date(now - daysAgo * 86_400_000).toISOString() });

  it('marks the boxes whose trap was read within the render value in weeks', () => {
    const responses = [read('1', 0), read('2', 6.9), read('3', 7.1), read('4', 20)];
    expect([...recentTrapBoxIds(responses, 1, now)].sort()).toEqual(['1', '2']);
    expect([...recentTrapBoxIds(responses, 3, now)].sort()).toEqual(['1', '2', '3', '4']);
  });

  it('marks none for 0, and ignores room-wide responses and unreadable dates', () => {
    expect(recentTrapBoxIds([read('1', 0)], 0, now).size).toBe(0);
    expect(recentTrapBoxIds([{ gridBoxId: '', SubmittedAt: new Date(now).toISOString() }, { gridBoxId: '5', SubmittedAt: 'soon' }], 1, now).size).toBe(0);
  });
});
