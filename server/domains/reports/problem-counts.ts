/**
 * The one query every problem trend is drawn from: live plant problems (issue 14) of live rooms and
 * grids, counted by the week they were seen (`observed_at`, the grower's time, not the sync's) and by
 * problem type, and by room, severity or row when a chart needs it; then tallied into weekly series.
 *
 * Decisions (the spec is silent):
 * - A problem dismissed as a false alarm was never there: trends leave it out. Resolved and treated
 *   problems were seen, and count in the week they were seen.
 * - A problem type is one series whatever its case: the catalogue's entry when the problem names one
 *   (`problem_slug`, shown by the catalogue's name), else the company's own type, any case (shown by
 *   its alphabetically first spelling).
 * - A fractional severity (1.5) counts at its nearest whole severity, halves up, for stacked bars; mean
 *   severities are the exact means, to two decimals.
 *
 * The rooms are resolved first (the company's live ones, or those named), so the problems are read by
 * room and time through `plant_problems_room` (room_id, observed_at) WHERE deleted_at IS NULL.
 */
import { type Kysely, sql } from 'kysely';
import { catalogueProblem, catalogueProblemNamed } from '../../../common/plant-problems';
import type { DB } from '../../db/schema';

/** The key a problem type is counted under (see the header); SQL `problemKey` computes the same of a row. */
export function problemKeyOf(name: string): string {
  const trimmed = name.trim();
  return (catalogueProblem(trimmed) ?? catalogueProblemNamed(trimmed))?.slug ?? trimmed.toLowerCase();
}

const problemKey = sql<string>`COALESCE(p.problem_slug, lower(p.problem_type))`;

export interface ProblemScope {
  roomIds: readonly number[];
  /** Seen from (included); absent: since the first, with the weeks before `countFrom` as `week: null`. */
  from?: Date;
  until: Date;
  /** Weeks before this moment are summed as the baseline (`week: null`): a cumulative chart's start. */
  countFrom?: Date;
  /** Only these problem keys (problemKeyOf). */
  keys?: readonly string[];
  /** Only the boxes linked to this batch. */
  batchId?: number;
}

/** Dimensions a chart splits the counts by, beside week and problem type. */
export interface ProblemSplit {
  room?: boolean;
  severity?: boolean;
  row?: boolean;
}

export interface ProblemCountRow {
  /** The week's Monday; null: before `countFrom`. */
  week: string | null;
  key: string;
  slug: string | null;
  name: string;
  /** 0 when not split by it. */
  room_id: number;
  severity: number;
  grid_id: number;
  y: number;
  count: number;
  severity_sum: number;
}

export async function problemCounts(db: Kysely<DB>, scope: ProblemScope, split: ProblemSplit = {}): Promise<ProblemCountRow[]> {
  if (scope.roomIds.length === 0 || scope.keys?.length === 0) return [];
  // Grouped by the week's start, written as text once per group: sorting 100,000 problems (a year of a
  // 10,000-box company, bench/reports.ts) by the text of their week costs a fifth more.
  const week = sql`date_trunc('week', p.observed_at AT TIME ZONE 'UTC')`;
  const weekColumn = scope.countFrom ? sql`CASE WHEN p.observed_at < ${scope.countFrom} THEN NULL ELSE ${week} END` : week;
  // Halves up (PostgreSQL's round of a double breaks ties to even), within 1–5.
  const severity = split.severity ? sql`LEAST(5, GREATEST(1, floor(p.severity + 0.5)))::int` : sql`0`;
  const roomId = split.room ? sql`p.room_id` : sql`0`;
  const gridId = split.row ? sql`p.grid_id` : sql`0`;
  const y = split.row ? sql`b.y` : sql`0`;
  const { rows } = await sql<ProblemCountRow>`
    SELECT to_char(week, 'YYYY-MM-DD') AS week, key, slug, name, room_id, severity, grid_id, y, count, severity_sum FROM (
    SELECT ${weekColumn} AS week, ${problemKey} AS key, min(p.problem_slug) AS slug, min(p.problem_type COLLATE "C") AS name,
      ${roomId} AS room_id, ${severity} AS severity, ${gridId} AS grid_id, ${y} AS y,
      count(*)::int AS count, sum(p.severity)::float8 AS severity_sum
    FROM plant_problems p
    JOIN grids g ON g.id = p.grid_id AND g.deleted_at IS NULL
    ${split.row ? sql`JOIN grid_boxes b ON b.id = p.grid_box_id AND b.deleted_at IS NULL` : sql``}
    WHERE p.room_id = ANY(${[...scope.roomIds]}::int[])
      AND p.deleted_at IS NULL
      AND p.status <> 'dismissed'
      AND p.observed_at < ${scope.until}
      ${scope.from ? sql`AND p.observed_at >= ${scope.from}` : sql``}
      ${scope.keys ? sql`AND ${problemKey} = ANY(${[...scope.keys]}::text[])` : sql``}
      ${scope.batchId === undefined ? sql`` : sql`AND p.grid_box_id IN (SELECT grid_box_id FROM batch_grid_boxes WHERE batch_id = ${scope.batchId})`}
    GROUP BY 1, 2, 5, 6, 7, 8) counted`.execute(db);
  return rows;
}

