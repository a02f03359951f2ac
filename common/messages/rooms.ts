/** Messages of rooms (spec part 1 §3, §5, §7, §8). */
export const roomMessages = {
  companyIdRequired: 'company_id is required.',
  nameRequired: 'Room name is required.',
  descriptionRequired: 'Room description is required.',
  roomIdRequired: 'room_id is required.',
  roomIdInvalid: 'room_id must be a positive whole number.',
  scrollRequired: 'setValue must be a number.',
  created: 'Room created successfully.',
  deleted: 'Room deleted successfully.',
  scrollUpdated: 'Room scroll updated.',
  allScrollUpdated: 'Scroll updated for every room.',
} as const;

/**
 * The browser's own messages for rooms (spec part 1 §8): the spec's fallbacks where it names one, and
 * ours where a call has none (a failed call otherwise keeps the server's text).
 */
export const roomClientMessages = {
  // spec part 1 §8, part 2 §8
  roomDataNotFound: 'Room data not found in local database',
  unexpectedResponse: 'Unexpected response structure',
  // our own
  loadFailed: 'Failed to load rooms.',
  scrollFailed: 'Failed to fetch the room scroll.',
} as const;
