/**
 * Company settings (spec part 1 §3, §5, §7; part 2 §5): every Regular user reads them, Admins change
 * them. Each change is audited and bumps the company document, so tablets pull it.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { settingsMessages as m } from '../../../common/messages/settings';
import { builtInModel } from '../../../common/models/catalogue';
import {
  aiModelAnswer,
  autoRefreshAnswer,
  autoRefreshModeAnswer,
  companyQuery,
  companyThresholdsAnswer,
  gridOpacityAnswer,
  gridOrderAnswer,
  languageAnswer,
  offlineModeAnswer,
  optionalCompanyQuery,
  setAiModelQuery,
  setAutoRefreshQuery,
  setGridOpacityQuery,
  setGridOrderBody,
  setLanguageQuery,
  stickyTrapRenderAnswer,
  updateStickyTrapQuery,
} from '../../../common/schemas/settings';
import type { CompaniesTable } from '../../db/schema';
import { writer } from '../../db/writes';
import { badRequest } from '../../http/errors';
import { actingCompany } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import type { FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import { actorOfRequest, recordAudit } from '../audit/record';
import { companyQueries, gridOrderOf } from '../companies/queries';
import { aiModelQueries } from '../models/queries';
import { userQueries } from '../users/queries';

const thresholdsSchema = { querystring: companyQuery(), response: { 200: companyThresholdsAnswer } };
const getGridOrderSchema = { querystring: companyQuery(m.getGridOrderCompanyMissing), response: { 200: gridOrderAnswer } };
const setGridOrderSchema = { querystring: companyQuery(m.gridOrderCompanyMissing), body: setGridOrderBody, response: { 200: gridOrderAnswer } };
const getOpacitySchema = { querystring: companyQuery(), response: { 200: gridOpacityAnswer } };
const setOpacitySchema = { querystring: setGridOpacityQuery, response: { 200: gridOpacityAnswer } };
const offlineModeSchema = { querystring: companyQuery(m.offlineModeCompanyMissing), response: { 200: offlineModeAnswer } };
const getAiModelSchema = { querystring: companyQuery(), response: { 200: aiModelAnswer } };
const setAiModelSchema = { querystring: setAiModelQuery, response: { 200: aiModelAnswer } };
const setAutoRefreshSchema = { querystring: setAutoRefreshQuery, response: { 200: autoRefreshAnswer } };
const getAutoRefreshSchema = { querystring: companyQuery(), response: { 200: autoRefreshModeAnswer } };
const updateStickyTrapSchema = { querystring: updateStickyTrapQuery, response: { 200: stickyTrapRenderAnswer } };
const getStickyTrapSchema = { querystring: optionalCompanyQuery, response: { 200: stickyTrapRenderAnswer } };
const setLanguageSchema = { querystring: setLanguageQuery, response: { 200: languageAnswer } };
const getLanguageSchema = { querystring: companyQuery(m.languageCompanyRequired), response: { 200: languageAnswer } };

/** Writes settings of one company, audits the change, and answers with the new values. */
async function changeSettings<Values extends Updateable<CompaniesTable>>(request: FastifyRequest, companyId: number, values: Values, title: string) {
  const actor = actorOfRequest(request, companyId);
  await writer(request.db, actor).update('companies', companyId, values);
  // This instance reads its own change at once; the others drop the row on the change's notification.
  request.afterCommit(async () => request.server.deps.companies.drop(companyId));
  await recordAudit(request.db, actor, { title, details: values as Record<string, unknown> });
  return success(values, m.updated);
}

/** A company's settings: from the database inside a write, else through the company cache (companies/cache.ts). */
const settingsOf = (request: FastifyRequest, companyId: number) =>
  request.method === 'GET' ? request.server.deps.companies.get(request.db, companyId) : companyQueries.existing(request.db, companyId);

async function getCompanyThresholds(request: RequestOf<typeof thresholdsSchema>) {
  const users = await userQueries.byCompany(request.db, [request.query.company_id]);
  const thresholds = users.map((user) => ({ user_id: user.id, first_name: user.first_name, last_name: user.last_name, threshold: user.threshold }));
  return success({ thresholds });
}

async function getGridOrder(request: RequestOf<typeof getGridOrderSchema>) {
  return success({ grid_order: gridOrderOf(await settingsOf(request, request.query.company_id)) });
}

async function setGridOrder(request: RequestOf<typeof setGridOrderSchema>) {
  const { grid_order } = request.body;
  return changeSettings(request, request.query.company_id, { grid_order }, auditTitles.setGridOrder[grid_order]);
}

