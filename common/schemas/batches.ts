import { z } from 'zod';
import { batchMessages as m } from '../messages/batches';
import { answer, calendarDate, recordRef, timestamp } from './answers';
import { formBody, idList, nullableDate, optionalClientId, optionalId, optionalText, requiredId, requiredNumber, requiredText, requiredWholeNumber } from './fields';
import { roomRecord } from './rooms';

const numberOfPlants = requiredWholeNumber(m.numberOfPlantsInvalid, 0, 10_000_000);
/** A colour as the pickers send it: #rgb, #rrggbb (with optional alpha) or a CSS colour name. */
const color = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.string().trim().regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30})$/, { error: m.colorInvalid }).optional(),
);
const statusName = z.string({ error: m.statusNameRequired }).trim().min(1, { error: m.statusNameRequired }).max(60, { error: m.statusNameTooLong });

/** create_batch: a multipart form (spec part 1 §3 "Batch"). A blank BatchStatus is the first stage. */
export const createBatchBody = formBody({
  BatchNumber: requiredText(m.batchNumberRequired, 100),
  NumberOfPlants: numberOfPlants,
  StrainName: optionalText(200),
  BatchStatus: z.preprocess((value) => (value === '' || value === null ? undefined : value), statusName.optional()),
  Color: color,
  company_id: requiredId(m.companyIdRequired),
  StartDate: nullableDate(m.dateInvalid('StartDate')).optional(),
  EndDate: nullableDate(m.dateInvalid('EndDate')).optional(),
  client_id: optionalClientId(),
});

/** update_batches: the same fields, each optional; only the supplied ones change. */
export const updateBatchBody = formBody({
  BatchNumber: requiredText(m.batchNumberRequired, 100).optional(),
  NumberOfPlants: numberOfPlants.optional(),
  StrainName: z.string().trim().max(200).optional(),
  BatchStatus: statusName.optional(),
  Color: z.union([z.literal(''), color]).optional(),
  StartDate: nullableDate(m.dateInvalid('StartDate')).optional(),
  EndDate: nullableDate(m.dateInvalid('EndDate')).optional(),
});

export const batchCompanyQuery = z.object({ batch_id: requiredId(m.batchIdRequired), company_id: requiredId(m.companyIdRequired) });
export const companyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const linkRoomQuery = z.object({ room_id: requiredId(m.roomIdRequired), batch_id: requiredId(m.batchIdRequired) });
export const linkGridQuery = z.object({ grid_id: requiredId(m.gridIdRequired), batch_id: requiredId(m.batchIdRequired) });
export const linkedRoomsQuery = z.object({ room_id: optionalId(), batch_id: optionalId() }).refine((query) => query.room_id || query.batch_id, { error: m.linkedRoomOrBatchRequired });
export const linkedGridsQuery = z.object({ grid_id: optionalId(), batch_id: optionalId() }).refine((query) => query.grid_id || query.batch_id, { error: m.linkedGridOrBatchRequired });
export const linkedBoxesQuery = z.object({ grid_box_id: optionalId(), batch_id: optionalId() }).refine((query) => query.grid_box_id || query.batch_id, { error: m.linkedBoxOrBatchRequired });

/** link_gridbox_batch: JSON `{batch_id, grid_box_ids}` with at least one box. */
export const linkGridBoxesBody = formBody({
  batch_id: requiredId(m.gridBoxLinkInvalid),
  grid_box_ids: idList(m.gridBoxLinkInvalid).refine((ids) => ids.length > 0, { error: m.gridBoxLinkInvalid }),
});

export const roomQuery = z.object({ room_id: requiredId(m.roomIdRequired) });
export const batchQuery = z.object({ batch_id: requiredId(m.batchIdRequired) });
/** get_batch_history_by_room sends room_id in the body or the query. */
export const roomBody = formBody({ room_id: optionalId(m.roomIdRequired) });
export const optionalRoomQuery = z.object({ room_id: optionalId(m.roomIdRequired) });

