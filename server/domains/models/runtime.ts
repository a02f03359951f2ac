/**
 * The server's runtime for a company's image classifiers: ONNX Runtime for Node on the CPU (its
 * binaries ship in the npm package; nothing is downloaded). Two jobs: checking an upload (can it be
 * opened, is its input an image, does its output match the labels) and running a stored model, with
 * the sessions of the last few models kept open (a model's bytes never change for its id).
 */
import ort from 'onnxruntime-node';
import { AI_MODEL_MAX_INPUT_SIDE, modelMessages as m } from '../../../common/messages/models';
import { tensorShape } from '../../../common/models/classifier';
import type { AiModelInput, TensorLayout } from '../../../common/schemas/models';
import { badRequest } from '../../http/errors';
import { onnxFileProblem } from './onnx-file';

/**
 * One thread per session: a 2-core server answers other requests while a model runs, and the models
 * are small classifiers. Only the ONNX format is read (never ORT's own flatbuffer format), so the
 * checks of onnx-file.ts cover every file that opens.
 */
const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
  extra: { session: { load_model_format: 'ONNX' } },
};

async function openSession(bytes: Uint8Array): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(bytes, SESSION_OPTIONS);
}

/** The first line of an ONNX Runtime error, without its source file prefix. */
const reasonOf = (error: unknown) =>
  String(error instanceof Error ? error.message : error)
    .split('\n')[0]!
    .replace(/^[\w./\\-]+\.(cc|h):\d+\s+(\S+\s+)?/, '')
    .slice(0, 300);

/** What the upload says of the input; the rest comes from the model's shape. */
export interface GivenInput {
  layout?: TensorLayout;
  width?: number;
  height?: number;
  mean?: number[];
  std?: number[];
}

export interface InspectedModel {
  input: AiModelInput;
  inputName: string;
  outputName: string;
}

const shapeText = (shape: ReadonlyArray<number | string>) => shape.map(String).join(', ');
const fixed = (dimension: number | string | undefined): number | undefined => (typeof dimension === 'number' && dimension > 0 ? dimension : undefined);

/** The layout the shape says (channels of 3 in position 1 or 3), checked against the one given. */
function layoutOf(shape: ReadonlyArray<number | string>, given: TensorLayout | undefined): TensorLayout {
  const channelsFirst = fixed(shape[1]) === 3;
  const channelsLast = fixed(shape[3]) === 3;
  if (given) {
    const channel = fixed(given === 'NCHW' ? shape[1] : shape[3]);
    if (channel !== undefined && channel !== 3) throw badRequest(m.layoutDisagrees(given, shapeText(shape)));
    return given;
  }
  if (channelsFirst && !channelsLast) return 'NCHW';
  if (channelsLast && !channelsFirst) return 'NHWC';
  // [1, 3, H, 3] says both; a fully symbolic shape says neither.
  throw badRequest(m.layoutUnknown);
}

/** The input's side from the shape, or the one given when the shape leaves it open; both must agree. */
function sideOf(dimension: number | string | undefined, given: number | undefined): number | undefined {
  const known = fixed(dimension);
  return known ?? given;
}

/** The image input the model declares, with its size and layout (400 with what is wrong). */
function imageInputOf(session: ort.InferenceSession, given: GivenInput): { name: string; input: AiModelInput } {
  if (session.inputMetadata.length !== 1) throw badRequest(m.inputCount(session.inputMetadata.length));
  const metadata = session.inputMetadata[0]!;
  if (!metadata.isTensor) throw badRequest(m.inputNotFloat('non-tensor'));
  if (metadata.type !== 'float32') throw badRequest(m.inputNotFloat(metadata.type));
  const { shape } = metadata;
  const batch = shape[0];
  if (shape.length !== 4 || (typeof batch === 'number' && batch !== 1 && batch > 0)) throw badRequest(m.inputNotImage(shapeText(shape)));
  const layout = layoutOf(shape, given.layout);
  const [heightDimension, widthDimension] = layout === 'NCHW' ? [shape[2], shape[3]] : [shape[1], shape[2]];
  if (fixed(heightDimension) !== undefined && fixed(widthDimension) !== undefined) {
    const [width, height] = [fixed(widthDimension)!, fixed(heightDimension)!];
    if ((given.width !== undefined && given.width !== width) || (given.height !== undefined && given.height !== height)) throw badRequest(m.sizeDisagrees(width, height));
  }
  const width = sideOf(widthDimension, given.width);
  const height = sideOf(heightDimension, given.height);
  if (width === undefined || height === undefined) throw badRequest(m.sizeUnknown);
  if (width > AI_MODEL_MAX_INPUT_SIDE || height > AI_MODEL_MAX_INPUT_SIDE) throw badRequest(m.inputTooLarge(width, height));
  return { name: metadata.name, input: { width, height, layout, mean: given.mean ?? [0, 0, 0], std: given.std ?? [1, 1, 1] } };
}

