/** The pest-pressure map's model (src/features/pest-pressure/model.ts): which problems count at a moment, their colours and counts. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROBLEM_COLOR, type ProblemStatus } from '../../../common/messages/problems';
import { catalogueProblemNamed } from '../../../common/plant-problems';
import { circlesText, indexProblems, type MapBox, type ProblemDoc, pressureAt, pressureMap, REPLAY_WEEKS, weekSteps } from '../../../src/features/pest-pressure/model';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const NOW = Date.parse('2026-05-04T10:00:00Z');
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

const BOXES: MapBox[] = [
  { id: 'box-a', gridId: 'grid-1' },
  { id: 'box-b', gridId: 'grid-1' },
  { id: 'box-c', gridId: 'grid-2' },
];

let made = 0;
/** A problem as the local collection holds it, seen `seenDaysAgo` days ago, closed `closedDaysAgo` days ago when given. */
function problem(boxId: string, problemType: string, seenDaysAgo: number, status: ProblemStatus = 'unresolved', closedDaysAgo: number | null = null): ProblemDoc {
  made += 1;
  return {
    id: `problem-${made}`,
    gridBoxId: boxId,
    grid_box_id: boxId,
    problem_type: problemType,
    problem_slug: null,
    severity: 2,
    observed_at: ago(seenDaysAgo),
    status,
    status_at: closedDaysAgo === null ? null : ago(closedDaysAgo),
    updated_at: ago(closedDaysAgo ?? seenDaysAgo),
  };
}

const mite = catalogueProblemNamed('Two-spotted spider mite')!;

describe('which problems the map counts at a moment', () => {
  const problems = [
    problem('box-a', 'Two-spotted spider mite', 20),
    problem('box-a', 'Two-spotted spider mite', 3, 'treated', 1),
    // Seen 30 days ago, resolved 10 days ago.
    problem('box-b', 'Powdery mildew', 30, 'resolved', 10),
    // A false alarm, dismissed the day after it was seen.
    problem('box-c', 'Fungus gnats', 15, 'dismissed', 14),
  ];
  const index = indexProblems(problems, BOXES, []);

  it('now: every open problem (unresolved and treated), none closed', () => {
    const map = pressureAt(index, Number.POSITIVE_INFINITY);
    expect(map.total).toBe(2);
    expect(map.circles.get('box-a')?.map((circle) => [circle.type.name, circle.count])).toEqual([['Two-spotted spider mite', 2]]);
    expect(map.circles.has('box-b')).toBe(false);
    expect(map.problems.get('box-a')?.map((entry) => entry.id)).toEqual([problems[1]!.id, problems[0]!.id]);
  });

  it('a week back: the treated problem seen since is not there yet; the resolved one is still gone', () => {
    const map = pressureAt(index, NOW - WEEK);
    expect(map.total).toBe(1);
    expect(map.circles.get('box-a')?.[0]?.count).toBe(1);
    expect(map.circles.has('box-b')).toBe(false);
  });

  it('two weeks back: the mildew was open then (resolved since), and so was the false alarm on its first day', () => {
    expect(pressureAt(index, NOW - 2 * WEEK).legend.map((entry) => [entry.type.name, entry.count])).toEqual([
      ['Powdery mildew', 1],
      ['Two-spotted spider mite', 1],
    ]);
    const dayOfTheAlarm = pressureAt(index, NOW - 14.5 * DAY);
    expect(dayOfTheAlarm.circles.get('box-c')?.map((circle) => circle.type.name)).toEqual(['Fungus gnats']);
    expect(dayOfTheAlarm.grids.get('grid-2')).toEqual({ total: 1, byType: new Map([['fungus gnats', 1]]) });
  });

  it('five weeks back: nothing had been seen yet', () => {
    const map = pressureAt(index, NOW - 5 * WEEK);
    expect(map).toMatchObject({ total: 0, legend: [] });
    expect(map.circles.size).toBe(0);
  });

  it('counts a problem seen exactly at the moment, and one closed exactly then as closed', () => {
    const exact = [problem('box-a', 'Broad mite', 7), problem('box-b', 'Broad mite', 14, 'resolved', 7)];
    const map = pressureMap({ problems: exact, boxes: BOXES, mappings: [], at: NOW - WEEK });
    expect([...map.circles.keys()]).toEqual(['box-a']);
  });

  it('reads a closed problem without a time of closing as closed at every moment', () => {
    const closed = { ...problem('box-a', 'Broad mite', 20, 'resolved'), status_at: null, updated_at: undefined };
    expect(pressureMap({ problems: [closed], boxes: BOXES, mappings: [], at: NOW - WEEK }).total).toBe(0);
  });

  it('leaves out problems on boxes that are not drawn (a deleted grid)', () => {
    const map = pressureMap({ problems: [problem('box-gone', 'Broad mite', 1), problem('box-a', 'Broad mite', 1)], boxes: BOXES, mappings: [], at: Number.POSITIVE_INFINITY });
    expect(map.total).toBe(1);
    expect(map.legend).toEqual([expect.objectContaining({ count: 1, boxes: 1 })]);
  });
});