export const qrParams = z.object({ batchId: requiredId(m.batchIdRequired) });
export const qrQuery = z.object({ company_id: requiredId(m.companyIdRequired) });
export const qrUrlQuery = qrQuery.extend({
  size: z.preprocess((value) => (value === '' || value === undefined ? 256 : value), z.coerce.number({ error: m.qrSizeInvalid }).int({ error: m.qrSizeInvalid }).min(64, { error: m.qrSizeInvalid }).max(2048, { error: m.qrSizeInvalid })),
});

export const dashboardQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  batch_id: requiredId(m.batchIdRequired),
  start_date: nullableDate(m.dateRangeInvalid).optional(),
  end_date: nullableDate(m.dateRangeInvalid).optional(),
});

export const harvestQuery = batchCompanyQuery.extend({ user_id: requiredId(m.userIdRequired) });
export const movePlantsQuery = z.object({
  batch_id: requiredId(m.batchIdRequired),
  old_room_id: requiredId(m.oldRoomRequired),
  new_room_id: requiredId(m.newRoomRequired),
});

/** assign_status_to_batches: query company_id; form batch_status and batch_ids (comma-joined). */
export const assignStatusQuery = z.object({ company_id: requiredId(m.statusCompanyRequired) });
export const assignStatusBody = formBody({
  batch_status: z.string({ error: m.statusRequired }).trim().min(1, { error: m.statusRequired }).max(60, { error: m.statusNameTooLong }),
  batch_ids: idList(m.statusBatchIdsRequired).refine((ids) => ids.length > 0, { error: m.statusBatchIdsRequired }),
});

/** Custom statuses take company_id and status_name from the query or the body (route hook fieldsFromQueryAndBody). */
export const customStatusFields = formBody({
  company_id: requiredId(m.customStatusInvalid),
  status_name: z.string({ error: m.customStatusInvalid }).trim().min(1, { error: m.customStatusInvalid }).max(60, { error: m.statusNameTooLong }),
  client_id: optionalClientId(),
});
export const filterByStatusQuery = z.object({ company_id: requiredId(m.companyIdRequired), status_name: statusName });

/** grid/create_batch_problem (spec part 1 §5: every field non-zero, severity finite). */
export const createBatchProblemBody = formBody({
  batch_id: requiredId(m.problemFieldsMissing),
  problem_type: requiredText(m.problemFieldsMissing, 200),
  severity: requiredNumber(m.problemFieldsMissing).refine((severity) => severity !== 0, { error: m.problemFieldsMissing }),
  company_id: requiredId(m.problemFieldsMissing),
  user_id: requiredId(m.problemFieldsMissing),
  notes: optionalText(4000),
  room_id: optionalId(),
  client_id: optionalClientId(),
});

export const resolveBatchProblemBody = formBody({
  batch_id: requiredId(m.resolveFieldsRequired),
  user_id: requiredId(m.resolveFieldsRequired),
  room_ids: z.preprocess((value) => (value === '' || value === null ? undefined : value), idList('room_ids must be room ids.').optional()),
  problem_type: optionalText(200),
});

export const batchProblemsQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  include_resolved: z.preprocess((value) => value ?? 'false', z.enum(['true', 'false'], { error: 'include_resolved must be true or false.' })).transform((value) => value === 'true'),
  batch_id: optionalId(),
});

export const gridBoxBatchesQuery = z.object({ GridID: requiredId(m.gridIdOfBoxesRequired) });

// ——— Answers ———

/** A batch, as answers show it (spec part 1 §3 "Batch"). */
export const batchRecord = z.object({
  BatchID: recordRef,
  CompanyID: z.number().int(),
  BatchNumber: z.string(),
  NumberOfPlants: z.number().int(),
  StrainName: z.string().nullable(),
  BatchStatus: z.string(),
  Color: z.string().nullable(),
  StartDate: calendarDate.nullable(),
  EndDate: calendarDate.nullable(),
  HarvestedAt: timestamp.nullable(),
  HarvestedBy: z.number().int().nullable(),
  CreatedDateTime: timestamp,
  UpdatedDateTime: timestamp,
});

export type BatchRecord = z.infer<typeof batchRecord>;

