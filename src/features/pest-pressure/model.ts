/**
 * The pest-pressure map of a room (issue 14, spec part 2 `rooms/unresolvedRoom/{roomID}`), as pure
 * functions of the local store's documents: per box its problems as circles (type, count, the company's
 * colour and abbreviation), the legend with counts per type, and per grid its totals, for the room's
 * state at a moment, so the week slider can replay how pressure moved.
 *
 * A problem counts at `at` when it had been seen by then (observed_at ≤ at) and was open then: it is
 * open now (unresolved or treated), or it was closed after `at` (status_at > at). A reopened problem
 * counts as open since it was seen: the store keeps a problem's last status only.
 *
 * A room may hold 2,000 boxes and 20,000 problems over 12 weeks: `indexProblems` reads the documents
 * once (times parsed, types grouped and styled once per type), and `pressureAt` is then one pass over
 * numbers per moment, with no per-box scan (bench/pest-pressure.ts times both).
 */
import type { TFunction } from 'i18next';
import { type ColorMappingLike, OPEN_PROBLEM_STATUSES, problemCircleStyle } from '../../../common/messages/problems';
import type { PlantProblemRecord } from '../../../common/schemas/problems';
import type { LocalDocument } from '../../db/schemas';
import { formatDate } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { pestPressureTexts } from './texts';

/** A problem as the local `plant_problems` collection holds it (src/db/schemas.ts): ids are client ids, `gridBoxId` its box's key. */
export type ProblemDoc = LocalDocument & Partial<PlantProblemRecord> & { gridBoxId?: string };

/** A problem type as the map draws it; types compare without case, the first spelling seen names it. */
export interface ProblemType {
  /** The type lower-cased and trimmed: what the server compares (README "Plant problems"). */
  key: string;
  name: string;
  color: string;
  abbreviation: string;
}

export interface BoxCircle {
  type: ProblemType;
  count: number;
}

export interface LegendEntry {
  type: ProblemType;
  /** Problems of this type counted in the room. */
  count: number;
  /** Boxes with at least one of them. */
  boxes: number;
}

export interface GridPressure {
  total: number;
  /** Counts by type key. */
  byType: Map<string, number>;
}

export interface PressureMap {
  /** Per box with at least one problem counted, its circles: most first, then by name. */
  circles: Map<string, BoxCircle[]>;
  /** Per box, the problems counted, newest seen first. */
  problems: Map<string, ProblemDoc[]>;
  legend: LegendEntry[];
  grids: Map<string, GridPressure>;
  total: number;
}

/** The boxes the map draws: the room's grid boxes (client id and grid key, as `grid_boxes` documents hold them). */
export interface MapBox {
  id: string;
  gridId: string;
}

interface IndexedProblem {
  problem: ProblemDoc;
  boxId: string;
  gridId: string;
  type: number;
  observed: number;
  open: boolean;
  /** When it was closed (open ones: unused). */
  closed: number;
}

/** The room's problems read once: replayed at any moment by `pressureAt`. */
export interface ProblemIndex {
  types: ProblemType[];
  entries: IndexedProblem[];
}

const OPEN: ReadonlySet<string> = new Set(OPEN_PROBLEM_STATUSES);

/**
 * Reads the room's problems once: those on a box of `boxes` (a problem left on a deleted box or grid
 * is not drawn, nor counted), each with its times and its type's style (the company's `mappings`, else
 * the catalogue's, problemCircleStyle).
 */
export function indexProblems(problems: readonly ProblemDoc[], boxes: readonly MapBox[], mappings: readonly ColorMappingLike[]): ProblemIndex {
  const gridOfBox = new Map<string, string>();
  for (const box of boxes) gridOfBox.set(box.id, box.gridId);
  const types: ProblemType[] = [];
  const typeByKey = new Map<string, number>();
  // Most problems repeat a few exact spellings: lower-casing once per spelling, not per problem.
  const typeBySpelling = new Map<string, number>();
  const entries: IndexedProblem[] = [];
  for (const problem of problems) {
    const boxId = problem.gridBoxId ?? (problem.grid_box_id == null ? '' : String(problem.grid_box_id));
    const gridId = gridOfBox.get(boxId);
    if (gridId === undefined) continue;
    const spelling = problem.problem_type ?? '';
    let type = typeBySpelling.get(spelling);
    if (type === undefined) {
      const key = spelling.trim().toLowerCase();
      type = typeByKey.get(key);
      if (type === undefined) {
        type = types.length;
        typeByKey.set(key, type);
        const style = problemCircleStyle(spelling, problem.problem_slug ?? null, mappings);
        types.push({ key, name: spelling.trim() || i18next.t('unnamedProblem', { ns: pestPressureTexts }), color: style.color, abbreviation: style.abbreviation });
      }
      typeBySpelling.set(spelling, type);
    }
    const observed = Date.parse(problem.observed_at ?? '');
    // A closed problem without a readable time of closing counts as closed at every moment.
    const closedAt = Date.parse(problem.status_at ?? problem.updated_at ?? '');
    entries.push({
      problem,
      boxId,
      gridId,
      type,
      observed: Number.isNaN(observed) ? Number.NEGATIVE_INFINITY : observed,
      open: OPEN.has(problem.status ?? ''),
      closed: Number.isNaN(closedAt) ? Number.NEGATIVE_INFINITY : closedAt,
    });
  }
  return { types, entries };
}

/**
 * The map at `at` (milliseconds): the problems seen by then and open then. `at` = +Infinity is the
 * room as it is now: every open problem, whatever the tablets' clocks said when they were recorded.
 */
