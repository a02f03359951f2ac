/**
 * `BENCH_ONLY=vision npm run bench` (issue 17): image analysis on the server, each photo a 12-megapixel
 * JPEG (4000 × 3000) as a tablet's camera or an automated camera sends it, through the functions
 * server/domains/models/analyse.ts composes (decodePhoto, then the analysis):
 * - the sticky-trap counter (common/vision, the tablet's own code) on one trap photo;
 * - a company classifier's time per image in ONNX Runtime for Node: decoding, the input tensor
 *   (common/models/classifier.ts) and the run, with a small convolutional classifier built here
 *   (tests/support/onnx-model.ts `smallConvClassifier`: 224 × 224, about 185 million multiply-adds, the
 *   order of a mobile image classifier's).
 * Each figure is the median of BENCH_VISION_RUNS (default 5) after one run to warm the JIT and open the
 * model. The photos are synthetic (common/vision/synthetic-*.ts), made before timing. The tablet's
 * counter figure, in Chromium (the issue's goal, ≤ 1.5 s), is `npm run bench:browser`'s.
 */
import sharp from 'sharp';
import { imageTensor } from '../common/models/classifier';
import type { RgbaImage } from '../common/vision/image';
import { countStickyTrap } from '../common/vision/sticky-trap';
import { syntheticLeaf } from '../common/vision/synthetic-leaf';
import { syntheticTrap } from '../common/vision/synthetic-trap';
import { decodePhoto } from '../server/domains/models/images';
import { runModel } from '../server/domains/models/runtime';
import { smallConvClassifier } from '../tests/support/onnx-model';
import { median } from './support';

const RUNS = Number(process.env.BENCH_VISION_RUNS ?? 5);
const TABLET_GOAL_MS = 1500;
/** The working sides of analyse.ts: the counter's, and a classifier's (twice its input's side). */
const TRAP_SIDE = 2000;
const CLASSIFIER_INPUT = { width: 224, height: 224, layout: 'NCHW' as const, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };

const jpegOf = (image: RgbaImage) => sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } }).jpeg({ quality: 90 }).toBuffer();

/** Median milliseconds of `RUNS` runs of `work`, after one to warm up. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return Math.round(median(times));
}

export async function measureVision(report: (line: string) => void = console.log): Promise<void> {
  const trap = syntheticTrap({ width: 4000, height: 3000, seed: 12, colour: 'yellow', insects: { thrips: 90, whitefly_aphid: 45, gnat_fly: 15 }, grid: true, lighting: 0.2, blur: 1.2, noise: 4, touching: 0.07 });
  const trapPhoto = await jpegOf(trap.image);
  let counted = 0;
  const trapMs = await timed(async () => {
    counted = countStickyTrap(await decodePhoto(trapPhoto, TRAP_SIDE)).marks.length;
  });

  const leafPhoto = await jpegOf(syntheticLeaf({ width: 4000, height: 3000, seed: 3, chlorotic: 0.2, powdery: 0.1 }).image);
  const classifierBytes = smallConvClassifier();
  const model = { id: -1, input: CLASSIFIER_INPUT, input_name: 'image', output_name: 'scores' };
  const classifierMs = await timed(async () => {
    const image = await decodePhoto(leafPhoto, 2 * CLASSIFIER_INPUT.width);
    await runModel(model, imageTensor(image, CLASSIFIER_INPUT), () => Promise.resolve(classifierBytes));
  });

  report(`\nImage analysis on the server (12-megapixel JPEG photos; median of ${RUNS} runs)\n`);
  report(`sticky-trap counter, one trap photo (${trap.truth.insects.length} insects, ${counted} counted): ${trapMs} ms (the tablet's goal is ≤ ${TABLET_GOAL_MS / 1000} s, bench:browser; server figure for reference)`);
  report(`company classifier, per image (224 × 224 convolutional, ~185 M multiply-adds, ONNX Runtime for Node): ${classifierMs} ms`);
}
