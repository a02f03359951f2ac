import { z } from 'zod';
import { GRID_TEMPLATE_DEFAULT_TYPE, GRID_TEMPLATE_TYPES, TEMPLATE_SIZE_MAX, gridTemplateMessages as m } from '../messages/grid-templates';
import { flag, formBody, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';

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
