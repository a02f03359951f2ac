import { z } from 'zod';
import { formResponseMessages as m } from '../messages/form-responses';
import { formBody, idList, isCalendarDate, optionalClientId, optionalId, requiredId } from './fields';

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
