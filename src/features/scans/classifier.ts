/**
 * The company's own image classifier on the tablet (issue 17), offline: ONNX Runtime Web's WebAssembly
 * build, on one thread (no SharedArrayBuffer, so the page needs no cross-origin isolation), loaded on
 * first use so no other screen carries it. The image becomes the model's tensor and its scores become
 * findings in common/models/classifier.ts, as on the server, so a photo gives the same findings on both.
 *
 * Offline: a model's file (GET /api/get_ai_model_file, the same bytes for ever per model_id) and the
 * runtime's .wasm (an asset of our own build, never a CDN) are kept in Cache Storage (`ai-models`) once
 * fetched; a scan then works with no network. `warmClassifier` fetches both ahead (when the scan screen
 * opens online). The .wasm is deliberately not in the service worker's precache: at 14 MB it would hold
 * up the first visit's offline-ready state for every user, most of whom never use a model of their own.
 *
 * WARNING: Cache Storage exists only in secure contexts (https, localhost). Elsewhere files are kept in
 * memory for the page's life only: a reload offline cannot run the model.
 */
import type { InferenceSession } from 'onnxruntime-web';
import type * as OrtModule from 'onnxruntime-web/wasm';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { modelClientMessages as cm } from '../../../common/messages/models';
import { findingsOf, imageTensor, type RgbaImage, tensorShape } from '../../../common/models/classifier';
import type { AiModelRecord, ClassifierFinding } from '../../../common/schemas/models';
import { ApiError } from '../../api/errors';

export type { RgbaImage };

type Ort = typeof OrtModule;

const CACHE_NAME = 'ai-models';

/** Sessions kept open: a tablet's memory is short, and a scan uses one model. */
const MAX_OPEN_SESSIONS = 2;

/** Files of this page's life, where Cache Storage is missing (not a secure context). */
const inMemory = new Map<string, ArrayBuffer>();

const cacheStorage = (): CacheStorage | null => (typeof caches === 'undefined' ? null : caches);

/** A kept file's bytes, or null. */
async function keptBytes(key: string): Promise<ArrayBuffer | null> {
  const storage = cacheStorage();
  if (!storage) return inMemory.get(key) ?? null;
  const hit = await (await storage.open(CACHE_NAME)).match(key);
  return hit ? hit.arrayBuffer() : null;
}

