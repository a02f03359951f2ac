/**
 * The leaf-colour analysis (issue 17; the built-in model `plantDiseaseRecognition`): what share of the
 * leaf area in a photo is healthy green, chlorotic (yellowing), necrotic (brown, dead) and powdery
 * white, mapped to the catalogue's colour symptoms and the problems that show them. Colour rules, not
 * a trained classifier: it says where a leaf's colour points, and the grower confirms what it is.
 *
 * Steps, and why:
 * 1. The photo is shrunk to WORKING_LONG_SIDE: colour shares need no fine detail.
 * 2. Each pixel is classed by hue, saturation and value (thresholds below): green, yellow, brown,
 *    bright white-grey, or background (soil is dark brown: too dark to pass as necrotic leaf).
 * 3. The leaf is the green and yellow pixels, closed over small gaps and with its holes filled: white
 *    powder and brown spots on a leaf are inside its outline; a white bench or pot beside it is not.
 *    Brown counts where it touches that leaf (a dead edge is on its border, not inside it).
 * 4. Shares are of the leaf's area. A colour symptom is reported from MIN_SHARE of the leaf, its
 *    confidence rising with its share to CONFIDENT_SHARE; each symptom names the catalogue problems
 *    that list it (at most PROBLEMS_PER_SYMPTOM, in the order of `problemsShowing`).
 */
import { COLOR_SYMPTOMS, CATALOGUE } from '../plant-problems';
import { downscaleToLongSide, fillHoles, hsvOf, morphMask, type RgbaImage } from './image';

export const LEAF_COLOUR_METHOD = 'leaf-colour-analysis';
/** Changes whenever the rules change, so a finding can be traced to the rules that made it. */
export const LEAF_COLOUR_VERSION = '1.0.0';

const WORKING_LONG_SIDE = 800;
/** A colour below this share of the leaf is noise (a shadow, a vein), not a symptom. */
const MIN_SHARE = 0.02;
/** From this share of the leaf a symptom is as sure as colour alone can be. */
const CONFIDENT_SHARE = 0.25;
/** Colour alone never makes a finding certain. */
const MAX_CONFIDENCE = 0.9;
const PROBLEMS_PER_SYMPTOM = 3;
/** The leaf must be at least this share of the photo for any share to mean something. */
const MIN_LEAF_SHARE = 0.02;

type LeafColour = 'healthy' | 'chlorotic' | 'necrotic' | 'powdery';

/** The catalogue's colour symptom each leaf colour is. */
const SYMPTOM_OF: Record<Exclude<LeafColour, 'healthy'>, string> = { chlorotic: 'yellowing', necrotic: 'brown-necrotic', powdery: 'white-powder' };

const GREEN = 1;
const YELLOW = 2;
const BROWN = 3;
const WHITE = 4;

/** A pixel's class by hue (degrees), saturation and value (0–1). */
function classOf(h: number, s: number, v: number): number {
  if (s < 0.18 && v > 0.72) return WHITE;
  if (s < 0.2 || v < 0.12) return 0;
  if (h >= 75 && h <= 170) return GREEN;
  if (h >= 45 && h < 75 && v > 0.35) return YELLOW;
  if (h >= 8 && h < 45 && v > 0.18 && v < 0.75) return BROWN;
  return 0;
}

export interface LeafColourFinding {
  /** What was seen, with its share ("White powder on 18% of the leaf area"). */
  label: string;
  /** The catalogue problem it may be; null for a finding that names none (a healthy leaf). */
  problemSlug: string | null;
  /** The colour symptom's slug (common/plant-problems COLOR_SYMPTOMS), null for healthy green. */
  symptom: string | null;
  share: number;
  confidence: number;
}

export interface LeafColourAnalysis {
  method: typeof LEAF_COLOUR_METHOD;
  version: typeof LEAF_COLOUR_VERSION;
  /** The leaf's share of the photo. */
  leafShare: number;
  /** Shares of the leaf's area. */
  shares: Record<LeafColour, number>;
  /** Most confident first. */
  findings: LeafColourFinding[];
}

