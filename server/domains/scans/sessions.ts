/**
 * Scan sessions (issue 17; `scanNow`, `scanHistory`, `scanHistory/{scanType}/{scanHistoryID}`): calls of
 * our own, named in the spec's style. Any member scans (floor work); Admins delete scans (routes.ts
 * delete_scan). Shapes and rules: common/schemas/scans.ts.
 *
 * - create_scan starts a session (as the caller, at the act's time) and marks its grid and room scanned
 *   then. It is named by the tablet's client id, and a create sent again with that id (a replay whose
 *   Idempotency-Key is gone, or a second key) answers the same scan instead of a second one.
 * - record_scan_box does everything for one box in one transaction: stores the photo, records each
 *   confirmed finding as an unresolved problem on the box (source 'scan', the photo, the model's name and
 *   version in its notes), on a trap scan makes the Sticky Trap response of the counts (traps.ts), and
 *   adds the box to the scan's summary. A box sent again under its client id answers what the first
 *   made: nothing is stored twice, the photo included.
 */
import type { FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { scanMessages as m } from '../../../common/messages/scans';
import {
  createScanAnswer,
  createScanBody,
  getScanQuery,
  getScansQuery,
  recordScanBoxAnswer,
  recordScanBoxBody,
  type ScanFinding,
  scanAnswer,
  scanProblemClientId,
  scansAnswer,
  trapResponseClientId,
} from '../../../common/schemas/scans';
import { newClientId } from '../../../common/client-ids';
import { type Actor, writer } from '../../db/writes';
import { badRequest, conflict, notFound } from '../../http/errors';
import { caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { saveImage } from '../files/storage';
import { plantProblemJson, problemQueries } from '../problems/queries';
import { problemSlugOf, recordBoxProblems, type SeenProblem } from '../problems/record';
import { type ScanRow, scanBoxJson, scanDetail, scanDocuments, scanSessionJson, scanSessionQueries as q, summaryOf, summaryWithBox } from './session-queries';
import { recordTrapResponse } from './traps';

const createSchema = { body: createScanBody, response: { 200: createScanAnswer } };
const recordBoxSchema = { body: recordScanBoxBody, response: { 200: recordScanBoxAnswer } };
const listSchema = { querystring: getScansQuery, response: { 200: scansAnswer } };
const detailSchema = { querystring: getScanQuery, response: { 200: scanAnswer } };

/** The model as people read it: its name and version. */
const modelLabel = (scan: Pick<ScanRow, 'model_name' | 'model_key' | 'model_version'>) => [scan.model_name ?? scan.model_key ?? 'an unnamed model', scan.model_version].filter(Boolean).join(' ');

/** A box as the audit trail names it: its name, else its position. */
const boxLabel = (box: { custom_name: string | null; x: number; y: number }) => box.custom_name ?? `${box.x},${box.y}`;

const recordNotFound = (kind: string, id: number) => notFound(httpMessages.recordNotFound(`${kind} ${id}`));

/** The scan with its boxes as the synced document holds it. */
async function documentOf(request: FastifyRequest, scanId: number) {
  const [row] = await q.byIds(request.db, [scanId]);
  if (!row) throw recordNotFound('scan', scanId);
  const [document] = await scanDocuments(request.db, [row]);
  return document!;
}

/**
 * Marks the grid and room walked as scanned by the scanner at the scan's time, unless a later scan
 * already did (a scan sent from a tablet that was offline does not move their state back in time).
 */
async function markScanned(request: FastifyRequest, actor: Actor, places: Array<{ table: 'rooms' | 'grids'; id: number; scanned_at: Date | null }>) {
  const write = writer(request.db, actor);
  for (const place of places) {
    if (place.scanned_at !== null && place.scanned_at >= request.actedAt) continue;
    await write.update(place.table, place.id, { scanned: true, scanned_at: request.actedAt, last_scanned_by: actor.userId });
  }
}

async function createScan(request: RequestOf<typeof createSchema>) {
  const { client_id, company_id, scan_type, room_id, grid_id, model_key, model_name, model_version } = request.body;
  const claims = caller(request);
  if (client_id !== undefined) {
    const made = await q.byClientId(request.db, company_id, client_id);
    if (made) {
      // The same create again: its scan. Another record under the id (or this scan deleted since): refused.
      const same = made.deleted_at === null && made.user_id === claims.user_id && made.scan_type === scan_type && made.room_id === room_id && made.grid_id === (grid_id ?? null);
      if (!same) throw conflict(httpMessages.clientIdTaken);
      return success({ scan: await documentOf(request, made.id), scan_id: made.id, client_id: made.client_id }, m.scanCreated);
    }
  }
  const room = await q.liveRoom(request.db, room_id);
  // A SuperAdmin may name any company: the room must still belong to the one named.
  if (!room || room.company_id !== company_id) throw recordNotFound('room', room_id);
  const grid = grid_id === undefined ? undefined : await q.liveGrid(request.db, grid_id);
  if (grid_id !== undefined && !grid) throw recordNotFound('grid', grid_id);
  if (grid && grid.room_id !== room.id) throw badRequest(m.gridNotInRoom(grid.name, room.name));
  const actor = actorOfRequest(request, company_id);
  const created = await writer(request.db, actor).insert('scans', {
    client_id,
    company_id,
    room_id: room.id,
    grid_id: grid?.id ?? null,
    grid_box_id: null,
    file_id: null,
    model: null,
    result: null,
    user_id: claims.user_id,
    scan_type,
    model_key,
    model_name,
    model_version: model_version ?? null,
    scanned_at: request.actedAt,
    summary: JSON.stringify(summaryOf({}, scan_type)),
  });
  // A grower's walk of a grid scans it (issue 17: "the grid and room are marked scanned at the time of
  // the scan"); a camera's image does not: nobody walked the room.
  if (grid && scan_type !== 'camera') {
    await markScanned(request, actor, [
      { table: 'grids', id: grid.id, scanned_at: grid.scanned_at },
      { table: 'rooms', id: room.id, scanned_at: room.scanned_at },
    ]);
  }
  const titles = auditTitles.scans[scan_type];
  const model = modelLabel({ model_name, model_key, model_version: model_version ?? null });
  await recordAudit(request.db, actor, {
    title: grid ? titles.startedOfGrid(grid.name, room.name, model) : titles.startedOfRoom(room.name, model),
    roomId: room.id,
    details: { scan_id: created.id, grid_id: grid?.id ?? null, model_key },
  });
  return success({ scan: await documentOf(request, created.id), scan_id: created.id, client_id: created.client_id }, m.scanCreated);
}

/** What record_scan_box answers for a box recorded (now, or by the request this one repeats). */
async function boxAnswer(request: FastifyRequest, scan: ScanRow, boxId: number) {
  const box = await q.boxById(request.db, boxId);
  const problemClientIds = box.findings.flatMap((finding) => (finding.confirmed && finding.problem_client_id ? [finding.problem_client_id] : []));
  const problems = await q.problemsByClientIds(request.db, scan.company_id, problemClientIds);
  return success({ scan_box: scanBoxJson(box), problems: problems.map(plantProblemJson), form_response_id: box.form_response_id, summary: summaryOf(scan.summary, scan.scan_type) }, m.scanBoxRecorded);
}

async function recordScanBox(request: RequestOf<typeof recordBoxSchema>) {
  const { scan_id, client_id, grid_box_id, findings, marks, counts, image } = request.body;
  const claims = caller(request);
  const scan = await q.lockLive(request.db, scan_id);
  if (!scan) throw recordNotFound('scan', scan_id);
  if (client_id !== undefined) {
    const recorded = await q.boxByClientId(request.db, scan.company_id, client_id);
    if (recorded) {
      if (recorded.deleted_at !== null || recorded.scan_id !== scan.id || recorded.grid_box_id !== grid_box_id) throw conflict(httpMessages.clientIdTaken);
      return boxAnswer(request, scan, recorded.id);
    }
  }
  const box = await problemQueries.liveBox(request.db, grid_box_id);
  if (!box || box.company_id !== scan.company_id) throw recordNotFound('grid_box', grid_box_id);
  if (scan.grid_id !== null ? box.grid_id !== scan.grid_id : box.room_id !== scan.room_id) throw badRequest(scan.grid_id !== null ? m.boxNotInScan(box.id) : m.boxNotInScanRoom(box.id));
  // Every confirmed finding's catalogue entry, checked before anything is stored (an unknown slug: 400).
  const slugs = findings.map((finding) => (finding.confirmed && finding.problem_type !== null ? problemSlugOf(finding.problem_type, finding.problem_slug ?? undefined) : finding.problem_slug));

  const actor = actorOfRequest(request, scan.company_id);
  const photo = await saveImage(request, image, scan.company_id);
  const boxClientId = client_id ?? newClientId();
  // Each confirmed finding names its problem: the tablet's, else one derived from the box's client id and its place.
  const stored: ScanFinding[] = findings.map((finding, index) => ({
    ...finding,
    problem_slug: slugs[index] ?? null,
    problem_client_id: finding.confirmed ? (finding.problem_client_id ?? scanProblemClientId(boxClientId, index)) : finding.problem_client_id,
  }));
  const model = modelLabel(scan);
  const seen: SeenProblem[] = stored.flatMap((finding) =>
    finding.confirmed && finding.problem_type !== null
      ? [
          {
            problemType: finding.problem_type,
            problemSlug: finding.problem_slug,
            // The grower confirmed the finding without rating it: the lowest severity, which they can raise.
            severity: finding.severity ?? 1,
            // Decision: the model's name and version go in the problem's notes (plant problems have no field for them).
            notes: `Scan finding by ${model}: ${finding.label} (${Math.round(finding.confidence * 100)}% confidence).`,
            imageName: photo.path,
            clientId: finding.problem_client_id ?? undefined,
          },
        ]
      : [],
  );
  const problems = await recordBoxProblems(request.db, actor, box, seen, {
    userId: claims.user_id,
    observedAt: request.actedAt,
    source: 'scan',
    scanId: scan.id,
    via: { scanType: scan.scan_type, model },
  });
  const formResponseId =
    scan.scan_type === 'sticky_trap' && counts !== null
      ? await recordTrapResponse(request.db, actor, { gridBoxId: box.id, counts, photo, submittedBy: claims.user_id, at: request.actedAt, clientId: trapResponseClientId(boxClientId) })
      : null;
  const write = writer(request.db, actor);
  const created = await write.insert('scan_boxes', {
    client_id: boxClientId,
    company_id: scan.company_id,
    scan_id: scan.id,
    grid_box_id: box.id,
    file_id: photo.id,
    captured_at: request.actedAt,
    findings: JSON.stringify(stored),
    marks: JSON.stringify(marks),
    counts: counts === null ? null : JSON.stringify(counts),
    form_response_id: formResponseId,
  });
  // The box travels inside its scan's document: this write of the scan is its touch too.
  const summary = summaryWithBox(summaryOf(scan.summary, scan.scan_type), { findings: stored, counts });
  await write.update('scans', scan.id, { summary: JSON.stringify(summary) });
  await recordAudit(request.db, actor, {
    title: auditTitles.scans[scan.scan_type].scannedBox(boxLabel(box), scan.id),
    roomId: box.room_id,
    gridBoxId: box.id,
    responseId: formResponseId,
    details: { scan_id: scan.id, scan_box_id: created.id, file: photo.path, findings: stored.length, problems: problems.length, ...(counts ? { counts } : {}) },
  });
  return success(
    { scan_box: scanBoxJson(await q.boxById(request.db, created.id)), problems: problems.map(plantProblemJson), form_response_id: formResponseId, summary },
    m.scanBoxRecorded,
  );
}

async function getScans(request: RequestOf<typeof listSchema>) {
  const { company_id, scan_type, room_id, grid_id, start_date, end_date, page, per_page } = request.query;
  const { rows, total } = await q.page(
    request.db,
    { companyId: company_id, scanType: scan_type, roomId: room_id, gridId: grid_id, startDate: start_date ?? undefined, endDate: end_date ?? undefined },
    page,
    per_page,
  );
  return success({ scans: rows.map(scanSessionJson), page, per_page, total });
}

async function getScan(request: RequestOf<typeof detailSchema>) {
  const [row] = await q.byIds(request.db, [request.query.scan_id]);
  if (!row || row.deleted_at !== null) throw recordNotFound('scan', request.query.scan_id);
  return success({ scan: await scanDetail(request.db, row) });
}

export async function scanSessionRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  app.post('/create_scan', { schema: createSchema, ...fields }, createScan);
  app.post('/record_scan_box', { schema: recordBoxSchema, ...fields }, recordScanBox);
  app.get('/get_scans', { schema: listSchema }, getScans);
  app.get('/get_scan', { schema: detailSchema }, getScan);
}
