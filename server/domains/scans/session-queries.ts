/**
 * Queries of scan sessions and their boxes (issue 17), and the shapes answers and the synced document
 * give them (common/schemas/scans.ts). A session's boxes are read in one statement for many sessions
 * (a pull page, a list), each with its grid box's name and position.
 */
import type { Kysely, Selectable } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { ScanBoxEntry, ScanBoxRecord, ScanDetailRecord, ScanDocumentRecord, ScanFinding, ScanSessionRecord, ScanSummary, ScanType, TrapCounts } from '../../../common/schemas/scans';
import type { DB, ScansTable } from '../../db/schema';
import { filePath } from '../files/storage';

export type ScanRow = Selectable<ScansTable>;

/** get_scans' filters: UTC days, both ends included. */
export interface ScanFilter {
  companyId: number;
  scanType?: ScanType;
  roomId?: number;
  gridId?: number;
  startDate?: string;
  endDate?: string;
}

const DAY_MS = 86_400_000;

/** Sessions with the names of their room, grid and user (kept when those are deleted: the history reads as it was). */
const sessions = (db: Kysely<DB>) =>
  db
    .selectFrom('scans')
    .leftJoin('rooms', 'rooms.id', 'scans.room_id')
    .leftJoin('grids', 'grids.id', 'scans.grid_id')
    .leftJoin('users', 'users.id', 'scans.user_id')
    .selectAll('scans')
    .select(['rooms.name as room_name', 'grids.name as grid_name', 'users.first_name', 'users.last_name']);

export type SessionRow = Awaited<ReturnType<typeof scanSessionQueries.byIds>>[number];

const BOX_COLUMNS = [
  'scan_boxes.id',
  'scan_boxes.client_id',
  'scan_boxes.company_id',
  'scan_boxes.scan_id',
  'scan_boxes.grid_box_id',
  'scan_boxes.file_id',
  'scan_boxes.captured_at',
  'scan_boxes.findings',
  'scan_boxes.counts',
  'scan_boxes.form_response_id',
  'grid_boxes.x',
  'grid_boxes.y',
  'grid_boxes.custom_name',
] as const;

/** Boxes' photos with their grid boxes' names and positions; their marks only when asked (a trap's may be thousands: the synced document leaves them out). */
const boxes = (db: Kysely<DB>) => db.selectFrom('scan_boxes').innerJoin('grid_boxes', 'grid_boxes.id', 'scan_boxes.grid_box_id').select(BOX_COLUMNS).where('scan_boxes.deleted_at', 'is', null);
const boxesWithMarks = (db: Kysely<DB>) => boxes(db).select('scan_boxes.marks');

export type ScanBoxEntryRow = Awaited<ReturnType<typeof scanSessionQueries.entriesOf>>[number];
export type ScanBoxRow = Awaited<ReturnType<typeof scanSessionQueries.boxesOf>>[number];

