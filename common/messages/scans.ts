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
