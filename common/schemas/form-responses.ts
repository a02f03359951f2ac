import { z } from 'zod';
import { formResponseMessages as m } from '../messages/form-responses';
import { FIELD_TYPES, FORM_CATEGORIES } from '../messages/forms';
import { answer, recordRef, timestamp } from './answers';
import { formBody, idList, isCalendarDate, optionalClientId, optionalId, requiredId } from './fields';
import { responseCommentRecord, taskPageFields, taskRecord } from './tasks';

/** One answer: the field and what was entered (numbers and flags arrive as text or as JSON values). */
const fieldResponse = z.object({
  fieldID: requiredId(m.idInvalid('fieldID')),
  inputData: z.preprocess((value) => (value === undefined || value === null ? null : String(value)), z.string().max(10_000).nullable()),
});
const fieldResponses = (message: string) => z.array(fieldResponse, { error: message }).min(1, { error: message });
const blankToUndefined = (value: unknown) => (value === undefined || value === null || value === '' ? undefined : value);

/** The spec's one message stands for any missing part; a present but malformed part gets its own message. */
const needed =
  (message: string) =>
  (value: unknown, context: z.core.$RefinementCtx) => {
    const present = blankToUndefined(value);
    if (present === undefined) context.addIssue({ code: 'custom', message });
    return present;
  };
const neededId = (message: string, name: string) => z.preprocess(needed(message), requiredId(m.idInvalid(name)));
const neededIds = (message: string, name: string) => z.preprocess(needed(message), idList(m.idInvalid(name)).refine((ids) => ids.length > 0, { error: message }));
const neededAnswers = (message: string) => z.preprocess(needed(message), fieldResponses(message));

/**
 * When the form was filled (ISO 8601, from the tablet's clock): a form filled offline is sent later,
 * and its time, day and batch are those of the filling. The server keeps it within its own clock
 * (never in the future, at most a year back); left out, it is the time of arrival.
 */
const submittedAt = z.preprocess(
  blankToUndefined,
  z
    .string({ error: m.submittedAtInvalid })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: m.submittedAtInvalid })
    .optional(),
);

/**
 * The response's client id (a call that makes one response per box names them all: the one for the
 * i-th box takes `responseClientId(client_id, i)`, common/client-ids.ts).
 */
const client_id = optionalClientId();

export const submitFormBody = formBody({
  submittedBy: neededId(m.submitNeeds, 'submittedBy'),
  fieldResponses: neededAnswers(m.submitNeeds),
  GridBoxID: neededId(m.gridBoxRequired, 'GridBoxID'),
  submittedAt,
  client_id,
});

export const submitFormRoomBody = formBody({
  submittedBy: neededId(m.roomSubmitNeeds, 'submittedBy'),
  roomID: neededId(m.roomSubmitNeeds, 'roomID'),
  fieldResponses: neededAnswers(m.roomSubmitNeeds),
  submittedAt,
  client_id,
});

export const responseIdQuery = z.object({ response_id: requiredId(m.idInvalid('response_id')) });
export const gridBoxQuery = z.object({ GridBoxID: requiredId(m.idInvalid('GridBoxID')) });

/** GridBoxIDs as strings (spec §7): a JSON list of numeric strings or one comma-joined text. */
export const submitFormBoxesBody = formBody({
  submittedBy: neededId(m.submitNeeds, 'submittedBy'),
  fieldResponses: neededAnswers(m.submitNeeds),
  GridBoxIDs: neededIds(m.gridBoxesRequired, 'GridBoxIDs'),
  submittedAt,
  client_id,
});

export const submitMultiSelectBody = formBody({
  submittedBy: neededId(m.multiSelectNeeds, 'submittedBy'),
  roomID: neededId(m.multiSelectNeeds, 'roomID'),
  GridBoxIDs: neededIds(m.multiSelectNeeds, 'GridBoxIDs'),
  fieldResponses: neededAnswers(m.multiSelectNeeds),
  submittedAt,
  client_id,
});

const calendarDate = z.string({ error: m.datesInvalid }).trim().refine(isCalendarDate, { error: m.datesInvalid });
const dates = { start_date: calendarDate, end_date: calendarDate };
const inOrder = (query: { start_date: string; end_date: string }) => query.start_date <= query.end_date;

export const gridBoxDatesQuery = z.object({ GridBoxID: requiredId(m.idInvalid('GridBoxID')), ...dates }).refine(inOrder, { error: m.datesReversed });
export const gridDatesQuery = z.object({ GridID: requiredId(m.idInvalid('GridID')), ...dates }).refine(inOrder, { error: m.datesReversed });
export const batchQuery = z.object({ batch_id: requiredId(m.idInvalid('batch_id')) });

/** Multipart: the response, optionally the field the photo answers, and the image (a Buffer; saveImage checks it). */
export const submitFormImageBody = formBody({
  response_id: requiredId(m.imageResponseRequired),
  field_id: optionalId(m.idInvalid('field_id')),
  image: z.unknown().optional(),
});

/** The longest reason a correction takes. */
export const CORRECTION_REASON_MAX = 500;

/**
 * A correction of a submitted response (issue 18, rooms/FormEdit; ours: POST /correct_form_response).
 * `fieldResponses` are the new answers, in the submission's shape (and checked as a submission's:
 * server/domains/forms/corrections.ts); `user_id` is the corrector, the caller; `client_id` the
 * correction's own. `company_id` may be left out: the response names its company.
 */