async function getGridOpacity(request: RequestOf<typeof getOpacitySchema>) {
  return success({ grid_opacity: (await settingsOf(request, request.query.company_id)).grid_opacity });
}

async function setGridOpacity(request: RequestOf<typeof setOpacitySchema>) {
  const { company_id, grid_opacity } = request.query;
  return changeSettings(request, company_id, { grid_opacity }, auditTitles.setGridOpacity(grid_opacity));
}

async function getOfflineMode(request: RequestOf<typeof offlineModeSchema>) {
  return success({ offline_mode: (await settingsOf(request, request.query.company_id)).offline_mode });
}

async function getAiModel(request: RequestOf<typeof getAiModelSchema>) {
  return success({ ai_model: (await settingsOf(request, request.query.company_id)).ai_model });
}

/** The key must name a built-in model or one of the company's live uploaded ones (common/models/catalogue.ts). */
async function setAiModel(request: RequestOf<typeof setAiModelSchema>) {
  const { company_id, ai_model } = request.query;
  if (!builtInModel(ai_model) && !(await aiModelQueries.latestByKey(request.db, company_id, ai_model))) throw badRequest(m.aiModelUnknown(ai_model));
  return changeSettings(request, company_id, { ai_model }, auditTitles.setAiModel(ai_model));
}

async function setAutoRefresh(request: RequestOf<typeof setAutoRefreshSchema>) {
  const { company_id, auto_refresh } = request.query;
  return changeSettings(request, company_id, { auto_refresh }, auto_refresh ? auditTitles.turnedAutoRefreshOn : auditTitles.turnedAutoRefreshOff);
}

async function getAutoRefresh(request: RequestOf<typeof getAutoRefreshSchema>) {
  return success({ auto_refresh_mode: (await settingsOf(request, request.query.company_id)).auto_refresh });
}

async function updateStickyTrapRender(request: RequestOf<typeof updateStickyTrapSchema>) {
  const { company_id, value } = request.query;
  if ((await settingsOf(request, company_id)).stickytrap_render === value) throw badRequest(m.stickyTrapUnchanged);
  return changeSettings(request, company_id, { stickytrap_render: value }, auditTitles.setStickyTrapRender(value));
}

async function getStickyTrapRender(request: RequestOf<typeof getStickyTrapSchema>) {
  const company = await settingsOf(request, actingCompany(request, request.query.company_id));
  return success({ stickytrap_render: company.stickytrap_render });
}

async function setLanguage(request: RequestOf<typeof setLanguageSchema>) {
  const { company_id, language } = request.query;
  return changeSettings(request, company_id, { language }, auditTitles.setLanguage(language));
}

async function getLanguage(request: RequestOf<typeof getLanguageSchema>) {
  return success({ language: (await settingsOf(request, request.query.company_id)).language });
}

export async function settingsRoutes(app: App) {
  const admin = { access: 'admin' as const };
  app.get('/get_company_thresholds', { schema: thresholdsSchema }, getCompanyThresholds);
  app.get('/get_company_grid_order', { schema: getGridOrderSchema }, getGridOrder);
  app.post('/set_company_grid_order', { schema: setGridOrderSchema, config: admin }, setGridOrder);
  app.get('/get_grid_opacity', { schema: getOpacitySchema }, getGridOpacity);
  app.post('/set_grid_opacity', { schema: setOpacitySchema, config: admin }, setGridOpacity);
  app.get('/get_company_offline_mode', { schema: offlineModeSchema }, getOfflineMode);
  app.get('/get_company_ai_model', { schema: getAiModelSchema }, getAiModel);
  app.post('/set_company_ai_model', { schema: setAiModelSchema, config: admin }, setAiModel);
  app.post('/set_company_auto_refresh', { schema: setAutoRefreshSchema, config: admin }, setAutoRefresh);
  app.get('/get_company_auto_refresh_mode', { schema: getAutoRefreshSchema }, getAutoRefresh);
  app.post('/update_stickytrap_render', { schema: updateStickyTrapSchema, config: admin }, updateStickyTrapRender);
  app.get('/get_stickytrap_render', { schema: getStickyTrapSchema }, getStickyTrapRender);
  app.post('/set_company_language', { schema: setLanguageSchema, config: admin }, setLanguage);
  app.get('/get_company_language', { schema: getLanguageSchema }, getLanguage);
}
