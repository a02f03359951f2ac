import { z } from 'zod';
import { childClientId, type ClientId } from '../client-ids';
import { PROBLEM_TYPE_MAX, SEVERITY_MAX, SEVERITY_MIN } from '../messages/problems';
import { SCAN_FINDINGS_MAX, SCAN_MARKS_MAX, SCAN_PAGE_DEFAULT, SCAN_PER_PAGE_DEFAULT, SCAN_PER_PAGE_MAX, SCAN_TYPES, scanMessages as m } from '../messages/scans';
import { answer, recordRef, timestamp } from './answers';
import { formBody, nullableDate, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';
import { gridRecord } from './grids';
import { plantProblemRecord } from './problems';
import { roomRecord } from './rooms';
import { SIZE_CLASSES } from '../vision/trap-marks';

export const markRoomScannedQuery = z.object({ room_id: requiredId(m.roomIdRequired), user_id: requiredId(m.userIdRequired) });
export const markGridScannedQuery = z.object({ grid_id: requiredId(m.gridIdRequired), user_id: requiredId(m.userIdRequired) });
export const roomIdQuery = z.object({ room_id: requiredId(m.roomIdRequired) });
export const gridIdQuery = z.object({ grid_id: requiredId(m.gridIdRequired) });
export const resetScannedQuery = z.object({ company_id: optionalId(m.companyIdRequired) });
export const deleteScanQuery = z.object({ company_id: requiredId(m.companyIdRequired), scan_id: requiredId(m.scanIdRequired) });

/** The uploaded file stays a Buffer (or is absent); saveImage checks it. */
const upload = z.unknown().optional();

export const uploadWhiteboardBody = formBody({ room_id: requiredId(m.roomIdRequired), imageFile: upload });
export const uploadGridImageQuery = z.object({ GridID: requiredId(m.gridImageIdRequired) });
export const uploadGridImageBody = formBody({ image: upload });
export const gridBackgroundQuery = z.object({ RoomID: requiredId(m.gridRoomIdRequired) });

// ——— Answers ———

export const markRoomScannedAnswer = answer({ room: roomRecord });
export const markGridScannedAnswer = answer({ grid: gridRecord });

/** A room's or grid's scan state, with the last scanner's name. */
export const scanDetailsRecord = z.object({
  Scanned: z.boolean(),
  ScannedDateTime: timestamp.nullable(),
  LastScannedBy: z.number().int().nullable(),
  LastScannedByName: z.string().nullable(),
});

export type ScanDetailsRecord = z.infer<typeof scanDetailsRecord>;

/** get_room_scan_details, get_grid_scan_details: the scan state's fields beside the envelope's. */
export const scanDetailsAnswer = answer(scanDetailsRecord.shape);

/** How many rooms and grids lost their scan state. */
export const resetScannedAnswer = answer({ rooms_reset: z.number().int(), grids_reset: z.number().int() });

export const uploadWhiteboardAnswer = answer({ WhiteboardImage: z.string(), room: roomRecord });

/** One upload of a room's whiteboard (its history keeps them all). Only the server makes these: its id is the server's. */
export const whiteboardImageRecord = z.object({
  id: z.number().int(),
  ImagePath: z.string(),
  UploadedBy: z.number().int().nullable(),
  UploadedAt: timestamp,
});

export type WhiteboardImageRecord = z.infer<typeof whiteboardImageRecord>;

/** A room's whiteboard images, newest first. */
export const whiteboardHistoryAnswer = answer({ history: z.array(whiteboardImageRecord) });

export const uploadGridImageAnswer = answer({ ImageName: z.string() });

/** A grid of a room with its background image (get_grid_background). */
export const gridBackgroundRecord = gridRecord.pick({ id: true, Name: true, ImageName: true });

export type GridBackgroundRecord = z.infer<typeof gridBackgroundRecord>;

export const gridBackgroundAnswer = answer({ grids: z.array(gridBackgroundRecord) });

// ——— Scan sessions (issue 17) ———
//
// A scan is a session: one walk of a grid (or one camera image) by one user with one model. create_scan
// starts it; record_scan_box records one box's photo with the model's findings (disease) or the trap's
// marks and counts (sticky trap), in one request; get_scans lists sessions, get_scan shows one with its
// boxes; delete_scan (Admins) deletes a session with its boxes. Sessions travel to tablets as kind `scan`
// in the `operations` collection, each with its boxes (`scanDocumentRecord`: without the marks, which
// get_scan reads online), for the last SCAN_WINDOW_DAYS.

/** blank text and null count as absent; text is trimmed and lower-cased (`Sticky_Trap` is `sticky_trap`). */
const lowerWord = (value: unknown) => {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return word === '' ? undefined : word;
};

export const scanTypeSchema = z.enum(SCAN_TYPES);
export type ScanType = z.infer<typeof scanTypeSchema>;

/** A count of insects by the counter's size classes (common/vision `sizeClass`). */
export const trapCountsRecord = z.object({ thrips: z.number().int(), whitefly_aphid: z.number().int(), gnat_fly: z.number().int() });
export type TrapCounts = z.infer<typeof trapCountsRecord>;

/**
 * One label the model gave a box's photo: its text, the problem it names (the catalogue's name, or the
 * company's own; null for a label that names none, such as "healthy"), how sure the model was, and whether
 * the grower confirmed it. A confirmed finding is recorded as an unresolved problem on the box, named
 * `problem_client_id` (the tablet's optimistic problem; the server derives one with `scanProblemClientId`
 * when none is sent, and stores it here, so every confirmed finding names its problem).
 */
export const scanFindingRecord = z.object({
  label: z.string(),
  problem_type: z.string().nullable(),
  problem_slug: z.string().nullable(),
  confidence: z.number(),
  confirmed: z.boolean(),
  severity: z.number().nullable(),
  problem_client_id: z.string().nullable(),
});
export type ScanFinding = z.infer<typeof scanFindingRecord>;

/** One insect the counter marked on a trap's photo: its centre and radius as fractions (0 to 1) of the photo, and its size class. */
export const scanMarkRecord = z.object({
  id: z.union([z.string(), z.number()]),
  x: z.number(),
  y: z.number(),
  radius: z.number(),
  sizeClass: z.enum(SIZE_CLASSES),
});
export type ScanMark = z.infer<typeof scanMarkRecord>;

/** What a scan found so far: box photos recorded, findings, confirmed findings (each a problem recorded), and for a trap scan the insects by size class (null for other scans). */
export const scanSummaryRecord = z.object({
  boxes: z.number().int(),
  findings: z.number().int(),
  confirmed_problems: z.number().int(),
  insects: trapCountsRecord.nullable(),
});
export type ScanSummary = z.infer<typeof scanSummaryRecord>;

// ——— Requests ———

/** A JSON value sent as text (a multipart field): parsed, then checked by `schema`; anything else answers `message`. */
function jsonTextOf<Schema extends z.ZodType>(schema: Schema, message: string) {
  // A transform, not a preprocess: the request's description shows the field as the text it is, and the
  // ids inside (a finding's problem_client_id, a mark's id) name no record the tenancy guard should read.
  return z.string({ error: message }).transform((text, context): z.output<Schema> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? message });
    return z.NEVER;
  });
}

