/**
 * The company's image models (issue 17): the built-in analyses and the ONNX classifiers its Admins
 * upload. The tablet reads the company's models from the local store (they travel in `operations`,
 * kind `ai_model`, so a scan knows a model's labels and input offline); uploading and deleting are an
 * Admin's online tasks, answered by the server at once (a model file of tens of MB is not queued on a
 * tablet, and its checks are the server's: the file must open in ONNX Runtime).
 */
import type { z } from 'zod';
import { modelClientMessages as cm } from '../../common/messages/models';
import { type aiModelAnswer, deleteAiModelQuery, type deleteAiModelAnswer, uploadAiModelBody } from '../../common/schemas/models';
import { type ApiContext, check, online } from './context';

export type UploadedModel = z.infer<typeof aiModelAnswer>['ai_model'];

/** upload_ai_model (Admin, online): the file with its name and labels (a JSON list, or one label per line); answers the stored model. */
export async function uploadAiModel(
  context: ApiContext,
  input: { companyId: number; name: string; description?: string; labels: string; file: Blob; fileName?: string; width?: string; height?: string; layout?: string; mean?: string; std?: string },
): Promise<UploadedModel> {
  // One label per line is what an Admin pastes from a training run's class list; JSON is kept as it is.
  const labels = input.labels.trim().startsWith('[') ? input.labels : JSON.stringify(input.labels.split('\n').map((line) => line.trim()).filter(Boolean));
  const fields = { company_id: input.companyId, name: input.name, description: input.description, labels, width: input.width, height: input.height, layout: input.layout, mean: input.mean, std: input.std };
  check(uploadAiModelBody, fields);
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') body.append(name, String(value));
  body.append('model', input.file, input.fileName ?? (input.file instanceof File ? input.file.name : 'model.onnx'));
  const answer = await online<z.infer<typeof aiModelAnswer>>(context, { method: 'POST', path: '/upload_ai_model', body }, cm.uploadFailed);
  return answer.ai_model;
}

/** delete_ai_model (Admin, online): every version of the model goes; a company setting that named it returns to the default. */
export async function deleteAiModel(context: ApiContext, input: { companyId: number; modelId: number }) {
  const query = check(deleteAiModelQuery, { company_id: input.companyId, model_id: input.modelId });
  return online<z.infer<typeof deleteAiModelAnswer>>(context, { method: 'DELETE', path: '/delete_ai_model', query }, cm.deleteFailed);
}