/**
 * Checks an uploaded file as a classifier of `labelCount` labels, and says how to feed it: the bytes
 * are a self-contained ONNX model (onnx-file.ts), ONNX Runtime opens it, its one input is a float
 * image ([1, 3, H, W] or [1, H, W, 3]), and run once on a blank image, one of its float outputs has
 * one score per label. Each failure answers 400 with what is wrong.
 */
export async function inspectModel(bytes: Uint8Array, given: GivenInput, labelCount: number): Promise<InspectedModel> {
  const problem = onnxFileProblem(bytes);
  if (problem === 'external_data') throw badRequest(m.externalData);
  if (problem === 'not_onnx') throw badRequest(m.notOnnx);
  const session = await openSession(bytes).catch((error: unknown) => {
    throw badRequest(m.notOpened(reasonOf(error)));
  });
  try {
    const { name: inputName, input } = imageInputOf(session, given);
    const floatOutputs = session.outputMetadata.filter((output) => !output.isTensor || output.type === 'float32').map((output) => output.name);
    if (floatOutputs.length === 0) throw badRequest(m.noFloatOutput);
    // Run, rather than read the output's shape: the label count is often a symbolic or missing dimension.
    const blank = new ort.Tensor('float32', new Float32Array(3 * input.width * input.height), tensorShape(input));
    const outputs = await session.run({ [inputName]: blank }, floatOutputs).catch((error: unknown) => {
      throw badRequest(m.runFailed(reasonOf(error)));
    });
    const sizes = floatOutputs.map((name) => {
      const output = outputs[name];
      return output && 'data' in output && output.data instanceof Float32Array ? output.data.length : 0;
    });
    const matching = sizes.findIndex((size) => size === labelCount);
    if (matching === -1) throw badRequest(m.labelCountMismatch(sizes.find((size) => size > 0) ?? 0, labelCount));
    return { input, inputName, outputName: floatOutputs[matching]! };
  } finally {
    await session.release();
  }
}

/** Sessions kept open, by model id: the most recently used last. */
const MAX_OPEN_SESSIONS = 4;

interface OpenSession {
  session: Promise<ort.InferenceSession>;
  /** Runs in progress: an evicted session is released when the last one ends. */
  running: number;
  evicted: boolean;
}

const openSessions = new Map<number, OpenSession>();

function release(entry: OpenSession) {
  void entry.session.then((session) => session.release()).catch(() => undefined);
}

/** The open session of a model, opening it from its bytes (`load`) when it is not; at most MAX_OPEN_SESSIONS stay open. */
function sessionOf(modelId: number, load: () => Promise<Uint8Array>): OpenSession {
  const open = openSessions.get(modelId);
  if (open) {
    openSessions.delete(modelId);
    openSessions.set(modelId, open);
    return open;
  }
  const entry: OpenSession = { session: load().then(openSession), running: 0, evicted: false };
  // A model that failed to open is not kept: the next run tries again.
  entry.session.catch(() => {
    if (openSessions.get(modelId) === entry) openSessions.delete(modelId);
  });
  openSessions.set(modelId, entry);
  while (openSessions.size > MAX_OPEN_SESSIONS) {
    const [oldestId, oldest] = openSessions.entries().next().value as [number, OpenSession];
    openSessions.delete(oldestId);
    oldest.evicted = true;
    if (oldest.running === 0) release(oldest);
  }
  return entry;
}

/**
 * Runs a stored model (by id; its bytes from `load` when its session is not open) on one input tensor
 * and answers its scores from the output `outputName`.
 */
export async function runModel(model: { id: number; input: AiModelInput; input_name: string; output_name: string }, tensor: Float32Array, load: () => Promise<Uint8Array>): Promise<Float32Array> {
  const entry = sessionOf(model.id, load);
  entry.running += 1;
  try {
    const session = await entry.session;
    const outputs = await session.run({ [model.input_name]: new ort.Tensor('float32', tensor, tensorShape(model.input)) }, [model.output_name]);
    const scores = outputs[model.output_name];
    if (!scores || !('data' in scores) || !(scores.data instanceof Float32Array)) throw new Error(`Model ${model.id} gave no float32 output ${model.output_name}`);
    return scores.data;
  } finally {
    entry.running -= 1;
    if (entry.evicted && entry.running === 0) release(entry);
  }
}
