/**
 * The company's image models (issue 17; not in the spec, named in its style). Admins upload ONNX
 * classifiers (each upload under a name one more version of it) and delete them; every member lists
 * them, fetches a model's file for the tablet's offline runtime, and has a photo analysed on the
 * server. Uploads and deletions are audited; the models travel to tablets in the operations collection.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { fileMessages } from '../../../common/messages/files';
import { AI_MODEL_MAX_BYTES, modelMessages as m } from '../../../common/messages/models';
import { SETTINGS_DEFAULTS } from '../../../common/messages/settings';
import { BUILT_IN_MODELS, modelKeyOf } from '../../../common/models/catalogue';
import {
  aiModelAnswer,
  aiModelFileQuery,
  aiModelsAnswer,
  aiModelsQuery,
  analyseImageAnswer,
  analyseImageBody,
  type BuiltInModelRecord,
  deleteAiModelAnswer,
  deleteAiModelQuery,
  type UploadAiModelBody,
  uploadAiModelBody,
} from '../../../common/schemas/models';
import { actedAtOf, writer } from '../../db/writes';
import { badRequest, conflictOnUnique, notFound } from '../../http/errors';
import { assertCompanyAccess } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { companyQueries } from '../companies/queries';
import { fileQueries, saveFile } from '../files/storage';
import { analyseImage } from './analyse';
import { type AiModel, aiModelJson, aiModelQueries } from './queries';
import { type InspectedModel, inspectModel } from './runtime';

const uploadSchema = { body: uploadAiModelBody, response: { 200: aiModelAnswer } };
const listSchema = { querystring: aiModelsQuery, response: { 200: aiModelsAnswer } };
const fileSchema = { querystring: aiModelFileQuery };
const deleteSchema = { querystring: deleteAiModelQuery, response: { 200: deleteAiModelAnswer } };
const analyseSchema = { body: analyseImageBody, response: { 200: analyseImageAnswer } };

const builtInRecords: BuiltInModelRecord[] = BUILT_IN_MODELS.map((model) => ({ built_in: true, key: model.key, name: model.name, description: model.description, analysis: model.analysis }));

/** What the upload's check found, handed from its preHandler to its handler. */
const inspectedUploads = new WeakMap<FastifyRequest, { key: string; bytes: Buffer; inspected: InspectedModel }>();

/**
 * Checks the uploaded file before the handler's transaction opens: opening a model of tens of MB and
 * running it once takes a while, and on PGlite's one connection a transaction would hold up every
 * other request meanwhile.
 */
async function inspectUpload(request: FastifyRequest) {
  const body = request.body as UploadAiModelBody;
  const key = modelKeyOf(body.name);
  if (!key) throw badRequest(m.nameWithoutLetters);
  if (!Buffer.isBuffer(body.model) || body.model.length === 0) throw badRequest(m.fileRequired);
  const given = { layout: body.layout, width: body.width, height: body.height, mean: body.mean, std: body.std };
  const inspected = await inspectModel(body.model, given, body.labels.length);
  inspectedUploads.set(request, { key, bytes: body.model, inspected });
}

async function uploadAiModel(request: RequestOf<typeof uploadSchema>) {
  const upload = inspectedUploads.get(request);
  if (!upload) throw new Error('upload_ai_model: the upload was not inspected');
  const { key, bytes, inspected } = upload;
  const { company_id, name, description, labels } = request.body;
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  const replaced = await aiModelQueries.latestByKey(request.db, company_id, key);
  const version = (await aiModelQueries.highestVersion(request.db, company_id, key)) + 1;
  const file = await saveFile(request, bytes, company_id, 'application/octet-stream', 'onnx');
  const [model] = await write
    .insertMany('ai_models', [
      {
        company_id,
        key,
        name,
        description: description ?? null,
        version,
        labels: JSON.stringify(labels),
        input: JSON.stringify(inspected.input),
        input_name: inspected.inputName,
        output_name: inspected.outputName,
        file_id: file.id,
      },
    ])
    // Two uploads of the same model at once: the second to commit would repeat the version.
    .catch(conflictOnUnique('ai_models_version', m.uploadRace));
  if (!model) throw new Error('upload_ai_model: no row inserted');
  if (replaced) await write.update('ai_models', replaced.id, { superseded_at: actedAtOf(actor) });
  await recordAudit(request.db, actor, {
    title: auditTitles.uploadedModel(name, version),
    details: { model_id: model.id, key, version, labels: labels.length, bytes: bytes.length, input: inspected.input },
  });
  return success({ ai_model: aiModelJson(model) }, m.uploaded(name, version));
}