/** Problems seen and the sum of their severities. */
export interface Tally {
  count: number;
  severitySum: number;
}

/** Means and shares in answers: to two decimals. */
export const twoDecimals = (value: number) => Math.round(value * 100) / 100;
export const meanSeverity = (tally: Tally | undefined) => (tally && tally.count > 0 ? twoDecimals(tally.severitySum / tally.count) : null);

/** Tallies by week, and over them all. */
export class WeeklyTally {
  readonly byWeek = new Map<string, Tally>();
  readonly total: Tally = { count: 0, severitySum: 0 };

  add(week: string | null, count: number, severitySum: number) {
    this.total.count += count;
    this.total.severitySum += severitySum;
    if (week === null) return;
    const tally = this.byWeek.get(week) ?? { count: 0, severitySum: 0 };
    tally.count += count;
    tally.severitySum += severitySum;
    this.byWeek.set(week, tally);
  }

  /** A point per week of `weeks`, zeros where none were seen. */
  counts(weeks: readonly string[]) {
    return weeks.map((week) => ({ week, count: this.byWeek.get(week)?.count ?? 0 }));
  }

  withSeverity(weeks: readonly string[]) {
    return weeks.map((week) => ({ week, count: this.byWeek.get(week)?.count ?? 0, mean_severity: meanSeverity(this.byWeek.get(week)) }));
  }
}

/** A map that makes its missing entries. */
export class Groups<K, V> extends Map<K, V> {
  constructor(private readonly make: (key: K) => V) {
    super();
  }

  of(key: K): V {
    let value = this.get(key);
    if (value === undefined) {
      value = this.make(key);
      this.set(key, value);
    }
    return value;
  }
}

/** How a problem type is shown: the catalogue's name for its entry, else the first of its spellings seen. */
export class ProblemNames {
  private readonly names = new Map<string, { problem_type: string; problem_slug: string | null }>();

  see(row: Pick<ProblemCountRow, 'key' | 'slug' | 'name'>) {
    const known = this.names.get(row.key);
    if (row.slug !== null) {
      this.names.set(row.key, { problem_type: catalogueProblem(row.slug)?.name ?? row.name, problem_slug: row.slug });
    } else if (!known || (known.problem_slug === null && row.name < known.problem_type)) {
      this.names.set(row.key, { problem_type: row.name, problem_slug: null });
    }
  }

  has(key: string) {
    return this.names.has(key);
  }

  of(key: string) {
    return this.names.get(key) ?? { problem_type: key, problem_slug: catalogueProblem(key) ? key : null };
  }
}

/** Series by most seen first, then by name. */
export const byTotalThenName = <T extends { total: number; problem_type?: string; Name?: string }>(a: T, b: T) =>
  b.total - a.total || (a.problem_type ?? a.Name ?? '').localeCompare(b.problem_type ?? b.Name ?? '');