/** A blank text counts as absent (a form's empty field). */
const optionalJsonTextOf = <Schema extends z.ZodType>(schema: Schema, message: string) =>
  z.preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), jsonTextOf(schema, message).optional());

const fraction = (message: string) => z.number({ error: message }).min(0, { error: message }).max(1, { error: message });

const findingInput = z
  .object(
    {
      label: z.string({ error: m.findingsInvalid }).trim().min(1, { error: m.findingsInvalid }).max(200, { error: m.findingsInvalid }),
      problem_type: z.string({ error: m.findingsInvalid }).trim().max(PROBLEM_TYPE_MAX, { error: m.findingsInvalid }).nullish().transform((type) => (type ? type : null)),
      problem_slug: z.string({ error: m.findingsInvalid }).trim().max(200, { error: m.findingsInvalid }).nullish().transform((slug) => (slug ? slug : null)),
      confidence: fraction(m.findingsInvalid),
      confirmed: z.boolean({ error: m.findingsInvalid }),
      severity: z.number({ error: m.findingsInvalid }).min(SEVERITY_MIN, { error: m.findingsInvalid }).max(SEVERITY_MAX, { error: m.findingsInvalid }).nullish().transform((severity) => severity ?? null),
      problem_client_id: z.uuid({ error: m.findingsInvalid }).nullish().transform((id) => (id ? id.toLowerCase() : null)),
    },
    { error: m.findingsInvalid },
  )
  .refine((finding) => !finding.confirmed || finding.problem_type !== null, { error: m.confirmedFindingNeedsType });

