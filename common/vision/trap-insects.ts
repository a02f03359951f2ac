/**
 * Finding and counting the insects on a sticky card, in the card's own frame (issue 17; the counter's
 * steps 4 to 6, see sticky-trap.ts). Sizes are in millimetres of the card: the caller says how many
 * frame pixels a millimetre is.
 */
import { boxBlur, ellipseOf, extremeFilter, labelComponents, type ComponentStats } from './planes';
import type { CardFrame } from './trap-card';
import type { SizeClass } from './trap-marks';

/** Side of the grey closing that estimates the card's local brightness: wider than two gnats side by side. */
const BACKGROUND_WINDOW_MM = 6;
/** Darkness (1 − brightness / local card brightness) from which a pixel belongs to an insect. */
const DARK = 0.25;
/** A blob counts only if some pixel of it is at least this dark: a faint smudge is not an insect. */
const DARK_PEAK = 0.32;
/** Printed lines are found in stretches this long along each row and column of the card: more than twice the longest insect. */
const LINE_SEGMENT_MM = 12;
/** A stretch whose print reading is below this has no print in it (noise and the card's own texture are about 0.05). */
const PRINT_MIN = 0.1;
/**
 * The print's darkness in a stretch is read at this percentile: the darker part of a line (its
 * darkness wavers along it with noise and with the pixel grid), yet clear of an insect lying on it,
 * which covers less than a quarter of a stretch, and of the card where a line crosses the stretch.
 */
const PRINT_PERCENTILE = 0.75;
/** Taking print out divides by what an insect would show over it; never by less than this, so noise on a dark line is not blown up into insects. */
const MIN_PRINT_DIVISOR = 0.35;
/** Darkness of an insect's body against the card: dark brown to black insects on a yellow or blue card are 0.75–0.9. */
const BODY_DARKNESS = 0.8;
/** The ring around a blob over which its dark mass is summed: wider than the blur of a photo in focus. */
const RING_MM = 0.4;
/** Blobs smaller than this are dirt or noise: a thrips is about 0.3 mm² and more. */
const MIN_BLOB_MM2 = 0.12;

/**
 * One insect of each class, as the counter expects it before it has seen the card: its dark area
 * (mm²) and how much that varies between insects (standard deviation of its logarithm). An insect ℓ
 * mm long and 0.4ℓ wide (an ellipse) covers 0.314·ℓ² mm²; thrips are about 1.4 mm (0.62 mm²),
 * whitefly and aphids 2.5 mm (1.96 mm²), gnats and flies 4 mm (5 mm²). The class borders fall
 * between them, near 2 mm (1.26 mm²) and 3 mm (2.83 mm²) long. A card with enough single insects of
 * a class replaces its area by their median.
 */
const SINGLE_INSECT: Record<SizeClass, { area: number; spread: number }> = {
  thrips: { area: 0.62, spread: 0.22 },
  whitefly_aphid: { area: 1.96, spread: 0.14 },
  gnat_fly: { area: 5, spread: 0.25 },
};
/** The gnat/fly class has no upper size (house flies, shore flies, moths): above its typical area, one insect of it strays this far (log standard deviation). */
const LARGEST_SPREAD_UP = 0.35;
/**
 * The shape of one whitefly/aphid-sized or gnat/fly-sized insect as the counter measures it (blur
 * included), until the card has enough single insects of the class to measure its own: width over
 * length of the moment ellipse, and dark area over length squared. Measured on the generated cards
 * (synthetic-trap.ts); real insects' proportions differ by kind, which is why a card with enough
 * single insects of a class uses theirs.
 */
