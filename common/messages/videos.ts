/**
 * Messages and limits of box and row videos (issue 17; not in the spec, named in its style): the
 * resumable upload (start_video_upload, upload_video_chunk, get_video_upload, finish_video_upload),
 * get_box_videos and delete_video, and the tablet's recording screen.
 */

/**
 * Largest video the server takes (413 above it), declared when its upload starts. Configured here, in
 * code, for both sides: the tablet refuses a recording over it before queueing it. A 60 s recording
 * (VIDEO_MAX_SECONDS) at Chromium's default bit rate is some 20 MB; 200 MB leaves room for a tablet
 * whose camera records at a much higher rate.
 */
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024;

/**
 * How many bytes the tablet sends per chunk: 1 MiB. A chunk lost on a weak signal costs that much to
 * send again, and each chunk is one short request (well within REQUEST_TIMEOUT_MS on a slow link).
 */
export const VIDEO_CHUNK_BYTES = 1024 * 1024;

/** Largest chunk the server takes (413 above it): other clients may send larger ones than the tablet. */
export const VIDEO_CHUNK_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How long the tablet records at most: a box or a row of plants is seen in a minute, and a minute stays
 * a file a tablet can keep until it has signal and send on a weak one (see VIDEO_MAX_BYTES).
 */
export const VIDEO_MAX_SECONDS = 60;

/** Longest duration the server records for a video (other clients than the tablet may record longer). */
export const VIDEO_MAX_DURATION_MS = 10 * 60 * 1000;

/** Video containers the server takes, recognised by their bytes (WebM: EBML header; MP4: `ftyp` box). */
export const VIDEO_TYPES = ['video/webm', 'video/mp4'] as const;
export type VideoType = (typeof VIDEO_TYPES)[number];

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const videoMessages = {
  // Request checks.
  clientIdRequired: 'client_id is required: the video’s own id (a uuid).',
  whatInvalid: 'what must be box or row.',
  gridBoxIdRequired: 'grid_box_id is required for a video of a box.',
  gridIdRequired: 'grid_id is required for a video of a row.',
  rowRequired: 'row is required for a video of a row: the row’s number in its grid, from 1.',
  rowOutsideGrid: (row: number, rows: number) => `Row ${row} is not in the grid: it has ${rows} ${rows === 1 ? 'row' : 'rows'}.`,
  sizeRequired: 'size_bytes is required: the video’s size in bytes.',
  tooLarge: `A video may be at most ${megabytes(VIDEO_MAX_BYTES)}.`,
  durationInvalid: `duration_ms must be a whole number of milliseconds from 0 to ${VIDEO_MAX_DURATION_MS}.`,
  contentTypeInvalid: 'content_type must be video/webm or video/mp4.',
  offsetRequired: 'offset is required: where the chunk starts in the video, in bytes.',
  chunkRequired: 'A chunk of the video is required (field "chunk").',
  chunkTooLarge: `A chunk may be at most ${megabytes(VIDEO_CHUNK_MAX_BYTES)}.`,
  chunkPastEnd: (size: number) => `The chunk goes past the end of the video (${size} bytes, as its upload declared).`,
  notVideo: 'Only WebM or MP4 videos are accepted: the file does not start as one.',

  // The upload's state.
  uploadNotFound: 'No upload of this video: start it first.',
  /** A chunk that does not follow what the server has; the answer says where to go on from (`received_bytes`). */
  offsetMismatch: (received: number) => `The server has the first ${received} bytes of this video: send the rest from there.`,
  incomplete: (received: number, size: number) => `The video is not complete: the server has ${received} of its ${size} bytes.`,
  startedDifferently: 'This video’s upload was started with another size or place.',
  videoNotFound: 'Video not found.',

  // Answers.
  uploadStarted: 'Upload started.',
  chunkReceived: 'Chunk received.',
  videoSaved: 'Video saved.',
  videoDeleted: 'Video deleted.',
} as const;

/** The tablet's texts: what the recording screen says, and fallbacks when the server gives no message. */
export const videoClientMessages = {
  saveFailed: 'The video could not be saved.',
  videosFailed: 'Failed to load the videos.',
  deleteFailed: 'The video could not be deleted.',
  progressFailed: 'The upload’s progress could not be read.',
  chooseBox: 'Choose a box to record.',
  chooseRow: 'Choose a grid and a row to record.',
  empty: 'The recording is empty: record again.',
  noCamera: 'This tablet has no camera the app may use, or it is busy in another app.',
  cameraRefused: 'The camera was not allowed: allow it in the browser’s site settings to record.',
  noRecorder: 'This browser cannot record video.',
  frameFailed: 'The frame could not be taken from the video.',
} as const;
