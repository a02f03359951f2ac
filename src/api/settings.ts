/**
 * Company settings (spec part 1 §3, §5, §7, §8; part 2 §5, §7, §8): grid order, grid opacity, offline
 * mode, AI model, thresholds, auto refresh, sticky-trap render value and language.
 *
 * Reads answer from the company's local document when the tablet has it (it carries the settings and
 * any change still waiting in the outbox, and works offline), else from the server. Changes are queued
 * writes (`record`) that patch the local document's `settings` at once. A queued write cannot return
 * the server's answer: each setter returns the values it wrote locally, and a refusal by the server
 * (a Regular user, an unchanged sticky-trap value changed meanwhile elsewhere) shows later in the sync
 * status's failed list, with the server's message.
 *
 * WARNING: the patch replaces the whole `settings` object as the tablet knew it, and the sync overlays
 * it on pulled documents while the entry waits: a setting another Admin changes in that time shows
 * here only once the entry has been sent.
 */
import { changeLabels } from '../../common/messages/changes';
import { type GridOrder, SETTINGS_DEFAULTS, settingsClientMessages as cm, settingsMessages as m } from '../../common/messages/settings';
import type { z } from 'zod';
import {
  type CompanySettings,
  type CompanyThreshold,
  type companyThresholdsAnswer,
  companyQuery,
  optionalCompanyQuery,
  setAiModelQuery,
  setAutoRefreshQuery,
  setGridOpacityQuery,
  setGridOrderBody,
  setLanguageQuery,
  type stickyTrapRenderAnswer,
  updateStickyTrapQuery,
} from '../../common/schemas/settings';
import type { EntryDraft } from '../../sync/outbox';
import type { Effect } from '../../sync/types';
import type { ApiClient } from './client';
import { localCompany, sessionCompanyId } from './companies';
import { type ApiContext, ApiError, ValidationError, check, multipart, online, record } from './context';

type Reader = Pick<ApiContext, 'client' | 'store'>;

/** The settings in the company's local document, or null before the first pull. */
async function localSettings(context: Pick<ApiContext, 'store'>, companyId: number): Promise<Partial<CompanySettings> | null> {
  const settings = (await localCompany(context, companyId))?.settings;
  return settings && typeof settings === 'object' ? (settings as Partial<CompanySettings>) : null;
}

/** One setting: the local document's, else the server's answer field `field` (ApiError with the server's message or `fallback`). */
async function readSetting<K extends keyof CompanySettings>(context: Reader, companyId: number, key: K, request: { path: string; field?: string }, fallback: string): Promise<CompanySettings[K]> {
  const local = (await localSettings(context, companyId))?.[key];
  if (local !== undefined && local !== null) return local as CompanySettings[K];
  const answer = await online<Record<string, unknown>>(context, { path: request.path, query: { company_id: companyId } }, fallback);
  return answer[request.field ?? key] as CompanySettings[K];
}

/** Queues a settings change of one company and patches its local document's settings (if the tablet has it). */
async function changeSettings(context: ApiContext, companyId: number, values: Partial<CompanySettings>, draft: Omit<EntryDraft, 'method' | 'effects'>) {
  const company = await localCompany(context, companyId);
  const effects: Effect[] = company
    ? [{ op: 'patch', collection: 'company', id: String(companyId), data: { settings: { ...((company.settings as object | null) ?? {}), ...values } } }]
    : [];
  await record(context, { method: 'POST', ...draft, effects });
}

const isMissing = (value: unknown) => value === undefined || value === null || value === '';

/** The first problem of `check`, as its message; null when the values pass. */
function problemOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return error.message;
    throw error;
  }
}

/** Logs a failure of a fetch helper and passes it on (spec part 1 §8). */
async function loggedRethrow<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    console.error(error);
    throw error;
  }
}

/** GET /get_company_thresholds: each user's threshold (spec part 1 §3 "Threshold: one number per user"). */
export async function getCompanyThresholds(context: Reader, input: { companyId: number }) {
  const { company_id } = check(companyQuery(), { company_id: input.companyId });
  const users = (await localCompany(context, company_id))?.users;
  if (Array.isArray(users)) return (users as CompanyThreshold[]).map(({ user_id, first_name, last_name, threshold }) => ({ user_id, first_name, last_name, threshold }));
  const answer = await online<z.infer<typeof companyThresholdsAnswer>>(context, { path: '/get_company_thresholds', query: { company_id } }, cm.thresholdsFetchFailed);
  return answer.thresholds;
}

/**
 * POST /set_company_grid_order (spec part 1 §5, §8). Never throws: it returns an object with a message
 * for each problem, and logs it: 'Required parameter missing: companyID.', '…gridOrder.' (undefined),
 * '…axiosPrivate.' (a context without a client, or a client with no session: the change could never
 * be sent as anyone), the server's message for a value it would refuse (the schema's), a thrown
 * error's message, else 'Failed to set company grid order.' / 'Error setting company grid order.'.
 * On success it returns `{grid_order}` as written locally (queued; see the file's header).
 */