const markInput = z.object(
  {
    id: z.union([z.string().max(100), z.number().int()], { error: m.marksInvalid }),
    x: fraction(m.marksInvalid),
    y: fraction(m.marksInvalid),
    radius: fraction(m.marksInvalid),
    sizeClass: z.enum(SIZE_CLASSES, { error: m.marksInvalid }),
  },
  { error: m.marksInvalid },
);

const count = z.number({ error: m.countsInvalid }).int({ error: m.countsInvalid }).min(0, { error: m.countsInvalid }).max(1_000_000, { error: m.countsInvalid });
/** A class left out counted nothing. */
const countsInput = z.object({ thrips: count.default(0), whitefly_aphid: count.default(0), gnat_fly: count.default(0) }, { error: m.countsInvalid });

export const createScanBody = formBody({
  client_id: optionalClientId(),
  company_id: requiredId(m.companyIdRequired),
  scan_type: z.preprocess(lowerWord, z.enum(SCAN_TYPES, { error: m.scanTypeInvalid })),
  room_id: requiredId(m.roomIdRequired),
  /** The grid walked: required for a disease or sticky-trap scan; a camera's may be of a whole room. */
  grid_id: optionalId(m.gridIdInvalid),
  /** The model used (an ai_model key, e.g. a built-in analysis or an uploaded model's), its name and version as the tablet ran it. */
  model_key: requiredText(m.modelKeyRequired, 200),
  model_name: requiredText(m.modelNameRequired, 200),
  model_version: optionalText(100),
}).refine((body) => body.scan_type === 'camera' || body.grid_id !== undefined, { error: m.gridRequiredForType });

/**
 * record_scan_box, multipart: the box's photo (`image`, required) and, as JSON text, the model's findings,
 * the trap's marks and its counts by size class. `scan_id` and `grid_box_id` take client ids too.
 */
export const recordScanBoxBody = formBody({
  scan_id: requiredId(m.scanIdRequired),
  client_id: optionalClientId(),
  grid_box_id: requiredId(m.gridBoxIdRequired),
  findings: optionalJsonTextOf(z.array(findingInput, { error: m.findingsInvalid }).max(SCAN_FINDINGS_MAX, { error: m.findingsInvalid }), m.findingsInvalid).transform((findings) => findings ?? []),
  marks: optionalJsonTextOf(z.array(markInput, { error: m.marksInvalid }).max(SCAN_MARKS_MAX, { error: m.marksInvalid }), m.marksInvalid).transform((marks) => marks ?? []),
  counts: optionalJsonTextOf(countsInput, m.countsInvalid).transform((counts) => counts ?? null),
  image: upload,
});

/** get_scans: the company's scans, newest first, by type, room, grid and UTC days (both ends included), a page at a time. */
export const getScansQuery = z
  .object({
    company_id: requiredId(m.companyIdRequired),
    scan_type: z.preprocess(lowerWord, z.enum(SCAN_TYPES, { error: m.scanTypeInvalid }).optional()),
    room_id: optionalId(m.roomIdInvalid),
    grid_id: optionalId(m.gridIdInvalid),
    start_date: nullableDate(m.dateInvalid('start_date')),
    end_date: nullableDate(m.dateInvalid('end_date')),
    page: z.preprocess(
      lowerWord,
      z.coerce.number({ error: m.pageInvalid }).int({ error: m.pageInvalid }).min(1, { error: m.pageInvalid }).max(1_000_000, { error: m.pageInvalid }).default(SCAN_PAGE_DEFAULT),
    ),
    // A larger page is cut to the maximum rather than refused: the answer says which size applied.
    per_page: z.preprocess(
      lowerWord,
      z.coerce
        .number({ error: m.perPageInvalid })
        .int({ error: m.perPageInvalid })
        .min(1, { error: m.perPageInvalid })
        .default(SCAN_PER_PAGE_DEFAULT)
        .transform((perPage) => Math.min(perPage, SCAN_PER_PAGE_MAX)),
    ),
  })
  .refine((query) => !query.start_date || !query.end_date || query.start_date <= query.end_date, { error: m.dateRangeInvalid });