const SINGLE_SHAPE: Partial<Record<SizeClass, { aspect: number; fullness: number }>> = {
  whitefly_aphid: { aspect: 0.55, fullness: 0.33 },
  gnat_fly: { aspect: 0.45, fullness: 0.3 },
};
/** How far a blob's measured dark area strays from its insects' even when it is one insect (log standard deviation). */
const MEASUREMENT_SPREAD = 0.08;
/** Each insect more than one a blob is said to hold costs this much score: one insect is the likelier reading of a blob that fits both. */
const EXTRA_INSECT_COST = 2;
/** One insect's body is convex: a blob filling less of its hull is insects touching. */
const MIN_SOLIDITY = 0.75;
/**
 * How far (log ratio) a blob's aspect or fullness may stray from the card's median single insect of
 * its class and still be one insect; single insects of one kind stray about 0.1.
 */
const SHAPE_TOLERANCE = 0.16;
/** A card with at least this many single insects of a class measures that class's typical area itself. */
const MIN_SINGLES_FOR_MEDIAN = 5;

/** An insect the counter found, in frame pixels. */
export interface FoundInsect {
  u: number;
  v: number;
  /** Radius of a circle around it. */
  radius: number;
  sizeClass: SizeClass;
}

/**
 * Per pixel of the frame, darkness against the card's local light: about 0 on the card, 0.7–0.9 on an
 * insect. The light is a grey closing (max, then min) over `windowPx`, which removes every dark thing
 * narrower than the window and keeps the card's own light, lighting gradients and shade included.
 * Light varies slowly, so the closing runs on blocks: their maxima, then a closing a few blocks wide,
 * smoothed and sampled back bilinearly (a fiftieth of the work at full size).
 */
function darknessOf(frame: CardFrame, windowPx: number): Float32Array {
  const { width, height } = frame;
  // Off the card counts as bright, so the closing near the card's edge takes the card's own light, not the background's.
  const padded = new Float32Array(width * height);
  for (let index = 0; index < padded.length; index += 1) padded[index] = frame.onCard[index] ? frame.value[index]! : 255;
  const smooth = boxBlur({ width, height, data: padded }, 1);
  const block = Math.max(1, Math.floor(windowPx / 7));
  const blocksWide = Math.ceil(width / block);
  const blocksHigh = Math.ceil(height / block);
  const blockOfU = Int32Array.from({ length: width }, (_, u) => Math.floor(u / block));
  const maxima = new Float32Array(blocksWide * blocksHigh);
  for (let v = 0; v < height; v += 1) {
    const row = Math.floor(v / block) * blocksWide;
    for (let u = 0, index = v * width; u < width; u += 1, index += 1) {
      const at = row + blockOfU[u]!;
      const value = smooth.data[index]!;
      if (value > maxima[at]!) maxima[at] = value;
    }
  }
  const size = Math.max(1, Math.round(windowPx / block)) | 1;
  const blocks = { width: blocksWide, height: blocksHigh, data: maxima };
  const light = boxBlur(extremeFilter(extremeFilter(blocks, size, true), size, false), size >> 1).data;
  // Block centres sit at (i + 0.5)·block: each pixel's light is bilinear between the four around it.
  // Per column and per row once: the left or upper block, the step to the next, and the weight.
  const interpolation = (length: number, count: number) => {
    const first = new Int32Array(length);
    const weight = new Float32Array(length);
    for (let at = 0; at < length; at += 1) {
      const position = Math.min(count - 1, Math.max(0, (at + 0.5) / block - 0.5));
      first[at] = Math.max(0, Math.min(count - 2, Math.floor(position)));
      weight[at] = count > 1 ? position - first[at]! : 0;
    }
    return { first, weight, step: count > 1 ? 1 : 0 };
  };
  const across = interpolation(width, blocksWide);
  const down = interpolation(height, blocksHigh);
  const darkness = new Float32Array(width * height);
  for (let v = 0; v < height; v += 1) {
    const upper = down.first[v]! * blocksWide;
    const lower = upper + down.step * blocksWide;
    const ty = down.weight[v]!;
    for (let u = 0, index = v * width; u < width; u += 1, index += 1) {
      if (!frame.onCard[index]) continue;
      const left = across.first[u]!;
      const right = left + across.step;
      const tx = across.weight[u]!;
      const top = light[upper + left]! * (1 - tx) + light[upper + right]! * tx;
      const bottom = light[lower + left]! * (1 - tx) + light[lower + right]! * tx;
      const local = top * (1 - ty) + bottom * ty;
      darkness[index] = local > 1 ? Math.max(0, 1 - frame.value[index]! / local) : 0;
    }
  }
  return darkness;
}

