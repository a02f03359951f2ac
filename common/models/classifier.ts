/**
 * What both runtimes of a company's image classifier share (issue 17): the server's (onnxruntime-node,
 * server/domains/models/analyse.ts) and the tablet's (onnxruntime-web, src/features/scans/classifier.ts)
 * turn an image into the model's input tensor and its output into findings here, so one photo gives
 * the same findings on both. Plain TypeScript over typed arrays: no DOM, no Node.
 */
import type { AiModelInput, AiModelLabel, ClassifierFinding } from '../schemas/models';
import type { RgbaImage } from '../vision/image';

/** An image as RGBA bytes, row by row: common/vision's, which both runtimes decode photos into. */
export type { RgbaImage };

/** Findings an analysis reports: the most confident labels. */
export const FINDINGS_TOP_K = 5;

/** One output sample's share of the source: source index and weight (the weights of a sample sum to 1). */
type Taps = Array<{ index: number; weight: number }>;

/**
 * The source samples each of `targetSize` outputs reads along one axis of `sourceSize`. Shrinking:
 * the area the output pixel covers (a box filter with fractional edges), so no source pixel is skipped
 * and a 12-megapixel photo does not alias into noise. Enlarging: bilinear, between the two nearest
 * source pixel centres.
 */
function tapsAlong(sourceSize: number, targetSize: number): Taps[] {
  const scale = sourceSize / targetSize;
  const taps: Taps[] = [];
  for (let target = 0; target < targetSize; target += 1) {
    if (scale >= 1) {
      const start = target * scale;
      const end = start + scale;
      const samples: Taps = [];
      for (let index = Math.floor(start); index < Math.min(Math.ceil(end), sourceSize); index += 1) {
        const covered = Math.min(end, index + 1) - Math.max(start, index);
        if (covered > 0) samples.push({ index, weight: covered / scale });
      }
      taps.push(samples);
    } else {
      const centre = Math.min(Math.max((target + 0.5) * scale - 0.5, 0), sourceSize - 1);
      const low = Math.floor(centre);
      const high = Math.min(low + 1, sourceSize - 1);
      const fraction = centre - low;
      taps.push(high === low || fraction === 0 ? [{ index: low, weight: 1 }] : [{ index: low, weight: 1 - fraction }, { index: high, weight: fraction }]);
    }
  }
  return taps;
}

/**
 * The model's input tensor for an image: resized to the input's width × height (see `tapsAlong`;
 * the aspect ratio is not kept, as most classifiers were trained on squashed or centre-cropped
 * images), each channel value v becoming (v / 255 − mean[c]) / std[c], in the input's layout: NCHW
 * ([1, 3, H, W]) or NHWC ([1, H, W, 3]). Alpha is ignored (photos are opaque).
 */
export function imageTensor(image: RgbaImage, input: AiModelInput): Float32Array {
  const { width, height, layout, mean, std } = input;
  if (image.width < 1 || image.height < 1 || image.data.length < image.width * image.height * 4) throw new Error('imageTensor: the image has no pixels or too few bytes');
  const columns = tapsAlong(image.width, width);
  const rows = tapsAlong(image.height, height);
  // Horizontal pass first: every source row resized to `width`, 3 channels (0..255).
  const resizedRows = new Float32Array(image.height * width * 3);
  const source = image.data;
  for (let y = 0; y < image.height; y += 1) {
    const rowStart = y * image.width * 4;
    for (let x = 0; x < width; x += 1) {
      let red = 0;
      let green = 0;
      let blue = 0;
      for (const { index, weight } of columns[x] ?? []) {
        const at = rowStart + index * 4;
        red += (source[at] ?? 0) * weight;
        green += (source[at + 1] ?? 0) * weight;
        blue += (source[at + 2] ?? 0) * weight;
      }
      const out = (y * width + x) * 3;
      resizedRows[out] = red;
      resizedRows[out + 1] = green;
      resizedRows[out + 2] = blue;
    }
  }
  const scale = [0, 1, 2].map((channel) => 1 / (255 * (std[channel] ?? 1)));
  const offset = [0, 1, 2].map((channel) => (mean[channel] ?? 0) / (std[channel] ?? 1));
  const tensor = new Float32Array(3 * width * height);
  const plane = width * height;
  for (let y = 0; y < height; y += 1) {
    const taps = rows[y] ?? [];
    for (let x = 0; x < width; x += 1) {
      for (let channel = 0; channel < 3; channel += 1) {
        let value = 0;
        for (const { index, weight } of taps) value += (resizedRows[(index * width + x) * 3 + channel] ?? 0) * weight;
        const normalised = value * (scale[channel] ?? 0) - (offset[channel] ?? 0);
        tensor[layout === 'NCHW' ? channel * plane + y * width + x : (y * width + x) * 3 + channel] = normalised;
      }
    }
  }
  return tensor;
}

/** The tensor's shape for the input. */
export const tensorShape = (input: AiModelInput): number[] => (input.layout === 'NCHW' ? [1, 3, input.height, input.width] : [1, input.height, input.width, 3]);

/**
 * Scores as probabilities. The rule: outputs that are all within 0..1 and sum to 1 (± 0.01) already
 * are probabilities (the model ends in a Softmax) and are kept; anything else is taken for logits and
 * goes through a softmax. A multi-label model's independent sigmoid scores are therefore softmaxed too:
 * their order, and so the top finding, is kept, but the confidences then share 1 between the labels.
 */
export function probabilitiesOf(scores: ArrayLike<number>): number[] {
  const values = Array.from(scores);
  const sum = values.reduce((total, value) => total + value, 0);
  if (values.every((value) => value >= 0 && value <= 1) && Math.abs(sum - 1) <= 0.01) return values;
  const highest = Math.max(...values);
  const exponentials = values.map((value) => Math.exp(value - highest));
  const total = exponentials.reduce((sumSoFar, value) => sumSoFar + value, 0);
  return exponentials.map((value) => value / total);
}

/**
 * The findings of one image's scores (one per label, in the labels' order): the `topK` most
 * confident labels, most confident first (ties in label order), with their catalogue problems.
 * Throws when the count differs (a model that does not match its labels).
 */
export function findingsOf(scores: ArrayLike<number>, labels: readonly AiModelLabel[], topK = FINDINGS_TOP_K): ClassifierFinding[] {
  if (scores.length !== labels.length) throw new Error(`The model gave ${scores.length} scores for ${labels.length} labels`);
  const probabilities = probabilitiesOf(scores);
  return labels
    .map((label, index) => ({ label: label.label, problem_slug: label.problem_slug, confidence: probabilities[index] ?? 0, index }))
    .sort((a, b) => b.confidence - a.confidence || a.index - b.index)
    .slice(0, topK)
    .map(({ label, problem_slug, confidence }) => ({ label, problem_slug, confidence }));
}