export function pressureAt(index: ProblemIndex, at: number): PressureMap {
  const perType = index.types.map(() => ({ count: 0, boxes: 0 }));
  const countsByBox = new Map<string, number[]>();
  const problems = new Map<string, ProblemDoc[]>();
  const grids = new Map<string, GridPressure>();
  let total = 0;
  for (const entry of index.entries) {
    if (!(entry.observed <= at && (entry.open || entry.closed > at))) continue;
    total += 1;
    // A box's counts by type index: a short array (few types per box), not a map.
    let counts = countsByBox.get(entry.boxId);
    if (!counts) {
      counts = [];
      countsByBox.set(entry.boxId, counts);
    }
    const typeStats = perType[entry.type]!;
    if (!counts[entry.type]) typeStats.boxes += 1;
    counts[entry.type] = (counts[entry.type] ?? 0) + 1;
    typeStats.count += 1;
    const listed = problems.get(entry.boxId);
    if (listed) listed.push(entry.problem);
    else problems.set(entry.boxId, [entry.problem]);
    let grid = grids.get(entry.gridId);
    if (!grid) {
      grid = { total: 0, byType: new Map() };
      grids.set(entry.gridId, grid);
    }
    grid.total += 1;
    const key = index.types[entry.type]!.key;
    grid.byType.set(key, (grid.byType.get(key) ?? 0) + 1);
  }
  const circles = new Map<string, BoxCircle[]>();
  for (const [boxId, counts] of countsByBox) {
    const shown: BoxCircle[] = [];
    counts.forEach((count, type) => count && shown.push({ type: index.types[type]!, count }));
    circles.set(boxId, shown.sort(byCountThenName));
  }
  for (const list of problems.values()) if (list.length > 1) list.sort(newestSeenFirst);
  const legend = index.types.map((type, position) => ({ type, ...perType[position]! })).filter((entry) => entry.count > 0).sort(byCountThenName);
  return { circles, problems, legend, grids, total };
}

/** The map of a room at `at` in one call (indexProblems then pressureAt). */
export function pressureMap(input: { problems: readonly ProblemDoc[]; boxes: readonly MapBox[]; mappings: readonly ColorMappingLike[]; at: number }): PressureMap {
  return pressureAt(indexProblems(input.problems, input.boxes, input.mappings), input.at);
}

function byCountThenName(a: { type: ProblemType; count: number }, b: { type: ProblemType; count: number }) {
  return b.count - a.count || a.type.name.localeCompare(b.type.name);
}

function newestSeenFirst(a: ProblemDoc, b: ProblemDoc) {
  return String(b.observed_at ?? '').localeCompare(String(a.observed_at ?? ''));
}

/** How far back the week slider goes (issue 14: "the last 12 weeks"). */
export const REPLAY_WEEKS = 12;
const WEEK_MS = 7 * 86_400_000;

export interface WeekStep {
  /** 0 is now, 12 is twelve weeks ago. */
  weeksAgo: number;
  /** The moment shown: +Infinity for now (see pressureAt), else `now` less so many weeks. */
  at: number;
  /** "Now", "1 week ago", "12 weeks ago", in the reader's language. */
  label: string;
  /** The day shown, as the reader writes it ("14 Apr"); empty for now. */
  day: string;
}

/**
 * The slider's steps, now first: the same time of day, one week apart, back REPLAY_WEEKS weeks. `t`:
 * the screen's (useTranslation), so that the steps are made again when the reader's language changes.
 */
export function weekSteps(now: number, t: TFunction<'pest-pressure'> = i18next.getFixedT(null, pestPressureTexts)): WeekStep[] {
  return Array.from({ length: REPLAY_WEEKS + 1 }, (_, weeksAgo) => {
    const at = weeksAgo === 0 ? Number.POSITIVE_INFINITY : now - weeksAgo * WEEK_MS;
    return {
      weeksAgo,
      at,
      label: weeksAgo === 0 ? t('slider.now') : t('slider.weeksAgo', { count: weeksAgo }),
      day: weeksAgo === 0 ? '' : formatDate(at, { day: 'numeric', month: 'short' }),
    };
  });
}

/** The company's problem colours from its local document (absent until the first pull brings it). */
export function colorMappingsOf(company: { problem_color_mappings?: unknown } | null): ColorMappingLike[] {
  return Array.isArray(company?.problem_color_mappings) ? (company.problem_color_mappings as ColorMappingLike[]) : [];
}

/** What a box's circles say in words (its accessible name and the panel's summary): "SM Two-spotted spider mite 3". */
export function circlesText(circles: readonly BoxCircle[]): string {
  return circles.map((circle) => `${circle.type.abbreviation} ${circle.type.name} ${circle.count}`).join(', ');
}

/**
 * `next`'s circles, with each box's array from `previous` where it is unchanged: a memoised box keeps
 * its props, so a week step or one resolved problem re-renders the boxes that changed, not 2,000.
 */
export function keepUnchangedCircles(previous: ReadonlyMap<string, BoxCircle[]> | null, next: Map<string, BoxCircle[]>): Map<string, BoxCircle[]> {
  if (!previous) return next;
  for (const [boxId, circles] of next) {
    const before = previous.get(boxId);
    if (before && before.length === circles.length && before.every((circle, position) => sameCircle(circle, circles[position]!))) next.set(boxId, before);
  }
  return next;
}

function sameCircle(a: BoxCircle, b: BoxCircle) {
  return a.count === b.count && a.type.key === b.type.key && a.type.name === b.type.name && a.type.color === b.type.color && a.type.abbreviation === b.type.abbreviation;
}
