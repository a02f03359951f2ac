/**
 * Domain functions of form submissions and the reading of answers (spec part 2 §3, §5, §7, §8).
 *
 * A submission is queued like every write (the spec's offlineFormResponses and offlineFieldResponses
 * are these outbox entries and the `form_responses` documents they make): each response appears in the
 * local store at once under its client id, and each photo is an entry of its own after it, kept as a
 * Blob until sent, which names the response by that id (and so goes after it). A response made here shows its photos as
 * `pending` until they reach the server.
 *
 * Decisions (README "Forms"): a photo taken while filling a form for several boxes is sent once, with
 * the first box's response; an Image field's answer is the photo's file name, so a required photo
 * counts as answered.
 *
 * A Problem field's answer names plant problems (common/problem-answers.ts): the server records each on
 * every box of the submission. The same entry puts them in the local `plant_problems` collection at once,
 * under the client ids the server gives them (formProblemClientId of the box's response), so the box
 * shows them offline and the server's copies replace them (README "Plant problems").
 */
import { firstMissingRequired, isBlank } from '../../common/form-rules';
import { type NamedProblem, problemsOfAnswers } from '../../common/problem-answers';
import { changeLabels } from '../../common/messages/changes';
import { formResponseMessages as rm } from '../../common/messages/form-responses';
import { formClientMessages as cm, formMessages as fm, STICKY_TRAP_CATEGORY, TREATMENT_CATEGORY } from '../../common/messages/forms';
import {
  batchQuery,
  type FieldAnswerRecord,
  type FormResponseRecord,
  gridBoxDatesQuery,
  gridBoxQuery,
  gridDatesQuery,
  responseIdQuery,
  type ResponseImageRecord,
  type stickyTrapCheckAnswer,
  submitFormBody,
  submitFormBoxesBody,
  submitFormImageBody,
  submitFormRoomBody,
  submitMultiSelectBody,
} from '../../common/schemas/form-responses';
import type { z } from 'zod';
import type { EntryDraft } from '../../sync/outbox';
import { formProblemClientId, newClientId, responseClientId } from '../../common/client-ids';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, json, now, onlineOrLocal, record, recordAll, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import { localProblemOnBox, placeOfBox } from './problem-actions';
import type { FormTemplateRecord } from '../../common/schemas/forms';
import { companyTemplates, templateHolding } from './forms';
import { filePart, multipartWithFile } from './rooms';
import { type RecordId } from './records';
import type { FormCorrection } from './form-corrections';

// Corrections of a submitted response: a module of their own, named with the submissions' functions.
export { correctFormResponse, correctionsOf, type FormCorrection, originalAnswers } from './form-corrections';

type Id = RecordId;

/** An answer as the tablet holds it: one filled here has no FieldResponseID until the server's document replaces it. */
export type FieldAnswer = Omit<FieldAnswerRecord, 'FieldResponseID'> & { FieldResponseID: number | null };

/** A photo of a response; one taken on this tablet and not yet sent is `pending`, without an id or a path. */
export type ResponseImage = Omit<ResponseImageRecord, 'ImageID' | 'ImagePath'> & { ImageID: number | null; ImagePath: string | null; pending?: true };

/**
 * A response as the tablet holds it: the server's, or one filled here whose answers and photos are not
 * on the server yet; its corrections made here wait for their ids (src/api/form-corrections.ts).
 */
export type FormResponse = Omit<FormResponseRecord, 'fieldResponses' | 'images' | 'corrections'> & { fieldResponses: FieldAnswer[]; images: ResponseImage[]; corrections?: FormCorrection[] };

/** What the grower entered: an answer per field (text; Checkbox choices joined by common/form-rules CHOICE_SEPARATOR). */
export interface Answer {
  fieldId: Id;
  inputData: string | null;
}

/** A photo to send with the submission, for an Image field (or the response as a whole). */
export interface Photo {
  fieldId?: Id;
  image: Blob;
  fileName?: string;
}

