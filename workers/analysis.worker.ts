/**
 * The scan worker: analyses a box's photo off the page's thread (issue 17), so the scan screen stays
 * responsive while a 12-megapixel trap photo is counted. The browser decodes the photo and shrinks it
 * to the analysis's working size natively (createImageBitmap, OffscreenCanvas); the analysis itself is
 * common/vision's, the same code the server runs for automated cameras.
 */
import * as Comlink from 'comlink';
import type { RgbaImage } from '../common/vision/image';

/** The long side the photo is drawn at for each analysis: the counter's working size, the colour analysis's. */
export const WORKING_LONG_SIDE = { sticky_trap: 2000, leaf_colour: 800 } as const;

export type Analysis = keyof typeof WORKING_LONG_SIDE;

/** The photo as RGBA pixels with its long side at most `longSide` (never enlarged). */
async function pixelsOf(photo: Blob, longSide: number): Promise<RgbaImage> {
  const bitmap = await createImageBitmap(photo);
  try {
    const scale = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('This browser cannot read photos here.');
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const { data } = context.getImageData(0, 0, width, height);
    return { width, height, data };
  } finally {
    bitmap.close();
  }
}

const api = {
  /** The sticky-trap counter on the photo: the card, its marks (fractions of the photo) and counts. */
  async countTrap(photo: Blob) {
    const [{ countStickyTrap }, image] = await Promise.all([import('../common/vision/sticky-trap'), pixelsOf(photo, WORKING_LONG_SIDE.sticky_trap)]);
    return countStickyTrap(image);
  },
  /** The leaf-colour analysis of the photo: shares of chlorotic, necrotic and powdery-white leaf and the problems they suggest. */
  async analyseLeafColour(photo: Blob) {
    const [{ analyseLeafColour }, image] = await Promise.all([import('../common/vision/leaf-colour'), pixelsOf(photo, WORKING_LONG_SIDE.leaf_colour)]);
    return analyseLeafColour(image);
  },
  /** The photo's pixels at most `longSide` a side, for a classifier that runs on the page. */
  async pixels(photo: Blob, longSide: number): Promise<RgbaImage> {
    const image = await pixelsOf(photo, longSide);
    return Comlink.transfer(image, [image.data.buffer]);
  },
};

export type AnalysisWorkerApi = typeof api;

Comlink.expose(api);
