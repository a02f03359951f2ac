/**
 * The image shape the scan analyses work on (issue 17), with the helpers that read it: shrinking by
 * area averaging, HSV colour, brightness, and a seeded random generator for the synthetic photos.
 *
 * Pure TypeScript over typed arrays: no DOM and no Node APIs, so the same code runs in the tablet's
 * Web Worker (a canvas's ImageData is an RgbaImage) and on the server (sharp's raw RGBA output).
 * Planes, masks and connected components are planes.ts's.
 */
import type { Plane } from './planes';

/** An RGBA image, 8 bits a channel, row by row: what a canvas's `ImageData` is. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Spans of source pixels each output pixel averages over: start, end (exclusive) and the weights of the first and last. */
interface AreaSpans {
  start: Int32Array;
  end: Int32Array;
  firstWeight: Float32Array;
  lastWeight: Float32Array;
}

/** For `outSize` output pixels over `inSize` input pixels: the input span of each and its end weights (area averaging). */
function areaSpans(inSize: number, outSize: number): AreaSpans {
  const scale = inSize / outSize;
  const spans: AreaSpans = { start: new Int32Array(outSize), end: new Int32Array(outSize), firstWeight: new Float32Array(outSize), lastWeight: new Float32Array(outSize) };
  for (let out = 0; out < outSize; out += 1) {
    const from = out * scale;
    const to = Math.min(inSize, (out + 1) * scale);
    const start = Math.floor(from);
    const end = Math.min(inSize, Math.ceil(to - 1e-9));
    spans.start[out] = start;
    spans.end[out] = end;
    // A span within one pixel: its only pixel weighs the whole span.
    spans.firstWeight[out] = end - start === 1 ? to - from : start + 1 - from;
    spans.lastWeight[out] = end - start === 1 ? to - from : to - (end - 1);
  }
  return spans;
}

/**
 * The image scaled to `width` × `height` (not larger than it is) by area averaging: each output pixel
 * is the mean of the source area it covers, so fine noise averages out instead of aliasing as a
 * nearest-pixel or bilinear shrink would. Streams row by row: memory is two output rows, whatever
 * the source's size.
 */
export function downscale(image: RgbaImage, width: number, height: number): RgbaImage {
  if (width >= image.width && height >= image.height) return image;
  const factor = image.width / width;
  if (Number.isInteger(factor) && image.height / height === factor) return downscaleByWhole(image, factor);
  const columns = areaSpans(image.width, width);
  const rows = areaSpans(image.height, height);
  const out = new Uint8ClampedArray(width * height * 4);
  const rowSum = new Float32Array(width * 4);
  const accumulated = new Float32Array(width * 4);
  const source = image.data;
  const area = (image.width / width) * (image.height / height);
  let cachedRow = -1;
  const reduceRow = (y: number) => {
    if (cachedRow === y) return;
    cachedRow = y;
    const base = y * image.width * 4;
    for (let x = 0; x < width; x += 1) {
      const start = columns.start[x]!;
      const end = columns.end[x]!;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sx = start + 1; sx < end - 1; sx += 1) {
        const index = base + sx * 4;
        r += source[index]!;
        g += source[index + 1]!;
        b += source[index + 2]!;
        a += source[index + 3]!;
      }
      const first = base + start * 4;
      const firstWeight = columns.firstWeight[x]!;
      r += source[first]! * firstWeight;
      g += source[first + 1]! * firstWeight;
      b += source[first + 2]! * firstWeight;
      a += source[first + 3]! * firstWeight;
      if (end - start > 1) {
        const last = base + (end - 1) * 4;
        const lastWeight = columns.lastWeight[x]!;
        r += source[last]! * lastWeight;
        g += source[last + 1]! * lastWeight;
        b += source[last + 2]! * lastWeight;
        a += source[last + 3]! * lastWeight;
      }
      const o = x * 4;
      rowSum[o] = r;
      rowSum[o + 1] = g;
      rowSum[o + 2] = b;
      rowSum[o + 3] = a;
    }
  };
  const add = (weight: number) => {
    for (let index = 0; index < accumulated.length; index += 1) accumulated[index]! += rowSum[index]! * weight;
  };
  for (let y = 0; y < height; y += 1) {
    accumulated.fill(0);
    const start = rows.start[y]!;
    const end = rows.end[y]!;
    for (let sy = start; sy < end; sy += 1) {
      reduceRow(sy);
      add(sy === start ? rows.firstWeight[y]! : sy === end - 1 ? rows.lastWeight[y]! : 1);
    }
    const o = y * width * 4;
    for (let index = 0; index < accumulated.length; index += 1) out[o + index] = accumulated[index]! / area;
  }
  return { width, height, data: out };
}

/**
 * `downscale` by a whole factor (a 4000 × 3000 photo to 2000 × 1500): each output pixel the rounded
 * mean of a factor × factor block. Sums two channels at a time in the 16-bit halves of a 32-bit
 * integer (a block of up to 16 × 16 pixels fits), a quarter of the work of summing channel by channel.
 */
