/**
 * Requests and answers of the image models (issue 17): the built-in analyses, the company's own ONNX
 * classifiers (upload_ai_model, get_ai_models, get_ai_model_file, delete_ai_model) and analyse_image.
 * `aiModelRecord` is both the answer's model and the document tablets keep in the `operations`
 * collection (kind `ai_model`), so the scan screen knows a model's labels and input offline.
 */
import { z } from 'zod';
import { AI_MODEL_MAX_INPUT_SIDE, AI_MODEL_MAX_LABELS, modelMessages as m } from '../messages/models';
import { settingsMessages } from '../messages/settings';
import { BUILT_IN_MODEL_KEYS } from '../models/catalogue';
import { catalogueProblem } from '../plant-problems';
import { answer, timestamp } from './answers';
import { formBody, requiredId, requiredText } from './fields';

export const TENSOR_LAYOUTS = ['NCHW', 'NHWC'] as const;
export type TensorLayout = (typeof TENSOR_LAYOUTS)[number];

/** Blank text and null count as absent (multipart fields arrive as text). */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** JSON text as its value; anything else, or text that is not JSON, as it is. */
function parsedJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A label of a model's output: its text and the catalogue problem it means (null: none, e.g. "healthy"). */
export const aiModelLabel = z.object({ label: z.string(), problem_slug: z.string().nullable() });
export type AiModelLabel = z.infer<typeof aiModelLabel>;

/**
 * How an image becomes the model's input tensor (common/models/classifier.ts): resized to width ×
 * height, each channel value v (0..255) becomes (v / 255 − mean[c]) / std[c], laid out as NCHW
 * ([1, 3, H, W]) or NHWC ([1, H, W, 3]). ImageNet-trained models usually want mean
 * [0.485, 0.456, 0.406] and std [0.229, 0.224, 0.225]; the default (0 and 1) feeds v / 255.
 */
export const aiModelInput = z.object({
  width: z.number().int(),
  height: z.number().int(),
  layout: z.enum(TENSOR_LAYOUTS),
  mean: z.array(z.number()).length(3),
  std: z.array(z.number()).length(3),
});
export type AiModelInput = z.infer<typeof aiModelInput>;

// ——— Requests ———

/**
 * Control characters (NUL among them), or half of a surrogate pair: JSON text may carry them escaped,
 * but a label is stored in jsonb, which holds neither (server/http/input.ts checks the raw fields only).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNSTORABLE_LABEL = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** labels: a JSON list of {label, problem_slug} (or of plain label texts); each slug must be the catalogue's. */
const labelsField = z.preprocess(
  (value) => {
    const parsed = parsedJsonText(blankToUndefined(value));
    return Array.isArray(parsed) ? parsed.map((entry: unknown) => (typeof entry === 'string' ? { label: entry } : entry)) : parsed;
  },
  z
    .array(
      z.object({
        label: z
          .string({ error: m.labelsInvalid })
          .trim()
          .min(1, { error: m.labelsInvalid })
          .max(100, { error: m.labelsInvalid })
          .refine((label) => !UNSTORABLE_LABEL.test(label), { error: m.labelsInvalid }),
        problem_slug: z.preprocess(blankToUndefined, z.string({ error: m.labelsInvalid }).trim().max(100, { error: m.labelsInvalid }).nullish()).transform((slug) => slug ?? null),
      }),
      { error: (issue) => (issue.input === undefined ? m.labelsRequired : m.labelsInvalid) },
    )
    .min(1, { error: m.labelsInvalid })
    .max(AI_MODEL_MAX_LABELS, { error: m.labelsInvalid })
    .superRefine((labels, context) => {
      const seen = new Set<string>();
      for (const { label, problem_slug } of labels) {
        if (seen.has(label)) context.addIssue({ code: 'custom', message: m.labelsRepeated(label) });
        seen.add(label);
        if (problem_slug !== null && catalogueProblem(problem_slug)?.slug !== problem_slug) context.addIssue({ code: 'custom', message: m.problemSlugUnknown(problem_slug) });
      }
    }),
);

/** Three numbers, as a JSON list or separated by commas ("0.485, 0.456, 0.406"). */
const triple = (message: string, positive: boolean) =>
  z.preprocess(
    (value) => {
      const present = blankToUndefined(value);
      if (typeof present !== 'string') return present;
      const parsed = parsedJsonText(present);
      return Array.isArray(parsed) ? parsed : present.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
    },
    z
      .array(z.number({ error: message }).refine((number) => Number.isFinite(number) && (!positive || number > 0), { error: message }), { error: message })
      .length(3, { error: message })
      .optional(),
  );

const inputSide = z.preprocess(blankToUndefined, z.coerce.number({ error: m.sideInvalid }).int({ error: m.sideInvalid }).min(1, { error: m.sideInvalid }).max(AI_MODEL_MAX_INPUT_SIDE, { error: m.sideInvalid }).optional());

