/**
 * Trays and tray templates (issue 3: the grow model; spec part 2 §3, §5, §7, §8). Any member makes,
 * fills and renames trays (floor work); creating tray templates (company configuration) and deleting
 * trays or templates are Admin-only (README "Roles"). Every change is audited and travels in the
 * `operations` collection.
 */
import type { FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { trayMessages as m } from '../../../common/messages/trays';
import {
  createTrayAnswer,
  createTrayBody,
  createTrayTemplateAnswer,
  createTrayTemplateBody,
  deleteTrayAnswer,
  deleteTrayBody,
  deleteTrayTemplateAnswer,
  deleteTrayTemplateBody,
  trayAnswer,
  trayCompanyQuery,
  traysAnswer,
  trayTemplatesAnswer,
  updateTrayBody,
  useTrayTemplateBody,
} from '../../../common/schemas/trays';
import type { TraysTable } from '../../db/schema';
import { writer } from '../../db/writes';
import { notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import type { Updateable } from 'kysely';
import { actorOfRequest, recordAudit } from '../audit/record';
import { trayJson, trayQueries, trayTemplateJson } from './queries';

const listTemplatesSchema = { querystring: trayCompanyQuery, response: { 200: trayTemplatesAnswer } };
const createTemplateSchema = { body: createTrayTemplateBody, response: { 200: createTrayTemplateAnswer } };
const deleteTemplateSchema = { body: deleteTrayTemplateBody, response: { 200: deleteTrayTemplateAnswer } };
const useTemplateSchema = { body: useTrayTemplateBody, response: { 200: createTrayAnswer } };
const listTraysSchema = { querystring: trayCompanyQuery, response: { 200: traysAnswer } };
const updateTraySchema = { body: updateTrayBody, response: { 200: trayAnswer } };
const createTraySchema = { body: createTrayBody, response: { 200: createTrayAnswer } };
const deleteTraySchema = { body: deleteTrayBody, response: { 200: deleteTrayAnswer } };

/**
 * The spec does not say where these calls carry their fields, so a mutation reads them from a JSON
 * body, a form body or the query alike: the query's fields are merged under the body's before
 * validation (a field in both: the body's wins). The guard still checks every id wherever it came from.
 */

const notFoundHere = (kind: string, id: number) => notFound(httpMessages.recordNotFound(`${kind} ${id}`));

async function trayOf(request: FastifyRequest, trayId: number, companyId: number) {
  const tray = await trayQueries.inCompany(request.db, trayId, companyId);
  if (!tray) throw notFoundHere('tray', trayId);
  return tray;
}

async function templateOf(request: FastifyRequest, templateId: number, companyId: number) {
  const template = await trayQueries.templateInCompany(request.db, templateId, companyId);
  if (!template) throw notFoundHere('tray_template', templateId);
  return template;
}

/** A batch named by the request must be the acting company's (the guard only compares it with the caller's). */
async function assertBatchOf(request: FastifyRequest, batchId: number | null | undefined, companyId: number) {
  if (batchId === null || batchId === undefined) return;
  if (!(await trayQueries.batchIsLive(request.db, batchId, companyId))) throw notFoundHere('batch', batchId);
}

async function getTrayTemplates(request: RequestOf<typeof listTemplatesSchema>) {
  const templates = await trayQueries.templatesByCompany(request.db, request.query.company_id);
  return success({ templates: templates.map(trayTemplateJson) });
}

async function createTrayTemplate(request: RequestOf<typeof createTemplateSchema>) {
  const { template_name, company_id, user_id, number_of_plants, description, default_batch_id, client_id } = request.body;
  assertCaller(request, user_id);
  const actor = actorOfRequest(request, company_id);
  await assertBatchOf(request, default_batch_id, company_id);
  const created = await writer(request.db, actor).insert('tray_templates', {
    client_id,
    company_id,
    template_name,
    number_of_plants,
    description: description ?? null,
    default_batch_id: default_batch_id ?? null,
    user_id: actor.userId,
  });
  await recordAudit(request.db, actor, { title: auditTitles.createdTrayTemplate(template_name, number_of_plants), batchId: default_batch_id, details: { template_id: created.id } });
  return success({ template: trayTemplateJson(await trayQueries.templateById(request.db, created.id)), template_id: created.id, client_id: created.client_id }, m.templateCreated);
}

async function deleteTrayTemplate(request: RequestOf<typeof deleteTemplateSchema>) {
  const { template_id, company_id } = request.body;
  const template = await templateOf(request, template_id, company_id);
  const actor = actorOfRequest(request, company_id);
  // Trays made from the template keep their own copy of its values: they stay.
  await writer(request.db, actor).softDelete('tray_templates', template.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedTrayTemplate(template.template_name), batchId: template.default_batch_id, details: { template_id: template.id } });
  return success({ template_id: template.id }, m.templateDeleted);
}

async function useTrayTemplate(request: RequestOf<typeof useTemplateSchema>) {
  const { template_id, company_id, user_id, tray_name, batch_id, client_id } = request.body;
  assertCaller(request, user_id);
  const actor = actorOfRequest(request, company_id);
  const template = await templateOf(request, template_id, company_id);
  await assertBatchOf(request, batch_id, company_id);
  // Without a batch, the template's default batch; if that batch has since been deleted, the tray
  // starts without one rather than failing on the floor.
  const defaultBatch = template.default_batch_id !== null && (await trayQueries.batchIsLive(request.db, template.default_batch_id, company_id)) ? template.default_batch_id : null;
  const batchId = batch_id ?? defaultBatch;
  const { id, client_id: trayClientId } = await writer(request.db, actor).insert('trays', {
    client_id,
    company_id,
    tray_name,
    number_of_plants: template.number_of_plants,
    batch_id: batchId,
    user_id: actor.userId,
  });
  await recordAudit(request.db, actor, {
    title: auditTitles.createdTrayFromTemplate(tray_name, template.template_name, template.number_of_plants),
    batchId,
    details: { tray_id: id, template_id: template.id },
  });
  return success({ tray: trayJson(await trayQueries.byId(request.db, id)), tray_id: id, client_id: trayClientId }, m.templateUsed);
}

async function getAllTrays(request: RequestOf<typeof listTraysSchema>) {
  const trays = await trayQueries.byCompany(request.db, request.query.company_id);
  return success({ trays: trays.map(trayJson) });
}

/** Merges only the fields sent; a request that sends none changes (and records) nothing. */
async function updateTray(request: RequestOf<typeof updateTraySchema>) {
  const { tray_id, company_id, tray_name, number_of_plants, batch_id } = request.body;
  const tray = await trayOf(request, tray_id, company_id);
  await assertBatchOf(request, batch_id, company_id);
  const changes: Updateable<TraysTable> = {};
  if (tray_name !== undefined) changes.tray_name = tray_name;
  if (number_of_plants !== undefined) changes.number_of_plants = number_of_plants;
  if (batch_id !== undefined) changes.batch_id = batch_id;
  if (Object.keys(changes).length === 0) return success({ tray: trayJson(tray) }, m.trayUnchanged);
  const actor = actorOfRequest(request, company_id);
  await writer(request.db, actor).update('trays', tray.id, changes);
  await recordAudit(request.db, actor, {
    title: auditTitles.updatedTray(tray_name ?? tray.tray_name),
    batchId: batch_id ?? tray.batch_id,
    details: { tray_id: tray.id, ...changes },
  });
  return success({ tray: trayJson(await trayQueries.byId(request.db, tray.id)) }, m.trayUpdated);
}

async function createTray(request: RequestOf<typeof createTraySchema>) {
  const { tray_name, company_id, user_id, number_of_plants, batch_id, client_id } = request.body;
  assertCaller(request, user_id);
  const actor = actorOfRequest(request, company_id);
  await assertBatchOf(request, batch_id, company_id);
  const { id, client_id: trayClientId } = await writer(request.db, actor).insert('trays', {
    client_id,
    company_id,
    tray_name,
    number_of_plants,
    batch_id: batch_id ?? null,
    user_id: actor.userId,
  });
  await recordAudit(request.db, actor, { title: auditTitles.createdTray(tray_name, number_of_plants), batchId: batch_id, details: { tray_id: id } });
  return success({ tray: trayJson(await trayQueries.byId(request.db, id)), tray_id: id, client_id: trayClientId }, m.trayCreated);
}

async function deleteTray(request: RequestOf<typeof deleteTraySchema>) {
  const { tray_id, company_id } = request.body;
  const tray = await trayOf(request, tray_id, company_id);
  const actor = actorOfRequest(request, company_id);
  await writer(request.db, actor).softDelete('trays', tray.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedTray(tray.tray_name), batchId: tray.batch_id, details: { tray_id: tray.id } });
  return success({ tray_id: tray.id }, m.trayDeleted);
}

export async function trayRoutes(app: App) {
  const ownsTemplate = { template_id: 'tray_template' as const };
  const fields = { preValidation: fieldsFromQueryAndBody };
  app.get('/get_tray_templates', { schema: listTemplatesSchema }, getTrayTemplates);
  app.post('/create_tray_template', { schema: createTemplateSchema, config: { access: 'admin' }, ...fields }, createTrayTemplate);
  app.delete('/delete_tray_template', { schema: deleteTemplateSchema, config: { access: 'admin', owns: ownsTemplate }, ...fields }, deleteTrayTemplate);
  app.post('/use_tray_template', { schema: useTemplateSchema, config: { owns: ownsTemplate }, ...fields }, useTrayTemplate);
  app.get('/get_all_trays', { schema: listTraysSchema }, getAllTrays);
  app.post('/update_tray', { schema: updateTraySchema, ...fields }, updateTray);
  app.post('/create_tray', { schema: createTraySchema, ...fields }, createTray);
  app.post('/delete_tray', { schema: deleteTraySchema, config: { access: 'admin' }, ...fields }, deleteTray);
}