/**
 * The card's darkness with its printed grid taken out. Printed lines run along the frame's rows and
 * columns; along a row, a stretch of LINE_SEGMENT_MM (twice the longest insect) is mostly line where a
 * line runs, and mostly card elsewhere, so the darkness of each stretch of each row and of each column
 * (read at PRINT_PERCENTILE) is the print there. The print is then taken out as what an insect
 * covers: a line reads as bare card, and an insect on a line as the insect it is. A stretch counts as
 * print only if a neighbouring stretch along the same row or column does too: lines run on, insects
 * lying in a row do not.
 */
function withoutPrint(darkness: Float32Array, onCard: Uint8Array, width: number, height: number, segment: number): Float32Array {
  const bins = 128;
  const histogram = new Uint32Array(bins);
  // Stretches: each row cut into rowParts along u, each column into columnParts along v.
  const rowParts = Math.max(1, Math.round(width / segment));
  const columnParts = Math.max(1, Math.round(height / segment));
  const partsOf = (length: number, parts: number) => {
    const partOf = new Int32Array(length);
    for (let part = 0; part < parts; part += 1) partOf.fill(part, Math.floor((part * length) / parts), Math.floor(((part + 1) * length) / parts));
    return partOf;
  };
  const partOfU = partsOf(width, rowParts);
  const partOfV = partsOf(height, columnParts);
  // Print darkness of each stretch: of row v's stretch k at v·rowParts + k, of column u's at u·columnParts + k.
  const rowPrint = new Float32Array(height * rowParts);
  const columnPrint = new Float32Array(width * columnParts);
  const readings = new Float32Array(Math.max(rowParts, columnParts));
  // A line drifts across a row or two of the frame along a stretch (the card's angle is measured to a
  // fraction of a degree, and a sharp line may fall between two rows): each stretch reads the darkest
  // of three neighbouring rows (or columns), so it sees the whole line, and takes it out of all three.
  const lineOf = (target: Float32Array, targetOffset: number, offset: number, stride: number, across: number, hasBefore: boolean, hasAfter: boolean, length: number, parts: number) => {
    for (let part = 0; part < parts; part += 1) {
      const from = Math.floor((part * length) / parts);
      const to = Math.floor(((part + 1) * length) / parts);
      histogram.fill(0);
      let inside = 0;
      for (let at = from; at < to; at += 1) {
        const index = offset + at * stride;
        if (!onCard[index]) continue;
        let dark = darkness[index]!;
        if (hasBefore && darkness[index - across]! > dark) dark = darkness[index - across]!;
        if (hasAfter && darkness[index + across]! > dark) dark = darkness[index + across]!;
        histogram[Math.min(bins - 1, Math.floor(dark * bins))]! += 1;
        inside += 1;
      }
      // Half the stretch on the card: a reading; less, none.
      if (inside * 2 < to - from) {
        readings[part] = 0;
        continue;
      }
      let bin = 0;
      for (let seen = histogram[0]!; seen < PRINT_PERCENTILE * inside; ) seen += histogram[++bin]!;
      readings[part] = (bin + 0.5) / bins;
    }
    for (let part = 0; part < parts; part += 1) {
      const neighbour = Math.max(part > 0 ? readings[part - 1]! : 0, part < parts - 1 ? readings[part + 1]! : 0);
      const print = Math.min(readings[part]!, neighbour);
      target[targetOffset + part] = print < PRINT_MIN ? 0 : print;
    }
  };
  for (let v = 0; v < height; v += 1) lineOf(rowPrint, v * rowParts, v * width, 1, width, v > 0, v < height - 1, width, rowParts);
  for (let u = 0; u < width; u += 1) lineOf(columnPrint, u * columnParts, u, width, 1, u > 0, u < width - 1, height, columnParts);
  // Where print of darkness L lies, a pixel a share c covered by an insect of body darkness B reads
  // D = L + c·(B − L): an insect covers the print. What it would read on bare card, c·B, is then
  // (D − L) / (1 − L / B); the divisor is kept from nearing zero on print nearly as dark as an insect.
  // Lines crossing let through what each lets through: L = 1 − (1 − row's)·(1 − column's).
  const out = new Float32Array(width * height);
  for (let v = 0; v < height; v += 1) {
    const rowBase = v * rowParts;
    const columnPart = partOfV[v]!;
    for (let u = 0; u < width; u += 1) {
      const index = v * width + u;
      const print = 1 - (1 - rowPrint[rowBase + partOfU[u]!]!) * (1 - columnPrint[u * columnParts + columnPart]!);
      out[index] = print <= 0 ? darkness[index]! : Math.max(0, darkness[index]! - print) / Math.max(MIN_PRINT_DIVISOR, 1 - print / BODY_DARKNESS);
    }
  }
  return out;
}

