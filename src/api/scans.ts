/** Domain functions of scan state, scans and whiteboard images (spec part 1 §4 "Scanning", §5, §7, §8). */
import type { z } from 'zod';
import { newClientId } from '../../common/client-ids';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { STICKY_TRAP_CATEGORY } from '../../common/messages/forms';
import { scanClientMessages, scanMessages, TRAP_PHOTO_FIELD } from '../../common/messages/scans';
import {
  createScanBody,
  deleteScanQuery,
  getScanQuery,
  getScansQuery,
  recordScanBoxBody,
  type ScanBoxEntry,
  type ScanDocumentRecord,
  type ScanFinding,
  type ScanMark,
  type ScanSummary,
  type ScanType,
  type scanAnswer,
  type scansAnswer,
  scanProblemClientId,
  type TrapCounts,
  trapResponseClientId,
  gridIdQuery,
  markGridScannedQuery,
  markRoomScannedQuery,
  resetScannedQuery,
  roomIdQuery,
  type scanDetailsAnswer,
  uploadWhiteboardBody,
  type whiteboardHistoryAnswer,
} from '../../common/schemas/scans';
import { countsOfMarks, SIZE_CLASSES, STICKY_TRAP_FORM_FIELDS } from '../../common/vision/trap-marks';
import type { LocalDocument } from '../../sync/store';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, json, now, online, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import type { FormResponse } from './form-responses';
import { companyTemplates } from './forms';
import { localProblemOnBox, placeOfBox } from './problem-actions';
import { assertImage } from './grids';
import { filePart, multipartWithFile, signedIn } from './rooms';
import { type RecordId } from './records';

/** mark_room_scanned: queued; the room shows scanned by the signed-in user at once (the server requires user_id to be the caller). */
export async function markRoomScanned(context: ApiContext, input: { roomId: RecordId; userId: number }) {
  const { room_id, user_id } = check(markRoomScannedQuery, { room_id: input.roomId, user_id: input.userId });
  const at = now();
  const room = await context.store.get('rooms', String(room_id));
  await record(context, {
    method: 'POST',
    path: '/mark_room_scanned',
    query: { room_id, user_id },
    effects: [{ op: 'patch', collection: 'rooms', id: String(room_id), data: { Scanned: true, ScannedDateTime: at, LastScannedBy: user_id, UpdatedDateTime: at } }],
    label: labelNaming(room?.Name, changeLabels.markRoomScanned, changeLabels.markARoomScanned),
  });
}

/** mark_grid_scanned: queued, like mark_room_scanned. */
export async function markGridScanned(context: ApiContext, input: { gridId: RecordId; userId: number }) {
  const { grid_id, user_id } = check(markGridScannedQuery, { grid_id: input.gridId, user_id: input.userId });
  const at = now();
  const grid = await context.store.get('grids', String(grid_id));
  await record(context, {
    method: 'POST',
    path: '/mark_grid_scanned',
    query: { grid_id, user_id },
    effects: [{ op: 'patch', collection: 'grids', id: String(grid_id), data: { Scanned: true, ScannedDateTime: at, LastScannedBy: user_id, UpdatedDateTime: at } }],
    label: labelNaming(grid?.Name, changeLabels.markGridScanned, changeLabels.markAGridScanned),
  });
}

const hasScanState = (document: LocalDocument) => document.Scanned === true || document.ScannedDateTime != null || document.LastScannedBy != null;

/**
 * reset_scanned_status (Admin): queued; clears the scan state of every room and grid of the company
 * (spec part 1 §4: "a reset call clears all scanned statuses"). Without companyId it is the caller's
 * company, as on the server.
 */
export async function resetScannedStatus(context: ApiContext, input: { companyId?: number } = {}) {
  const { company_id } = check(resetScannedQuery, { company_id: input.companyId });
  const companyId = company_id ?? (await signedIn(context)).companyId;
  const cleared = { Scanned: false, ScannedDateTime: null, LastScannedBy: null, UpdatedDateTime: now() };
  const effects: Effect[] = [];
  if (companyId !== null) {
    for (const collection of ['rooms', 'grids'] as const) {
      for (const document of await findLocal(context, collection, { CompanyID: companyId })) {
        if (hasScanState(document)) effects.push({ op: 'patch', collection, id: document.id, data: cleared });
      }
    }
  }
  await record(context, {
    method: 'POST',
    path: '/reset_scanned_status',
    query: company_id === undefined ? {} : { company_id },
    effects,
    label: changeLabels.resetScanned,
  });
}

