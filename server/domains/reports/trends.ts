/**
 * The problem trends (spec part 2 §7; issue 15): what a manager reviews after the tablets sync. Each
 * function answers one call's payload from one counting query (problem-counts.ts) over the rooms it
 * covers; every series has a point for every week of the period.
 */
import type { Kysely } from 'kysely';
import { httpMessages } from '../../../common/messages/http';
import { REPORT_WEEKS_MAX } from '../../../common/messages/reports';
import { catalogueProblem } from '../../../common/plant-problems';
import { lastWeeks, mondayOf, todayUtc } from '../../../common/schemas/report-dates';
import type {
  CumulativeReportGraphAnswer,
  GutterTrendsAnswer,
  ProblemTrendsAnswer,
  SingleProblemTrendAnswer,
  TrendsReportGraphAnswer,
  TrendsWithSeverityAnswer,
} from '../../../common/schemas/reports';
import type { DB } from '../../db/schema';
import { notFound } from '../../http/errors';
import { askedPeriod, asksPeriod, type DateFields, periodOrDefault, resolved, type ResolvedPeriod } from './period';
import { byTotalThenName, Groups, meanSeverity, type ProblemCountRow, problemCounts, problemKeyOf, ProblemNames, WeeklyTally } from './problem-counts';

/** An answer's payload: what `success` wraps. */
export type Payload<T> = Omit<T, 'status' | 'message'>;

export interface Room {
  id: number;
  name: string;
}

/**
 * The company's live rooms, by name; only those named when `roomIds` is given. The guard has found
 * each named room live and the caller's; a SuperAdmin may name another company's room with this
 * company: it is not found here (404), as a record named with the wrong company_id.
 */
export async function roomsOf(db: Kysely<DB>, companyId: number, roomIds?: readonly number[]): Promise<Room[]> {
  let query = db.selectFrom('rooms').select(['id', 'name']).where('company_id', '=', companyId).where('deleted_at', 'is', null);
  if (roomIds !== undefined) query = query.where('id', 'in', roomIds.length > 0 ? [...roomIds] : [-1]);
  const rooms = await query.orderBy('name').orderBy('id').execute();
  const found = new Set(rooms.map((room) => room.id));
  const missing = roomIds?.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(httpMessages.recordNotFound(`room ${missing}`));
  return rooms;
}

const periodJson = (period: ResolvedPeriod) => ({ period: { start_date: period.start, end_date: period.end }, weeks: period.weeks });
const roomJson = (room: Room) => ({ RoomID: room.id, Name: room.name });

/** Series of a weekly tally per problem type. */
function tallyByProblem(rows: readonly ProblemCountRow[], names: ProblemNames) {
  const series = new Groups<string, WeeklyTally>(() => new WeeklyTally());
  for (const row of rows) {
    names.see(row);
    series.of(row.key).add(row.week, row.count, row.severity_sum);
  }
  return series;
}

function totalOf(rows: readonly ProblemCountRow[]) {
  const total = new WeeklyTally();
  for (const row of rows) total.add(row.week, row.count, row.severity_sum);
  return total;
}

