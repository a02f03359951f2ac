/**
 * The one place a camera image meets the models (server/domains/models/analyse.ts `analyseImage`):
 * the camera's model (`model_key`), else the company's `ai_model` setting at the time of the analysis.
 * An analysis that cannot be made (the model deleted since, an image the decoder refuses, a built-in
 * analysis the server does not run) is kept as a `failed` analysis with the reason, so the timeline
 * says why an image has no findings instead of waiting for ever.
 */
import type { Kysely } from 'kysely';
import type { CameraAnalysis } from '../../../common/schemas/cameras';
import type { DB } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { analyseImage } from '../models/analyse';
import type { FileStore } from '../files/storage';

/** Analyses a camera image's bytes; never throws for the image or the model, only for the database. */
export async function analyseCapture(deps: { db: Kysely<DB>; files: FileStore }, input: { companyId: number; modelKey: string | null; bytes: Buffer }): Promise<CameraAnalysis> {
  try {
    return await analyseImage({ files: deps.files }, deps.db, input.companyId, input.modelKey, input.bytes);
  } catch (error) {
    // The models' refusals are HttpErrors with their message (an unknown model, an unreadable image).
    if (error instanceof HttpError) return { type: 'failed', model_key: input.modelKey, message: error.message };
    throw error;
  }
}