interface Submission {
  submittedBy: number;
  fieldResponses: Answer[];
  photos?: Photo[];
}

/** A photo's file name: its own, or 'photo.jpg' (an Image field's answer, and the name it is uploaded under). */
export const photoFileName = (image: Blob, fileName?: string) => fileName ?? (typeof File !== 'undefined' && image instanceof File && image.name ? image.name : 'photo.jpg');
const fileNameOf = (photo: Photo) => photoFileName(photo.image, photo.fileName);

/** The answers as the server takes them; an Image field answered only by a photo gets the photo's file name. */
function answersOf(submission: Submission) {
  const answers = Array.isArray(submission.fieldResponses) ? submission.fieldResponses.map((answer) => ({ fieldID: answer.fieldId, inputData: answer.inputData })) : undefined;
  if (!answers) return undefined;
  for (const photo of submission.photos ?? []) {
    if (photo.fieldId === undefined) continue;
    const answer = answers.find((each) => String(each.fieldID) === String(photo.fieldId));
    if (!answer) answers.push({ fieldID: photo.fieldId, inputData: fileNameOf(photo) });
    else if (isBlank(answer.inputData)) answer.inputData = fileNameOf(photo);
  }
  return answers.length > 0 ? answers : undefined;
}

/**
 * The template the answers belong to, from the local store, checked as the server checks it: one
 * template; every required field that shows is answered ('{field} is required.'); each Problem answer
 * is in its format ('Field {field}: name each problem…'). Answered with the problems those answers name,
 * in the server's order. A form is filled from the tablet's copy of its template, so a template the
 * tablet does not hold is refused.
 */
async function checkedTemplate(context: ApiContext, answers: Array<{ fieldID: Id; inputData: string | null }>): Promise<{ template: FormTemplateRecord; problems: NamedProblem[] }> {
  const templates = await companyTemplates(context);
  const ofField = (fieldId: Id) => templateHolding(templates, fieldId);
  const template = ofField(answers[0]!.fieldID);
  if (!template) throw new ValidationError(fm.templateNotFound);
  if (answers.some((answer) => ofField(answer.fieldID) !== template)) throw new ValidationError(rm.oneTemplate);
  const missing = firstMissingRequired(template.fields, template.hide_rules, new Map(answers.map((answer) => [String(answer.fieldID), answer.inputData])));
  if (missing) throw new ValidationError(rm.fieldRequired(missing.FieldName));
  const { problems, error } = problemsOfAnswers(
    answers.map((answer) => {
      const field = template.fields.find((each) => String(each.FieldID) === String(answer.fieldID))!;
      return { fieldName: field.FieldName, fieldType: field.FieldType, inputData: answer.inputData };
    }),
  );
  if (error) throw new ValidationError(error);
  return { template, problems };
}

/**
 * The optimistic plant problems a box's response records (the server's rules: server/domains/forms/
 * responses.ts): unresolved, seen when the form was filled, by its submitter, filed under the response,
 * each under formProblemClientId(response, place). A box the tablet does not hold gets none here: its
 * problems arrive with the server's answer.
 */
async function formProblemEffects(context: ApiContext, problems: readonly NamedProblem[], response: { id: Id; gridBoxId: Id | null; submittedBy: number; at: string }): Promise<Effect[]> {
  if (problems.length === 0 || response.gridBoxId === null) return [];
  const box = await context.store.get('grid_boxes', String(response.gridBoxId));
  if (!box) return [];
  // The catalogue is a chunk of its own (src/features/plant-problems/useCatalogue.ts): loaded only when
  // a form names problems. The server finds the entry a name names the same way (problemSlugOf).
  const { catalogueProblemNamed } = await import('../../common/plant-problems');
  const place = await placeOfBox(context, box);
  return problems.map((named, index): Effect => {
    const problemId = formProblemClientId(String(response.id), index);
    const problem = localProblemOnBox(place, {
      problemId,
      subGridboxId: null,
      problemType: named.name,
      problemSlug: catalogueProblemNamed(named.name)?.slug ?? null,
      severity: named.severity,
      notes: null,
      source: 'form',
      formResponseId: response.id,
      userId: response.submittedBy,
      at: response.at,
    });
    return { op: 'upsert', collection: 'plant_problems', id: problemId, data: { ...problem } };
  });
}

