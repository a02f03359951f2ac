/** Messages of form submissions and the reading of answers (spec part 2 §7, §8). */

const fieldNotInForm = (fieldId: number | string) => `Form field ${fieldId} is not a field of this response's form.`;

export const formResponseMessages = {
  submitNeeds: 'Form submit needs submittedBy and fieldResponses',
  roomSubmitNeeds: 'Room form submit needs submittedBy, roomID and fieldResponses',
  gridBoxRequired: 'Form submit needs GridBoxID',
  gridBoxesRequired: 'Form submit needs GridBoxIDs',
  multiSelectNeeds: 'Multi-select submit needs submittedBy, roomID, GridBoxIDs and fieldResponses',
  /** The box by the spec's integer id (a tablet names one its server has not numbered yet by its client id). */
  boxNotInRoom: (gridBoxId: number | string, room: string) => `Grid box ${gridBoxId} is not in room ${room}.`,
  submittedAtInvalid: 'submittedAt must be a date and time (ISO 8601).',
  datesInvalid: 'start_date and end_date are needed as yyyy-mm-dd.',
  datesReversed: 'start_date must not be after end_date.',
  idInvalid: (name: string) => `${name} must be a positive whole number.`,
  fieldNotFound: (fieldId: number) => `Form field ${fieldId} was not found.`,
  oneTemplate: 'All answers of one submission must belong to one form template.',
  fieldRequired: (fieldName: string) => `${fieldName} is required.`,
  // A Problem field's answer (common/problem-answers.ts); ours, the spec has no such field.
  problemAnswerInvalid: (fieldName: string) => `Field ${fieldName}: name each problem with its severity from 1 to 5, as "Powdery mildew (2)".`,
  problemNameTooLong: (fieldName: string, max: number) => `Field ${fieldName}: a problem's name is at most ${max} characters.`,
  problemNamedTwice: (fieldName: string, problem: string) => `Field ${fieldName}: ${problem} is named twice; name each problem once.`,
  problemsTooMany: (fieldName: string, max: number) => `Field ${fieldName}: name at most ${max} problems.`,
  submitted: 'Form submitted successfully',
  imageResponseRequired: 'Form image needs response_id',
  imageFieldNotInForm: (fieldId: number) => fieldNotInForm(fieldId),
  imageSaved: 'Form image saved.',
  responseNotFound: 'Form response not found.',

  // Corrections of a submitted response (issue 18, rooms/FormEdit); ours, the spec has no such call.
  correctNeeds: 'Correcting a form response needs response_id, user_id and fieldResponses',
  correctionReasonRequired: 'Say why you correct this response: a reason is required.',
  correctionReasonTooLong: (max: number) => `The reason is at most ${max} characters.`,
  correctionFieldNotInForm: (fieldId: number | string) => fieldNotInForm(fieldId),
  correctionFieldTwice: (fieldName: string) => `${fieldName} is named twice; correct each field once.`,
  photoNotCorrectable: (fieldName: string) => `${fieldName} is a photo: a photo cannot be corrected, add another to the response instead.`,
  problemNotCorrectable: (fieldName: string) => `${fieldName} names plant problems: correct them on the box, where each problem is kept.`,
  nothingToCorrect: 'Nothing to correct: every value is as it already is.',
  notYourResponse: 'Only the person who submitted this response, or an Admin, can correct it.',
  corrected: 'Form response corrected.',
  // The browser's default when a correction fails without a message of the server's.
  correctFailed: 'Failed to correct the form response.',
} as const;