export const correctFormResponseBody = formBody({
  response_id: neededId(m.correctNeeds, 'response_id'),
  company_id: optionalId(m.idInvalid('company_id')),
  user_id: neededId(m.correctNeeds, 'user_id'),
  fieldResponses: neededAnswers(m.correctNeeds),
  reason: z.preprocess(
    needed(m.correctionReasonRequired),
    z
      .string({ error: m.correctionReasonRequired })
      .trim()
      .min(1, { error: m.correctionReasonRequired })
      .max(CORRECTION_REASON_MAX, { error: m.correctionReasonTooLong(CORRECTION_REASON_MAX) }),
  ),
  client_id,
});

// ——— Answers ———

/** One answer, with its field's name and type so a reader needs no template. Its own id stays an integer: no tablet names it. */
export const fieldAnswerRecord = z.object({
  FieldResponseID: z.number().int(),
  ResponseID: recordRef,
  FieldID: recordRef,
  FieldName: z.string(),
  FieldType: z.enum(FIELD_TYPES),
  InputData: z.string().nullable(),
});

export type FieldAnswerRecord = z.infer<typeof fieldAnswerRecord>;

/** A photo of a response, with the field it answers (if any) and the path it is served from. */
export const responseImageRecord = z.object({
  ImageID: z.number().int(),
  ResponseID: recordRef,
  FieldID: recordRef.nullable(),
  ImagePath: z.string(),
});

export type ResponseImageRecord = z.infer<typeof responseImageRecord>;

/**
 * A field's answer before and after one correction. `PreviousValue` is what the correction replaced:
 * for a field's first correction, the answer as submitted (`originalAnswers`, src/api/form-responses.ts).
 */
export const correctedValueRecord = z.object({
  FieldID: recordRef,
  FieldName: z.string(),
  FieldType: z.enum(FIELD_TYPES),
  PreviousValue: z.string().nullable(),
  CorrectedValue: z.string().nullable(),
});

export type CorrectedValueRecord = z.infer<typeof correctedValueRecord>;

/** A correction of a response: by whom (a user id), when (the act's time), why, and the values it changed. Its id stays an integer: nothing names it later. */
export const formCorrectionRecord = z.object({
  CorrectionID: z.number().int(),
  ResponseID: recordRef,
  CorrectedBy: z.number().int().nullable(),
  CorrectedAt: timestamp,
  Reason: z.string(),
  values: z.array(correctedValueRecord),
});

export type FormCorrectionRecord = z.infer<typeof formCorrectionRecord>;

/** A response with its answers and photos, as readers and the synced `form_responses` collection show it. */
export const formResponseRecord = z.object({
  ResponseID: recordRef,
  TemplateID: recordRef,
  TemplateName: z.string(),
  FormCategory: z.enum(FORM_CATEGORIES),
  GridBoxID: recordRef.nullable(),
  RoomID: recordRef.nullable(),
  BatchID: recordRef.nullable(),
  SubmittedBy: z.number().int().nullable(),
  SubmittedAt: timestamp,
  fieldResponses: z.array(fieldAnswerRecord),
  images: z.array(responseImageRecord),
  /**
   * Its task and its comments, oldest first (issue 16; common/schemas/tasks.ts). The server always sends
   * both; a response made on a tablet and not yet on the server has neither (no task, no comments).
   */
  task: taskRecord.nullable().optional(),
  comments: z.array(responseCommentRecord).optional(),
  /**
   * Its corrections, oldest first (issue 18): the answers above are the corrected ones, these keep what
   * they were. The server always sends them; a response made on a tablet and not yet on the server has none.
   */
  corrections: z.array(formCorrectionRecord).optional(),
});

export type FormResponseRecord = z.infer<typeof formResponseRecord>;

/** submit_form and submit_form_room: the one response made. */
export const submitFormAnswer = answer({ response_id: recordRef, client_id: z.string() });
/** submit_form_boxes and submit_form_multiselect: a response per box, in the boxes' order. */
export const submitFormBoxesAnswer = answer({ response_ids: z.array(recordRef), client_ids: z.array(z.string()) });
/** submit_form_image: the photo's path. */
export const submitFormImageAnswer = answer({ response_id: recordRef, image: z.string() });
/** get_field_responses: a response's answers (the corrected ones) and its corrections, oldest first. */
export const fieldResponsesAnswer = answer({ fieldResponses: z.array(fieldAnswerRecord), corrections: z.array(formCorrectionRecord) });
/** correct_form_response: the correction made, and its ids. */
export const correctFormResponseAnswer = answer({ response_id: recordRef, correction_id: recordRef, client_id: z.string(), correction: formCorrectionRecord });
export const formResponsesAnswer = answer({ responses: z.array(formResponseRecord) });
/** get_responses_for_grid2: a grid's responses, and those of treatment forms apart. */
export const gridResponsesAnswer = answer({ all_responses: z.array(formResponseRecord), treatment_responses: z.array(formResponseRecord) });
export const stickyTrapCheckAnswer = answer({ has_submission: z.boolean() });
/** get_task_form_responses (spec §7 lists it under forms): a page of the responses that have a task, each with it. */
export const taskFormResponsesAnswer = answer({ responses: z.array(formResponseRecord), ...taskPageFields });
