import { z } from 'zod';
import { batchMessages as m } from '../messages/batches';
import { formBody, idList, nullableDate, optionalClientId, optionalId, optionalText, requiredId, requiredNumber, requiredText, requiredWholeNumber } from './fields';

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