/** The room and batch a box's response is filed under, as far as the tablet knows them. */
async function placeOf(context: ApiContext, gridBoxId: Id): Promise<{ roomId: Id | null; batchId: Id | null }> {
  const box = await context.store.get('grid_boxes', String(gridBoxId));
  const grid = box ? await context.store.get('grids', String(box.GridID)) : null;
  const batches = Array.isArray(box?.BatchIDs) ? (box.BatchIDs as Id[]) : [];
  return { roomId: (grid?.RoomID as Id | undefined) ?? null, batchId: batches.at(-1) ?? null };
}

interface Target {
  path: string;
  /** The body's target fields (GridBoxID, GridBoxIDs, roomID). */
  fields: Record<string, unknown>;
  /** One response per box, or one for the room. */
  places: Array<{ gridBoxId: Id | null; roomId: Id | null; batchId: Id | null }>;
  /**
   * One response per box of a list (its client id derived from the submission's and the box's place,
   * `responseClientId`), or the one response, named by the submission's client id.
   */
  perBox: boolean;
  /** The names of its queued changes (changeLabels), for the form's name: the submission's and each photo's. */
  labels: (formName: string) => { submit: string; photo: string };
}

/** Records the submission and its photos; answers the responses' client ids in the order of the places. */
async function submit(context: ApiContext, submission: Submission, answers: Array<{ fieldID: Id; inputData: string | null }>, target: Target) {
  const { template, problems } = await checkedTemplate(context, answers);
  const submissionId = newClientId();
  const responseIds = target.perBox ? target.places.map((_, index) => responseClientId(submissionId, index)) : [submissionId];
  const at = now();
  const photos = submission.photos ?? [];
  const fieldOf = (fieldId: Id) => template.fields.find((field) => String(field.FieldID) === String(fieldId));
  const pendingImages = (responseId: Id): ResponseImage[] =>
    photos.map((photo) => ({ ImageID: null, ResponseID: responseId, FieldID: photo.fieldId ?? null, ImagePath: null, pending: true }));
  const effects: Effect[] = target.places.map((place, index) => {
    const responseId = responseIds[index]!;
    const response: FormResponse = {
      ResponseID: responseId,
      TemplateID: template.TemplateID,
      TemplateName: template.TemplateName,
      FormCategory: template.FormCategory,
      GridBoxID: place.gridBoxId,
      RoomID: place.roomId,
      BatchID: place.batchId,
      SubmittedBy: submission.submittedBy,
      SubmittedAt: at,
      fieldResponses: answers.map((answer) => {
        // checkedTemplate found every answered field in the template.
        const field = fieldOf(answer.fieldID)!;
        return { FieldResponseID: null, ResponseID: responseId, FieldID: answer.fieldID, FieldName: field.FieldName, FieldType: field.FieldType, InputData: answer.inputData };
      }),
      images: index === 0 ? pendingImages(responseId) : [],
    };
    return { op: 'upsert', collection: 'form_responses', id: responseId, data: { ...response } };
  });
  // A room's response records no plant problem (README "Plant problems"): its place has no box.
  const problemEffects = (
    await Promise.all(target.places.map((place, index) => formProblemEffects(context, problems, { id: responseIds[index]!, gridBoxId: place.gridBoxId, submittedBy: submission.submittedBy, at })))
  ).flat();
  const labels = target.labels(template.TemplateName);
  const submitEntry: EntryDraft = {
    method: 'POST',
    path: target.path,
    // The time of filling goes along: sent later, the response keeps its day and the batch of then.
    body: json({ submittedBy: submission.submittedBy, ...target.fields, fieldResponses: answers, submittedAt: at, client_id: submissionId }),
    creates: [...responseIds, ...problemEffects.map((effect) => effect.id)],
    effects: [...effects, ...problemEffects],
    label: labels.submit,
    fallbackMessage: cm.submitFailed,
  };
  // Photos go with the first response, one entry each, recorded with the submission in one step (a
  // photo the tablet cannot store leaves the form unsent, so a second tap cannot send it twice). Each
  // entry shows them all as pending until the last is sent: pending effects are laid over the server's
  // document in order and a patch replaces the whole list, so a patch of the photos still to send would
  // hide those recorded before it (and those already sent).
  const first = responseIds[0]!;
  const photoEntries = photos.map(
    (photo): EntryDraft => ({
      method: 'POST',
      path: '/submit_form_image',
      body: multipartWithFile({ response_id: first, field_id: photo.fieldId }, filePart('image', photo.image, fileNameOf(photo))),
      effects: [{ op: 'patch', collection: 'form_responses', id: first, data: { images: pendingImages(first) } }],
      label: labels.photo,
      fallbackMessage: cm.submitFailed,
    }),
  );
  await recordAll(context, [submitEntry, ...photoEntries]);
  return responseIds;
}

