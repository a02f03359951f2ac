/**
 * Requests and answers of trays and tray templates (spec part 2 §5, §7). Mutations read their fields from a JSON
 * body, a form body or the query (the server merges the query under the body before these run).
 */
import { z } from 'zod';
import { TRAY_PLANTS_MAX, trayMessages as m } from '../messages/trays';
import { answer, recordRef, timestamp } from './answers';
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

// ——— Answers ———

/** A tray, as answers and the synced `operations` collection (kind `tray`) show it. */
export const trayRecord = z.object({
  tray_id: recordRef,
  tray_name: z.string(),
  number_of_plants: z.number().int(),
  batch_id: recordRef.nullable(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type TrayRecord = z.infer<typeof trayRecord>;

/** A tray template, as answers and the synced `operations` collection (kind `tray_template`) show it. */
export const trayTemplateRecord = z.object({
  template_id: recordRef,
  template_name: z.string(),
  number_of_plants: z.number().int(),
  description: z.string().nullable(),
  default_batch_id: recordRef.nullable(),
  company_id: z.number().int(),
  user_id: z.number().int().nullable(),
  created_at: timestamp,
});

export type TrayTemplateRecord = z.infer<typeof trayTemplateRecord>;

export const trayTemplatesAnswer = answer({ templates: z.array(trayTemplateRecord) });
export const createTrayTemplateAnswer = answer({ template: trayTemplateRecord, template_id: recordRef, client_id: z.string() });
export const deleteTrayTemplateAnswer = answer({ template_id: recordRef });
/** create_tray and use_tray_template: the new tray. */
export const createTrayAnswer = answer({ tray: trayRecord, tray_id: recordRef, client_id: z.string() });
export const traysAnswer = answer({ trays: z.array(trayRecord) });
export const trayAnswer = answer({ tray: trayRecord });
export const deleteTrayAnswer = answer({ tray_id: recordRef });
