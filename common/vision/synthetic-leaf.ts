/**
 * Synthetic leaf photos with known shares of chlorotic, necrotic and powdery leaf area (issue 17),
 * for the leaf-colour analysis's tests: a pointed leaf with a lighter midrib and side veins on a
 * background (brown soil, a grey bench, or a bench with a white pot rim at the photo's edge: brown
 * and white that are not leaf), with yellow, brown (some black) and powdery-white patches inside the
 * leaf and, for necrosis, on its margin; then shading, blur and sensor noise. Seeded, pure TypeScript.
 */
import { seededRandom, type RgbaImage } from './image';
import { blurCanvas, canvasOf, finish, type Rgb } from './synthetic-render';

export interface SyntheticLeafOptions {
  width: number;
  height: number;
  seed: number;
  /** Wanted shares of the leaf's area (0–1); the leaf gets about these (`truth` says exactly). */
  chlorotic?: number;
  necrotic?: number;
  powdery?: number;
  background?: 'soil' | 'bench' | 'pot';
  /** Blur standard deviation in pixels (default 1). */
  blur?: number;
  /** Sensor noise standard deviation in 8-bit levels (default 4). */
  noise?: number;
}

export interface SyntheticLeaf {
  image: RgbaImage;
  truth: {
    /** Shares of the leaf's area, as drawn. */
    shares: { healthy: number; chlorotic: number; necrotic: number; powdery: number };
    /** Share of the photo that is leaf. */
    leafShare: number;
  };
}

const enum Tissue {
  None = 0,
  Healthy = 1,
  Chlorotic = 2,
  Necrotic = 3,
  Powdery = 4,
}

const GREEN: Rgb = [58, 128, 46];
const VEIN: Rgb = [96, 160, 78];
const YELLOW: Rgb = [212, 192, 62];
const BROWN: Rgb = [112, 72, 38];
const BLACK: Rgb = [34, 28, 22];
const POWDER: Rgb = [226, 230, 218];
const SOIL: Rgb = [74, 56, 40];
const BENCH: Rgb = [126, 128, 124];
const POT: Rgb = [238, 238, 232];

/** A synthetic leaf photo and the shares drawn on it. */
export function syntheticLeaf(options: SyntheticLeafOptions): SyntheticLeaf {
  const { width, height } = options;
  const random = seededRandom(options.seed);
  const between = (low: number, high: number) => low + (high - low) * random();
  const tissue = new Uint8Array(width * height);

  // The leaf: a pointed oval (each half-width shrinks towards both ends, faster towards the tip).
  const cx = width * between(0.45, 0.55);
  const cy = height * between(0.45, 0.55);
  const angle = between(-0.5, 0.5);
  const halfLength = Math.min(width, height * 1.6) * between(0.36, 0.42);
  const halfWidth = halfLength * between(0.38, 0.45);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const leafCoordinates = (x: number, y: number) => {
    const dx = x + 0.5 - cx;
    const dy = y + 0.5 - cy;
    return { along: (dx * cos + dy * sin) / halfLength, across: (-dx * sin + dy * cos) / halfWidth };
  };
  const inLeaf = (along: number, across: number) => Math.abs(along) < 1 && Math.abs(across) < (1 - along * along) * (along > 0 ? 1 - 0.35 * along : 1);
  let leafCount = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const { along, across } = leafCoordinates(x, y);
      if (!inLeaf(along, across)) continue;
      tissue[y * width + x] = Tissue.Healthy;
      leafCount += 1;
    }
  }
  const counts = { [Tissue.Chlorotic]: 0, [Tissue.Necrotic]: 0, [Tissue.Powdery]: 0 };
  // Patches: discs of healthy leaf turned to a symptom, until each symptom has its share.
  const patch = (kind: Tissue.Chlorotic | Tissue.Necrotic | Tissue.Powdery, target: number) => {
    const wanted = target * leafCount;
    for (let attempt = 0; attempt < 500 && counts[kind] < wanted; attempt += 1) {
      // Necrosis starts at the margin half the time (scorched edges); other patches anywhere on the leaf.
      const along = between(-0.9, 0.9);
      const edge = (1 - along * along) * (along > 0 ? 1 - 0.35 * along : 1);
      const across = kind === Tissue.Necrotic && random() < 0.5 ? edge * (random() < 0.5 ? -1 : 1) : between(-0.8, 0.8) * edge;
      const px = cx + along * halfLength * cos - across * halfWidth * sin;
      const py = cy + along * halfLength * sin + across * halfWidth * cos;
      const radius = halfWidth * between(0.08, 0.3);
      for (let y = Math.max(0, Math.floor(py - radius)); y <= Math.min(height - 1, Math.ceil(py + radius)); y += 1) {
        for (let x = Math.max(0, Math.floor(px - radius)); x <= Math.min(width - 1, Math.ceil(px + radius)); x += 1) {
          const index = y * width + x;
          if (tissue[index] !== Tissue.Healthy || (x + 0.5 - px) ** 2 + (y + 0.5 - py) ** 2 > radius * radius || counts[kind] >= wanted) continue;
          tissue[index] = kind;
          counts[kind] += 1;
        }
      }
    }
  };
  patch(Tissue.Necrotic, options.necrotic ?? 0);
  patch(Tissue.Chlorotic, options.chlorotic ?? 0);
  patch(Tissue.Powdery, options.powdery ?? 0);

  const canvas = canvasOf(width, height);
  const background = options.background ?? 'soil';
  const potTop = height * 0.82;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const index = y * width + x;
      const p = index * 3;
      const { along, across } = leafCoordinates(x, y);
      // Gentle shading across everything, and a grain of its own on each surface.
      const shade = 0.92 + 0.08 * Math.sin(x * 0.013 + y * 0.008) + 0.04 * (random() - 0.5);
      let colour: Rgb;
      switch (tissue[index]) {
        case Tissue.Healthy: {
          // The midrib and side veins: lighter green lines.
          const midrib = Math.abs(across) < 0.035;
          const vein = Math.abs(((along * 7 - Math.abs(across) * 2.2) % 1) + 1) % 1 < 0.06 && Math.abs(across) > 0.05;
          colour = midrib || vein ? VEIN : GREEN;
          break;
        }
        case Tissue.Chlorotic:
          colour = YELLOW;
          break;
        case Tissue.Necrotic:
          // Black specks within dead tissue.
          colour = Math.sin(x * 0.9) * Math.sin(y * 1.1) > 0.85 ? BLACK : BROWN;
          break;
        case Tissue.Powdery:
          colour = POWDER;
          break;
        default:
          colour = background === 'soil' ? SOIL : background === 'pot' && y > potTop ? POT : BENCH;
      }
      canvas.data[p] = colour[0] * shade;
      canvas.data[p + 1] = colour[1] * shade;
      canvas.data[p + 2] = colour[2] * shade;
    }
  }
  blurCanvas(canvas, options.blur ?? 1);
  const shares = {
    healthy: (leafCount - counts[Tissue.Chlorotic] - counts[Tissue.Necrotic] - counts[Tissue.Powdery]) / leafCount,
    chlorotic: counts[Tissue.Chlorotic] / leafCount,
    necrotic: counts[Tissue.Necrotic] / leafCount,
    powdery: counts[Tissue.Powdery] / leafCount,
  };
  return { image: finish(canvas, options.noise ?? 4, random), truth: { shares, leafShare: leafCount / (width * height) } };
}