export const scanSessionQueries = {
  /** Sessions by id, live or not (a pull page holds tombstones too), in no particular order. */
  byIds: (db: Kysely<DB>, ids: number[]) => (ids.length === 0 ? Promise.resolve([]) : sessions(db).where('scans.id', 'in', ids).execute()),

  /** A page of the company's live sessions, newest first, and how many match in all. */
  async page(db: Kysely<DB>, filter: ScanFilter, page: number, perPage: number) {
    let query = db.selectFrom('scans').where('scans.company_id', '=', filter.companyId).where('scans.deleted_at', 'is', null);
    if (filter.scanType !== undefined) query = query.where('scans.scan_type', '=', filter.scanType);
    if (filter.roomId !== undefined) query = query.where('scans.room_id', '=', filter.roomId);
    if (filter.gridId !== undefined) query = query.where('scans.grid_id', '=', filter.gridId);
    if (filter.startDate) query = query.where('scans.scanned_at', '>=', new Date(`${filter.startDate}T00:00:00Z`));
    if (filter.endDate) query = query.where('scans.scanned_at', '<', new Date(Date.parse(`${filter.endDate}T00:00:00Z`) + DAY_MS));
    const total = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    const ids = await query
      .select('scans.id')
      .orderBy('scans.scanned_at', 'desc')
      .orderBy('scans.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const rows = new Map((await scanSessionQueries.byIds(db, ids.map((row) => row.id))).map((row) => [row.id, row]));
    return { rows: ids.flatMap((row) => rows.get(row.id) ?? []), total: Number(total.count) };
  },

  /**
   * A live session, locked until the transaction ends: two boxes recorded at once for one scan add to its
   * summary one after the other, and a box replayed while its first request runs finds it recorded.
   */
  lockLive: (db: Kysely<DB>, id: number) => db.selectFrom('scans').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst(),

  /** A live room with its scan time (a scan marks it scanned unless a later one did). */
  liveRoom: (db: Kysely<DB>, id: number) =>
    db.selectFrom('rooms').select(['id', 'company_id', 'name', 'scanned_at']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /** A live grid with its room and scan time. */
  liveGrid: (db: Kysely<DB>, id: number) =>
    db.selectFrom('grids').select(['id', 'company_id', 'room_id', 'name', 'scanned_at']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  /** The company's session a client id names, live or not. */
  byClientId: (db: Kysely<DB>, companyId: number, clientId: string) =>
    db.selectFrom('scans').selectAll().where('company_id', '=', companyId).where('client_id', '=', clientId).executeTakeFirst(),

  /** The live boxes of sessions without their marks, in the order they were photographed. */
  entriesOf: (db: Kysely<DB>, scanIds: number[]) =>
    scanIds.length === 0 ? Promise.resolve([]) : boxes(db).where('scan_boxes.scan_id', 'in', scanIds).orderBy('scan_boxes.captured_at').orderBy('scan_boxes.id').execute(),

  /** The same with their marks. */
  boxesOf: (db: Kysely<DB>, scanIds: number[]) =>
    scanIds.length === 0 ? Promise.resolve([]) : boxesWithMarks(db).where('scan_boxes.scan_id', 'in', scanIds).orderBy('scan_boxes.captured_at').orderBy('scan_boxes.id').execute(),

  boxById: (db: Kysely<DB>, id: number) => boxesWithMarks(db).where('scan_boxes.id', '=', id).executeTakeFirstOrThrow(),

  /** The company's box a client id names, live or not (a replayed record_scan_box). */
  boxByClientId: (db: Kysely<DB>, companyId: number, clientId: string) =>
    db.selectFrom('scan_boxes').selectAll().where('company_id', '=', companyId).where('client_id', '=', clientId).executeTakeFirst(),

  /** The company's problems named by these client ids (those a box's confirmed findings made). */
  problemsByClientIds: (db: Kysely<DB>, companyId: number, clientIds: string[]) =>
    clientIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('plant_problems').selectAll().where('company_id', '=', companyId).where('client_id', 'in', clientIds).orderBy('id').execute(),
};

const noInsects = (): TrapCounts => ({ thrips: 0, whitefly_aphid: 0, gnat_fly: 0 });

/** A session's summary as stored, complete (rows made before migration 0017 hold `{}`). */
export function summaryOf(stored: Partial<ScanSummary> | null, scanType: ScanType): ScanSummary {
  return {
    boxes: stored?.boxes ?? 0,
    findings: stored?.findings ?? 0,
    confirmed_problems: stored?.confirmed_problems ?? 0,
    insects: scanType === 'sticky_trap' ? { ...noInsects(), ...stored?.insects } : null,
  };
}

/** The summary with one more box photo: its findings, its confirmed ones, and its insects on a trap scan. */
export function summaryWithBox(summary: ScanSummary, box: { findings: readonly ScanFinding[]; counts: TrapCounts | null }): ScanSummary {
  const insects = summary.insects && box.counts ? { thrips: summary.insects.thrips + box.counts.thrips, whitefly_aphid: summary.insects.whitefly_aphid + box.counts.whitefly_aphid, gnat_fly: summary.insects.gnat_fly + box.counts.gnat_fly } : summary.insects;
  return {
    boxes: summary.boxes + 1,
    findings: summary.findings + box.findings.length,
    confirmed_problems: summary.confirmed_problems + box.findings.filter((finding) => finding.confirmed).length,
    insects,
  };
}

const fullName = (first: string | null, last: string | null) => (first === null ? null : `${first} ${last ?? ''}`.trim());

export const scanSessionJson = (row: SessionRow): ScanSessionRecord => ({
  scan_id: row.id,
  client_id: row.client_id,
  company_id: row.company_id,
  scan_type: row.scan_type,
  room_id: row.room_id,
  room_name: row.room_name,
  grid_id: row.grid_id,
  grid_name: row.grid_name,
  user_id: row.user_id,
  user_name: fullName(row.first_name, row.last_name),
  model_key: row.model_key,
  model_name: row.model_name,
  model_version: row.model_version,
  scanned_at: isoTime(row.scanned_at),
  summary: summaryOf(row.summary, row.scan_type),
  created_at: isoTime(row.created_at),
  updated_at: isoTime(row.updated_at),
});

/** A box as the synced document holds it: without its marks. */
export const scanBoxEntryJson = (row: ScanBoxEntryRow): ScanBoxEntry => ({
  scan_box_id: row.id,
  client_id: row.client_id,
  scan_id: row.scan_id,
  grid_box_id: row.grid_box_id,
  box_name: row.custom_name,
  x: row.x,
  y: row.y,
  image: filePath(row.file_id),
  captured_at: isoTime(row.captured_at),
  findings: row.findings,
  counts: row.counts,
  form_response_id: row.form_response_id,
});

export const scanBoxJson = (row: ScanBoxRow): ScanBoxRecord => ({ ...scanBoxEntryJson(row), marks: row.marks });

/** Rows grouped by their scan. */
function byScan<Row extends { scan_id: number }>(rows: Row[]): Map<number, Row[]> {
  const grouped = new Map<number, Row[]>();
  for (const row of rows) {
    const list = grouped.get(row.scan_id);
    if (list) list.push(row);
    else grouped.set(row.scan_id, [row]);
  }
  return grouped;
}

/** Sessions as the synced document holds them (boxes without marks), in the order of `rows`. */
export async function scanDocuments(db: Kysely<DB>, rows: SessionRow[]): Promise<ScanDocumentRecord[]> {
  const boxesOfScan = byScan(await scanSessionQueries.entriesOf(db, rows.map((row) => row.id)));
  return rows.map((row) => ({ ...scanSessionJson(row), boxes: (boxesOfScan.get(row.id) ?? []).map(scanBoxEntryJson) }));
}

/** A session with its boxes and their marks (get_scan). */
export async function scanDetail(db: Kysely<DB>, row: SessionRow): Promise<ScanDetailRecord> {
  const boxRows = await scanSessionQueries.boxesOf(db, [row.id]);
  return { ...scanSessionJson(row), boxes: boxRows.map(scanBoxJson) };
}
