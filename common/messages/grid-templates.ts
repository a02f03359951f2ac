/** Messages of grid templates (spec part 2 §3, §5, §8, §9). */
import { GRID_SIZE_MAX } from './grids';

/** Spec §9: template types; the listing shows SubGrid templates unless told otherwise. */
export const GRID_TEMPLATE_TYPES = ['Grid', 'SubGrid'] as const;
export type GridTemplateType = (typeof GRID_TEMPLATE_TYPES)[number];
export const GRID_TEMPLATE_DEFAULT_TYPE: GridTemplateType = 'SubGrid';

/** Rows and columns stay within a grid's size limit, so a Grid template always makes a valid grid. */
export const TEMPLATE_SIZE_MAX = GRID_SIZE_MAX;

export const gridTemplateMessages = {
  // Spec §5, exact strings.
  nameRequired: 'Template Name is required',
  typeRequired: 'Template Type is required ("Grid" or "SubGrid")',
  rowsRequired: 'Rows is required',
  columnsRequired: 'Columns is required',
  companyRequired: 'Company ID is required',
  userRequired: 'User ID is required',
  typeInvalid: 'template_type must be "Grid" or "SubGrid"',
  companyIdRequired: 'company_id is required',
  listTypeInvalid: 'type must be "Grid" or "SubGrid"',
  templateIdRequired: 'template_id is required',

  // Ours, where the spec gives no words.
  rowsInvalid: `Rows must be a whole number from 1 to ${TEMPLATE_SIZE_MAX}.`,
  columnsInvalid: `Columns must be a whole number from 1 to ${TEMPLATE_SIZE_MAX}.`,
  nameTaken: (name: string, type: string) => `A ${type} template named ${name} already exists.`,
  templateNotFound: 'No such grid template in this company.',
  roomRequired: 'room_id is required to use a Grid template.',
  parentRequired: 'parent_gridbox_id is required to use a SubGrid template.',
  idInvalid: (field: string) => `${field} must be a positive whole number.`,
  autoInitializeInvalid: 'auto_initialize_plants must be true or false (or 1/0).',

  created: 'Template created successfully.',
  deleted: 'Template deleted successfully.',
  gridSubmitted: 'Grid created from the template.',
  subGridSubmitted: 'Sub gridboxes created from the template.',
} as const;

/** The browser's defaults when a call fails without a message of the server's (spec §8). */
export const gridTemplateClientMessages = {
  createFailed: 'Failed to Create Template.',
  fetchFailed: 'Failed to fetch templates',
  deleteFailed: 'Failed to delete template',
  submitFailed: 'Failed to submit template',
} as const;