/** A problem reported on a batch (spec part 2 §5). */
export const batchProblemRecord = z.object({
  problem_id: recordRef,
  batch_id: recordRef,
  company_id: z.number().int(),
  room_id: recordRef.nullable(),
  problem_type: z.string(),
  severity: z.number(),
  notes: z.string().nullable(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
  resolved: z.boolean(),
  resolved_at: timestamp.nullable(),
  resolved_by: z.number().int().nullable(),
});

export type BatchProblemRecord = z.infer<typeof batchProblemRecord>;

/** What happened to a batch, for its history (batch_events.kind). */
export const BATCH_EVENT_KINDS = ['created', 'linked_room', 'moved', 'status', 'harvested'] as const;

export type BatchEventKind = (typeof BATCH_EVENT_KINDS)[number];

/**
 * What an entry of a batch's history tells beside its rooms, by kind: `created` its first status;
 * `status` the status it left and took; `harvested` the status it left; `moved` the grids and boxes
 * it left in the old room; `linked_room` nothing (null).
 * WARNING: answers write only the keys named here; a new kind's details are added here first.
 */
export const batchEventDetails = z.object({
  status: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  grid_ids: z.array(recordRef).optional(),
  grid_box_ids: z.array(recordRef).optional(),
});

export type BatchEventDetails = z.infer<typeof batchEventDetails>;

/** An entry of a batch's history. Only the server writes history, so its id is always the server's. */
export const batchEventRecord = z.object({
  event_id: z.number().int(),
  batch_id: recordRef,
  kind: z.enum(BATCH_EVENT_KINDS),
  from_room_id: recordRef.nullable(),
  to_room_id: recordRef.nullable(),
  details: batchEventDetails.nullable(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
});

export type BatchEventRecord = z.infer<typeof batchEventRecord>;

/**
 * A batch with what travels inside it: its live links, its problems and its history. The synced
 * `batches` collection holds these, and the calls that answer a batch answer it so.
 */
export const batchDocument = batchRecord.extend({
  RoomIDs: z.array(recordRef),
  GridIDs: z.array(recordRef),
  GridBoxIDs: z.array(recordRef),
  open_problems: z.number().int(),
  problems: z.array(batchProblemRecord),
  history: z.array(batchEventRecord),
});

export type BatchDocument = z.infer<typeof batchDocument>;

export const roomLinkRecord = z.object({ room_id: recordRef, room_name: z.string(), batch_id: recordRef, batch_number: z.string(), linked_at: timestamp });
export const gridLinkRecord = z.object({ grid_id: recordRef, grid_name: z.string(), room_id: recordRef, batch_id: recordRef, batch_number: z.string(), linked_at: timestamp });
export const gridBoxLinkRecord = z.object({
  grid_box_id: recordRef,
  grid_id: recordRef,
  x: z.number().int(),
  y: z.number().int(),
  custom_name: z.string().nullable(),
  culled: z.boolean(),
  batch_id: recordRef,
  batch_number: z.string(),
  linked_at: timestamp,
});

export type RoomLinkRecord = z.infer<typeof roomLinkRecord>;
export type GridLinkRecord = z.infer<typeof gridLinkRecord>;
export type GridBoxLinkRecord = z.infer<typeof gridBoxLinkRecord>;

/** A company's own crop status (the built-in ones are names only). */
export const customStatusRecord = z.object({ id: z.number().int(), status_name: z.string(), created_at: timestamp });

export type CustomStatusRecord = z.infer<typeof customStatusRecord>;

/** One batch at a glance (spec: get_batch_dashboard → batch_details). */
export const batchDashboard = batchRecord.extend({
  status: z.string(),
  plants: z.object({ planned: z.number().int(), positions: z.number().int(), culled: z.number().int() }),
  rooms: z.array(z.object({ RoomID: recordRef, Name: z.string() })),
  grids: z.array(z.object({ GridID: recordRef, Name: z.string(), RoomID: recordRef })),
  grid_boxes: z.array(z.object({ GridBoxID: recordRef, GridID: recordRef, X: z.number().int(), Y: z.number().int(), CustomName: z.string().nullable() })),
  open_problems: z.number().int(),
  problems: z.array(batchProblemRecord),
  history: z.array(batchEventRecord),
  dates: z.object({ start_date: calendarDate.nullable(), end_date: calendarDate.nullable(), harvested_at: timestamp.nullable(), days_in_cultivation: z.number().int().nullable() }),
  range: z.object({ start_date: calendarDate.nullable(), end_date: calendarDate.nullable() }),
});

export type BatchDashboard = z.infer<typeof batchDashboard>;

/** A grid's box with the live batches linked to it (get_gridbox_batches). */
export const gridBoxWithBatches = z.object({
  GridBoxID: recordRef,
  GridID: recordRef,
  X: z.number().int(),
  Y: z.number().int(),
  CustomName: z.string().nullable(),
  batches: z.array(z.object({ BatchID: recordRef, BatchNumber: z.string(), StrainName: z.string().nullable(), BatchStatus: z.string(), Color: z.string().nullable() })),
});

export type GridBoxWithBatches = z.infer<typeof gridBoxWithBatches>;

const linkedAnswer = <Link extends z.ZodType>(link: Link) => answer({ linked: z.boolean(), links: z.array(link) });

export const createBatchAnswer = answer({ batch: batchDocument, BatchID: recordRef, client_id: z.string() });
export const batchAnswer = answer({ batch: batchDocument });
export const batchesAnswer = answer({ batches: z.array(batchDocument) });
export const deleteBatchAnswer = answer({ BatchID: recordRef });
export const linkRoomAnswer = answer({ batch_id: recordRef, room_id: recordRef });
export const linkGridAnswer = answer({ batch_id: recordRef, grid_id: recordRef });
/** `grid_box_ids`: every box asked for; `newly_linked`: those not linked before. */
export const linkGridBoxesAnswer = answer({ batch_id: recordRef, grid_box_ids: z.array(recordRef), newly_linked: z.array(recordRef) });
export const linkedRoomsAnswer = linkedAnswer(roomLinkRecord);
export const linkedGridsAnswer = linkedAnswer(gridLinkRecord);
export const linkedGridBoxesAnswer = linkedAnswer(gridBoxLinkRecord);
export const roomsOfBatchAnswer = answer({ data: z.array(roomRecord) });
/** `qr_code_url`: a PNG data URL of `size` pixels; `url`: what the code opens. */
export const batchQrUrlAnswer = answer({ batch_id: recordRef, batch_number: z.string(), url: z.string(), size: z.number().int(), qr_code_url: z.string() });
export const batchQrInfoAnswer = answer({ batch: batchDocument, rooms: z.array(roomRecord), url: z.string() });
export const batchDashboardAnswer = answer({ batch_details: batchDashboard });
/** A room's batch history: each entry with its batch's number and strain, oldest first. */
export const roomBatchHistoryAnswer = answer({
  room_id: recordRef,
  history: z.array(batchEventRecord.extend({ BatchNumber: z.string(), StrainName: z.string().nullable() })),
});
export const assignStatusAnswer = answer({ batch_status: z.string(), batch_ids: z.array(recordRef) });
export const createCustomStatusAnswer = answer({ custom_status: customStatusRecord.pick({ id: true, status_name: true }), client_id: z.string() });
export const customStatusesAnswer = answer({ custom_statuses: z.array(customStatusRecord), built_in_statuses: z.array(z.string()) });
export const deleteCustomStatusAnswer = answer({ status_name: z.string() });
export const createBatchProblemAnswer = answer({ problem: batchProblemRecord, problem_id: recordRef, client_id: z.string() });
export const resolveBatchProblemsAnswer = answer({
  problems_resolved: z.number().int(),
  gridbox_problems_resolved: z.number().int(),
  plant_problems_resolved: z.number().int(),
  rooms_affected: z.array(recordRef),
  filters_applied: z.object({ room_ids: z.array(recordRef).nullable(), problem_type: z.string().nullable() }),
});
export const batchProblemsAnswer = answer({ problems: z.array(batchProblemRecord), total_batch_problems: z.number().int() });
export const gridBoxBatchesAnswer = answer({ GridID: recordRef, GridBoxes: z.array(gridBoxWithBatches) });
