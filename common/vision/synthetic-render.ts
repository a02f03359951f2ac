/**
 * Drawing helpers the synthetic photos share (synthetic-trap.ts, synthetic-leaf.ts): a picture is a
 * Float32Array of RGB triples, row by row, finished into an RgbaImage with blur and sensor noise.
 * For tests and benches: nothing here runs in a scan.
 */
import type { RgbaImage } from './image';

export type Rgb = readonly [number, number, number];

/** An RGB picture being drawn: `width * height * 3` values, 0–255. */
export interface Canvas {
  width: number;
  height: number;
  data: Float32Array;
}

export function canvasOf(width: number, height: number): Canvas {
  return { width, height, data: new Float32Array(width * height * 3) };
}

/** Blends `colour` over pixel `index` with opacity `alpha`. */
export function blend(canvas: Canvas, index: number, colour: Rgb, alpha: number): void {
  const p = index * 3;
  const { data } = canvas;
  data[p] = data[p]! * (1 - alpha) + colour[0] * alpha;
  data[p + 1] = data[p + 1]! * (1 - alpha) + colour[1] * alpha;
  data[p + 2] = data[p + 2]! * (1 - alpha) + colour[2] * alpha;
}

/**
 * Draws an ellipse (centre, semi-axes `a` ≥ `b`, angle in radians) blending `colour` at `opacity`,
 * its edge anti-aliased over about a pixel. Answers how many pixels it covered, counting partial
 * ones by their coverage.
 */
export function drawEllipse(canvas: Canvas, cx: number, cy: number, a: number, b: number, angle: number, colour: Rgb, opacity: number): number {
  const { width, height } = canvas;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const extent = a + 2;
  const x0 = Math.max(0, Math.floor(cx - extent));
  const x1 = Math.min(width - 1, Math.ceil(cx + extent));
  const y0 = Math.max(0, Math.floor(cy - extent));
  const y1 = Math.min(height - 1, Math.ceil(cy + extent));
  let covered = 0;
  for (let y = y0; y <= y1; y += 1) {
    for (let x = x0; x <= x1; x += 1) {
      const dx = x + 0.5 - cx;
      const dy = y + 0.5 - cy;
      const u = dx * cos + dy * sin;
      const v = -dx * sin + dy * cos;
      const d = Math.sqrt((u / a) ** 2 + (v / b) ** 2);
      // Distance inside the edge in pixels, about (1 − d) times the semi-axis crossed; the minor one, to be safe on thin shapes.
      const coverage = Math.min(1, Math.max(0, 0.5 + (1 - d) * b));
      if (coverage <= 0) continue;
      blend(canvas, y * width + x, colour, coverage * opacity);
      covered += coverage;
    }
  }
  return covered;
}

/**
 * Blurs the canvas like a Gaussian of `sigma` pixels: three box passes whose widths are chosen so
 * their variances add up to sigma² (Kovesi's boxes for a Gaussian).
 */
export function blurCanvas(canvas: Canvas, sigma: number): void {
  if (sigma <= 0.3) return;
  const passes = 3;
  const ideal = Math.sqrt((12 * sigma * sigma) / passes + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower -= 1;
  const lowerPasses = Math.round((12 * sigma * sigma - passes * lower * lower - 4 * passes * lower - 3 * passes) / (-4 * lower - 4));
  for (let round = 0; round < passes; round += 1) {
    const radius = ((round < lowerPasses ? lower : lower + 2) - 1) / 2;
    if (radius < 1) continue;
    boxRows(canvas, radius);
    boxColumns(canvas, radius);
  }
}

/** A box blur of `radius` along each row, the three channels together. */
function boxRows(canvas: Canvas, radius: number): void {
  const { width, height, data } = canvas;
  const line = new Float32Array(width * 3);
  for (let y = 0; y < height; y += 1) {
    const row = y * width * 3;
    line.set(data.subarray(row, row + width * 3));
    let r = 0;
    let g = 0;
    let b = 0;
    let count = 0;
    for (let x = 0; x < Math.min(radius, width); x += 1) {
      r += line[x * 3]!;
      g += line[x * 3 + 1]!;
      b += line[x * 3 + 2]!;
      count += 1;
    }
    for (let x = 0; x < width; x += 1) {
      const entering = x + radius;
      if (entering < width) {
        r += line[entering * 3]!;
        g += line[entering * 3 + 1]!;
        b += line[entering * 3 + 2]!;
        count += 1;
      }
      const leaving = x - radius - 1;
      if (leaving >= 0) {
        r -= line[leaving * 3]!;
        g -= line[leaving * 3 + 1]!;
        b -= line[leaving * 3 + 2]!;
        count -= 1;
      }
      const p = row + x * 3;
      data[p] = r / count;
      data[p + 1] = g / count;
      data[p + 2] = b / count;
    }
  }
}

/**
 * A box blur of `radius` down each column, row by row (running sums per column, so memory is read in
 * order): the rows that leave the window are kept, as they were, in a ring of radius + 1 rows.
 */
function boxColumns(canvas: Canvas, radius: number): void {
  const { width, height, data } = canvas;
  const rowLength = width * 3;
  const sums = new Float64Array(rowLength);
  const ring = new Float32Array((radius + 1) * rowLength);
  let count = 0;
  for (let y = 0; y < Math.min(radius, height); y += 1) {
    for (let index = 0; index < rowLength; index += 1) sums[index]! += data[y * rowLength + index]!;
    count += 1;
  }
  for (let y = 0; y < height; y += 1) {
    const entering = y + radius;
    if (entering < height) {
      const from = entering * rowLength;
      for (let index = 0; index < rowLength; index += 1) sums[index]! += data[from + index]!;
      count += 1;
    }
    // Row y − radius − 1 sits in the ring slot that row y takes next.
    const slot = (y % (radius + 1)) * rowLength;
    if (y - radius - 1 >= 0) {
      for (let index = 0; index < rowLength; index += 1) sums[index]! -= ring[slot + index]!;
      count -= 1;
    }
    const row = y * rowLength;
    ring.set(data.subarray(row, row + rowLength), slot);
    for (let index = 0; index < rowLength; index += 1) data[row + index] = sums[index]! / count;
  }
}

/** The canvas as an RGBA image, with sensor noise of standard deviation `noise` levels, about Gaussian, independent per channel. */
export function finish(canvas: Canvas, noise: number, random: () => number): RgbaImage {
  const { width, height, data } = canvas;
  const out = new Uint8ClampedArray(width * height * 4);
  // A table of noise values drawn from `random` (each a sum of three uniforms, variance 1/4, times
  // 2·noise), read at places a fast xorshift picks: tens of millions of draws cost little.
  const table = Float32Array.from({ length: 1 << 16 }, () => (random() + random() + random() - 1.5) * 2 * noise);
  let state = Math.floor(random() * 0xffffffff) | 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return table[state & 0xffff]!;
  };
  for (let index = 0, p = 0, o = 0; index < width * height; index += 1, p += 3, o += 4) {
    out[o] = data[p]! + next();
    out[o + 1] = data[p + 1]! + next();
    out[o + 2] = data[p + 2]! + next();
    out[o + 3] = 255;
  }
  return { width, height, data: out };
}