async function getAiModels(request: RequestOf<typeof listSchema>) {
  const models = await aiModelQueries.latestOfCompany(request.db, request.query.company_id);
  return success({ ai_models: [...builtInRecords, ...models.map(aiModelJson)] });
}

/** A live model named by id, of the caller's company (403 otherwise; a SuperAdmin's of `companyId` when given). */
async function ownedModel(request: FastifyRequest, modelId: number, companyId?: number): Promise<AiModel> {
  const model = await aiModelQueries.byId(request.db, modelId);
  if (!model || model.deleted_at !== null) throw notFound(m.notFound);
  assertCompanyAccess(request, model.company_id);
  // A SuperAdmin acting for one company names a model of another: not found there.
  if (companyId !== undefined && model.company_id !== companyId) throw notFound(m.notFound);
  return model;
}

/**
 * The model's ONNX bytes, to its company's users only. One model_id's bytes never change (a new
 * upload is a new id), so the answer may be kept for ever: the tablet's Cache Storage keeps it offline.
 */
async function getAiModelFile(request: RequestOf<typeof fileSchema>, reply: FastifyReply) {
  const model = await ownedModel(request, request.query.model_id);
  const file = await fileQueries.byId(request.db, model.file_id);
  if (!file?.storage_key) throw notFound(m.notFound);
  const bytes = await request.server.deps.files.get(file.storage_key).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    request.log.error({ file: file.id, storageKey: file.storage_key }, 'an AI model’s file is missing from this instance’s storage');
    throw notFound(m.notFound);
  });
  return reply
    .header('Content-Type', 'application/octet-stream')
    .header('Cache-Control', 'private, max-age=31536000, immutable')
    .header('Content-Disposition', `attachment; filename="${model.key}-v${model.version}.onnx"`)
    .send(bytes);
}

/**
 * Deletes a model: every version of it (its key), as tombstones (scans keep naming them). A company
 * whose `ai_model` setting named it goes back to the default, audited as a settings change.
 */
async function deleteAiModel(request: RequestOf<typeof deleteSchema>) {
  const { company_id, model_id } = request.query;
  const named = await ownedModel(request, model_id, company_id);
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  const versions = await aiModelQueries.versionsByKey(request.db, company_id, named.key);
  const deleted = await write.softDeleteWhere(
    'ai_models',
    'id',
    versions.map((version) => version.id),
  );
  await recordAudit(request.db, actor, { title: auditTitles.deletedModel(named.name), details: { key: named.key, model_ids: deleted } });
  let setting = (await companyQueries.existing(request.db, company_id)).ai_model;
  if (setting === named.key) {
    setting = SETTINGS_DEFAULTS.ai_model;
    await write.update('companies', company_id, { ai_model: setting });
    request.afterCommit(async () => request.server.deps.companies.drop(company_id));
    await recordAudit(request.db, actor, { title: auditTitles.setAiModelAfterDeletion(setting, named.name), details: { ai_model: setting } });
  }
  return success({ key: named.key, deleted_model_ids: deleted, company_ai_model: setting }, m.deleted(named.name));
}

async function analyseImageRoute(request: RequestOf<typeof analyseSchema>) {
  const { company_id, ai_model, image } = request.body;
  if (!Buffer.isBuffer(image) || image.length === 0) throw badRequest(fileMessages.imageRequired);
  const analysis = await analyseImage(request.server.deps, request.db, company_id, ai_model ?? null, image);
  return success({ analysis }, m.analysed);
}

export async function modelRoutes(app: App) {
  const admin = { access: 'admin' as const };
  app.post('/upload_ai_model', { schema: uploadSchema, config: { ...admin, multipartOptions: { limits: { fileSize: AI_MODEL_MAX_BYTES } } }, preHandler: inspectUpload }, uploadAiModel);
  app.get('/get_ai_models', { schema: listSchema }, getAiModels);
  app.get('/get_ai_model_file', { schema: fileSchema }, getAiModelFile);
  app.delete('/delete_ai_model', { schema: deleteSchema, config: admin }, deleteAiModel);
  // Writes nothing: no transaction is held while the photo is decoded and the model runs (on PGlite's
  // one connection it would hold up every other request).
  app.post('/analyse_image', { schema: analyseSchema, config: { transaction: false } }, analyseImageRoute);
}