export async function setCompanyGridOrder(
  context: Omit<ApiContext, 'client'> & { client?: ApiClient | null },
  input: { companyId?: number | null; gridOrder?: GridOrder | string | null },
): Promise<{ grid_order: GridOrder } | { message: string }> {
  const refuse = (message: string) => {
    console.error(message);
    return { message };
  };
  if (problemOf(() => check(companyQuery(m.gridOrderCompanyMissing), { company_id: input.companyId }))) return refuse(m.gridOrderCompanyMissing);
  if (input.gridOrder === undefined || input.gridOrder === null) return refuse(m.gridOrderMissing);
  const client = context.client;
  if (!client || !(await client.session.get().catch(() => null))) return refuse(m.gridOrderClientMissing);
  try {
    const { company_id } = check(companyQuery(m.gridOrderCompanyMissing), { company_id: input.companyId });
    const { grid_order } = check(setGridOrderBody, { grid_order: input.gridOrder });
    await changeSettings({ ...context, client }, company_id, { grid_order }, { path: '/set_company_grid_order', query: { company_id }, body: multipart({ grid_order }), label: changeLabels.setGridOrder(grid_order) });
    return { grid_order };
  } catch (error) {
    // A value the server would refuse: its message (the same schema's); anything thrown: its message.
    const fallback = error instanceof ValidationError ? m.gridOrderFailed : m.gridOrderError;
    return refuse((error instanceof Error && error.message) || fallback);
  }
}

/** GET /get_company_grid_order: without a company id it fails with 'Missing companyID'; failures are logged and rethrown. */
export function getCompanyGridOrder(context: Reader, input: { companyId?: number | null }): Promise<GridOrder> {
  return loggedRethrow(async () => {
    const { company_id } = check(companyQuery(m.getGridOrderCompanyMissing), { company_id: input.companyId });
    return readSetting(context, company_id, 'grid_order', { path: '/get_company_grid_order' }, cm.gridOrderFetchFailed);
  });
}

/**
 * POST /set_grid_opacity (query company_id, grid_opacity; no body). Without a company id or an opacity
 * it logs and returns nothing (undefined); a value outside 0–1 fails with the server's message.
 */
export async function setGridOpacity(context: ApiContext, input: { companyId?: number | null; gridOpacity?: number | null }): Promise<{ grid_opacity: number } | undefined> {
  if (isMissing(input.companyId)) return void console.error(m.companyIdRequired);
  if (isMissing(input.gridOpacity)) return void console.error(m.gridOpacityRequired);
  const { company_id, grid_opacity } = check(setGridOpacityQuery, { company_id: input.companyId, grid_opacity: input.gridOpacity });
  await changeSettings(context, company_id, { grid_opacity }, { path: '/set_grid_opacity', query: { company_id, grid_opacity }, label: changeLabels.setGridOpacity(grid_opacity) });
  return { grid_opacity };
}

/** GET /get_grid_opacity: without a company id it logs and returns nothing (undefined); other failures are logged and rethrown. */
export async function getGridOpacity(context: Reader, input: { companyId?: number | null }): Promise<number | undefined> {
  if (isMissing(input.companyId)) return void console.error(m.companyIdRequired);
  return loggedRethrow(async () => {
    const { company_id } = check(companyQuery(), { company_id: input.companyId });
    return readSetting(context, company_id, 'grid_opacity', { path: '/get_grid_opacity' }, cm.gridOpacityFetchFailed);
  });
}

/**
 * GET /get_company_offline_mode: without a company id it fails with 'Missing required parameter:
 * companyID'; any other failure is rethrown as 'getCompanyOfflineMode Error: ' followed by the
 * server's message (or 'Network error or server did not respond' when none came).
 */
export async function getCompanyOfflineMode(context: Reader, input: { companyId?: number | null }): Promise<number> {
  const { company_id } = check(companyQuery(m.offlineModeCompanyMissing), { company_id: input.companyId });
  try {
    return await readSetting(context, company_id, 'offline_mode', { path: '/get_company_offline_mode' }, cm.noResponse);
  } catch (error) {
    throw new ApiError(m.offlineModeErrorPrefix + (error instanceof Error ? error.message : String(error)), error instanceof ApiError ? error.status : null);
  }
}

/** GET /get_company_ai_model: the company's AI model (the scan screen's); failures are logged and rethrown. */
export function getCompanyAiModel(context: Reader, input: { companyId?: number | null }): Promise<string> {
  return loggedRethrow(async () => {
    const { company_id } = check(companyQuery(), { company_id: input.companyId });
    return readSetting(context, company_id, 'ai_model', { path: '/get_company_ai_model' }, cm.aiModelFetchFailed);
  });
}

