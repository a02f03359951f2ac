import { z } from 'zod';
import { MOVEMENT_PAGE_DEFAULT, MOVEMENT_PAGE_MAX, MOVEMENT_SORT_COLUMNS, subgridMessages as m } from '../messages/subgrids';
import { answer, recordRef, timestamp } from './answers';
import { flag, formBody, nullableDate, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** A flag that may be left out (the handler applies the default); blank counts as left out. */
const optionalFlag = (message: string) => z.preprocess(blankToUndefined, flag(message).optional());

/** nx, ny (or x, y): numbers, else the spec's message; whole and at least 1, else ours. */
const optionalSize = z.preprocess(
  blankToUndefined,
  z.coerce.number({ error: m.sizeRequired }).int({ error: m.sizeInvalid }).min(1, { error: m.sizeInvalid }).optional(),
);

/** A position coordinate: a whole number ≥ 1 (spec §9: positions start at 1), from JSON or text. */
const coordinate = (message: string) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value), z.number({ error: message }).int({ error: message }).min(1, { error: message }));

const position = (message: string) => z.object({ subx: coordinate(message), suby: coordinate(message) }, { error: message });

/** A JSON value that may arrive as text (a form field). */
const jsonText = (value: unknown) => {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** Custom positions: each at most once (the whole request is refused otherwise). */
const customPositions = z.preprocess(
  (value) => blankToUndefined(jsonText(value)),
  z
    .array(position(m.customPositionsInvalid), { error: m.customPositionsInvalid })
    .superRefine((positions, context) => {
      const seen = new Set<string>();
      for (const { subx, suby } of positions) {
        const key = `${subx}-${suby}`;
        if (seen.has(key)) {
          context.addIssue({ code: 'custom', message: m.positionRepeated(subx, suby) });
          return;
        }
        seen.add(key);
      }
    })
    .optional(),
);

export const createSubGridboxesQuery = z.object({
  parent_gridbox_id: requiredId(m.gridboxIdRequired),
  user_id: requiredId(m.userIdRequired),
  auto_initialize_plants: optionalFlag(m.autoInitializeInvalid),
  nx: optionalSize,
  ny: optionalSize,
  x: optionalSize,
  y: optionalSize,
  /** Names the division: each sub-gridbox it makes takes `subGridboxClientId(client_id, subx, suby)`. */
  client_id: optionalClientId(),
});

/** The spec names the list `custom_positions`; its message says `customPositions`: both are read. */
export const createSubGridboxesBody = formBody({ custom_positions: customPositions, customPositions });

export const getSubGridboxesQuery = z.object({
  parent_gridbox_id: requiredId(m.gridboxIdRequired),
  include_deleted: optionalFlag(m.includeDeletedInvalid),
});

export const deleteSubGridboxQuery = z.object({ sub_gridbox_id: requiredId(m.subGridboxIdRequired) });

/**
 * A field an update may set: absent leaves it as it is, blank or null clears it. Numbers are taken as
 * text (a plant id may be all digits).
 */
const settableText = (field: string, max: number) =>
  z
    .preprocess(
      (value) => (value === null ? '' : typeof value === 'number' ? String(value) : value),
      z.string({ error: m.textInvalid(field, max) }).trim().max(max, { error: m.textInvalid(field, max) }),
    )
    .transform((value) => (value === '' ? null : value))
    .optional();

/** update_sub_gridbox reads its fields from the query or the JSON body (route hook fieldsFromQueryAndBody). */
const updateFields = {
  sub_gridbox_id: requiredId(m.subGridboxIdRequired),
  custom_name: settableText('custom_name', 200),
  plant_id: settableText('plant_id', 100),
  color: settableText('color', 50),
  status: settableText('status', 100),
  content: settableText('content', 2000),
  image_name: settableText('image_name', 500),
};
export const UPDATABLE_SUB_GRIDBOX_FIELDS = ['custom_name', 'plant_id', 'color', 'status', 'content', 'image_name'] as const;
export const updateSubGridboxBody = formBody(updateFields);

export const movePlantBody = formBody({
  plant_uid: requiredText(m.plantUidRequired, 100),
  target_parent_gridbox_id: requiredId(m.targetRequired),
  user_id: requiredId(m.userIdRequired),
  target_position: z.preprocess((value) => blankToUndefined(jsonText(value)), position(m.targetPositionInvalid).optional()),
  movement_reason: optionalText(500),
  notes: optionalText(2000),
  client_id: optionalClientId(),
});

export const movementHistoryQuery = z
  .object({
    company_id: requiredId(m.companyIdRequired),
    batch_id: optionalId(m.batchIdInvalid),
    room_id: optionalId(m.roomIdInvalid),
    start_date: nullableDate(m.dateInvalid('start_date')),
    end_date: nullableDate(m.dateInvalid('end_date')),
    sort_by: z.preprocess(blankToUndefined, z.enum(MOVEMENT_SORT_COLUMNS, { error: m.sortByInvalid }).default('moved_at')),
    sort_order: z.preprocess(
      (value) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase()) : value),
      z.enum(['asc', 'desc'], { error: m.sortOrderInvalid }).default('desc'),
    ),
    // Larger pages are cut to the maximum rather than refused: the answer says which limit applied.
    limit: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: m.limitInvalid })
        .int({ error: m.limitInvalid })
        .min(1, { error: m.limitInvalid })
        .default(MOVEMENT_PAGE_DEFAULT)
        .transform((limit) => Math.min(limit, MOVEMENT_PAGE_MAX)),
    ),
    offset: z.preprocess(blankToUndefined, z.coerce.number({ error: m.offsetInvalid }).int({ error: m.offsetInvalid }).min(0, { error: m.offsetInvalid }).default(0)),
  })
  .refine((query) => !query.start_date || !query.end_date || query.start_date <= query.end_date, { error: m.dateRangeInvalid });

