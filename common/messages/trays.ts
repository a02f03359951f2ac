/**
 * Messages of trays and tray templates (spec part 2 §3, §5, §7, §8). §5 names fields as the client
 * does (templateName, companyID, …); the server answers the same words whatever spelling the request used.
 */

/** Most plants one tray (or tray template) holds; larger counts are a typing mistake, not a tray. */
export const TRAY_PLANTS_MAX = 10_000;

export const trayMessages = {
  // Spec §5.
  templateRequired: 'templateName, companyID and userID are required.',
  plantsPositive: 'numberOfPlants must be a positive number.',
  trayNameRequired: 'trayName is required.',
  trayIdCompanyRequired: 'trayID and companyID are required.',
  plantsPositiveOnUpdate: 'numberOfPlants must be positive.',
  // Where §5 is silent, in the same words.
  companyIdRequired: 'companyID is required.',
  trayCompanyUserRequired: 'companyID and userID are required.',
  templateUseRequired: 'templateID, companyID and userID are required.',
  templateIdCompanyRequired: 'templateID and companyID are required.',
  plantsWhole: `numberOfPlants must be a whole number of at most ${TRAY_PLANTS_MAX}.`,
  batchIdInvalid: 'batchID must be a positive whole number.',
  defaultBatchIdInvalid: 'defaultBatchID must be a positive whole number.',
  // Answers.
  templateCreated: 'Tray template created successfully.',
  templateDeleted: 'Tray template deleted successfully.',
  templateUsed: 'Tray created from template successfully.',
  trayCreated: 'Tray created successfully.',
  trayUpdated: 'Tray updated successfully.',
  trayUnchanged: 'Nothing to update.',
  trayDeleted: 'Tray deleted successfully.',
  // The client's defaults when a call fails without a message (spec §8).
  fetchTemplatesFailed: 'Failed to fetch tray templates.',
  createTemplateFailed: 'Failed to create tray template.',
  deleteTemplateFailed: 'Failed to delete tray template.',
  useTemplateFailed: 'Failed to use tray template.',
  fetchTraysFailed: 'Failed to fetch trays.',
  updateTrayFailed: 'Failed to update tray.',
  createTrayFailed: 'Failed to create tray.',
  deleteTrayFailed: 'Failed to delete tray.',
} as const;
