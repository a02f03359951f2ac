/** Messages of grids and grid boxes (spec part 1 §3, §5, §7, §8). */
export const GRID_SIZE_MAX = 100;

export const gridMessages = {
  companyIdRequired: 'company_id is required.',
  gridNameRequired: 'Grid name is required.',
  gridCompanyRequired: 'ncompany_id is required.',
  gridRoomRequired: 'nroom_id is required.',
  sizeInvalid: `nx and ny must be whole numbers from 1 to ${GRID_SIZE_MAX}.`,
  gridIdRequired: 'grid_id is required.',
  gridIdMissing: 'GridID is required.',
  cullingRequired: 'Culling update needs GridBoxID and user id',
  culledInvalid: 'culled must be 0 or 1 (or true/false).',
  gridBoxIdRequired: 'GridBoxID is required.',
  historyRequired: 'Grid_boxID is required.',
  gridCreated: 'Grid created successfully.',
  gridDeleted: 'Grid deleted successfully.',
  cullingUpdated: 'Culling status updated.',
  nameUpdated: 'Grid box name updated.',
} as const;

/** The browser's own messages for grids and grid boxes (spec part 1 §8): fallbacks when the server sent none. */
export const gridClientMessages = {
  culledFailed: 'Failed to fetch culled grid boxes.',
  namesFailed: 'Failed to fetch grid box names.',
  historyFailed: 'Failed to fetch plant history.',
  backgroundFailed: 'Failed to fetch grid backgrounds.',
} as const;