/** The names of a submission's changes for `count` boxes, picked one by one or by the multi-select. */
const boxesLabels =
  (count: number, multiSelect = false): Target['labels'] =>
  (form) => {
    if (multiSelect) return count === 1 ? { submit: changeLabels.submitMultiSelectForBox(form), photo: changeLabels.photoMultiSelectForBox(form) } : { submit: changeLabels.submitMultiSelectForBoxes(form, count), photo: changeLabels.photoMultiSelectForBoxes(form, count) };
    return count === 1 ? { submit: changeLabels.submitForBox(form), photo: changeLabels.photoForBox(form) } : { submit: changeLabels.submitForBoxes(form, count), photo: changeLabels.photoForBoxes(form, count) };
  };

/** submit_form (spec §5): 'Form submit needs submittedBy and fieldResponses'; one grid box. Answers `response_id` (its client id). */
export async function submitForm(context: ApiContext, input: Submission & { gridBoxId: Id }) {
  const answers = answersOf(input);
  const values = check(submitFormBody, { submittedBy: input.submittedBy, fieldResponses: answers, GridBoxID: input.gridBoxId });
  const gridBoxId = values.GridBoxID as Id;
  const [responseId] = await submit(context, input, values.fieldResponses as typeof answers & object, {
    path: '/submit_form',
    fields: { GridBoxID: gridBoxId },
    places: [{ gridBoxId, ...(await placeOf(context, gridBoxId)) }],
    perBox: false,
    labels: boxesLabels(1),
  });
  return { response_id: responseId! };
}

/** Boxes once each, in the order chosen. */
const distinct = (ids: Id[]) => [...new Map(ids.map((id) => [String(id), id])).values()];

/** submit_form_boxes (spec §7): the same answers for several boxes, `GridBoxIDs` sent as strings; one response per box. */
export async function submitFormBoxes(context: ApiContext, input: Submission & { gridBoxIds: Id[] }) {
  const answers = answersOf(input);
  const values = check(submitFormBoxesBody, { submittedBy: input.submittedBy, fieldResponses: answers, GridBoxIDs: input.gridBoxIds });
  const gridBoxIds = distinct(values.GridBoxIDs as Id[]);
  const places = await Promise.all(gridBoxIds.map(async (gridBoxId) => ({ gridBoxId, ...(await placeOf(context, gridBoxId)) })));
  const responseIds = await submit(context, input, values.fieldResponses as typeof answers & object, {
    path: '/submit_form_boxes',
    fields: { GridBoxIDs: gridBoxIds.map(String) },
    places,
    perBox: true,
    labels: boxesLabels(gridBoxIds.length),
  });
  return { response_ids: responseIds };
}

/**
 * The multi-select submission (spec part 2 §2 and §4; its path is ours: POST /submit_form_multiselect):
 * boxes picked in one room by coordinates, rows or columns. The server records the audit event
 * 'Submitted MultiSelect Template in room {room}' with it, in the same transaction, so it is there once.
 * A box the tablet knows to be in another room is refused here with the server's message.
 */
