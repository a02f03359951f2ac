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
} as const;

/** The browser's own messages for scans and images (spec part 1 §5, §8). */
export const scanClientMessages = {
  // spec part 1 §5, part 2 §5
  deleteScanFieldsRequired: 'Delete scan needs scan id and company id',
  // our own
  scanDetailsFailed: 'Failed to fetch scan details.',
  whiteboardHistoryFailed: 'Failed to fetch the whiteboard history.',
} as const;
