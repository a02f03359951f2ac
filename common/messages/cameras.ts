/**
 * Messages and fixed lists of automated cameras (issue 17): IP cameras whose still image the server
 * fetches on a schedule, and spare phones mounted in a room that open the public `/camera` page with a
 * device link. The spec names none of these calls; the field names follow its style (`camera_id`,
 * `company_id`), and every message says the rule in those names.
 */

/** How a camera's images arrive: fetched by the server from an IP camera's still-image address, or uploaded by a phone. */
export const CAMERA_KINDS = ['ip', 'device'] as const;
export type CameraKind = (typeof CAMERA_KINDS)[number];

/**
 * A camera's state: `waiting` until its first image (and a device camera until its phone uploads),
 * `ok` after an image arrived, `failing` when the last CAMERA_FAILURES_BEFORE_FAILING fetches in a row
 * failed, or at once when the address is refused or answers something that is not an image.
 */
export const CAMERA_STATES = ['ok', 'failing', 'waiting'] as const;
export type CameraState = (typeof CAMERA_STATES)[number];

/** Where an image came from: the server's fetch of the snapshot address, or a phone's upload. */
export const CAMERA_IMAGE_SOURCES = ['fetch', 'device'] as const;
export type CameraImageSource = (typeof CAMERA_IMAGE_SOURCES)[number];

/** Fetches that fail in a row (retries included) before a camera shows `failing`. */
export const CAMERA_FAILURES_BEFORE_FAILING = 3;

/** The longest interval between two captures: one a day. */
export const CAMERA_MAX_INTERVAL_MINUTES = 1440;
/** The shortest, unless the operator's CAMERA_MIN_INTERVAL_SECONDS says otherwise (README "Settings"). */
export const CAMERA_DEFAULT_MIN_INTERVAL_SECONDS = 300;
/** A new camera's interval when the form says none. */
export const CAMERA_DEFAULT_INTERVAL_MINUTES = 15;

/** Images per page of a camera's timeline (get_camera_images), and the most a page may hold. */
export const CAMERA_IMAGES_PER_PAGE = 24;
export const CAMERA_IMAGES_PER_PAGE_MAX = 200;

/** What a masked secret of a snapshot address reads as in answers (a password, a `pwd=` parameter). */
export const SNAPSHOT_SECRET_MASK = '*****';

/** The header a phone's requests carry its device token in: `Authorization: Camera <token>`. */
export const CAMERA_DEVICE_SCHEME = 'Camera';

export const KIND_LABELS: Record<CameraKind, string> = { ip: 'IP camera', device: 'Phone (device link)' };
export const STATE_LABELS: Record<CameraState, string> = { ok: 'Working', failing: 'Failing', waiting: 'Waiting for the first image' };

/** "5 minutes", "1.5 minutes", "3 seconds": an interval as people say it. */
export function intervalText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.round((seconds / 60) * 100) / 100;
  if (minutes >= 60 && Number.isInteger(minutes / 60)) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export const cameraMessages = {
  companyIdRequired: 'company_id must be a positive whole number.',
  cameraIdRequired: 'camera_id must be a positive whole number.',
  tokenIdRequired: 'token_id must be a positive whole number.',
  nameRequired: 'A camera needs a name (at most 100 characters).',
  roomRequired: 'A camera needs the room it photographs (room_id).',
  gridIdInvalid: 'grid_id must be a positive whole number.',
  gridBoxIdInvalid: 'grid_box_id must be a positive whole number.',
  gridNotInRoom: 'This grid is not in the camera’s room.',
  boxNeedsGrid: 'A grid box needs its grid (grid_id).',
  boxNotInGrid: 'This grid box is not in the camera’s grid.',
  kindInvalid: 'kind must be ip (an IP camera’s still-image address) or device (a phone with a device link).',
  kindFixed: 'A camera’s kind cannot change: delete it and add a camera of the other kind.',
  snapshotUrlRequired: 'An IP camera needs its still-image address (snapshot_url).',
  snapshotUrlInvalid: 'The still-image address must be a web address starting with https:// (or http:// on a network the operator allows), at most 2000 characters.',
  snapshotUrlForDevice: 'A phone camera has no still-image address: leave snapshot_url empty.',
  snapshotUrlRefused: (reason: string) => `This still-image address cannot be used: ${reason}`,
  intervalInvalid: 'interval_minutes must be a number of minutes.',
  intervalOutOfRange: (minSeconds: number) => `The interval must be from ${intervalText(minSeconds)} to ${CAMERA_MAX_INTERVAL_MINUTES} minutes.`,
  modelKeyInvalid: 'model_key must name a model: a built-in analysis or one of the company’s uploaded models.',
  modelUnknown: (key: string) => `No model “${key}”: choose a built-in analysis or one of the company’s uploaded models.`,
  enabledInvalid: 'enabled must be true or false (1 or 0).',
  dateInvalid: 'start and end must be dates (yyyy-mm-dd) or ISO 8601 date-times.',
  rangeInvalid: 'start must not be after end.',
  pageInvalid: 'page must be a whole number from 1.',
  perPageInvalid: `per_page must be a whole number from 1 to ${CAMERA_IMAGES_PER_PAGE_MAX}.`,
  capturedAtInvalid: 'captured_at must be an ISO 8601 date-time (when the phone took the photo).',
  cameraCreated: 'Camera added.',
  cameraUpdated: 'Camera saved.',
  cameraDeleted: 'Camera deleted.',
  captureQueued: 'The camera will be photographed now: its image shows in a moment.',
  captureNeedsIp: 'Only an IP camera can be photographed from here: a phone camera captures on its own at its interval.',
  tokenForDeviceOnly: 'Device links are for phone cameras: an IP camera needs none.',
  tokenCreated: 'Device link made. Open it on the phone that photographs the room; it is shown only now.',
  tokenRevoked: 'Device link revoked: the phone using it stops at its next upload.',
  tokenAlreadyRevoked: 'This device link was already revoked.',
  deviceTokenMissing: 'This camera page needs the camera link an Admin made (Automated cameras → the camera → Device link).',
  deviceTokenInvalid: 'This camera link is not valid or was revoked. Ask an Admin of your company for a new link.',
  imageStored: 'Image received.',
  imageRepeated: 'This image had been received already.',
  fetchFailed: 'Could not load the cameras.',
  saveFailed: 'Could not save the camera.',
  deleteFailed: 'Could not delete the camera.',
  captureFailed: 'Could not ask for a capture.',
  imagesFailed: 'Could not load the camera’s images.',
  tokensFailed: 'Could not load the device links.',
  tokenCreateFailed: 'Could not make a device link.',
  tokenRevokeFailed: 'Could not revoke the device link.',
  deviceConfigFailed: 'Could not reach the server for this camera’s settings.',
  uploadFailed: 'Could not upload the photo.',
} as const;

/** Why a fetch of a snapshot failed, as the camera's last_error says it (never with the address, which may hold a password). */
export const fetchProblems = {
  status: (status: number) => `The camera answered ${status} instead of an image.`,
  redirect: (status: number) => `The camera answered ${status}, a redirect; redirects are not followed. Give the image’s own address.`,
  notImage: (contentType: string | null) => `The camera answered something that is not a PNG, JPEG or WebP image${contentType ? ` (${contentType})` : ''}.`,
  tooLarge: (megabytes: number) => `The camera’s image is larger than ${megabytes} MB.`,
  failed: (reason: string) => `Fetching the image failed: ${reason}`,
} as const;
