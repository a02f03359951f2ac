/** Messages about uploaded files. */
export const fileMessages = {
  imageRequired: 'An image file is required.',
  imageType: 'Only PNG, JPEG or WebP images are accepted.',
  notFound: 'File not found.',
} as const;

/** The browser's fallbacks for stored files, used when the server gives no message of its own. */
export const fileClientMessages = {
  fetchFailed: 'Failed to load file.',
  /** A reference that is neither a file id nor a `/api/files/{id}` path. */
  referenceInvalid: 'Not a stored file.',
} as const;