// ——— Answers ———

/** A sub-gridbox (a plant position within a box), as answers and a box's `sub_gridboxes` show it. */
export const subGridboxRecord = z.object({
  Sub_gridboxID: recordRef,
  ParentGridboxID: recordRef,
  CompanyID: z.number().int(),
  /** The custom name, or 'Sub-{SubX}-{SubY}' when it is blank (spec §3). */
  CustomName: z.string(),
  SubX: z.number().int(),
  SubY: z.number().int(),
  PlantID: z.string().nullable(),
  Color: z.string().nullable(),
  Status: z.string().nullable(),
  Content: z.string().nullable(),
  ImageName: z.string().nullable(),
  IsDeleted: z.boolean(),
  CreatedDateTime: timestamp,
  UpdatedDateTime: timestamp,
});

export type SubGridboxRecord = z.infer<typeof subGridboxRecord>;

/** A position in a box, as answers show one (spec §9: from 1). */
export const boxPosition = z.object({ subx: z.number().int(), suby: z.number().int() });

/** A plant's move, as answers and the synced `operations` collection (kind `plant_move`) show it. */
export const plantMoveRecord = z.object({
  movement_id: recordRef,
  company_id: z.number().int(),
  plant_uid: z.string(),
  sub_gridbox_id: recordRef.nullable(),
  from_parent_gridbox_id: recordRef.nullable(),
  to_parent_gridbox_id: recordRef,
  from_position: boxPosition.nullable(),
  to_position: boxPosition,
  movement_reason: z.string().nullable(),
  notes: z.string().nullable(),
  user_id: z.number().int().nullable(),
  moved_at: timestamp,
});

export type PlantMoveRecord = z.infer<typeof plantMoveRecord>;

/** The box's count of live sub-gridboxes and the company's per-box maximum (spec §4). */
const boxCounts = { total_count: z.number().int(), max_allowed: z.number().int() };

/** A division of a box: the sub-gridboxes it made (row by row) and their client ids, in that order. */
export const createSubGridboxesAnswer = answer({
  parent_gridbox_id: recordRef,
  sub_gridboxes: z.array(subGridboxRecord),
  client_ids: z.array(z.string()),
  ...boxCounts,
});

/**
 * get_sub_gridboxes: the box's sub-gridboxes (removed ones too when asked), and the box as answers show
 * one with its grid's name and room.
 * WARNING: grids.ts imports this file (a box's document holds its sub-gridboxes), so this one cannot
 * import grids.ts: the box's schema is handed in. The route and the tablet both use grids.ts's
 * `gridBoxRecord`.
 */
export const subGridboxesAnswerWith = <BoxShape extends z.ZodRawShape>(box: z.ZodObject<BoxShape>) =>
  answer({ sub_gridboxes: z.array(subGridboxRecord), parent_gridbox: box.extend({ GridName: z.string(), RoomID: recordRef }), ...boxCounts });

export const deleteSubGridboxAnswer = answer({ Sub_gridboxID: recordRef, parent_gridbox_id: recordRef, ...boxCounts });
export const subGridboxAnswer = answer({ sub_gridbox: subGridboxRecord });
export const movePlantAnswer = answer({ movement: plantMoveRecord, sub_gridbox: subGridboxRecord, client_id: z.string() });

/** A page of the company's moves, how many match in all, and the paging and order that applied. */
export const movementHistoryAnswer = answer({
  movements: z.array(plantMoveRecord),
  total_count: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  sort_by: z.enum(MOVEMENT_SORT_COLUMNS),
  sort_order: z.enum(['asc', 'desc']),
});