export type ScanDetails = z.infer<typeof scanDetailsAnswer>;

/** A scan helper that swallows errors (spec part 1 §8): warned about, answered with null. */
async function orNull<T>(call: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    console.warn(`${call} failed:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** get_room_scan_details: scan state with the last scanner's name; null on any failure (spec part 1 §8). */
export function getRoomScanDetails(context: ApiContext, input: { roomId: RecordId }): Promise<ScanDetails | null> {
  return orNull('get_room_scan_details', () =>
    online<ScanDetails>(context, { path: '/get_room_scan_details', query: check(roomIdQuery, { room_id: input.roomId }) }, scanClientMessages.scanDetailsFailed),
  );
}

/** get_grid_scan_details: as get_room_scan_details, for a grid; null on any failure. */
export function getGridScanDetails(context: ApiContext, input: { gridId: RecordId }): Promise<ScanDetails | null> {
  return orNull('get_grid_scan_details', () =>
    online<ScanDetails>(context, { path: '/get_grid_scan_details', query: check(gridIdQuery, { grid_id: input.gridId }) }, scanClientMessages.scanDetailsFailed),
  );
}

/**
 * upload_whiteboard_image: needs a room id and an image file (spec part 1 §5). Queued, the file kept as
 * a Blob part of the entry.
 * Decision: no optimistic change. The room's `WhiteboardImage` (and its history entry) is the path the
 * server gives the stored file, which the tablet cannot know; a local object URL would die with the
 * page while the entry lives on. The screen shows its own preview of the picked file until the pull
 * brings the room's new `WhiteboardImage`.
 */
export async function uploadWhiteboardImage(context: ApiContext, input: { roomId: RecordId; image: Blob; fileName?: string }) {
  const { room_id } = check(uploadWhiteboardBody, { room_id: input.roomId });
  assertImage(input.image);
  const room = await context.store.get('rooms', String(room_id));
  await record(context, {
    method: 'POST',
    path: '/upload_whiteboard_image',
    body: multipartWithFile({ room_id }, filePart('imageFile', input.image, input.fileName)),
    label: labelNaming(room?.Name, changeLabels.uploadWhiteboardImage, changeLabels.uploadAWhiteboardImage),
  });
}

export type WhiteboardHistory = z.infer<typeof whiteboardHistoryAnswer>;

/** get_whiteboard_history: the room's whiteboard images, newest first. */
export async function getWhiteboardHistory(context: ApiContext, input: { roomId: RecordId }): Promise<WhiteboardHistory> {
  const query = check(roomIdQuery, { room_id: input.roomId });
  return online<WhiteboardHistory>(context, { path: '/get_whiteboard_history', query }, scanClientMessages.whiteboardHistoryFailed);
}

/** The model a scan ran, as the scan records it: its key (the company's `ai_model` value), name and version. */
export interface ScanModel {
  key: string;
  name: string;
  version: string | null;
}

/** A scan as the tablet holds it (`operations`, kind `scan`): the server's document, or one made here whose boxes' photos may still wait. */
export type ScanBoxDocument = ScanBoxEntry & { marks?: ScanMark[]; photo_pending?: boolean };
export type ScanDocument = Omit<ScanDocumentRecord, 'boxes'> & { id: string; kind: 'scan'; boxes: ScanBoxDocument[] };

/** The local selector of the company's scans. */
export const SCAN_SELECTOR = { kind: 'scan' } as const;

const noInsects = (): TrapCounts => ({ thrips: 0, whitefly_aphid: 0, gnat_fly: 0 });

/**
 * create_scan: starts a walk of a grid with a model ('scan_type must be one of …', 'grid_id is required
 * for a disease or sticky_trap scan.'). Queued: the scan is in the local store at once under its client
 * id, made now by the signed-in user, so a scan works offline from its first step.
 */
export async function startScan(context: ApiContext, input: { companyId: number; scanType: ScanType; roomId: RecordId; gridId: RecordId; model: ScanModel; userId: number }): Promise<ScanDocument> {
  const values = check(createScanBody, {
    company_id: input.companyId,
    scan_type: input.scanType,
    room_id: input.roomId,
    grid_id: input.gridId,
    model_key: input.model.key,
    model_name: input.model.name,
    model_version: input.model.version ?? undefined,
  });
  const [room, grid] = await Promise.all([context.store.get('rooms', String(input.roomId)), context.store.get('grids', String(input.gridId))]);
  const scanId = newClientId();
  const at = now();
  const scan: ScanDocument = {
    id: scanId,
    kind: 'scan',
    scan_id: scanId,
    client_id: scanId,
    company_id: values.company_id,
    scan_type: values.scan_type,
    room_id: input.roomId,
    room_name: typeof room?.Name === 'string' ? room.Name : null,
    grid_id: input.gridId,
    grid_name: typeof grid?.Name === 'string' ? grid.Name : null,
    user_id: input.userId,
    user_name: null,
    model_key: values.model_key,
    model_name: values.model_name,
    model_version: values.model_version ?? null,
    scanned_at: at,
    summary: { boxes: 0, findings: 0, confirmed_problems: 0, insects: values.scan_type === 'sticky_trap' ? noInsects() : null },
    created_at: at,
    updated_at: at,
    boxes: [],
  };
  await record(context, {
    method: 'POST',
    path: '/create_scan',
    body: json({
      client_id: scanId,
      company_id: values.company_id,
      scan_type: values.scan_type,
      room_id: input.roomId,
      grid_id: input.gridId,
      model_key: values.model_key,
      model_name: values.model_name,
      ...(values.model_version ? { model_version: values.model_version } : {}),
    }),
    creates: [scanId],
    // The server marks the grid and its room scanned by this user at the scan's time (create_scan); so does the tablet, at once.
    effects: [
      { op: 'upsert', collection: 'operations', id: scanId, data: { ...scan } },
      ...(['grids', 'rooms'] as const).flatMap((collection): Effect[] => {
        const place = collection === 'grids' ? grid : room;
        return place ? [{ op: 'patch', collection, id: place.id, data: { Scanned: true, ScannedDateTime: at, LastScannedBy: input.userId, UpdatedDateTime: at } }] : [];
      }),
    ],
    label: labelNaming(scan.grid_name, changeLabels.startScan[values.scan_type], changeLabels.startScanOfAGrid[values.scan_type]),
  });
  return scan;
}

const photoNameOf = (photo: Blob) => (typeof File !== 'undefined' && photo instanceof File && photo.name ? photo.name : 'scan.jpg');

/** A scan's summary with one more box. */
function summaryWith(summary: ScanSummary, findings: readonly ScanFinding[], counts: TrapCounts | null): ScanSummary {
  const insects = summary.insects && counts ? Object.fromEntries(SIZE_CLASSES.map((size) => [size, summary.insects![size] + counts[size]])) as TrapCounts : summary.insects;
  return { boxes: summary.boxes + 1, findings: summary.findings + findings.length, confirmed_problems: summary.confirmed_problems + findings.filter((finding) => finding.confirmed).length, insects };
}

/**
 * The optimistic Sticky Trap response a trap box's counts fill, as the server makes it: the company's
 * default Sticky Trap form (else its first), the count fields found by name. Null when the tablet holds
 * no such form: the response then arrives with the pull.
 */
async function trapResponse(context: ApiContext, input: { responseId: string; box: LocalDocument; roomId: RecordId | null; counts: TrapCounts; userId: number; at: string }): Promise<FormResponse | null> {
  const templates = (await companyTemplates(context)).filter((template) => template.FormCategory === STICKY_TRAP_CATEGORY);
  const template = templates.find((each) => each.IsDefault) ?? templates[0];
  if (!template) return null;
  const fieldNamed = (name: string) => template.fields.find((field) => field.FieldName.trim().toLowerCase() === name.toLowerCase());
  const answers = SIZE_CLASSES.flatMap((size) => {
    const field = fieldNamed(STICKY_TRAP_FORM_FIELDS[size]);
    return field ? [{ FieldResponseID: null, ResponseID: input.responseId, FieldID: field.FieldID, FieldName: field.FieldName, FieldType: field.FieldType, InputData: String(input.counts[size]) }] : [];
  });
  const photoField = fieldNamed(TRAP_PHOTO_FIELD);
  const batches = Array.isArray(input.box.BatchIDs) ? (input.box.BatchIDs as RecordId[]) : [];
  return {
    ResponseID: input.responseId,
    TemplateID: template.TemplateID,
    TemplateName: template.TemplateName,
    FormCategory: template.FormCategory,
    GridBoxID: input.box.id,
    RoomID: input.roomId,
    BatchID: batches.at(-1) ?? null,
    SubmittedBy: input.userId,
    SubmittedAt: input.at,
    fieldResponses: answers,
    images: [{ ImageID: null, ResponseID: input.responseId, FieldID: photoField?.FieldID ?? null, ImagePath: null, pending: true }],
  };
}

/**
 * record_scan_box: one box's photo with what the analysis found and the grower confirmed, in one
 * queued entry (the photo travels once, and the server records the box, its problems and its trap
 * response in one step, so a replay cannot make any of them twice). At once on this tablet: the box in
 * the scan, each confirmed finding as an unresolved problem on the box (source 'scan', named as the
 * server will name it), and a trap's counts as its Sticky Trap response, so the room's markers and the
 * box's problems show them offline.
 */
export async function recordScanBox(
  context: ApiContext,
  input: { scan: ScanDocument; gridBoxId: string; photo: Blob; findings: readonly ScanFinding[]; marks?: readonly ScanMark[]; counts?: TrapCounts | null; userId: number },
) {
  const { scan } = input;
  const box = await context.store.get('grid_boxes', input.gridBoxId);
  if (!box) throw new ValidationError(scanMessages.gridBoxIdRequired);
  const scanBoxId = newClientId();
  const at = now();
  // Every confirmed finding names its problem: the tablet's optimistic one is the server's record.
  const findings: ScanFinding[] = input.findings.map((finding, index) => (finding.confirmed && !finding.problem_client_id ? { ...finding, problem_client_id: scanProblemClientId(scanBoxId, index) } : finding));
  const marks = input.marks ?? [];
  const counts = scan.scan_type === 'sticky_trap' ? (input.counts ?? countsOfMarks(marks)) : (input.counts ?? null);
  const fields = { scan_id: scan.id, grid_box_id: box.id };
  // Checked as the server checks it (the same schema); ids are the tablet's, so only the texts are looked at here.
  check(recordScanBoxBody, { ...fields, findings: JSON.stringify(findings), marks: JSON.stringify(marks), ...(counts ? { counts: JSON.stringify(counts) } : {}) });
  const place = await placeOfBox(context, box);
  const problems = findings.flatMap((finding) =>
    finding.confirmed && finding.problem_client_id && finding.problem_type
      ? [
          localProblemOnBox(place, {
            problemId: finding.problem_client_id,
            subGridboxId: null,
            problemType: finding.problem_type,
            problemSlug: finding.problem_slug,
            severity: finding.severity ?? 3,
            notes: `Found by ${scan.model_name ?? 'a scan'}${scan.model_version ? ` ${scan.model_version}` : ''} (${Math.round(finding.confidence * 100)}% sure)`,
            source: 'scan',
            formResponseId: null,
            userId: input.userId,
            at,
          }),
        ]
      : [],
  );
  const responseId = counts && scan.scan_type === 'sticky_trap' ? trapResponseClientId(scanBoxId) : null;
  const response = responseId ? await trapResponse(context, { responseId, box, roomId: place.room_id, counts: counts!, userId: input.userId, at }) : null;
  const entry: ScanBoxDocument = {
    scan_box_id: scanBoxId,
    client_id: scanBoxId,
    scan_id: scan.id,
    grid_box_id: box.id,
    box_name: typeof box.CustomName === 'string' && box.CustomName.trim() ? box.CustomName : null,
    x: Number(box.X) || 1,
    y: Number(box.Y) || 1,
    image: '',
    captured_at: at,
    findings,
    counts,
    form_response_id: responseId,
    marks: [...marks],
    photo_pending: true,
  };
  // A box is named by its name, or by its column and row ("3,4").
  const boxName = entry.box_name ?? `${entry.x},${entry.y}`;
  await record(context, {
    method: 'POST',
    path: '/record_scan_box',
    body: multipartWithFile(
      { ...fields, client_id: scanBoxId, findings: JSON.stringify(findings), marks: JSON.stringify(marks), ...(counts ? { counts: JSON.stringify(counts) } : {}) },
      filePart('image', input.photo, photoNameOf(input.photo)),
    ),
    creates: [scanBoxId, ...problems.map((problem) => String(problem.problem_id)), ...(responseId ? [responseId] : [])],
    effects: [
      { op: 'patch', collection: 'operations', id: scan.id, data: { boxes: [...scan.boxes, entry], summary: summaryWith(scan.summary, findings, counts), updated_at: at } },
      ...problems.map((problem): Effect => ({ op: 'upsert', collection: 'plant_problems', id: String(problem.problem_id), data: { ...problem, photo_pending: true } })),
      ...(response && responseId ? [{ op: 'upsert', collection: 'form_responses', id: responseId, data: { ...response } } satisfies Effect] : []),
    ],
    label: labelNaming(scan.grid_name, (grid) => changeLabels.scanOfBox(boxName, grid), changeLabels.scanOfBoxOfAGrid(boxName)),
    fallbackMessage: scanClientMessages.scanBoxFailed,
  });
  return { scanBoxId, findings };
}

export type ScansPage = z.infer<typeof scansAnswer>;

/** get_scans: the company's scans, newest first, a page at a time (online: older scans than the tablet keeps). */
export async function getScans(context: ApiContext, input: { companyId: number; scanType?: ScanType; roomId?: RecordId; gridId?: RecordId; startDate?: string; endDate?: string; page?: number; perPage?: number }): Promise<ScansPage> {
  const query = check(getScansQuery, {
    company_id: input.companyId,
    scan_type: input.scanType,
    room_id: input.roomId,
    grid_id: input.gridId,
    start_date: input.startDate,
    end_date: input.endDate,
    page: input.page,
    per_page: input.perPage,
  });
  return online<ScansPage>(context, { path: '/get_scans', query: { ...query, ...(input.roomId ? { room_id: input.roomId } : {}), ...(input.gridId ? { grid_id: input.gridId } : {}) } }, scanClientMessages.scansFailed);
}

export type ScanDetail = z.infer<typeof scanAnswer>['scan'];

/** get_scan: a scan with its boxes and the trap marks (online). */
export async function getScan(context: ApiContext, input: { scanId: RecordId }): Promise<ScanDetail> {
  check(getScanQuery, { scan_id: input.scanId });
  const answer = await online<z.infer<typeof scanAnswer>>(context, { path: '/get_scan', query: { scan_id: input.scanId } }, scanClientMessages.scanFailed);
  return answer.scan;
}

/**
 * delete_scan (Admin): 'Delete scan needs scan id and company id' (spec part 1 §5). Queued; the scan
 * leaves this tablet at once. The problems it recorded stay: they are the grower's record of the plants.
 */
export async function deleteScan(context: ApiContext, input: { companyId: number; scanId: RecordId }) {
  if (!input.companyId || !input.scanId) throw new ValidationError(scanClientMessages.deleteScanFieldsRequired);
  const { company_id } = check(deleteScanQuery, { company_id: input.companyId, scan_id: input.scanId });
  const local = await context.store.get('operations', String(input.scanId));
  await record(context, {
    method: 'DELETE',
    path: '/delete_scan',
    query: { company_id, scan_id: input.scanId },
    effects: local ? [{ op: 'remove', collection: 'operations', id: local.id }] : [],
    label: labelNaming(local?.grid_name, changeLabels.deleteScan, changeLabels.deleteScanOfAGrid),
  });
}