export async function submitFormMultiselect(context: ApiContext, input: Submission & { roomId: Id; gridBoxIds: Id[] }) {
  const answers = answersOf(input);
  const values = check(submitMultiSelectBody, { submittedBy: input.submittedBy, roomID: input.roomId, GridBoxIDs: input.gridBoxIds, fieldResponses: answers });
  const gridBoxIds = distinct(values.GridBoxIDs as Id[]);
  const roomId = values.roomID as Id;
  const known = await Promise.all(gridBoxIds.map(async (gridBoxId) => ({ gridBoxId, ...(await placeOf(context, gridBoxId)) })));
  // The server refuses a box of another room; a box the tablet knows is checked here, before anything is queued.
  const stray = known.find((place) => place.roomId !== null && String(place.roomId) !== String(roomId));
  if (stray) {
    const room = await context.store.get('rooms', String(roomId));
    const box = await context.store.get('grid_boxes', String(stray.gridBoxId));
    // The server's message names the box by its integer id, which a box made here does not have yet.
    const named = typeof box?.serverId === 'number' ? box.serverId : stray.gridBoxId;
    throw new ValidationError(rm.boxNotInRoom(named, typeof room?.Name === 'string' ? room.Name : String(roomId)));
  }
  const places = known.map((place) => ({ ...place, roomId }));
  const responseIds = await submit(context, input, values.fieldResponses as typeof answers & object, {
    path: '/submit_form_multiselect',
    fields: { roomID: roomId, GridBoxIDs: gridBoxIds.map(String) },
    places,
    perBox: true,
    labels: boxesLabels(gridBoxIds.length, true),
  });
  return { response_ids: responseIds };
}

/** submit_form_room (spec §5): 'Room form submit needs submittedBy, roomID and fieldResponses'. */
export async function submitFormRoom(context: ApiContext, input: Submission & { roomId: Id }) {
  const answers = answersOf(input);
  const values = check(submitFormRoomBody, { submittedBy: input.submittedBy, roomID: input.roomId, fieldResponses: answers });
  const roomId = values.roomID as Id;
  const room = await context.store.get('rooms', String(roomId));
  const [responseId] = await submit(context, input, values.fieldResponses as typeof answers & object, {
    path: '/submit_form_room',
    fields: { roomID: roomId },
    places: [{ gridBoxId: null, roomId, batchId: null }],
    perBox: false,
    labels: (form) => {
      const named = typeof room?.Name === 'string' ? room.Name : roomId;
      return { submit: changeLabels.submitForRoom(form, named), photo: changeLabels.photoForRoom(form, named) };
    },
  });
  return { response_id: responseId! };
}

/** submit_form_image (spec §7): a photo for a response already made (here or on the server). Queued; answers `response_id`. */
export async function submitFormImage(context: ApiContext, input: { responseId: Id; fieldId?: Id; image: Blob; fileName?: string }) {
  const values = check(submitFormImageBody, { response_id: input.responseId, field_id: input.fieldId });
  const responseId = values.response_id as Id;
  const photo: Photo = { image: input.image, ...(input.fieldId !== undefined ? { fieldId: input.fieldId } : {}), ...(input.fileName ? { fileName: input.fileName } : {}) };
  const response = await context.store.get('form_responses', String(responseId));
  const images = Array.isArray(response?.images) ? (response.images as ResponseImage[]) : [];
  await record(context, {
    method: 'POST',
    path: '/submit_form_image',
    body: multipartWithFile({ response_id: responseId, field_id: values.field_id as Id | undefined }, filePart('image', input.image, fileNameOf(photo))),
    effects: response ? [{ op: 'patch', collection: 'form_responses', id: String(responseId), data: { images: [...images, { ImageID: null, ResponseID: responseId, FieldID: input.fieldId ?? null, ImagePath: null, pending: true }] } }] : [],
    label: typeof response?.TemplateName === 'string' ? changeLabels.photoFor(response.TemplateName) : changeLabels.photoForAForm,
    fallbackMessage: cm.submitFailed,
  });
  return { response_id: responseId };
}

