/**
 * Single-channel planes and binary masks the scan analyses work on (issue 17): min/max and box
 * filters, connected components with their moments, hole filling and binary morphology. Pure
 * TypeScript over typed arrays, row by row, `width * height` long; no DOM and no Node APIs.
 */

/** A single-channel plane of `width * height` values, row by row. */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

/**
 * A running max over `size` samples of one line (van Herk/Gil-Werman: three comparisons a sample
 * whatever the size). Reads `length` samples of `source` from `offset` every `stride`, writes the
 * centred window's maximum into `target` at the same places; outside the line counts as absent.
 * A min filter is this on negated values (see extremeFilter).
 */
function maxLine(source: Float32Array, target: Float32Array, offset: number, stride: number, length: number, size: number, forward: Float32Array, backward: Float32Array): void {
  const half = size >> 1;
  // Padded line: `half` absent samples each side, rounded up to whole blocks.
  const padded = Math.ceil((length + 2 * half) / size) * size;
  for (let index = 0; index < padded; index += 1) {
    const at = index - half;
    const value = at >= 0 && at < length ? source[offset + at * stride]! : -Infinity;
    // A block starts afresh; within it, the running max.
    forward[index] = index % size === 0 ? value : Math.max(value, forward[index - 1]!);
  }
  for (let index = padded - 1; index >= 0; index -= 1) {
    const at = index - half;
    const value = at >= 0 && at < length ? source[offset + at * stride]! : -Infinity;
    backward[index] = index % size === size - 1 ? value : Math.max(value, backward[index + 1]!);
  }
  for (let at = 0; at < length; at += 1) {
    // Window [at, at + size) of the padded line is centred on sample `at`.
    const left = backward[at]!;
    const right = forward[at + size - 1]!;
    target[offset + at * stride] = left > right ? left : right;
  }
}

/** A square min (erosion) or max (dilation) filter of side `size` (odd), separable: rows, then columns. */
export function extremeFilter(plane: Plane, size: number, isMax: boolean): Plane {
  const { width, height } = plane;
  const longest = Math.max(width, height) + 2 * size;
  const forward = new Float32Array(longest);
  const backward = new Float32Array(longest);
  // min(x) = −max(−x): one loop serves both.
  let source = plane.data;
  if (!isMax) {
    source = new Float32Array(width * height);
    for (let index = 0; index < source.length; index += 1) source[index] = -plane.data[index]!;
  }
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y += 1) maxLine(source, rows, y * width, 1, width, size, forward, backward);
  const out = new Float32Array(width * height);
  for (let x = 0; x < width; x += 1) maxLine(rows, out, x, width, height, size, forward, backward);
  if (!isMax) for (let index = 0; index < out.length; index += 1) out[index] = -out[index]!;
  return { width, height, data: out };
}

/** A box blur of radius `radius` (window 2r+1), separable, edges averaged over the part inside the image. */
export function boxBlur(plane: Plane, radius: number): Plane {
  const { width, height } = plane;
  if (radius < 1) return { width, height, data: plane.data.slice() };
  const rows = new Float32Array(width * height);
  const blurLine = (source: Float32Array, target: Float32Array, offset: number, stride: number, length: number) => {
    let sum = 0;
    let count = 0;
    for (let at = 0; at < Math.min(radius, length); at += 1) {
      sum += source[offset + at * stride]!;
      count += 1;
    }
    for (let at = 0; at < length; at += 1) {
      const entering = at + radius;
      if (entering < length) {
        sum += source[offset + entering * stride]!;
        count += 1;
      }
      const leaving = at - radius - 1;
      if (leaving >= 0) {
        sum -= source[offset + leaving * stride]!;
        count -= 1;
      }
      target[offset + at * stride] = sum / count;
    }
  };
  for (let y = 0; y < height; y += 1) blurLine(plane.data, rows, y * width, 1, width);
  const out = new Float32Array(width * height);
  for (let x = 0; x < width; x += 1) blurLine(rows, out, x, width, height);
  return { width, height, data: out };
}

/** What labelling measures of each connected component: its area, bounds and the sums its centroid and second moments come from. */
export interface ComponentStats {
  area: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  sumX: number;
  sumY: number;
  sumXX: number;
  sumYY: number;
  sumXY: number;
}

export interface Components {
  /** Each pixel's component, 1..count; 0 outside the mask. */
  labels: Int32Array;
  count: number;
  /** Indexed by label - 1. */
  stats: ComponentStats[];
}

/** Root of `index` in a union-find forest, halving the path as it goes. */
function rootOf(parent: Int32Array, index: number): number {
  let at = index;
  while (parent[at] !== at) {
    const up = parent[parent[at]!]!;
    parent[at] = up;
    at = up;
  }
  return at;
}

/**
 * Connected components of the non-zero pixels of `mask` (8-connected), by one union-find pass and a
 * relabelling pass, with each component's stats.
 */
