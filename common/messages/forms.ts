/** Messages and fixed lists of form templates (spec part 2 §3, §5, §7, §8). */

/**
 * Form categories. `Sticky Trap` marks sticky-trap count forms (their responses are read by the
 * sticky-trap calls); a template without a category is a scouting form.
 */
export const FORM_CATEGORIES = ['Scouting', 'Sticky Trap', 'Treatment', 'Task', 'General'] as const;
export type FormCategory = (typeof FORM_CATEGORIES)[number];
export const isFormCategory = (value: string | null | undefined): value is FormCategory => (FORM_CATEGORIES as readonly (string | null | undefined)[]).includes(value);
export const STICKY_TRAP_CATEGORY: FormCategory = 'Sticky Trap';
export const DEFAULT_FORM_CATEGORY: FormCategory = 'Scouting';
/** Treatment records: get_responses_for_grid2 answers them apart as `treatment_responses`. */
export const TREATMENT_CATEGORY: FormCategory = 'Treatment';
/** Responses are on the tablets for this many days back (the sync window); older ones are read online. */
export const FORM_RESPONSES_WINDOW_DAYS = 90;

/**
 * Field types a form may hold (get_field_types). `Coordinates` is the multi-select form's position field.
 * `Problem` (ours, issue 14) names the plant problems seen, each with a severity (common/problem-answers.ts
 * is its answer's format): a response for a box records each one as a plant problem on the box.
 */
export const FIELD_TYPES = ['Text', 'Textarea', 'Number', 'Dropdown', 'Radio', 'Checkbox', 'Date', 'Image', 'Coordinates', 'Problem'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** The type whose answers name plant problems (see FIELD_TYPES). */
export const PROBLEM_FIELD_TYPE: FieldType = 'Problem';
/** Types answered by picking among `fieldOptions`: they need at least one option. */
export const CHOICE_FIELD_TYPES: readonly FieldType[] = ['Dropdown', 'Radio', 'Checkbox'];

export const formMessages = {
  // Spec §5, its words.
  saveRequired: 'Form template save needs template name, company and fields',
  defaultRequired: 'Default template update needs template id, company and template type',
  resetRequired: 'Reset templates needs the company',
  updateRequired: 'Template update needs the template id plus arrays of new and updated fields',
  deleteRequired: 'Delete template needs a template id',

  // Ours, where the spec gives no words.
  companyIdRequired: 'company_id is required',
  idInvalid: (field: string) => `${field} must be a positive whole number.`,
  fieldNameRequired: 'Each field needs a fieldName.',
  fieldTypeInvalid: `fieldType must be one of ${FIELD_TYPES.join(', ')}.`,
  fieldOptionsInvalid: 'fieldOptions must be a list of texts.',
  optionsRequired: (fieldName: string) => `${fieldName} needs at least one option.`,
  optionSeparator: (fieldName: string) => `${fieldName}: a Checkbox option cannot contain ", " (it separates the options chosen).`,
  requiredInvalid: 'isRequired must be 0 or 1.',
  activeInvalid: 'isActive must be 0 or 1.',
  positionInvalid: 'position must be a whole number from 0 to 10000.',
  categoryInvalid: `formCategory must be one of ${FORM_CATEGORIES.join(', ')}.`,
  templateNotFound: 'No such form template in this company.',
  fieldNotInTemplate: (fieldId: number) => `Field ${fieldId} is not a field of this template.`,
  defaultCategoryMismatch: (category: string) => `This template is a ${category} form; it can only be the default ${category} form.`,
  hideRuleRequired: 'form_field_hidden_FieldID, form_field_linked_FieldID and form_field_linked_input are required',
  hiddenFieldRequired: 'form_field_hidden_FieldID is required',
  hideListRequired: 'form_field_hidden_UID is required',
  hideSameField: 'A field cannot be hidden until itself is answered.',
  hideOtherTemplate: 'The hidden field and the linked field must belong to the same template.',
  hideRuleExists: 'This field already has a hide-until-link rule; update it instead.',
  hideRuleNotFound: 'This field has no hide-until-link rule.',

  saved: 'Form template saved successfully.',
  updated: 'Form template updated successfully.',
  defaultSet: 'Default template updated successfully.',
  reset: 'Templates reset to the defaults.',
  deleted: 'Template deleted successfully.',
  hideAdded: 'Hide-until-link rule added.',
  hideUpdated: 'Hide-until-link rule updated.',
  hideDeleted: 'Hide-until-link rule deleted.',
} as const;

/** The browser's defaults when a call fails without a message of the server's (spec §8). */
export const formClientMessages = {
  fetchFailed: 'Failed to fetch form templates.',
  deleteFailed: 'Failed to delete template.',
  submitFailed: 'Failed to submit form.',
  batchTemplatesFailed: 'Failed to get Batch Templates',
  // Ours: the spec names no message for these.
  resetFailed: 'Failed to reset templates.',
} as const;
