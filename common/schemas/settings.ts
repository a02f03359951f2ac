import { z } from 'zod';
import { GRID_ORDERS, settingsMessages as m } from '../messages/settings';
import { answer } from './answers';
import { flag, formBody, optionalId, requiredId } from './fields';
import { userRecord } from './users';

/**
 * A company's settings as every answer and the company's synced document carry them (the server
 * builds them in server/domains/companies/queries.ts `companySettingsJson`; the app reads this type).
 */
export const companySettings = z.object({
  grid_order: z.enum(GRID_ORDERS),
  grid_opacity: z.number().min(0).max(1),
  offline_mode: z.number().int(),
  ai_model: z.string(),
  auto_refresh: z.number().int(),
  // Any number (the column is double precision, update_stickytrap_render takes any finite value).
  stickytrap_render: z.number(),
  language: z.string(),
});
export type CompanySettings = z.infer<typeof companySettings>;

/** The company query parameter, with the message the spec gives for each call's missing company. */
export const companyQuery = (message: string = m.companyIdRequired) => z.object({ company_id: requiredId(message) });
export const optionalCompanyQuery = z.object({ company_id: optionalId(m.companyIdRequired) });

export const setGridOrderBody = formBody({
  grid_order: z
    .string({ error: m.gridOrderMissing })
    .trim()
    .min(1, { error: m.gridOrderMissing })
    .pipe(z.enum(GRID_ORDERS, { error: m.gridOrderInvalid })),
});

export const setGridOpacityQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  grid_opacity: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number({ error: m.gridOpacityRequired }).min(0, { error: m.gridOpacityInvalid }).max(1, { error: m.gridOpacityInvalid }),
  ),
});

export const setAiModelQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  ai_model: z
    .string({ error: m.aiModelRequired })
    .trim()
    .min(1, { error: m.aiModelRequired })
    .max(100, { error: m.aiModelInvalid })
    .regex(/^[A-Za-z0-9_.-]+$/, { error: m.aiModelInvalid }),
});

export const setAutoRefreshQuery = z.object({
  company_id: requiredId(m.autoRefreshRequired),
  auto_refresh: flag(m.autoRefreshRequired, m.autoRefreshInvalid),
});

/** Spec part 1 §5: numeric, and different from the current value (checked by the handler). */
export const updateStickyTrapQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  value: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number({ error: m.stickyTrapUnchanged }).refine(Number.isFinite, { error: m.stickyTrapUnchanged }),
  ),
});

export const setLanguageQuery = z.object({
  company_id: requiredId(m.languageCompanyRequired),
  language: z
    .string({ error: m.languageRequired })
    .trim()
    .min(1, { error: m.languageRequired })
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, { error: m.languageInvalid }),
});

// ——— Answers ———

/** A user's threshold, as get_company_thresholds lists them. */
export const companyThreshold = userRecord.pick({ user_id: true, first_name: true, last_name: true, threshold: true });

export type CompanyThreshold = z.infer<typeof companyThreshold>;

export const companyThresholdsAnswer = answer({ thresholds: z.array(companyThreshold) });

const { grid_order, grid_opacity, offline_mode, ai_model, auto_refresh, stickytrap_render, language } = companySettings.shape;

/** Each setting's read and its change answer the one value (the change with its message). */
export const gridOrderAnswer = answer({ grid_order });
export const gridOpacityAnswer = answer({ grid_opacity });
export const offlineModeAnswer = answer({ offline_mode });
export const aiModelAnswer = answer({ ai_model });
/** The change answers `auto_refresh`, the read `auto_refresh_mode` (the spec's names). */
export const autoRefreshAnswer = answer({ auto_refresh });
export const autoRefreshModeAnswer = answer({ auto_refresh_mode: auto_refresh });
export const stickyTrapRenderAnswer = answer({ stickytrap_render });
export const languageAnswer = answer({ language });
