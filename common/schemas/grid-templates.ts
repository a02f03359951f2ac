import { z } from 'zod';
import { GRID_TEMPLATE_DEFAULT_TYPE, GRID_TEMPLATE_TYPES, TEMPLATE_SIZE_MAX, gridTemplateMessages as m } from '../messages/grid-templates';
import { answer, recordRef, timestamp } from './answers';
import { flag, formBody, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';
import { gridWithBoxes } from './grids';
import { createSubGridboxesAnswer } from './subgrids';

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** Rows or columns: absent says "required"; present but not a whole number in range says why. */
const templateSize = (requiredMessage: string, invalidMessage: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .any()
      .refine((value) => value !== undefined, { error: requiredMessage })
      .pipe(z.coerce.number({ error: invalidMessage }).int({ error: invalidMessage }).min(1, { error: invalidMessage }).max(TEMPLATE_SIZE_MAX, { error: invalidMessage })),
  );

export const createGridTemplateBody = formBody({
  template_name: requiredText(m.nameRequired, 200),
  template_type: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : blankToUndefined(value)),
    z.enum(GRID_TEMPLATE_TYPES, { error: (issue) => (issue.input === undefined ? m.typeRequired : m.typeInvalid) }),
  ),
  rows: templateSize(m.rowsRequired, m.rowsInvalid),
  columns: templateSize(m.columnsRequired, m.columnsInvalid),
  description: optionalText(2000),
  company_id: requiredId(m.companyRequired),
  user_id: requiredId(m.userRequired),
  client_id: optionalClientId(),
});

export const gridTemplatesQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  type: z.preprocess(blankToUndefined, z.enum(GRID_TEMPLATE_TYPES, { error: m.listTypeInvalid }).default(GRID_TEMPLATE_DEFAULT_TYPE)),
});

export const deleteGridTemplateQuery = z.object({
  template_id: requiredId(m.templateIdRequired),
  company_id: requiredId(m.companyIdRequired),
});

export const submitGridTemplateBody = formBody({
  template_id: requiredId(m.templateIdRequired),
  company_id: requiredId(m.companyIdRequired),
  grid_name: optionalText(200),
  room_id: optionalId(m.idInvalid('room_id')),
  parent_gridbox_id: optionalId(m.idInvalid('parent_gridbox_id')),
  auto_initialize_plants: z.preprocess(blankToUndefined, flag(m.autoInitializeInvalid).optional()),
  user_id: optionalId(m.idInvalid('user_id')),
  /** The new grid's (its boxes' are derived from it), or the division's (its sub-gridboxes' are). */
  client_id: optionalClientId(),
});

// ——— Answers ———

/** A grid template, as answers and the synced `operations` collection (kind `grid_template`) show it. */
export const gridTemplateRecord = z.object({
  template_id: recordRef,
  template_name: z.string(),
  template_type: z.enum(GRID_TEMPLATE_TYPES),
  rows: z.number().int(),
  columns: z.number().int(),
  description: z.string().nullable(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
});

export type GridTemplateRecord = z.infer<typeof gridTemplateRecord>;

export const createGridTemplateAnswer = answer({ template: gridTemplateRecord, template_id: recordRef, client_id: z.string() });
export const gridTemplatesAnswer = answer({ templates: z.array(gridTemplateRecord) });
export const deleteGridTemplateAnswer = answer({ template_id: recordRef });

/**
 * submit_grid_template: a Grid template answers the grid it made (as Create_grid does), a SubGrid
 * template the division (as create_sub_gridboxes does); `template_type` says which.
 */
export const submitGridTemplateAnswer = z.discriminatedUnion('template_type', [
  answer({ template_type: z.literal('Grid'), GridID: recordRef, grid: gridWithBoxes, client_id: z.string() }),
  createSubGridboxesAnswer.extend({ template_type: z.literal('SubGrid') }),
]);
