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
