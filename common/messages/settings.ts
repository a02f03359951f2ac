/** Spec messages of company settings (spec part 1 §5, §8; part 2 §5, §8). */
export const GRID_ORDERS = ['row', 'column', 'snake_row', 'snake_column'] as const;
export type GridOrder = (typeof GRID_ORDERS)[number];

export const settingsMessages = {
  // Client-side helper results of spec part 1 §5, also the server's answers to the same mistakes.
  gridOrderCompanyMissing: 'Required parameter missing: companyID.',
  gridOrderMissing: 'Required parameter missing: gridOrder.',
  gridOrderClientMissing: 'Required parameter missing: axiosPrivate.',
  getGridOrderCompanyMissing: 'Missing companyID',
  offlineModeCompanyMissing: 'Missing required parameter: companyID',
  offlineModeErrorPrefix: 'getCompanyOfflineMode Error: ',
  gridOrderFailed: 'Failed to set company grid order.',
  gridOrderError: 'Error setting company grid order.',
  gridOrderInvalid: `grid_order must be one of: ${GRID_ORDERS.join(', ')}.`,
  companyIdRequired: 'company_id is required.',
  gridOpacityRequired: 'grid_opacity is required.',
  gridOpacityInvalid: 'grid_opacity must be a number from 0 to 1.',
  aiModelRequired: 'ai_model is required.',
  aiModelInvalid: 'ai_model must be a model name of letters, digits, dots, dashes or underscores.',
  aiModelUnknown: (key: string) => `ai_model "${key}" is neither a built-in model (plantDiseaseRecognition, stickyTrapCounter) nor one of the company's models.`,
  autoRefreshRequired: 'company_id and auto_refresh are required.',
  autoRefreshInvalid: 'auto_refresh must be 0 or 1.',
  stickyTrapUnchanged: 'Please update values that are different from your current settings.',
  languageCompanyRequired: 'company_id is required.',
  languageRequired: 'language is required.',
  languageInvalid: 'language must be a language code such as en or pt-BR.',
  languageSetFailed: 'Failed to set language.',
  languageGetFailed: 'Failed to get language.',
  updated: 'Settings updated.',
} as const;

/** Defaults of spec part 1 §3 and §9, and the decisions where the spec is silent (README "Settings"). */
export const SETTINGS_DEFAULTS = {
  grid_order: 'row' as GridOrder,
  grid_opacity: 1,
  offline_mode: 1,
  ai_model: 'plantDiseaseRecognition',
  auto_refresh: 0,
  stickytrap_render: 1,
  language: 'en',
} as const;

/**
 * The browser's fallbacks for the settings calls (spec part 1 §8, part 2 §8), used when the server
 * gives no message of its own.
 */
export const settingsClientMessages = {
  /** Spec part 2 §8: no answer from the server at all. */
  noResponse: 'Network error or server did not respond',
  thresholdsFetchFailed: 'Failed to fetch company thresholds.',
  gridOrderFetchFailed: 'Failed to get company grid order.',
  gridOpacityFetchFailed: 'Failed to get grid opacity.',
  aiModelFetchFailed: 'Failed to get the company AI model.',
  autoRefreshFetchFailed: 'Failed to get the auto refresh mode.',
  stickyTrapFetchFailed: 'Failed to get the sticky-trap render value.',
} as const;