/**
 * Solidity: the share of its convex hull a blob fills (pixels as unit squares). One insect's body is
 * convex; insects touching leave notches between them.
 */
function solidityOf(isIn: (index: number) => boolean, width: number, stats: ComponentStats): number {
  // The hull of the blob is the hull of each row's outer pixel corners.
  const points: Array<[number, number]> = [];
  for (let y = stats.minY; y <= stats.maxY; y += 1) {
    let first = -1;
    let last = -1;
    for (let x = stats.minX; x <= stats.maxX; x += 1) {
      if (!isIn(y * width + x)) continue;
      if (first < 0) first = x;
      last = x;
    }
    if (first >= 0) points.push([first, y], [first, y + 1], [last + 1, y], [last + 1, y + 1]);
  }
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  // Andrew's monotone chain: lower hull, then upper.
  const hull: Array<[number, number]> = [];
  for (const pass of [points, [...points].reverse()]) {
    const start = hull.length;
    for (const point of pass) {
      while (hull.length >= start + 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, point) <= 0) hull.pop();
      hull.push(point);
    }
    hull.pop();
  }
  let twiceArea = 0;
  for (let index = 0; index < hull.length; index += 1) {
    const a = hull[index]!;
    const b = hull[(index + 1) % hull.length]!;
    twiceArea += a[0] * b[1] - b[0] * a[1];
  }
  return twiceArea !== 0 ? Math.min(1, (2 * stats.area) / Math.abs(twiceArea)) : 1;
}

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const CLASSES = Object.keys(SINGLE_INSECT) as SizeClass[];
/** Every mix of one to three insects, as lists of classes. */
const SMALL_GROUPS: SizeClass[][] = (() => {
  const groups: SizeClass[][] = [];
  const grow = (group: SizeClass[], from: number) => {
    if (group.length > 0) groups.push(group);
    if (group.length === 3) return;
    for (let index = from; index < CLASSES.length; index += 1) grow([...group, CLASSES[index]!], index);
  };
  grow([], 0);
  return groups;
})();

/**
 * The insects a blob of `areaMm2` dark area most likely holds: of every mix of one to three insects
 * (and of larger clumps of one class), the one whose expected area fits best, each insect beyond the
 * first costing EXTRA_INSECT_COST. This is where touching insects are counted: a blob holds as many
 * insects as its area holds the single insects of their classes. `several`: the blob's shape already
 * says it is more than one insect.
 */