// ——— Reading answers: the server's, or offline the local store's recent window and what was made here ———

const responseOf = (document: Record<string, unknown>): FormResponse => {
  const { id: _id, gridBoxId: _box, roomId: _room, ...response } = document;
  return response as unknown as FormResponse;
};

/** Newest first, as the server orders them (then by id, the later first). */
export const newestFirst = (a: Pick<FormResponse, 'SubmittedAt' | 'ResponseID'>, b: Pick<FormResponse, 'SubmittedAt' | 'ResponseID'>) =>
  b.SubmittedAt.localeCompare(a.SubmittedAt) || String(b.ResponseID).localeCompare(String(a.ResponseID), undefined, { numeric: true });

async function localResponses(context: ApiContext, selector: Record<string, unknown>, filter: { startDate?: string; endDate?: string; category?: (category: string) => boolean } = {}) {
  const responses = (await findLocal(context, 'form_responses', selector)).map(responseOf);
  return responses
    .filter((response) => {
      const day = response.SubmittedAt.slice(0, 10);
      if (filter.startDate !== undefined && day < filter.startDate) return false;
      if (filter.endDate !== undefined && day > filter.endDate) return false;
      return filter.category ? filter.category(response.FormCategory) : true;
    })
    .sort(newestFirst);
}

/** get_field_responses (spec §7): a response's answers, `{fieldResponses}`, and its corrections (ours, issue 18). */
export async function getFieldResponses(context: ApiContext, input: { responseId: Id }) {
  const values = check(responseIdQuery, { response_id: input.responseId });
  const responseId = values.response_id as Id;
  return onlineOrLocal<{ status: 'success'; fieldResponses: FieldAnswer[]; corrections: FormCorrection[]; offline?: true }>(
    context,
    { path: '/get_field_responses', query: { response_id: responseId } },
    cm.fetchFailed,
    async () => {
      const response = await context.store.get('form_responses', String(responseId));
      if (!response) throw new ValidationError(rm.responseNotFound);
      const { fieldResponses, corrections } = responseOf(response);
      return { status: 'success', fieldResponses, corrections: corrections ?? [], offline: true };
    },
  );
}

type Responses = { status: 'success'; responses: FormResponse[]; offline?: true };

/** get_field_responses_by_gridbox (spec §7): a box's responses, newest first. */
export async function getFieldResponsesByGridbox(context: ApiContext, input: { gridBoxId: Id }) {
  const values = check(gridBoxQuery, { GridBoxID: input.gridBoxId });
  const gridBoxId = values.GridBoxID as Id;
  return onlineOrLocal<Responses>(context, { path: '/get_field_responses_by_gridbox', query: { GridBoxID: gridBoxId } }, cm.fetchFailed, async () => ({
    status: 'success',
    responses: await localResponses(context, { gridBoxId: String(gridBoxId) }),
    offline: true,
  }));
}

/**
 * get_field_responses_by_gridbox_date/forms and /stickytraps (spec §7): a box's responses of the days
 * (yyyy-mm-dd, both included, in UTC); `stickyTraps` picks the sticky-trap cards, otherwise the rest.
 */
export async function getFieldResponsesByGridboxDate(context: ApiContext, input: { gridBoxId: Id; startDate: string; endDate: string; stickyTraps: boolean }) {
  const values = check(gridBoxDatesQuery, { GridBoxID: input.gridBoxId, start_date: input.startDate, end_date: input.endDate });
  const gridBoxId = values.GridBoxID as Id;
  const path = `/get_field_responses_by_gridbox_date/${input.stickyTraps ? 'stickytraps' : 'forms'}`;
  return onlineOrLocal<Responses>(context, { path, query: { GridBoxID: gridBoxId, start_date: values.start_date, end_date: values.end_date } }, cm.fetchFailed, async () => ({
    status: 'success',
    responses: await localResponses(context, { gridBoxId: String(gridBoxId) }, { startDate: values.start_date, endDate: values.end_date, category: (category) => (category === STICKY_TRAP_CATEGORY) === input.stickyTraps }),
    offline: true,
  }));
}