/** Keeps a file's bytes; `replaces` says which other kept entries it makes useless (an older build's .wasm). */
async function keep(key: string, bytes: ArrayBuffer, replaces?: (key: string) => boolean) {
  const storage = cacheStorage();
  if (!storage) {
    inMemory.set(key, bytes);
    return;
  }
  const cache = await storage.open(CACHE_NAME);
  await cache.put(key, new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
  if (replaces) for (const request of await cache.keys()) if (request.url !== key && replaces(request.url)) await cache.delete(request);
}

/** The runtime's .wasm: kept once fetched from our own origin (its URL has the build's hash in it). */
async function runtimeBinary(): Promise<ArrayBuffer> {
  const key = new URL(ortWasmUrl, window.location.href).href;
  const kept = await keptBytes(key);
  if (kept) return kept;
  const response = await fetch(key);
  if (!response.ok) throw new ApiError(cm.runtimeFailed, response.status);
  const bytes = await response.arrayBuffer();
  await keep(key, bytes, (other) => other.endsWith('.wasm'));
  return bytes;
}

let runtime: Promise<Ort> | null = null;

/** ONNX Runtime Web, set up once: WebAssembly from our bytes, one thread, on this thread. */
function loadRuntime(): Promise<Ort> {
  runtime ??= (async () => {
    const [ort, wasmBinary] = await Promise.all([import('onnxruntime-web/wasm'), runtimeBinary()]);
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmBinary = wasmBinary;
    return ort;
  })();
  // A failed load (offline before the .wasm was ever fetched) is tried again on the next call.
  runtime.catch(() => (runtime = null));
  return runtime;
}

/** The address a model's file is kept under (the API's own, so a look at the cache says what it is). */
const modelFileKey = (baseURL: string, modelId: number) => new URL(`${baseURL.replace(/\/$/, '')}/get_ai_model_file?model_id=${modelId}`, window.location.href).href;

/** The server's message in a failed binary answer (its body arrives as bytes, not parsed JSON). */
function binaryAnswerMessage(data: unknown): string | null {
  try {
    const message = (JSON.parse(new TextDecoder().decode(data as ArrayBuffer)) as { message?: unknown }).message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}

/** A model's ONNX bytes: kept ones, else fetched through the app's one HTTP client (its session) and kept. */
async function modelBytes(modelId: number): Promise<ArrayBuffer> {
  // Loaded here, not at the top: the page's services read `window` when loaded.
  const { client } = await import('../../app/services');
  const key = modelFileKey(client.baseURL, modelId);
  const kept = await keptBytes(key);
  if (kept) return kept;
  try {
    const response = await client.http.get<ArrayBuffer>('/get_ai_model_file', { params: { model_id: modelId }, responseType: 'arraybuffer' });
    await keep(key, response.data);
    return response.data;
  } catch (error) {
    const answer = (error as { response?: { status?: number; data?: unknown } }).response;
    // Without the server's own message (no answer at all: offline), the advice to connect once.
    throw new ApiError((answer && binaryAnswerMessage(answer.data)) ?? cm.fileFetchFailed, answer?.status ?? null);
  }
}

interface OpenSession {
  session: Promise<InferenceSession>;
  /** Runs in progress: an evicted session is released when the last one ends. */
  running: number;
  evicted: boolean;
}

const openSessions = new Map<number, OpenSession>();

const release = (entry: OpenSession) => void entry.session.then((session) => session.release()).catch(() => undefined);

/** The open session of a model (its most recent use last), opening it when it is not. */
function sessionOf(model: AiModelRecord): OpenSession {
  const open = openSessions.get(model.model_id);
  if (open) {
    openSessions.delete(model.model_id);
    openSessions.set(model.model_id, open);
    return open;
  }
  const entry: OpenSession = {
    session: (async () => {
      const [ort, bytes] = await Promise.all([loadRuntime(), modelBytes(model.model_id)]);
      return ort.InferenceSession.create(new Uint8Array(bytes), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
    })(),
    running: 0,
    evicted: false,
  };
  // A model that failed to open (offline, never fetched) is not kept: the next call tries again.
  entry.session.catch(() => {
    if (openSessions.get(model.model_id) === entry) openSessions.delete(model.model_id);
  });
  openSessions.set(model.model_id, entry);
  while (openSessions.size > MAX_OPEN_SESSIONS) {
    const [oldestId, oldest] = openSessions.entries().next().value as [number, OpenSession];
    openSessions.delete(oldestId);
    oldest.evicted = true;
    if (oldest.running === 0) release(oldest);
  }
  return entry;
}

/**
 * Fetches what a model needs to run offline (the runtime and the model's file, both kept) and opens
 * it, so the first photo is classified at once. Failures (offline before they were ever fetched) are
 * the caller's to show: the model's message says to connect once.
 */
export async function warmClassifier(model: AiModelRecord): Promise<void> {
  await sessionOf(model).session;
}

/**
 * Classifies a photo with one of the company's models on the tablet: its findings, most confident
 * first (at most FINDINGS_TOP_K), as analyse_image's `findings` for the same photo. The image may be
 * of any size (it is resampled to the model's input); twice the input's side is plenty.
 */
export async function classifyOnTablet(model: AiModelRecord, image: RgbaImage): Promise<ClassifierFinding[]> {
  const entry = sessionOf(model);
  entry.running += 1;
  try {
    const [session, ort] = await Promise.all([entry.session, loadRuntime()]);
    const input = new ort.Tensor('float32', imageTensor(image, model.input), tensorShape(model.input));
    const outputs = await session.run({ [model.input_name]: input }, [model.output_name]);
    const scores = outputs[model.output_name]?.data;
    if (!(scores instanceof Float32Array)) throw new Error(`no float32 output ${model.output_name}`);
    if (scores.length !== model.labels.length) throw new ApiError(cm.labelCountMismatch(scores.length, model.labels.length));
    return findingsOf(scores, model.labels);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.error('the AI model failed on this tablet', error);
    throw new ApiError(cm.runtimeFailed);
  } finally {
    entry.running -= 1;
    if (entry.evicted && entry.running === 0) release(entry);
  }
}

/**
 * Drops the kept files of models that are no longer the company's (deleted, or replaced by a newer
 * version that is not `keep`): a tablet keeps the files it may run, not every version ever fetched.
 */
export async function forgetModelFiles(keepModelIds: readonly number[]): Promise<void> {
  const storage = cacheStorage();
  const kept = new Set(keepModelIds.map(String));
  const isForgotten = (key: string) => {
    const id = /[?&]model_id=(\d+)/.exec(key)?.[1];
    return id !== undefined && !kept.has(id);
  };
  if (!storage) {
    for (const key of inMemory.keys()) if (isForgotten(key)) inMemory.delete(key);
    return;
  }
  const cache = await storage.open(CACHE_NAME);
  for (const request of await cache.keys()) if (isForgotten(request.url)) await cache.delete(request);
}