function insectsOfBlob(areaMm2: number, singleArea: Record<SizeClass, number>, several: boolean): SizeClass[] {
  let best: SizeClass[] = [];
  let bestScore = -Infinity;
  const consider = (group: SizeClass[]) => {
    if (several && group.length < 2) return;
    let mean = 0;
    let variance = 0;
    for (const sizeClass of group) {
      mean += singleArea[sizeClass];
      variance += (singleArea[sizeClass] * SINGLE_INSECT[sizeClass].spread) ** 2;
    }
    // Flies have no upper size: one fly-sized insect may be any size above the typical one.
    const openEnded = group.length === 1 && group[0] === 'gnat_fly' && areaMm2 > mean;
    const spread = openEnded ? LARGEST_SPREAD_UP : Math.hypot(Math.sqrt(variance) / mean, MEASUREMENT_SPREAD);
    const score = -0.5 * (Math.log(areaMm2 / mean) / spread) ** 2 - EXTRA_INSECT_COST * (group.length - 1);
    if (score > bestScore) {
      bestScore = score;
      best = group;
    }
  };
  for (const group of SMALL_GROUPS) consider(group);
  for (const sizeClass of CLASSES) {
    const most = Math.min(200, Math.round(areaMm2 / singleArea[sizeClass]) + 1);
    for (let count = 4; count <= most; count += 1) consider(Array.from({ length: count }, () => sizeClass));
  }
  return best;
}

interface Blob {
  /** Of the blob's pixels off printed lines. */
  stats: ComponentStats;
  /** Dark area, mm². */
  areaMm2: number;
  /** Width over length of its moment ellipse. */
  aspect: number;
  /** Dark area over length squared. */
  fullness: number;
  solidity: number;
  /** The shape says several insects. */
  several: boolean;
}

/**
 * The insects on the card in `frame` (pxPerMm frame pixels a millimetre): dark blobs against the
 * card's local light with its print divided out, each read as one insect or as several touching.
 */