/**
 * The AI model the scan and settings screens use (spec part 1 §4 "AI model"): the company's, or the
 * default plantDiseaseRecognition when the fetch fails (the failure is only logged).
 */
export async function companyAiModelOrDefault(context: Reader, input: { companyId?: number | null }): Promise<string> {
  try {
    return await getCompanyAiModel(context, input);
  } catch {
    return SETTINGS_DEFAULTS.ai_model;
  }
}

/** POST /set_company_ai_model (query company_id, ai_model; no body). */
export async function setCompanyAiModel(context: ApiContext, input: { companyId: number; aiModel: string }) {
  const { company_id, ai_model } = check(setAiModelQuery, { company_id: input.companyId, ai_model: input.aiModel });
  await changeSettings(context, company_id, { ai_model }, { path: '/set_company_ai_model', query: { company_id, ai_model }, label: changeLabels.setAiModel(ai_model) });
  return { ai_model };
}

/** POST /set_company_auto_refresh: needs both company and flag (0 or 1), else 'company_id and auto_refresh are required.'. */
export async function setCompanyAutoRefresh(context: ApiContext, input: { companyId?: number | null; autoRefresh?: 0 | 1 | boolean | null }) {
  const { company_id, auto_refresh } = check(setAutoRefreshQuery, { company_id: input.companyId, auto_refresh: input.autoRefresh });
  await changeSettings(context, company_id, { auto_refresh }, { path: '/set_company_auto_refresh', query: { company_id, auto_refresh }, label: auto_refresh ? changeLabels.autoRefreshOn : changeLabels.autoRefreshOff });
  return { auto_refresh };
}

/** GET /get_company_auto_refresh_mode: the answer's auto_refresh_mode, 0 or 1. */
export async function getCompanyAutoRefreshMode(context: Reader, input: { companyId: number }): Promise<number> {
  const { company_id } = check(companyQuery(), { company_id: input.companyId });
  return readSetting(context, company_id, 'auto_refresh', { path: '/get_company_auto_refresh_mode', field: 'auto_refresh_mode' }, cm.autoRefreshFetchFailed);
}

/** GET /get_stickytrap_render: the sticky-trap render value; the company defaults to the signed-in user's. */
export async function getStickytrapRender(context: Reader, input: { companyId?: number | null } = {}): Promise<number> {
  const { company_id } = check(optionalCompanyQuery, { company_id: input.companyId ?? (await sessionCompanyId(context)) ?? undefined });
  const local = company_id === undefined ? undefined : (await localSettings(context, company_id))?.stickytrap_render;
  if (local !== undefined && local !== null) return local;
  const answer = await online<z.infer<typeof stickyTrapRenderAnswer>>(context, { path: '/get_stickytrap_render', query: { company_id } }, cm.stickyTrapFetchFailed);
  return answer.stickytrap_render;
}

/**
 * POST /update_stickytrap_render (spec part 1 §5, part 2 §5): the value must be numeric and different
 * from the current one, else 'Please update values that are different from your current settings.'.
 * The current value is the tablet's (with pending changes); when it cannot be known (offline before the
 * first pull) the server checks it when the entry is sent.
 */
export async function updateStickytrapRender(context: ApiContext, input: { companyId: number; value: number | string }) {
  const { company_id, value } = check(updateStickyTrapQuery, { company_id: input.companyId, value: input.value });
  const current = await getStickytrapRender(context, { companyId: company_id }).catch(() => null);
  if (current === value) throw new ValidationError(m.stickyTrapUnchanged);
  await changeSettings(context, company_id, { stickytrap_render: value }, { path: '/update_stickytrap_render', query: { company_id, value }, label: changeLabels.setStickyTrapRender(value) });
  return { stickytrap_render: value };
}

/**
 * POST /set_company_language (query company_id, language): 'company_id is required.', 'language is
 * required.'; a failure to record the change fails with 'Failed to set language.'.
 */
export async function setCompanyLanguage(context: ApiContext, input: { companyId?: number | null; language?: string | null }) {
  const { company_id, language } = check(setLanguageQuery, { company_id: input.companyId, language: input.language });
  try {
    await changeSettings(context, company_id, { language }, { path: '/set_company_language', query: { company_id, language }, label: changeLabels.setLanguage(language) });
  } catch (error) {
    console.error(error);
    throw new ApiError(m.languageSetFailed);
  }
  return { language };
}

/** GET /get_company_language: 'company_id is required.'; the server's message or 'Failed to get language.'. */
export async function getCompanyLanguage(context: Reader, input: { companyId?: number | null }): Promise<string> {
  const { company_id } = check(companyQuery(m.languageCompanyRequired), { company_id: input.companyId });
  return readSetting(context, company_id, 'language', { path: '/get_company_language' }, m.languageGetFailed);
}