export function labelComponents(mask: Uint8Array, width: number, height: number): Components {
  const size = width * height;
  const parent = new Int32Array(size).fill(-1);
  const union = (a: number, b: number) => {
    const rootA = rootOf(parent, a);
    const rootB = rootOf(parent, b);
    if (rootA < rootB) parent[rootB] = rootA;
    else if (rootB < rootA) parent[rootA] = rootB;
  };
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      const index = row + x;
      if (!mask[index]) continue;
      parent[index] = index;
      if (x > 0 && mask[index - 1]) union(index, index - 1);
      if (y > 0) {
        const above = index - width;
        if (mask[above]) union(index, above);
        if (x > 0 && mask[above - 1]) union(index, above - 1);
        if (x < width - 1 && mask[above + 1]) union(index, above + 1);
      }
    }
  }
  const labels = new Int32Array(size);
  const labelOfRoot = new Int32Array(size);
  const stats: ComponentStats[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    for (let x = 0; x < width; x += 1) {
      const index = row + x;
      if (parent[index]! < 0) continue;
      const root = rootOf(parent, index);
      let label = labelOfRoot[root]!;
      if (label === 0) {
        stats.push({ area: 0, minX: x, minY: y, maxX: x, maxY: y, sumX: 0, sumY: 0, sumXX: 0, sumYY: 0, sumXY: 0 });
        label = stats.length;
        labelOfRoot[root] = label;
      }
      labels[index] = label;
      const stat = stats[label - 1]!;
      stat.area += 1;
      if (x < stat.minX) stat.minX = x;
      if (x > stat.maxX) stat.maxX = x;
      if (y > stat.maxY) stat.maxY = y;
      stat.sumX += x;
      stat.sumY += y;
      stat.sumXX += x * x;
      stat.sumYY += y * y;
      stat.sumXY += x * y;
    }
  }
  return { labels, count: stats.length, stats };
}

/** The ellipse with a component's centroid and second moments: centre, semi-axes (major ≥ minor) and the major axis's angle in radians. */
export interface Ellipse {
  x: number;
  y: number;
  major: number;
  minor: number;
  angle: number;
}

export function ellipseOf(stat: ComponentStats): Ellipse {
  const x = stat.sumX / stat.area;
  const y = stat.sumY / stat.area;
  // Central second moments; + 1/12 is a pixel's own spread, so a one-pixel component has a real size.
  const xx = stat.sumXX / stat.area - x * x + 1 / 12;
  const yy = stat.sumYY / stat.area - y * y + 1 / 12;
  const xy = stat.sumXY / stat.area - x * y;
  const mean = (xx + yy) / 2;
  const spread = Math.sqrt(((xx - yy) / 2) ** 2 + xy * xy);
  // A uniform ellipse with semi-axis a has variance a²/4 along it.
  return { x, y, major: 2 * Math.sqrt(mean + spread), minor: 2 * Math.sqrt(Math.max(0, mean - spread)), angle: 0.5 * Math.atan2(2 * xy, xx - yy) };
}

/** `mask` with its holes filled: every zero pixel not connected (4-connected) to the border through zeros becomes 1. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const outside = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let top = 0;
  const seed = (index: number) => {
    if (!mask[index] && !outside[index]) {
      outside[index] = 1;
      stack[top] = index;
      top += 1;
    }
  };
  for (let x = 0; x < width; x += 1) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y += 1) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (top > 0) {
    top -= 1;
    const index = stack[top]!;
    const x = index % width;
    if (x > 0) seed(index - 1);
    if (x < width - 1) seed(index + 1);
    if (index >= width) seed(index - width);
    if (index < width * (height - 1)) seed(index + width);
  }
  const filled = new Uint8Array(width * height);
  for (let index = 0; index < filled.length; index += 1) filled[index] = outside[index] ? 0 : 1;
  return filled;
}

/**
 * A binary mask dilated (isMax true) or eroded (false) by a square of side `size` (odd), separable:
 * a running count of set pixels over each window of rows, then of columns. Off the image counts as
 * absent (erosion does not eat in from the image's border) unless `offImageIsClear`, when erosion
 * eats in from it as from any clear pixel.
 */
export function morphMask(mask: Uint8Array, width: number, height: number, size: number, isMax: boolean, offImageIsClear = false): Uint8Array {
  const half = size >> 1;
  const pass = (source: Uint8Array, target: Uint8Array, offset: number, stride: number, length: number) => {
    let set = 0;
    let inside = 0;
    for (let at = 0; at < Math.min(half, length); at += 1) {
      set += source[offset + at * stride]!;
      inside += 1;
    }
    for (let at = 0; at < length; at += 1) {
      if (at + half < length) {
        set += source[offset + (at + half) * stride]!;
        inside += 1;
      }
      if (at - half - 1 >= 0) {
        set -= source[offset + (at - half - 1) * stride]!;
        inside -= 1;
      }
      target[offset + at * stride] = isMax ? (set > 0 ? 1 : 0) : set === (offImageIsClear ? size : inside) ? 1 : 0;
    }
  };
  const rows = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) pass(mask, rows, y * width, 1, width);
  const out = new Uint8Array(width * height);
  for (let x = 0; x < width; x += 1) pass(rows, out, x, width, height);
  return out;
}