export function findInsects(frame: CardFrame, pxPerMm: number): FoundInsect[] {
  const { width, height } = frame;
  const mm = (millimetres: number) => Math.max(1, Math.round(millimetres * pxPerMm));
  const darkness = withoutPrint(darknessOf(frame, mm(BACKGROUND_WINDOW_MM)), frame.onCard, width, height, mm(LINE_SEGMENT_MM));
  const mask = new Uint8Array(width * height);
  for (let index = 0; index < mask.length; index += 1) if (darkness[index]! >= DARK && frame.inside[index]) mask[index] = 1;
  const components = labelComponents(mask, width, height);
  const peak = new Float32Array(components.count + 1);
  for (let index = 0; index < mask.length; index += 1) {
    const label = components.labels[index]!;
    if (label && darkness[index]! > peak[label]!) peak[label] = darkness[index]!;
  }
  // The card's own darkness (noise, and the closing's lift above it): the median over a sample of the counted area.
  const sample: number[] = [];
  const step = Math.max(1, Math.floor(darkness.length / 20_000));
  for (let index = 0; index < darkness.length; index += step) if (frame.inside[index]) sample.push(darkness[index]!);
  const baseline = median(sample) ?? 0;

  const mm2PerPx = 1 / (pxPerMm * pxPerMm);
  const ring = mm(RING_MM);
  const blobs: Blob[] = [];
  components.stats.forEach((stats, index) => {
    const label = index + 1;
    if (stats.area * mm2PerPx < MIN_BLOB_MM2 || stats.area < 4 || peak[label]! < DARK_PEAK) return;
    // Sized by dark mass, not by thresholded area: blur spreads an insect's darkness but keeps its sum,
    // so the sum over the blob and a ring around it (less the card's own darkness, without other
    // blobs), over a body's darkness, is its area whatever the focus.
    let mass = 0;
    for (let v = Math.max(0, stats.minY - ring); v <= Math.min(height - 1, stats.maxY + ring); v += 1) {
      for (let u = Math.max(0, stats.minX - ring); u <= Math.min(width - 1, stats.maxX + ring); u += 1) {
        const at = v * width + u;
        const owner = components.labels[at]!;
        if (owner === label || (owner === 0 && frame.inside[at])) mass += darkness[at]! - baseline;
      }
    }
    const areaMm2 = (Math.max(0, mass) / BODY_DARKNESS) * mm2PerPx;
    if (areaMm2 < MIN_BLOB_MM2) return;
    const ellipse = ellipseOf(stats);
    const lengthMm = (2 * ellipse.major) / pxPerMm;
    blobs.push({
      stats,
      areaMm2,
      aspect: ellipse.minor / Math.max(0.5, ellipse.major),
      fullness: areaMm2 / (lengthMm * lengthMm),
      solidity: solidityOf((at) => components.labels[at] === label, width, stats),
      several: false,
    });
  });

  // First reading, by area alone with the expected single insects. Where the card has enough blobs
  // read as one insect of a class, they give that class's median area and median shape on this card.
  const singleArea = Object.fromEntries(CLASSES.map((sizeClass) => [sizeClass, SINGLE_INSECT[sizeClass].area])) as Record<SizeClass, number>;
  const singles: Record<SizeClass, Blob[]> = { thrips: [], whitefly_aphid: [], gnat_fly: [] };
  const firstClass = blobs.map((blob) => {
    const group = insectsOfBlob(blob.areaMm2, singleArea, false);
    if (group.length === 1 && blob.solidity >= MIN_SOLIDITY) singles[group[0]!].push(blob);
    return group.length === 1 ? group[0] : undefined;
  });
  const singleShape: Partial<Record<SizeClass, { aspect: number; fullness: number }>> = { ...SINGLE_SHAPE };
  for (const sizeClass of CLASSES) {
    const own = singles[sizeClass];
    if (own.length < MIN_SINGLES_FOR_MEDIAN) continue;
    singleArea[sizeClass] = median(own.map((blob) => blob.areaMm2))!;
    singleShape[sizeClass] = { aspect: median(own.map((blob) => blob.aspect))!, fullness: median(own.map((blob) => blob.fullness))! };
  }
  // Touching insects leave notches between them (low solidity), or make a blob of another shape than
  // one insect of the class its area suggests: wider for its length side by side, longer end to end.
  // Thrips-sized blobs are too few pixels for their shape to say much: their area alone decides.
  blobs.forEach((blob, index) => {
    const sizeClass = firstClass[index];
    const shape = sizeClass && sizeClass !== 'thrips' ? singleShape[sizeClass] : undefined;
    const strays = shape !== undefined && (Math.abs(Math.log(blob.aspect / shape.aspect)) > SHAPE_TOLERANCE || Math.abs(Math.log(blob.fullness / shape.fullness)) > SHAPE_TOLERANCE);
    blob.several = blob.solidity < MIN_SOLIDITY || strays;
  });

  const insects: FoundInsect[] = [];
  for (const blob of blobs) {
    const group = insectsOfBlob(blob.areaMm2, singleArea, blob.several).sort((a, b) => singleArea[b] - singleArea[a]);
    const ellipse = ellipseOf(blob.stats);
    const radius = Math.max(3, Math.min(ellipse.major, 3 * ellipse.minor)) * 1.4;
    // Several insects in one blob: their marks spread along its long axis, so each can be tapped away.
    group.forEach((sizeClass, part) => {
      const offset = group.length === 1 ? 0 : (part / (group.length - 1) - 0.5) * ellipse.major;
      insects.push({
        u: ellipse.x + 0.5 + Math.cos(ellipse.angle) * offset,
        v: ellipse.y + 0.5 + Math.sin(ellipse.angle) * offset,
        radius: group.length === 1 ? radius : Math.max(3, radius / group.length + 2),
        sizeClass,
      });
    });
  }
  return insects;
}