/** get_problem_trends: per problem type, the problems seen each week and their mean severity; and of all types. */
export async function problemTrends(db: Kysely<DB>, companyId: number, query: DateFields & { room_ids?: number[] | undefined }): Promise<Payload<ProblemTrendsAnswer>> {
  const period = askedPeriod(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const rows = await problemCounts(db, { roomIds: rooms.map((room) => room.id), from: period.from, until: period.until });
  const names = new ProblemNames();
  const trends = [...tallyByProblem(rows, names)].map(([key, tally]) => ({
    ...names.of(key),
    total: tally.total.count,
    mean_severity: meanSeverity(tally.total),
    points: tally.withSeverity(period.weeks),
  }));
  return { ...periodJson(period), trends: trends.sort(byTotalThenName), totals: totalOf(rows).withSeverity(period.weeks) };
}

/**
 * get_trends_report_graph: a line per room (every room asked, or every room of the company, seen or
 * not) with its lines per problem type, and a line per problem type over those rooms.
 */
export async function trendsReportGraph(db: Kysely<DB>, companyId: number, query: DateFields & { room_ids?: number[] | undefined }): Promise<Payload<TrendsReportGraphAnswer>> {
  const period = askedPeriod(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const rows = await problemCounts(db, { roomIds: rooms.map((room) => room.id), from: period.from, until: period.until }, { room: true });
  const names = new ProblemNames();
  const overall = tallyByProblem(rows, names);
  const seriesOf = (series: Map<string, WeeklyTally>) =>
    [...series].map(([key, tally]) => ({ ...names.of(key), total: tally.total.count, points: tally.counts(period.weeks) })).sort(byTotalThenName);
  return {
    ...periodJson(period),
    rooms: rooms.map((room) => {
      const own = rows.filter((row) => row.room_id === room.id);
      const total = totalOf(own);
      return { ...roomJson(room), total: total.total.count, points: total.counts(period.weeks), problems: seriesOf(tallyByProblem(own, names)) };
    }),
    problems: seriesOf(overall),
  };
}

/**
 * get_trends_cumulative_report_graph: per problem type, the problems seen each week and the running
 * total up to each week's end, counted from the room's first problem (those before the period are the
 * start value, so a line never starts from zero for a room with a history). Without a period: the
 * room's whole history, from the week of its first problem to this week (at most REPORT_WEEKS_MAX weeks).
 */
export async function cumulativeReportGraph(db: Kysely<DB>, room: Room, query: DateFields): Promise<Payload<CumulativeReportGraphAnswer>> {
  const today = todayUtc();
  const thisWeek = lastWeeks(1, today);
  const askedFor = asksPeriod(query) ? periodOrDefault(query) : null;
  const rows = await problemCounts(db, { roomIds: [room.id], until: askedFor?.until ?? resolved(thisWeek).until, countFrom: askedFor?.from });
  let period = askedFor;
  if (!period) {
    const first = rows.reduce<string | null>((earliest, row) => (row.week !== null && (earliest === null || row.week < earliest) ? row.week : earliest), null);
    const longest = lastWeeks(REPORT_WEEKS_MAX, today).start;
    period = resolved({ start: first === null ? mondayOf(today) : first < longest ? longest : first, end: thisWeek.end });
  }
  const firstWeek = period.weeks[0]!;
  // Rows before the period (or before its first day, within its first week) are the start value.
  const isBefore = (row: ProblemCountRow) => row.week === null || row.week < firstWeek;
  const names = new ProblemNames();
  const cumulative = (tally: WeeklyTally, before: number) => {
    let running = before;
    return period.weeks.map((week) => {
      const count = tally.byWeek.get(week)?.count ?? 0;
      running += count;
      return { week, count, cumulative: running };
    });
  };
  const inPeriod = rows.filter((row) => !isBefore(row));
  const beforeByKey = new Groups<string, { count: number }>(() => ({ count: 0 }));
  for (const row of rows.filter(isBefore)) {
    names.see(row);
    beforeByKey.of(row.key).count += row.count;
  }
  const series = tallyByProblem(inPeriod, names);
  for (const key of beforeByKey.keys()) series.of(key);
  const allBefore = [...beforeByKey.values()].reduce((sum, entry) => sum + entry.count, 0);
  return {
    ...periodJson(period),
    room: roomJson(room),
    series: [...series]
      .map(([key, tally]) => ({ ...names.of(key), total: tally.total.count, points: cumulative(tally, beforeByKey.get(key)?.count ?? 0) }))
      .sort(byTotalThenName),
    totals: cumulative(totalOf(inPeriod), allBefore),
  };
}

const SEVERITY_LEVELS = [1, 2, 3, 4, 5] as const;
type Severities = Record<'1' | '2' | '3' | '4' | '5', number>;
const noSeverities = (): Severities => ({ '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 });

/** Counts by week and severity level. */
class SeverityTally {
  readonly byWeek = new Groups<string, Severities>(noSeverities);
  total = 0;

  add(row: ProblemCountRow) {
    this.total += row.count;
    const level = String(SEVERITY_LEVELS.includes(row.severity as 1) ? row.severity : 1) as keyof Severities;
    if (row.week !== null) this.byWeek.of(row.week)[level] += row.count;
  }

  points(weeks: readonly string[]) {
    return weeks.map((week) => {
      const severities = this.byWeek.get(week) ?? noSeverities();
      return { week, count: Object.values(severities).reduce((sum, value) => sum + value, 0), severities };
    });
  }
}

/** get_trends_with_severity: per problem type and week, the problems at each severity 1–5 (stacked bars); and of all types. */
export async function trendsWithSeverity(db: Kysely<DB>, companyId: number, query: DateFields & { room_ids?: number[] | undefined }): Promise<Payload<TrendsWithSeverityAnswer>> {
  const period = periodOrDefault(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const rows = await problemCounts(db, { roomIds: rooms.map((room) => room.id), from: period.from, until: period.until }, { severity: true });
  const names = new ProblemNames();
  const series = new Groups<string, SeverityTally>(() => new SeverityTally());
  const totals = new SeverityTally();
  for (const row of rows) {
    names.see(row);
    series.of(row.key).add(row);
    totals.add(row);
  }
  return {
    ...periodJson(period),
    trends: [...series].map(([key, tally]) => ({ ...names.of(key), total: tally.total, points: tally.points(period.weeks) })).sort(byTotalThenName),
    totals: totals.points(period.weeks),
  };
}

/** A problem as asked, shown by the catalogue's name when it names an entry. */
function askedProblem(names: ProblemNames, key: string, asked: string) {
  if (names.has(key)) return names.of(key);
  return { problem_type: catalogueProblem(key)?.name ?? asked.trim(), problem_slug: catalogueProblem(key)?.slug ?? null };
}

/**
 * get_single_problem_trend: one problem type (its name, any case, or a catalogue slug), by week over
 * the company's rooms (or those named), and in each room where it was seen in the period.
 */
export async function singleProblemTrend(db: Kysely<DB>, companyId: number, query: DateFields & { problem: string; room_ids?: number[] | undefined }): Promise<Payload<SingleProblemTrendAnswer>> {
  const period = periodOrDefault(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const key = problemKeyOf(query.problem);
  const rows = await problemCounts(db, { roomIds: rooms.map((room) => room.id), from: period.from, until: period.until, keys: [key] }, { room: true });
  const names = new ProblemNames();
  for (const row of rows) names.see(row);
  const total = totalOf(rows);
  const seenIn = rooms
    .map((room) => ({ room, tally: totalOf(rows.filter((row) => row.room_id === room.id)) }))
    .filter(({ tally }) => tally.total.count > 0)
    .map(({ room, tally }) => ({ ...roomJson(room), total: tally.total.count, mean_severity: meanSeverity(tally.total), points: tally.withSeverity(period.weeks) }));
  return {
    ...periodJson(period),
    data: {
      ...askedProblem(names, key, query.problem),
      total: total.total.count,
      mean_severity: meanSeverity(total.total),
      points: total.withSeverity(period.weeks),
      rooms: seenIn.sort(byTotalThenName),
    },
  };
}

/** The rows (Y) of the rooms' live grids, of the batch's boxes when one is named. */
async function gridRows(db: Kysely<DB>, roomIds: readonly number[], batchId: number | null) {
  let query = db
    .selectFrom('grids')
    .innerJoin('grid_boxes', 'grid_boxes.grid_id', 'grids.id')
    .select(['grids.room_id', 'grids.id as grid_id', 'grids.name', 'grid_boxes.y'])
    .where('grids.room_id', 'in', [...roomIds])
    .where('grids.deleted_at', 'is', null)
    .where('grid_boxes.deleted_at', 'is', null);
  if (batchId !== null) query = query.where('grid_boxes.id', 'in', (eb) => eb.selectFrom('batch_grid_boxes').select('grid_box_id').where('batch_id', '=', batchId));
  return query.groupBy(['grids.room_id', 'grids.id', 'grids.name', 'grid_boxes.y']).orderBy('grids.id').orderBy('grid_boxes.y').execute();
}

/**
 * get_gutter_trends: the named problems seen per row (a gutter: the boxes of a grid with the same Y),
 * per week: a heat map by row and week, for each grid of each room named. With a batch, only the
 * batch's boxes count and only the rows holding them are listed; with NULL, every box and row.
 */
export async function gutterTrends(
  db: Kysely<DB>,
  companyId: number,
  query: DateFields & { room_ids?: number[] | undefined; plant_problems?: string[] | undefined; batch_id: number | null },
): Promise<Payload<GutterTrendsAnswer>> {
  const period = periodOrDefault(query);
  const rooms = await roomsOf(db, companyId, query.room_ids);
  const roomIds = rooms.map((room) => room.id);
  const asked = new Map((query.plant_problems ?? []).map((name) => [problemKeyOf(name), name]));
  const rows = await problemCounts(db, { roomIds, from: period.from, until: period.until, keys: [...asked.keys()], batchId: query.batch_id ?? undefined }, { row: true });
  const names = new ProblemNames();
  const byRow = new Groups<string, WeeklyTally>(() => new WeeklyTally());
  for (const row of rows) {
    names.see(row);
    byRow.of(`${row.grid_id}:${row.y}`).add(row.week, row.count, row.severity_sum);
  }
  const layout = await gridRows(db, roomIds, query.batch_id);
  return {
    ...periodJson(period),
    batch_id: query.batch_id,
    plant_problems: [...asked].map(([key, name]) => askedProblem(names, key, name)),
    data: rooms.map((room) => {
      const grids = new Groups<number, { GridID: number; Name: string; rows: Array<{ Y: number; total: number; points: Array<{ week: string; count: number }> }> }>((id) => ({
        GridID: id,
        Name: layout.find((row) => row.grid_id === id)?.name ?? '',
        rows: [],
      }));
      for (const row of layout.filter((entry) => entry.room_id === room.id)) {
        const tally = byRow.get(`${row.grid_id}:${row.y}`) ?? new WeeklyTally();
        grids.of(row.grid_id).rows.push({ Y: row.y, total: tally.total.count, points: tally.counts(period.weeks) });
      }
      return { ...roomJson(room), grids: [...grids.values()] };
    }),
  };
}