const percentOf = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The catalogue problems showing a colour symptom: those whose first colour it is before those where it
 * comes later, then in the catalogue's order (pests, diseases, disorders: a residue or a deficiency
 * the grower would know of is the less likely reading of a colour on a leaf).
 */
function problemsShowing(symptom: string) {
  return CATALOGUE.map((problem, order) => ({ problem, order, rank: problem.color_symptoms.indexOf(symptom) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((entry) => entry.problem);
}

export function analyseLeafColour(photo: RgbaImage): LeafColourAnalysis {
  const image = downscaleToLongSide(photo, WORKING_LONG_SIDE);
  const { width, height, data } = image;
  const size = width * height;
  const classes = new Uint8Array(size);
  const hsv = { h: 0, s: 0, v: 0 };
  const leafish = new Uint8Array(size);
  for (let index = 0, p = 0; index < size; index += 1, p += 4) {
    hsvOf(data[p]!, data[p + 1]!, data[p + 2]!, hsv);
    const kind = classOf(hsv.h, hsv.s, hsv.v);
    classes[index] = kind;
    if (kind === GREEN || kind === YELLOW) leafish[index] = 1;
  }
  // The leaf's outline: green and yellow closed over gaps of a few pixels, holes filled.
  const gap = Math.max(3, Math.round(Math.max(width, height) / 200)) | 1;
  const closed = morphMask(morphMask(leafish, width, height, gap, true), width, height, gap, false);
  const inside = fillHoles(closed, width, height);
  // Brown touching the leaf: within a few pixels of it.
  const near = morphMask(inside, width, height, gap * 3, true);
  const counts: Record<LeafColour, number> = { healthy: 0, chlorotic: 0, necrotic: 0, powdery: 0 };
  for (let index = 0; index < size; index += 1) {
    const kind = classes[index];
    if (kind === GREEN && inside[index]) counts.healthy += 1;
    else if (kind === YELLOW && inside[index]) counts.chlorotic += 1;
    else if (kind === BROWN && near[index]) counts.necrotic += 1;
    else if (kind === WHITE && inside[index]) counts.powdery += 1;
  }
  const leaf = counts.healthy + counts.chlorotic + counts.necrotic + counts.powdery;
  const shares: Record<LeafColour, number> = { healthy: 0, chlorotic: 0, necrotic: 0, powdery: 0 };
  const leafShare = leaf / size;
  const findings: LeafColourFinding[] = [];
  if (leafShare >= MIN_LEAF_SHARE) {
    for (const colour of Object.keys(shares) as LeafColour[]) shares[colour] = counts[colour] / leaf;
    for (const colour of ['chlorotic', 'necrotic', 'powdery'] as const) {
      const share = shares[colour];
      if (share < MIN_SHARE) continue;
      const symptom = SYMPTOM_OF[colour];
      const name = COLOR_SYMPTOMS.find((each) => each.slug === symptom)?.name ?? symptom;
      const confidence = MAX_CONFIDENCE * Math.min(1, share / CONFIDENT_SHARE);
      problemsShowing(symptom)
        .slice(0, PROBLEMS_PER_SYMPTOM)
        .forEach((problem, rank) =>
          findings.push({ label: `${name} on ${percentOf(share)} of the leaf area: ${problem.name}?`, problemSlug: problem.slug, symptom, share, confidence: confidence * (1 - 0.25 * rank) }),
        );
    }
    if (findings.length === 0) findings.push({ label: `Healthy green on ${percentOf(shares.healthy)} of the leaf area`, problemSlug: null, symptom: null, share: shares.healthy, confidence: MAX_CONFIDENCE * shares.healthy });
  }
  findings.sort((a, b) => b.confidence - a.confidence);
  return { method: LEAF_COLOUR_METHOD, version: LEAF_COLOUR_VERSION, leafShare, shares, findings };
}