function downscaleByWhole(image: RgbaImage, factor: number): RgbaImage {
  const { data } = image;
  if (factor > 16 || data.byteOffset % 4 !== 0) return downscaleByChannel(image, factor);
  const width = image.width / factor;
  const height = image.height / factor;
  const out = new Uint8ClampedArray(width * height * 4);
  const source = new Uint32Array(data.buffer, data.byteOffset, image.width * image.height);
  const target = new Uint32Array(out.buffer);
  // Per output pixel of a row: channels 0 and 2 (even bytes) and 1 and 3 (odd bytes), two per integer.
  const even = new Uint32Array(width);
  const odd = new Uint32Array(width);
  const area = factor * factor;
  const half = area >> 1;
  for (let y = 0; y < height; y += 1) {
    even.fill(0);
    odd.fill(0);
    for (let sy = y * factor; sy < (y + 1) * factor; sy += 1) {
      let p = sy * image.width;
      for (let x = 0; x < width; x += 1) {
        let lanesEven = 0;
        let lanesOdd = 0;
        for (let step = 0; step < factor; step += 1, p += 1) {
          const pixel = source[p]!;
          lanesEven += pixel & 0x00ff00ff;
          lanesOdd += (pixel >>> 8) & 0x00ff00ff;
        }
        even[x]! += lanesEven;
        odd[x]! += lanesOdd;
      }
    }
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      const e = even[x]!;
      const o = odd[x]!;
      const c0 = Math.floor(((e & 0xffff) + half) / area);
      const c2 = Math.floor(((e >>> 16) + half) / area);
      const c1 = Math.floor(((o & 0xffff) + half) / area);
      const c3 = Math.floor(((o >>> 16) + half) / area);
      target[row + x] = (c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)) >>> 0;
    }
  }
  return { width, height, data: out };
}

/** `downscaleByWhole` channel by channel, for an image whose bytes do not start on a 4-byte boundary. */
function downscaleByChannel(image: RgbaImage, factor: number): RgbaImage {
  const width = image.width / factor;
  const height = image.height / factor;
  const out = new Uint8ClampedArray(width * height * 4);
  const sums = new Uint32Array(width * 4);
  const source = image.data;
  const area = factor * factor;
  for (let y = 0; y < height; y += 1) {
    sums.fill(0);
    for (let sy = y * factor; sy < (y + 1) * factor; sy += 1) {
      let p = sy * image.width * 4;
      for (let x = 0; x < width; x += 1) {
        const o = x * 4;
        for (let step = 0; step < factor; step += 1, p += 4) {
          sums[o]! += source[p]!;
          sums[o + 1]! += source[p + 1]!;
          sums[o + 2]! += source[p + 2]!;
          sums[o + 3]! += source[p + 3]!;
        }
      }
    }
    const o = y * width * 4;
    for (let index = 0; index < sums.length; index += 1) out[o + index] = sums[index]! / area;
  }
  return { width, height, data: out };
}

/**
 * The image scaled so its long side is about `longSide` (never enlarged), and how many source pixels
 * a pixel of it spans. A whole factor is preferred when it lands within a fifth of `longSide` (a
 * 4032 × 3024 phone photo halves to 2016 × 1512, dropping nothing but a remainder column or row of
 * fewer than `factor` pixels): block means are exact and several times faster than area averaging.
 */
export function shrinkToLongSide(image: RgbaImage, longSide: number): { image: RgbaImage; scale: number } {
  const long = Math.max(image.width, image.height);
  if (long <= longSide) return { image, scale: 1 };
  const factor = Math.round(long / longSide);
  if (factor >= 2 && Math.abs(long / factor - longSide) <= longSide / 5) {
    const width = Math.floor(image.width / factor);
    const height = Math.floor(image.height / factor);
    const cropped = width * factor === image.width && height * factor === image.height ? image : crop(image, width * factor, height * factor);
    return { image: downscaleByWhole(cropped, factor), scale: factor };
  }
  const scale = long / longSide;
  const width = Math.max(1, Math.round(image.width / scale));
  const height = Math.max(1, Math.round(image.height / scale));
  return { image: downscale(image, width, height), scale: image.width / width };
}

/** The image scaled so its long side is about `longSide` (see shrinkToLongSide); the image itself when it is already that small. */
export function downscaleToLongSide(image: RgbaImage, longSide: number): RgbaImage {
  return shrinkToLongSide(image, longSide).image;
}

/** The top-left `width` × `height` of the image. */
function crop(image: RgbaImage, width: number, height: number): RgbaImage {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) out.set(image.data.subarray(y * image.width * 4, (y * image.width + width) * 4), y * width * 4);
  return { width, height, data: out };
}

/** Hue in degrees (0–360), saturation and value (0–1) of an 8-bit RGB colour, written into `out`. */
export function hsvOf(r: number, g: number, b: number, out: { h: number; s: number; v: number }): void {
  const max = r > g ? (r > b ? r : b) : g > b ? g : b;
  const min = r < g ? (r < b ? r : b) : g < b ? g : b;
  const delta = max - min;
  out.v = max / 255;
  out.s = max === 0 ? 0 : delta / max;
  if (delta === 0) out.h = 0;
  else if (max === r) out.h = (((g - b) / delta + 6) % 6) * 60;
  else if (max === g) out.h = ((b - r) / delta + 2) * 60;
  else out.h = ((r - g) / delta + 4) * 60;
}

/** The brightest channel of each pixel (HSV's value, 0–255): dark insects and printed lines are dark in it on a yellow or a blue card alike. */
export function valuePlane(image: RgbaImage): Plane {
  const { width, height, data } = image;
  const out = new Float32Array(width * height);
  for (let index = 0, p = 0; index < out.length; index += 1, p += 4) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    out[index] = r > g ? (r > b ? r : b) : g > b ? g : b;
  }
  return { width, height, data: out };
}

/**
 * A small deterministic random generator (mulberry32): the synthetic images and anything sampled are
 * the same on every run and every machine.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