async function boxIdsOfGrid(context: ApiContext, gridId: Id) {
  return (await findLocal(context, 'grid_boxes', { gridId: String(gridId) })).map((box) => box.id);
}

/** get_responses_for_grid2 (spec §7): a grid's responses of the days, `all_responses` and `treatment_responses`. */
export async function getResponsesForGrid2(context: ApiContext, input: { gridId: Id; startDate: string; endDate: string }) {
  const values = check(gridDatesQuery, { GridID: input.gridId, start_date: input.startDate, end_date: input.endDate });
  const gridId = values.GridID as Id;
  return onlineOrLocal<{ status: 'success'; all_responses: FormResponse[]; treatment_responses: FormResponse[]; offline?: true }>(
    context,
    { path: '/get_responses_for_grid2', query: { GridID: gridId, start_date: values.start_date, end_date: values.end_date } },
    cm.fetchFailed,
    async () => {
      const all = await localResponses(context, { gridBoxId: { $in: await boxIdsOfGrid(context, gridId) } }, { startDate: values.start_date, endDate: values.end_date });
      return { status: 'success', all_responses: all, treatment_responses: all.filter((response) => response.FormCategory === TREATMENT_CATEGORY), offline: true };
    },
  );
}

/** get_sticky_trap_responses_grid (spec §7; its query is ours: GridID, start_date, end_date). */
export async function getStickyTrapResponsesGrid(context: ApiContext, input: { gridId: Id; startDate: string; endDate: string }) {
  const values = check(gridDatesQuery, { GridID: input.gridId, start_date: input.startDate, end_date: input.endDate });
  const gridId = values.GridID as Id;
  return onlineOrLocal<Responses>(context, { path: '/get_sticky_trap_responses_grid', query: { GridID: gridId, start_date: values.start_date, end_date: values.end_date } }, cm.fetchFailed, async () => ({
    status: 'success',
    responses: await localResponses(context, { gridBoxId: { $in: await boxIdsOfGrid(context, gridId) } }, { startDate: values.start_date, endDate: values.end_date, category: (category) => category === STICKY_TRAP_CATEGORY }),
    offline: true,
  }));
}

/** check_for_stickytrap (spec §7): whether a box has a sticky-trap response, `{has_submission}`. */
export async function checkForStickytrap(context: ApiContext, input: { gridBoxId: Id }) {
  const values = check(gridBoxQuery, { GridBoxID: input.gridBoxId });
  const gridBoxId = values.GridBoxID as Id;
  return onlineOrLocal<z.infer<typeof stickyTrapCheckAnswer> & { offline?: true }>(context, { path: '/check_for_stickytrap', query: { GridBoxID: gridBoxId } }, cm.fetchFailed, async () => ({
    status: 'success',
    has_submission: (await localResponses(context, { gridBoxId: String(gridBoxId) }, { category: (category) => category === STICKY_TRAP_CATEGORY })).length > 0,
    offline: true,
  }));
}

/**
 * get_batch_form_responses (spec §7): responses of boxes that held the batch, `{status, responses}`;
 * a failure without the server's message is 'Failed to get Batch Templates' (spec §8: the forms filled for a batch).
 */
export async function getBatchFormResponses(context: ApiContext, input: { batchId: Id }) {
  const values = check(batchQuery, { batch_id: input.batchId });
  const batchId = values.batch_id as Id;
  return onlineOrLocal<Responses>(context, { path: '/get_batch_form_responses', query: { batch_id: batchId } }, cm.batchTemplatesFailed, async () => ({
    status: 'success',
    responses: await localResponses(context, { BatchID: batchId }),
    offline: true,
  }));
}
