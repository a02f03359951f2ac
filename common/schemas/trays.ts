/**
 * Requests of trays and tray templates (spec part 2 §5, §7). Mutations read their fields from a JSON
 * body, a form body or the query (the server merges the query under the body before these run).
 */
import { z } from 'zod';
import { TRAY_PLANTS_MAX, trayMessages as m } from '../messages/trays';
import { formBody, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';

/** A plant count: the spec's message when missing, not a number or not positive; whole and bounded otherwise. */
const plantCount = (message: string) =>
  z.coerce
    .number({ error: message })
    .refine(Number.isFinite, { error: message, abort: true })
    .positive({ error: message })
    .int({ error: m.plantsWhole })
    .max(TRAY_PLANTS_MAX, { error: m.plantsWhole });

/** On update, a field left out (or null) keeps its value. */
const nullToUndefined = (value: unknown) => (value === null ? undefined : value);

export const trayCompanyQuery = z.object({ company_id: requiredId(m.companyIdRequired) });

export const createTrayTemplateBody = formBody({
  template_name: requiredText(m.templateRequired, 200),
  company_id: requiredId(m.templateRequired),
  user_id: requiredId(m.templateRequired),
  number_of_plants: plantCount(m.plantsPositive),
  description: optionalText(2000),
  default_batch_id: optionalId(m.defaultBatchIdInvalid),
  client_id: optionalClientId(),
});

export const deleteTrayTemplateBody = formBody({
  template_id: requiredId(m.templateIdCompanyRequired),
  company_id: requiredId(m.templateIdCompanyRequired),
});

export const useTrayTemplateBody = formBody({
  template_id: requiredId(m.templateUseRequired),
  company_id: requiredId(m.templateUseRequired),
  user_id: requiredId(m.templateUseRequired),
  tray_name: requiredText(m.trayNameRequired, 200),
  batch_id: optionalId(m.batchIdInvalid),
  /** The new tray's. */
  client_id: optionalClientId(),
});

export const createTrayBody = formBody({
  tray_name: requiredText(m.trayNameRequired, 200),
  company_id: requiredId(m.trayCompanyUserRequired),
  user_id: requiredId(m.trayCompanyUserRequired),
  number_of_plants: plantCount(m.plantsPositive),
  batch_id: optionalId(m.batchIdInvalid),
  client_id: optionalClientId(),
});

/**
 * Only the fields sent change. `batch_id` sent as null or '' takes the tray out of its batch; a name
 * sent must not be blank.
 */
export const updateTrayBody = formBody({
  tray_id: requiredId(m.trayIdCompanyRequired),
  company_id: requiredId(m.trayIdCompanyRequired),
  tray_name: z.preprocess(nullToUndefined, requiredText(m.trayNameRequired, 200).optional()),
  number_of_plants: z.preprocess(nullToUndefined, plantCount(m.plantsPositiveOnUpdate).optional()),
  batch_id: z.preprocess((value) => (value === '' ? null : value), requiredId(m.batchIdInvalid).nullable().optional()),
});

export const deleteTrayBody = formBody({
  tray_id: requiredId(m.trayIdCompanyRequired),
  company_id: requiredId(m.trayIdCompanyRequired),
});