describe('colours, abbreviations and counts', () => {
  it('draws a type in the company colour and abbreviation, found without case, else the catalogue abbreviation in the default colour', () => {
    const map = pressureMap({
      problems: [problem('box-a', 'powdery MILDEW', 2), problem('box-a', 'Two-spotted spider mite', 2), problem('box-b', 'Leaf curl from the heater', 1)],
      boxes: BOXES,
      mappings: [{ Problem: 'Powdery mildew', Color: '#7b1fa2', Abbreviation: 'PMx' }],
      at: Number.POSITIVE_INFINITY,
    });
    const styles = Object.fromEntries(map.legend.map((entry) => [entry.type.key, [entry.type.color, entry.type.abbreviation]]));
    expect(styles).toEqual({
      'powdery mildew': ['#7b1fa2', 'PMx'],
      'two-spotted spider mite': [DEFAULT_PROBLEM_COLOR, mite.abbreviation],
      'leaf curl from the heater': [DEFAULT_PROBLEM_COLOR, 'LCF'],
    });
  });

  it('groups spellings of a type under the first seen, counting problems and boxes per type, most first', () => {
    const map = pressureMap({
      problems: [
        problem('box-a', 'Western flower thrips', 5),
        problem('box-a', 'western flower thrips ', 4),
        problem('box-b', 'WESTERN FLOWER THRIPS', 3),
        problem('box-c', 'Western flower thrips', 2),
        problem('box-c', 'Fungus gnats', 2),
        problem('box-c', 'Fungus gnats', 1),
      ],
      boxes: BOXES,
      mappings: [],
      at: Number.POSITIVE_INFINITY,
    });
    expect(map.legend.map((entry) => [entry.type.name, entry.count, entry.boxes])).toEqual([
      ['Western flower thrips', 4, 3],
      ['Fungus gnats', 2, 1],
    ]);
    // On a box: most first, ties by name.
    expect(map.circles.get('box-c')?.map((circle) => [circle.type.name, circle.count])).toEqual([
      ['Fungus gnats', 2],
      ['Western flower thrips', 1],
    ]);
    expect(map.grids.get('grid-1')).toEqual({ total: 3, byType: new Map([['western flower thrips', 3]]) });
    expect(map.total).toBe(6);
    expect(circlesText(map.circles.get('box-a')!)).toMatch(/^\S+ Western flower thrips 2$/);
  });

  it('computes 20,000 problems on 2,000 boxes (the bench room) with every problem in its box', () => {
    const boxes = Array.from({ length: 2_000 }, (_, box) => ({ id: `box-${box}`, gridId: `grid-${box % 2}` }));
    const types = ['Two-spotted spider mite', 'Western flower thrips', 'Powdery mildew', 'Fungus gnats'];
    const many = Array.from({ length: 20_000 }, (_, n) => problem(`box-${(n * 7919) % 2_000}`, types[n % 4]!, (n % 84) + 0.5, n % 3 === 0 ? 'unresolved' : 'resolved', n % 3 === 0 ? null : n % 84));
    const map = pressureMap({ problems: many, boxes, mappings: [], at: Number.POSITIVE_INFINITY });
    const open = many.filter((entry) => entry.status === 'unresolved').length;
    expect(map.total).toBe(open);
    expect([...map.problems.values()].reduce((sum, list) => sum + list.length, 0)).toBe(open);
    expect(map.legend.reduce((sum, entry) => sum + entry.count, 0)).toBe(open);
  });
});

describe('the week slider', () => {
  it('steps back from now a week at a time, twelve weeks', () => {
    const steps = weekSteps(NOW);
    expect(steps).toHaveLength(REPLAY_WEEKS + 1);
    expect(steps[0]).toMatchObject({ weeksAgo: 0, at: Number.POSITIVE_INFINITY, label: 'Now', day: '' });
    expect(steps[1]).toMatchObject({ weeksAgo: 1, at: NOW - WEEK, label: '1 week ago' });
    expect(steps[12]).toMatchObject({ weeksAgo: 12, at: NOW - 12 * WEEK, label: '12 weeks ago' });
    expect(steps[12]!.day).not.toBe('');
  });
});
