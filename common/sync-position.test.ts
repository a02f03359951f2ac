import { describe, expect, it } from 'vitest';
import { isNewerPosition, syncPosition } from './sync-position';

describe('syncPosition', () => {
  it('sorts as text in checkpoint order (transaction id, then change sequence)', () => {
    const positions = [syncPosition(10, 7), syncPosition(9, 120), syncPosition('10', '30'), syncPosition(2n ** 63n, 1)];
    expect([...positions].sort()).toEqual([syncPosition(9, 120), syncPosition(10, 7), syncPosition(10, 30), syncPosition(2n ** 63n, 1)]);
    expect(syncPosition(20988, 2)).toBe('00000000000000020988:00000000000000000002');
  });
});

describe('isNewerPosition', () => {
  it('orders two states of one document by their change sequence', () => {
    expect(isNewerPosition(syncPosition(10, 31), syncPosition(10, 30))).toBe(true);
    expect(isNewerPosition(syncPosition(10, 30), syncPosition(10, 31))).toBe(false);
    expect(isNewerPosition(syncPosition(10, 30), syncPosition(10, 30))).toBe(false);
  });

  it('takes the later write of a row as newer even when its transaction id is lower (it began first)', () => {
    // Seen on PostgreSQL: transaction 20987 took its id, 20988 updated the row and committed, then 20987
    // updated the same row and committed last: its state is the row's current one.
    const committedFirst = syncPosition(20988, 2);
    const writtenLast = syncPosition(20987, 3);
    expect(isNewerPosition(writtenLast, committedFirst)).toBe(true);
    expect(isNewerPosition(committedFirst, writtenLast)).toBe(false);
  });

  it('a state without a position is older than any with one', () => {
    expect(isNewerPosition(syncPosition(1, 1), undefined)).toBe(true);
    expect(isNewerPosition(undefined, syncPosition(1, 1))).toBe(false);
    expect(isNewerPosition(null, null)).toBe(false);
  });
});
