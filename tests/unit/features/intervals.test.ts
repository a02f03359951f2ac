/** The re-entry and pre-harvest rules the tablet applies to the sprays in its local store. */
import { describe, expect, it } from 'vitest';
import { sprayIntervalEnds } from '../../../common/schemas/treatments';
import { nextReentryEnd, preharvestBoxIds, preharvestHold, reentryByBox, reentryEndText, type LocalSpray } from '../../../src/features/treatments/intervals';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-05-04T10:00:00Z');
const at = (hoursFromNow: number) => new Date(NOW + hoursFromNow * HOUR).toISOString();

/** A spray recorded `hoursAgo` before now with a product of these intervals, as the server fixes its ends. */
function spray(ProductName: string, boxIds: string[], hoursAgo: number, product: { ReentryHours: number | null; PreharvestDays: number | null } | null): LocalSpray {
  const ends = sprayIntervalEnds(new Date(NOW - hoursAgo * HOUR), product);
  return { ProductName, Grid_boxIDs: boxIds, reentry_until: ends.reentryUntil?.toISOString() ?? null, preharvest_until: ends.preharvestUntil?.toISOString() ?? null };
}

describe('which boxes are inside a re-entry interval now', () => {
  it('marks the sprayed boxes while the interval runs, with its end and product', () => {
    const byBox = reentryByBox([spray('Abamectin', ['box-a', 'box-b'], 2, { ReentryHours: 12, PreharvestDays: 7 })], NOW);
    expect([...byBox.keys()].sort()).toEqual(['box-a', 'box-b']);
    expect(byBox.get('box-a')).toEqual({ until: at(10), products: ['Abamectin'] });
  });

  it('leaves out intervals that have ended, end exactly now, or do not exist', () => {
    const byBox = reentryByBox(
      [
        spray('Old', ['box-a'], 13, { ReentryHours: 12, PreharvestDays: 7 }),
        spray('Just ended', ['box-b'], 12, { ReentryHours: 12, PreharvestDays: 7 }),
        spray('No REI', ['box-c'], 1, { ReentryHours: null, PreharvestDays: 3 }),
        spray('Free text', ['box-d'], 1, null),
        { ProductName: 'Broken', Grid_boxIDs: ['box-e'], reentry_until: 'not a time' },
      ],
      NOW,
    );
    expect(byBox.size).toBe(0);
  });

  it('keeps the latest end of the sprays on a box, and every product still running there', () => {
    const byBox = reentryByBox(
      [spray('Short', ['box-a', 'box-b'], 1, { ReentryHours: 4, PreharvestDays: null }), spray('Long', ['box-a'], 1, { ReentryHours: 24, PreharvestDays: null }), spray('Done', ['box-a'], 30, { ReentryHours: 24, PreharvestDays: null })],
      NOW,
    );
    expect(byBox.get('box-a')).toEqual({ until: at(23), products: ['Long', 'Short'] });
    expect(byBox.get('box-b')).toEqual({ until: at(3), products: ['Short'] });
    // The screen redraws when the first marker goes: box-b's.
    expect(nextReentryEnd(byBox)).toBe(NOW + 3 * HOUR);
    expect(nextReentryEnd(new Map())).toBeNull();
  });

  it('reads box ids as strings and ignores a spray without a list of boxes', () => {
    const byBox = reentryByBox([{ ProductName: 'X', Grid_boxIDs: [42], reentry_until: at(1) }, { ProductName: 'Y', Grid_boxIDs: 'box-a', reentry_until: at(1) }], NOW);
    expect([...byBox.keys()]).toEqual(['42']);
  });
});

describe('the end as a box shows it', () => {
  it('is the 24-hour time when it ends today, the day first otherwise', () => {
    const now = new Date(2026, 4, 4, 9, 5).getTime();
    expect(reentryEndText(new Date(2026, 4, 4, 21, 7).toISOString(), now)).toBe('21:07');
    const tomorrow = reentryEndText(new Date(2026, 4, 5, 8, 0).toISOString(), now);
    expect(tomorrow).toMatch(/ 08:00$/);
    expect(tomorrow).toContain('5');
  });
});

describe("a batch's pre-harvest safe date from its linked boxes", () => {
  const noGrid = () => undefined;

  it('holds a batch with a sprayed box until the latest pre-harvest end, naming the products and boxes', () => {
    const sprays = [
      spray('Abamectin', ['box-a', 'box-b', 'elsewhere'], 2, { ReentryHours: 12, PreharvestDays: 7 }),
      spray('Neem', ['box-b'], 1, { ReentryHours: 4, PreharvestDays: 9 }),
      spray('Over', ['box-a'], 24 * 10, { ReentryHours: 4, PreharvestDays: 7 }),
    ];
    expect(preharvestHold(sprays, { boxIds: ['box-a', 'box-b', 'box-c'], gridIds: [] }, noGrid, NOW)).toEqual({ safeFrom: at(9 * 24 - 1), products: ['Abamectin', 'Neem'], boxes: 2 });
  });

  it('does not hold a batch whose boxes were not sprayed, whose intervals have passed, or whose product has none', () => {
    const sprays = [
      spray('Elsewhere', ['other'], 1, { ReentryHours: 12, PreharvestDays: 7 }),
      spray('Passed', ['box-a'], 24 * 7, { ReentryHours: 12, PreharvestDays: 7 }),
      spray('No PHI', ['box-a'], 1, { ReentryHours: 12, PreharvestDays: null }),
      spray('Free text', ['box-a'], 1, null),
    ];
    expect(preharvestHold(sprays, { boxIds: ['box-a'], gridIds: [] }, noGrid, NOW)).toBeNull();
    expect(preharvestHold(sprays, { boxIds: [], gridIds: [] }, noGrid, NOW)).toBeNull();
  });

  it('counts a spray on any box of a grid the batch is linked to as a whole', () => {
    const sprays = [spray('Abamectin', ['grid-1-box'], 1, { ReentryHours: 12, PreharvestDays: 3 }), spray('Other grid', ['grid-2-box'], 1, { ReentryHours: 12, PreharvestDays: 9 })];
    const gridOf = (boxId: string) => ({ 'grid-1-box': 'grid-1', 'grid-2-box': 'grid-2' })[boxId];
    expect(preharvestHold(sprays, { boxIds: [], gridIds: ['grid-1'] }, gridOf, NOW)).toEqual({ safeFrom: at(3 * 24 - 1), products: ['Abamectin'], boxes: 1 });
    // The boxes whose grids are looked up: only those of running intervals.
    expect(preharvestBoxIds([...sprays, spray('Passed', ['old-box'], 24 * 9, { ReentryHours: 1, PreharvestDays: 3 })], NOW)).toEqual(['grid-1-box', 'grid-2-box']);
  });
});