/** The uploaded file stays a Buffer (or is absent); the handler checks it. */
const upload = z.unknown().optional();

/**
 * upload_ai_model (multipart): the model file `model`, its name and labels, and how to feed it an image.
 * width, height and layout are read from the model's input shape where it fixes them; given, they
 * must agree with it.
 */
export const uploadAiModelBody = formBody({
  company_id: requiredId(m.companyIdRequired),
  name: requiredText(m.nameRequired, 100),
  description: z.preprocess(blankToUndefined, z.string({ error: m.descriptionInvalid }).trim().max(2000, { error: m.descriptionInvalid }).optional()),
  labels: labelsField,
  layout: z.preprocess((value) => (typeof value === 'string' ? blankToUndefined(value.trim().toUpperCase()) : value), z.enum(TENSOR_LAYOUTS, { error: m.layoutInvalid }).optional()),
  width: inputSide,
  height: inputSide,
  mean: triple(m.meanInvalid, false),
  std: triple(m.stdInvalid, true),
  model: upload,
});
export type UploadAiModelBody = z.output<typeof uploadAiModelBody>;

export const aiModelsQuery = z.object({ company_id: requiredId(m.companyIdRequired) });
export const aiModelFileQuery = z.object({ model_id: requiredId(m.modelIdRequired) });
export const deleteAiModelQuery = z.object({ company_id: requiredId(m.companyIdRequired), model_id: requiredId(m.modelIdRequired) });

/** A model key as the company setting holds it (common/schemas/settings.ts `setAiModelQuery`'s rule). */
export const aiModelKey = z
  .string({ error: settingsMessages.aiModelInvalid })
  .trim()
  .max(100, { error: settingsMessages.aiModelInvalid })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: settingsMessages.aiModelInvalid });

/** analyse_image (multipart): the photo `image`, and the model (default: the company's `ai_model` setting). */
export const analyseImageBody = formBody({
  company_id: requiredId(m.companyIdRequired),
  ai_model: z.preprocess(blankToUndefined, aiModelKey.optional()),
  image: upload,
});

// ——— Answers ———

/**
 * A company's uploaded model, one version of it: as answers and the `operations` collection (kind
 * `ai_model`) show it. `key` names the model across its versions (the company's `ai_model` setting
 * holds keys); `latest` is false once a newer version was uploaded under the same name. The file is
 * GET /api/get_ai_model_file?model_id=, the same bytes for ever for one model_id.
 */
export const aiModelRecord = z.object({
  built_in: z.literal(false),
  model_id: z.number().int(),
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  version: z.number().int(),
  latest: z.boolean(),
  labels: z.array(aiModelLabel),
  input: aiModelInput,
  /** The output whose scores are the labels' (one score per label, in their order). */
  output_name: z.string(),
  /** The input the image is fed to. */
  input_name: z.string(),
  company_id: z.number().int(),
  created_by: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type AiModelRecord = z.infer<typeof aiModelRecord>;

/** A built-in analysis, as get_ai_models lists it (no file, no version). */
export const builtInModelRecord = z.object({
  built_in: z.literal(true),
  key: z.enum(BUILT_IN_MODEL_KEYS as [string, ...string[]]),
  name: z.string(),
  description: z.string(),
  analysis: z.enum(['leaf_colour', 'sticky_trap']),
});
export type BuiltInModelRecord = z.infer<typeof builtInModelRecord>;

export const aiModelsAnswer = answer({ ai_models: z.array(z.union([builtInModelRecord, aiModelRecord])) });
export const aiModelAnswer = answer({ ai_model: aiModelRecord });
/** delete_ai_model: the versions deleted and the company's setting after it (the default, if it named the model). */
export const deleteAiModelAnswer = answer({ key: z.string(), deleted_model_ids: z.array(z.number().int()), company_ai_model: z.string() });

/** A classifier's finding: a label, the problem it means, and the model's confidence in it (0..1). */
export const classifierFinding = z.object({ label: z.string(), problem_slug: z.string().nullable(), confidence: z.number() });
export type ClassifierFinding = z.infer<typeof classifierFinding>;

/** The model an analysis ran: a built-in one has no version or id. */
export const analysisModel = z.object({ key: z.string(), name: z.string(), version: z.number().int().nullable(), model_id: z.number().int().nullable() });

/**
 * analyse_image's result: a company classifier's findings (most confident first, at most
 * FINDINGS_TOP_K), or a built-in analysis's result as common/vision makes it.
 */
export const imageAnalysis = z.discriminatedUnion('type', [
  z.object({ type: z.literal('classifier'), model: analysisModel, findings: z.array(classifierFinding) }),
  z.object({ type: z.literal('leaf_colour'), model: analysisModel, result: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('sticky_trap'), model: analysisModel, result: z.record(z.string(), z.unknown()) }),
]);
export type ImageAnalysis = z.infer<typeof imageAnalysis>;

export const analyseImageAnswer = answer({ analysis: imageAnalysis });
