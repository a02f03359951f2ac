import { SIZE_CLASSES } from '../vision/trap-marks';

/**
 * What a scan is (issue 17): a session, one walk of a grid (or one camera image) by one user with one
 * model. Disease scans classify each box's photo; sticky-trap scans count the insects on each box's trap
 * by size class; camera scans come from automated cameras.
 */
export const SCAN_TYPES = ['disease', 'sticky_trap', 'camera'] as const;

/**
 * The Sticky Trap form's Image field that takes a trap scan's photo (its count fields by size class are
 * common/vision/trap-marks.ts `STICKY_TRAP_FORM_FIELDS`). Fields are found by name, in any case; a
 * company's form without one of them leaves that value in the scan.
 */
export const TRAP_PHOTO_FIELD = 'Photo of the trap';

/**
 * Scans are pulled to tablets for this many days (by their last change); older ones are read online
 * (get_scans, get_scan). A scan document holds its boxes, so a company scanning every grid weekly would
 * otherwise pull megabytes of history to each tablet.
 */
export const SCAN_WINDOW_DAYS = 30;

export const SCAN_PAGE_DEFAULT = 1;
export const SCAN_PER_PAGE_DEFAULT = 50;
export const SCAN_PER_PAGE_MAX = 200;
/** At most this many findings per box photo (a classifier's top labels) and marks per trap photo. */
export const SCAN_FINDINGS_MAX = 50;
export const SCAN_MARKS_MAX = 5000;

/** Messages of scan state, scans, whiteboard and grid images (spec part 1 §4, §5, §8). */
export const scanMessages = {
  roomIdRequired: 'room_id is required.',
  gridIdRequired: 'grid_id is required.',
  userIdRequired: 'user_id is required.',
  companyIdRequired: 'company_id is required.',
  scanIdRequired: 'scan_id is required.',
  gridImageIdRequired: 'GridID is required.',
  gridRoomIdRequired: 'RoomID is required.',
  roomScanned: 'Room marked as scanned.',
  gridScanned: 'Grid marked as scanned.',
  statusReset: 'Scanned status reset.',
  scanDeleted: 'Scan deleted.',
  whiteboardUploaded: 'Whiteboard image uploaded.',
  gridImageUploaded: 'Grid image uploaded.',
  // Scan sessions (issue 17): our own calls, in their field names.
  scanTypeInvalid: `scan_type must be one of ${SCAN_TYPES.join(', ')}.`,
  gridIdInvalid: 'grid_id must be a positive whole number.',
  roomIdInvalid: 'room_id must be a positive whole number.',
  gridRequiredForType: 'grid_id is required for a disease or sticky_trap scan.',
  gridNotInRoom: (grid: string, room: string) => `Grid ${grid} is not in room ${room}.`,
  modelKeyRequired: 'model_key is required (at most 200 characters).',
  modelNameRequired: 'model_name is required (at most 200 characters).',
  gridBoxIdRequired: 'grid_box_id is required.',
  findingsInvalid: `findings must be a JSON list of at most ${SCAN_FINDINGS_MAX} findings, each {label, problem_type, problem_slug, confidence from 0 to 1, confirmed, severity from 1 to 5 or null, problem_client_id}.`,
  confirmedFindingNeedsType: 'A confirmed finding needs its problem_type.',
  marksInvalid: `marks must be a JSON list of at most ${SCAN_MARKS_MAX} marks, each {id, x, y, radius} in fractions from 0 to 1 and a sizeClass of ${SIZE_CLASSES.join(', ')}.`,
  countsInvalid: `counts must be a JSON object of whole numbers from 0 by size class (${SIZE_CLASSES.join(', ')}).`,
  boxNotInScan: (box: number) => `Grid box ${box} is not in the grid this scan walks.`,
  boxNotInScanRoom: (box: number) => `Grid box ${box} is not in the room this scan is of.`,
  pageInvalid: 'page must be a whole number from 1.',
  perPageInvalid: `per_page must be a whole number from 1 (at most ${SCAN_PER_PAGE_MAX} are answered).`,
  dateInvalid: (field: string) => `${field} must be a date (yyyy-mm-dd).`,
  dateRangeInvalid: 'start_date must not be after end_date.',
  scanCreated: 'Scan started.',
  scanBoxRecorded: 'Scan of the box recorded.',
} as const;

/** The browser's own messages for scans and images (spec part 1 §5, §8). */
export const scanClientMessages = {
  // spec part 1 §5, part 2 §5
  deleteScanFieldsRequired: 'Delete scan needs scan id and company id',
  // our own
  scanDetailsFailed: 'Failed to fetch scan details.',
  whiteboardHistoryFailed: 'Failed to fetch the whiteboard history.',
  scanBoxFailed: 'Failed to record the scan of the box.',
  scansFailed: 'Failed to fetch the scans.',
  scanFailed: 'Failed to fetch the scan.',
} as const;
