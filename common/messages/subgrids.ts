/** Messages of sub-gridboxes, plant moves and the movement history (spec part 2 §3, §4, §5, §8, §9). */

/** Movement history pages: spec §9 says 50 by default; a page never holds more than this. */
export const MOVEMENT_PAGE_DEFAULT = 50;
export const MOVEMENT_PAGE_MAX = 500;

/** Columns the movement history may be sorted by (`moved_at` is the default). */
export const MOVEMENT_SORT_COLUMNS = ['moved_at', 'plant_uid', 'movement_reason', 'from_parent_gridbox_id', 'to_parent_gridbox_id'] as const;

export const subgridMessages = {
  // Spec §5, exact strings.
  gridboxIdRequired: 'Gridbox ID is required',
  userIdRequired: 'user_id is required',
  sizeRequired: 'nx and ny must be numbers (or provide customPositions)',
  subGridboxIdRequired: 'Sub gridbox ID is required',
  plantUidRequired: 'plant_uid is required',
  targetRequired: 'target_parent_gridbox_id is required',
  companyIdRequired: 'Company ID is required',

  // Ours, where the spec gives no words.
  sizeInvalid: 'nx and ny must be whole numbers of at least 1.',
  customPositionsInvalid: 'custom_positions must be a list of {subx, suby}, each a whole number of at least 1.',
  positionRepeated: (subx: number, suby: number) => `custom_positions lists position ${subx}-${suby} more than once.`,
  positionsOccupied: (positions: string[]) => `Already occupied in this grid box: ${positions.join(', ')}.`,
  positionTaken: 'That position of the grid box is already occupied.',
  limitReached: (maxAllowed: number) => `A grid box holds at most ${maxAllowed} sub-gridboxes.`,
  autoInitializeInvalid: 'auto_initialize_plants must be true or false (or 1/0).',
  includeDeletedInvalid: 'include_deleted must be true or false (or 1/0).',
  textInvalid: (field: string, max: number) => `${field} must be text of at most ${max} characters.`,
  nothingToUpdate: 'Nothing to update: send at least one of custom_name, plant_id, color, status, content, image_name.',
  plantIdTaken: (plantId: string) => `Plant ID ${plantId} is already used by another sub-gridbox of this company.`,
  targetPositionInvalid: 'target_position must be {subx, suby}, each a whole number of at least 1.',
  plantNotFound: (plantUid: string) => `No plant ${plantUid} in a sub-gridbox of this company.`,
  targetOccupied: (subx: number, suby: number) => `Position ${subx}-${suby} of the target grid box is already occupied.`,
  alreadyThere: 'The plant is already at that position.',
  batchIdInvalid: 'batch_id must be a positive whole number.',
  roomIdInvalid: 'room_id must be a positive whole number.',
  dateInvalid: (field: string) => `${field} must be a date (yyyy-mm-dd).`,
  dateRangeInvalid: 'start_date must not be after end_date.',
  sortByInvalid: `sort_by must be one of ${MOVEMENT_SORT_COLUMNS.join(', ')}.`,
  sortOrderInvalid: 'sort_order must be asc or desc.',
  limitInvalid: 'limit must be a whole number of at least 1.',
  offsetInvalid: 'offset must be a whole number of at least 0.',

  created: 'Sub gridboxes created successfully.',
  deleted: 'Sub gridbox deleted successfully.',
  updated: 'Sub gridbox updated successfully.',
  moved: 'Plant moved successfully.',
} as const;

/**
 * The browser's messages (spec §8 defaults): shown when a call fails without a message of the
 * server's, and where the local store cannot answer.
 */
export const subgridClientMessages = {
  createFailed: 'Failed to Create Sub Gridbox.',
  getFailed: 'Failed to Get Sub Gridboxes.',
  deleteFailed: 'Failed to Delete Sub Gridbox.',
  updateFailed: 'Failed to Update Sub Gridbox.',
  moveFailed: 'Failed to move plant',
  historyFailed: 'Failed to fetch company movement history',
  // Ours, in the words of spec part 1 §8 ('Room data not found in local database').
  boxNotLocal: 'Grid box data not found in local database',
} as const;
