import { z } from 'zod';
import { GRID_SIZE_MAX, gridMessages as m } from '../messages/grids';
import { answer, calendarDate, recordRef, timestamp } from './answers';
import { auditEventRecord } from './audit';
import { subGridboxRecord } from './subgrids';
import { flag, formBody, requiredId, requiredText, optionalClientId } from './fields';

const gridSize = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z.coerce.number({ error: m.sizeInvalid }).int({ error: m.sizeInvalid }).min(1, { error: m.sizeInvalid }).max(GRID_SIZE_MAX, { error: m.sizeInvalid }),
);

export const createGridBody = formBody({
  ncompany_id: requiredId(m.gridCompanyRequired),
  nroom_id: requiredId(m.gridRoomRequired),
  ngrid_name: requiredText(m.gridNameRequired, 200),
  nx: gridSize,
  ny: gridSize,
  client_id: optionalClientId(),
});

export const deleteGridQuery = z.object({ grid_id: requiredId(m.gridIdRequired) });

export const updateCullingBody = formBody({
  GridBoxID: requiredId(m.cullingRequired),
  user_id: requiredId(m.cullingRequired),
  culled: flag(m.culledInvalid),
});

export const gridIdQuery = z.object({ GridID: requiredId(m.gridIdMissing) });

export const updateGridBoxNameBody = formBody({
  GridBoxID: requiredId(m.gridBoxIdRequired),
  custom_name: z.preprocess((value) => (value === null || value === undefined ? '' : value), z.string().trim().max(200)),
});

export const plantHistoryQuery = z.object({ company_id: requiredId(m.companyIdRequired), Grid_boxID: requiredId(m.historyRequired) });

// ——— Answers ———

/** A grid, as answers and the synced `grids` collection show it. */
export const gridRecord = z.object({
  id: recordRef,
  Name: z.string(),
  CompanyID: z.number().int(),
  RoomID: recordRef,
  CreatedDateTime: timestamp,
  UpdatedDateTime: timestamp,
  Description: z.string().nullable(),
  ImageName: z.string().nullable(),
  Scanned: z.boolean(),
  ScannedDateTime: timestamp.nullable(),
  LastScannedBy: z.number().int().nullable(),
  nx: z.number().int(),
  ny: z.number().int(),
});

export type GridRecord = z.infer<typeof gridRecord>;

/** A grid box (a plant position), as answers show it. */
export const gridBoxRecord = z.object({
  id: recordRef,
  GridID: recordRef,
  CompanyID: z.number().int(),
  X: z.number().int(),
  Y: z.number().int(),
  Color: z.string().nullable(),
  Status: z.string().nullable(),
  Content: z.string().nullable(),
  ImageName: z.string().nullable(),
  CustomName: z.string().nullable(),
  culled: z.boolean(),
  CulledBy: z.number().int().nullable(),
  CulledDateTime: timestamp.nullable(),
});

export type GridBoxRecord = z.infer<typeof gridBoxRecord>;

/** A grid box as the synced `grid_boxes` collection holds it: with its live batches and sub-gridboxes. */
export const gridBoxDocument = gridBoxRecord.extend({ BatchIDs: z.array(recordRef), sub_gridboxes: z.array(subGridboxRecord) });

export type GridBoxDocument = z.infer<typeof gridBoxDocument>;

export const gridWithBoxes = gridRecord.extend({ boxes: z.array(gridBoxRecord) });

export const createGridAnswer = answer({ grid: gridWithBoxes, GridID: recordRef, client_id: z.string() });
export const deleteGridAnswer = answer({ GridID: recordRef });
export const gridBoxAnswer = answer({ grid_box: gridBoxRecord });
export const gridBoxesAnswer = answer({ grid_boxes: z.array(gridBoxRecord) });
export const gridBoxNamesAnswer = answer({
  grid_boxes: z.array(z.object({ id: recordRef, CustomName: z.string().nullable(), X: z.number().int(), Y: z.number().int() })),
});
/** A plant's history: its events by day (yyyy-mm-dd, UTC), most recent first. */
export const plantHistoryAnswer = answer({ history: z.array(z.object({ date: calendarDate, events: z.array(auditEventRecord) })) });