export const getScanQuery = z.object({ scan_id: requiredId(m.scanIdRequired) });

// ——— Client ids both sides derive ———

/** The client id of the problem the `index`-th finding of a box (its place in `findings`) makes when confirmed without one of its own. */
export const scanProblemClientId = (scanBoxClientId: ClientId, index: number): ClientId => childClientId(scanBoxClientId, `problem:${index}`);

/** The client id of the Sticky Trap form response a trap box's counts make. */
export const trapResponseClientId = (scanBoxClientId: ClientId): ClientId => childClientId(scanBoxClientId, 'trap-response');

// ——— Answers and the synced document ———

/** A box's photo in a scan, as the synced scan document holds it (its marks left out: get_scan has them). */
export const scanBoxEntry = z.object({
  scan_box_id: recordRef,
  client_id: z.string(),
  scan_id: recordRef,
  grid_box_id: recordRef,
  /** The box's name, else null (then its position names it). */
  box_name: z.string().nullable(),
  x: z.number().int(),
  y: z.number().int(),
  /** The photo's address (GET /api/files/{id}). */
  image: z.string(),
  captured_at: timestamp,
  findings: z.array(scanFindingRecord),
  counts: trapCountsRecord.nullable(),
  /** The Sticky Trap form response the counts filled, if any. */
  form_response_id: recordRef.nullable(),
});
export type ScanBoxEntry = z.infer<typeof scanBoxEntry>;

/** A box's photo in a scan with the trap's marks (get_scan, record_scan_box). */
export const scanBoxRecord = scanBoxEntry.extend({ marks: z.array(scanMarkRecord) });
export type ScanBoxRecord = z.infer<typeof scanBoxRecord>;

/** A scan session as get_scans lists it: when, who, where, with which model, and what it found. */
export const scanSessionRecord = z.object({
  scan_id: recordRef,
  client_id: z.string(),
  company_id: z.number().int(),
  scan_type: scanTypeSchema,
  room_id: recordRef.nullable(),
  room_name: z.string().nullable(),
  grid_id: recordRef.nullable(),
  grid_name: z.string().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  model_key: z.string().nullable(),
  model_name: z.string().nullable(),
  model_version: z.string().nullable(),
  /** When the scan was made (the act's time, also offline). */
  scanned_at: timestamp,
  summary: scanSummaryRecord,
  created_at: timestamp,
  updated_at: timestamp,
});
export type ScanSessionRecord = z.infer<typeof scanSessionRecord>;

/** A scan as the `operations` collection holds it (kind `scan`), and as create_scan answers it. */
export const scanDocumentRecord = scanSessionRecord.extend({ boxes: z.array(scanBoxEntry) });
export type ScanDocumentRecord = z.infer<typeof scanDocumentRecord>;

/** A scan with its boxes and their marks (get_scan). */
export const scanDetailRecord = scanSessionRecord.extend({ boxes: z.array(scanBoxRecord) });
export type ScanDetailRecord = z.infer<typeof scanDetailRecord>;

export const createScanAnswer = answer({ scan: scanDocumentRecord, scan_id: recordRef, client_id: z.string() });

/** The box recorded, the problems its confirmed findings made, the Sticky Trap response its counts made (or null), and the scan's summary now. */
export const recordScanBoxAnswer = answer({ scan_box: scanBoxRecord, problems: z.array(plantProblemRecord), form_response_id: recordRef.nullable(), summary: scanSummaryRecord });

export const scansAnswer = answer({ scans: z.array(scanSessionRecord), page: z.number().int(), per_page: z.number().int(), total: z.number().int() });

export const scanAnswer = answer({ scan: scanDetailRecord });
