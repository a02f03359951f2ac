/**
 * One photo through one of a company's models, on the server: POST /api/analyse_image uses it, and so
 * will the automated cameras' job (issue 17), which is why it takes its dependencies rather than a
 * request. A company classifier runs in ONNX Runtime for Node (runtime.ts) on the tensor
 * common/models/classifier.ts makes, exactly as the tablet's does; the built-in analyses are
 * common/vision's.
 */
import type { Kysely } from 'kysely';
import { modelMessages as m } from '../../../common/messages/models';
import { findingsOf, imageTensor } from '../../../common/models/classifier';
import { builtInModel, type BuiltInModel } from '../../../common/models/catalogue';
import type { ImageAnalysis } from '../../../common/schemas/models';
import { analyseLeafColour } from '../../../common/vision/leaf-colour';
import { countStickyTrap } from '../../../common/vision/sticky-trap';
import type { DB } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import { companyQueries } from '../companies/queries';
import { type FileStore, fileQueries } from '../files/storage';
import { decodePhoto } from './images';
import { type AiModel, aiModelQueries } from './queries';
import { runModel } from './runtime';

export interface AnalyseDeps {
  files: FileStore;
}

/** The longer side each built-in analysis works at: the tablet's scan worker's (workers/analysis.worker.ts). */
const BUILT_IN_WORKING_SIDE = { sticky_trap: 2000, leaf_colour: 800 } as const;

/** A classifier's photo is decoded at twice its input's longer side: the area resampling then averages a few pixels into each. */
const classifierWorkingSide = (model: AiModel) => 2 * Math.max(model.input.width, model.input.height);

/** The bytes of a stored model. */
async function modelBytes(deps: AnalyseDeps, db: Kysely<DB>, model: AiModel): Promise<Uint8Array> {
  const file = await fileQueries.byId(db, model.file_id);
  if (!file?.storage_key) throw notFound(m.notFound);
  return deps.files.get(file.storage_key);
}

async function classify(deps: AnalyseDeps, db: Kysely<DB>, model: AiModel, photo: Buffer): Promise<ImageAnalysis> {
  const image = await decodePhoto(photo, classifierWorkingSide(model));
  const scores = await runModel(model, imageTensor(image, model.input), () => modelBytes(deps, db, model));
  return {
    type: 'classifier',
    model: { key: model.key, name: model.name, version: model.version, model_id: model.id },
    findings: findingsOf(scores, model.labels),
  };
}

/** The built-in analyses are common/vision's, the code the tablet's scan worker runs. */
async function analyseBuiltIn(model: BuiltInModel, photo: Buffer): Promise<ImageAnalysis> {
  const image = await decodePhoto(photo, BUILT_IN_WORKING_SIDE[model.analysis]);
  const ran = { key: model.key, name: model.name, version: null, model_id: null };
  if (model.analysis === 'sticky_trap') return { type: 'sticky_trap', model: ran, result: { ...countStickyTrap(image) } };
  return { type: 'leaf_colour', model: ran, result: { ...analyseLeafColour(image) } };
}

/**
 * Analyses a photo (PNG, JPEG or WebP bytes) with a company's model: `modelKey`, or the company's
 * `ai_model` setting when null. A built-in key runs the built-in analysis; any other must name one of
 * the company's live models (its newest version), else 400. A photo that is not an image answers 415.
 */
export async function analyseImage(deps: AnalyseDeps, db: Kysely<DB>, companyId: number, modelKey: string | null, photo: Buffer): Promise<ImageAnalysis> {
  const key = modelKey ?? (await companyQueries.existing(db, companyId)).ai_model;
  const builtIn = builtInModel(key);
  if (builtIn) return analyseBuiltIn(builtIn, photo);
  const model = await aiModelQueries.latestByKey(db, companyId, key);
  if (!model) throw badRequest(m.unknownModel(key));
  return classify(deps, db, model, photo);
}
