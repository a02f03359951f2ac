/**
 * Messages of spray products, treatments and spray records (spec part 2 §3, §7, §8). §5 names no rule
 * for these calls: the server's checks speak of the fields as the spec spells them (ProductName,
 * treatment_type, Grid_boxIDs, …).
 */

/** The kinds of treatment (spec §3: the initial selection is 'biological'). */
export const TREATMENT_TYPES = ['biological', 'chemical', 'cultural', 'mechanical'] as const;
export type TreatmentType = (typeof TREATMENT_TYPES)[number];
export const INITIAL_TREATMENT_TYPE: TreatmentType = 'biological';

/** Longest re-entry interval a product may have (a year): anything longer is a typing mistake. */
export const REENTRY_HOURS_MAX = 8760;
/** Longest pre-harvest interval a product may have. */
export const PREHARVEST_DAYS_MAX = 365;
/** Most grid boxes one spray record covers (a room of 2,000 boxes several times over). */
export const SPRAYED_BOXES_MAX = 10_000;
/** Size of a treatment's `data` and of a product's other fields (`details`), as JSON text. */
export const FREE_FIELDS_MAX_CHARS = 20_000;

export const treatmentMessages = {
  // Checks (spec §5 is silent for these calls: in the spec's field names).
  companyIdRequired: 'company_id is required.',
  productIdRequired: 'product_id is required.',
  productIdCompanyRequired: 'product_id and company_id are required.',
  productNameRequired: 'ProductName is required.',
  productNameTaken: (name: string) => `A spray product named ${name} already exists.`,
  rateInvalid: 'Rate must be a number of at least 0.',
  reentryInvalid: `ReentryHours must be a number of hours from 0 to ${REENTRY_HOURS_MAX}.`,
  preharvestInvalid: `PreharvestDays must be a number of days from 0 to ${PREHARVEST_DAYS_MAX}.`,
  detailsTooLarge: `The product's other fields may hold at most ${FREE_FIELDS_MAX_CHARS} characters.`,
  treatmentTypeInvalid: `treatment_type must be one of ${TREATMENT_TYPES.join(', ')}.`,
  dataInvalid: `data must be an object of at most ${FREE_FIELDS_MAX_CHARS} characters.`,
  subTypeInvalid: 'sub_type must be a text of at most 100 characters.',
  removedInvalid: 'removed must be true or false.',
  treatmentExists: (type: string) => `This product already has a ${type} treatment.`,
  applicationDateInvalid: 'ApplicationDate must be an ISO 8601 date-time with its zone.',
  productRequired: 'ProductName or product_id is required.',
  quantityInvalid: 'QuantityUsed must be a positive number.',
  gridBoxesRequired: `Grid_boxIDs must list from 1 to ${SPRAYED_BOXES_MAX} grid box ids.`,
  // Answers.
  productAdded: 'Spray product added successfully.',
  productUpdated: 'Spray product updated successfully.',
  productUnchanged: 'Nothing to update.',
  productDeleted: 'Product deleted successfully.',
  treatmentCreated: 'Treatment created successfully.',
  treatmentUpdated: 'Treatment updated successfully.',
  treatmentRemoved: 'Treatment removed.',
  treatmentRestored: 'Treatment restored.',
  productsLinked: 'Treatment products linked to grid boxes.',
  // The client's defaults when a call fails without a message (spec §8).
  addProductFailed: 'Failed to add spray product.',
  linkProductsFailed: 'Failed to link treatment products.',
  createTreatmentFailed: 'Create treatment failed',
  fetchProductNamesFailed: 'Failed to fetch product names.',
  fetchProductDetailsFailed: 'Failed to fetch product details.',
  fetchTreatmentFailed: 'Fetch treatment failed',
  fetchAllTreatmentFailed: 'Fetch all treatment failed',
  updateProductFailed: 'Failed to update spray product.',
  updateTreatmentFailed: 'Update treatment failed',
  deleteProductFailed: 'Failed to delete product.',
  toggleDeleteFailed: 'Toggle delete failed',
} as const;
