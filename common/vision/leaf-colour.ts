/**
 * The leaf-colour analysis (issue 17): in a photo of leaves, the shares of leaf area that are healthy
 * green, chlorotic (yellowing), necrotic (brown or black dead tissue) and powdery white (mildew-like
 * patches), mapped to the plant-problem catalogue's colour symptoms and the problems that show them.
 * Image analysis by colour rules, not a trained classifier: it names and describes itself as such
 * (LEAF_COLOUR_METHOD), and its findings say what colour was seen, not what disease was diagnosed.
 *
 * WARNING: this module imports the whole plant-problem catalogue (about 125 kB). Load it only lazily
 * (a dynamic import, as the scan worker does), never from a module of the tablet's main chunk.
 *
 * Steps, and why:
 * 1. The photo is shrunk to WORKING_LONG_SIDE by area averaging: colour shares need no fine detail.
 * 2. Each pixel is classed by hue, saturation and value (colourOf): green, yellow, brown, white,
 *    dark or other.
 * 3. Living tissue (green and yellow: soil, pots and benches are neither) is the plant. Brown, white
 *    and dark pixels count as leaf only where the plant holds them: enclosed by living tissue, in its
 *    notches (a closing), or as a patch touching it that is neither larger than the living plant nor
 *    reaching the photo's edge (a scorched margin, a powdery patch on the edge of a leaf). Brown soil,
 *    white pots and shadows around the plant stay out.
 * 4. Shares of the leaf area give each colour symptom a confidence (COLOUR_CONFIDENCE), and each
 *    catalogue problem showing those colours a confidence weighted by how few problems share them.
 */
import { CATALOGUE } from '../plant-problems/catalogue';
import { COLOR_SYMPTOMS } from '../plant-problems/symptoms';
import type { CatalogueProblem, ProblemKind } from '../plant-problems/types';
import { hsvOf, shrinkToLongSide, type RgbaImage } from './image';
import { boxBlur, fillHoles, labelComponents, morphMask } from './planes';

export const LEAF_COLOUR_METHOD = 'leaf-colour-analysis';
/** Changes whenever the analysis's rules change. */
export const LEAF_COLOUR_VERSION = '1.0.0';
/** The long side a photo is analysed at. */
export const LEAF_WORKING_LONG_SIDE = 800;

/** The symptom colours the analysis measures, and the catalogue colour symptom each is. */
export const LEAF_COLOUR_SYMPTOMS = { chlorotic: 'yellowing', necrotic: 'brown-necrotic', powdery: 'white-powder' } as const;
export type LeafColourClass = keyof typeof LEAF_COLOUR_SYMPTOMS;

/** Less of the photo than this living tissue: no leaf to analyse. */
const MIN_LEAF_SHARE = 0.02;
/** Pieces of living colour smaller than this share of the photo are specks, not plant. */
const MIN_PIECE_SHARE = 0.001;
/** Closing radius, as a share of the photo's long side: notches in leaves narrower than this count as leaf. */
const NOTCH_SHARE = 0.01;

/**
 * Confidence in a colour symptom from its share of the leaf: none below `from` (specks, glare on a
 * glossy leaf, a speck of soil), `low` at `from`, rising in a straight line to `high` at `full` and
 * staying there. Colour alone never makes the analysis certain, hence the cap.
 */
export const COLOUR_CONFIDENCE = { from: 0.02, low: 0.2, full: 0.25, high: 0.95 } as const;
/** A problem is reported from a confidence of this (0–1); see problemFindings. */
export const MIN_PROBLEM_CONFIDENCE = 0.2;
/** A colour shown by this many catalogue problems or fewer points at each of them fully; one shown by more, at each by this many over their number. */
const SPECIFIC_PROBLEMS = 2;

export interface LeafColourFinding {
  /** A problem's name, or a colour symptom's name when no problem stands out. */
  label: string;
  /** The catalogue problem's slug; null for a colour symptom on its own. */
  problemSlug: string | null;
  /** The catalogue colour symptom (COLOR_SYMPTOMS slug) the finding rests on: for a problem, the most confident of its colours seen. */
  symptom: string;
  /** Share of the leaf area showing the colours this finding rests on (0–1). */
  share: number;
  /** 0–1, from the share (COLOUR_CONFIDENCE) and, for a problem, how few problems show that colour. */
  confidence: number;
}

export interface LeafColourAnalysis {
  /** Share of the photo that is leaf. */
  leafShare: number;
  /** Shares of the leaf area (they add up to 1 when there is leaf). */
  shares: { healthy: number } & Record<LeafColourClass, number>;
  /** The catalogue colour symptoms seen, with their share of the leaf and confidence, most confident first. */
  colourSymptoms: Array<{ slug: string; label: string; share: number; confidence: number }>;
  /** Most confident first. */
  findings: LeafColourFinding[];
  workingSize: { width: number; height: number };
  method: typeof LEAF_COLOUR_METHOD;
  version: typeof LEAF_COLOUR_VERSION;
}

const enum Colour {
  Other = 0,
  Green = 1,
  Yellow = 2,
  Brown = 3,
  White = 4,
  Dark = 5,
}

/**
 * A pixel's colour class. Green leaves sit at hues 70–170°, yellowing ones at 40–70° (bright), both
 * saturated (a grey-green bench is not a leaf); dead leaf tissue is mid to light brown (hues up to 40°, or reddish above 330°), while
 * potting soil is darker: dark brown and black count as a lesion inside a leaf, and as soil or shadow
 * outside one. Powdery patches are bright and nearly grey (mildew over green reads as pale grey-green).
 */
function colourOf(hsv: { h: number; s: number; v: number }): Colour {
  const { h, s, v } = hsv;
  if (v < 0.14) return Colour.Dark;
  if (s <= 0.22) return v >= 0.62 ? Colour.White : Colour.Other;
  if (h >= 68 && h <= 170) return s >= 0.3 ? Colour.Green : Colour.Other;
  if (h >= 40 && h < 68) return s >= 0.3 && v >= 0.35 ? Colour.Yellow : Colour.Other;
  if (h < 40 || h >= 330) return v < 0.32 ? Colour.Dark : v <= 0.75 ? Colour.Brown : Colour.Other;
  return Colour.Other;
}

/** Confidence from a share of the leaf (COLOUR_CONFIDENCE). */
export function confidenceOfShare(share: number): number {
  const { from, low, full, high } = COLOUR_CONFIDENCE;
  if (share < from) return 0;
  return Math.min(high, low + ((high - low) * (share - from)) / (full - from));
}

/** The catalogue problems showing each colour symptom, gathered on first use. */
let problemsByColour: Map<string, CatalogueProblem[]> | undefined;
function problemsShowing(slug: string): CatalogueProblem[] {
  if (!problemsByColour) {
    problemsByColour = new Map();
    for (const problem of CATALOGUE) for (const colour of problem.color_symptoms) problemsByColour.set(colour, [...(problemsByColour.get(colour) ?? []), problem]);
  }
  return problemsByColour.get(slug) ?? [];
}

/** Diseases and pests spread, disorders do not: at equal confidence they are listed first, as the ones to act on. */
const KIND_ORDER: Record<ProblemKind, number> = { disease: 0, pest: 1, disorder: 2 };

/**
 * The findings from the colour symptoms seen. A problem's confidence combines, over the colours it
 * shows that were seen, each colour's confidence times its specificity (1 for a colour at most
 * SPECIFIC_PROBLEMS problems show, else SPECIFIC_PROBLEMS over their number): white powder points at
 * powdery mildew (or spray residue), yellowing alone at none of the forty problems that yellow
 * leaves. Problems from MIN_PROBLEM_CONFIDENCE are reported. Each colour seen is reported as itself
 * too (problemSlug null), so the grower sees what was seen, unless it is a specific colour whose
 * problems are reported (white powder is what powdery mildew's finding already says).
 */
function findingsOf(seen: LeafColourAnalysis['colourSymptoms']): LeafColourFinding[] {
  const problems = new Map<CatalogueProblem, { missing: number; share: number; colours: number; symptom: string }>();
  // `seen` is most confident first, so a problem's first colour is its most confident one.
  for (const colour of seen) {
    const showing = problemsShowing(colour.slug);
    const specificity = Math.min(1, SPECIFIC_PROBLEMS / Math.max(1, showing.length));
    for (const problem of showing) {
      const entry = problems.get(problem) ?? { missing: 1, share: 0, colours: 0, symptom: colour.slug };
      entry.missing *= 1 - colour.confidence * specificity;
      entry.share += colour.share;
      entry.colours += 1;
      problems.set(problem, entry);
    }
  }
  const reported = [...problems.entries()]
    .map(([problem, entry]) => ({ problem, confidence: 1 - entry.missing, share: entry.share, colours: entry.colours, symptom: entry.symptom }))
    .filter((entry) => entry.confidence >= MIN_PROBLEM_CONFIDENCE)
    .sort((a, b) => b.confidence - a.confidence || b.colours - a.colours || KIND_ORDER[a.problem.kind] - KIND_ORDER[b.problem.kind] || a.problem.id - b.problem.id);
  const findings: LeafColourFinding[] = reported.map((entry) => ({ label: entry.problem.name, problemSlug: entry.problem.slug, symptom: entry.symptom, share: entry.share, confidence: entry.confidence }));
  for (const colour of seen) {
    const specific = problemsShowing(colour.slug).length <= SPECIFIC_PROBLEMS;
    if (specific && reported.some((entry) => entry.problem.color_symptoms.includes(colour.slug))) continue;
    findings.push({ label: colour.label, problemSlug: null, symptom: colour.slug, share: colour.share, confidence: colour.confidence });
  }
  // Stable: problems keep their order among equal confidences.
  return findings.sort((a, b) => b.confidence - a.confidence);
}

/**
 * Analyses the leaf colour of `image` (see the module's comment). Pure and synchronous: on the
 * tablet, run it in a Web Worker.
 */
export function analyseLeafColour(image: RgbaImage): LeafColourAnalysis {
  const { image: working } = shrinkToLongSide(image, LEAF_WORKING_LONG_SIDE);
  const { width, height, data } = working;
  const size = width * height;
  // Each channel smoothed over 3 × 3 pixels: sensor noise on a dull surface swings its saturation.
  const channel = (offset: number) => boxBlur({ width, height, data: Float32Array.from({ length: size }, (_, index) => data[index * 4 + offset]!) }, 1).data;
  const [red, green, blue] = [channel(0), channel(1), channel(2)];
  const colours = new Uint8Array(size);
  const living = new Uint8Array(size);
  const hsv = { h: 0, s: 0, v: 0 };
  for (let index = 0; index < size; index += 1) {
    hsvOf(red[index]!, green[index]!, blue[index]!, hsv);
    const colour = colourOf(hsv);
    colours[index] = colour;
    if (colour === Colour.Green || colour === Colour.Yellow) living[index] = 1;
  }
  // Specks of green or yellow (a weed seedling, moss on a bench, a reflection) are not the plant.
  const pieces = labelComponents(living, width, height);
  const speck = MIN_PIECE_SHARE * size;
  let livingCount = 0;
  for (let index = 0; index < size; index += 1) {
    const label = pieces.labels[index]!;
    if (!label) continue;
    if (pieces.stats[label - 1]!.area < speck) living[index] = 0;
    else livingCount += 1;
  }
  const empty: LeafColourAnalysis = {
    leafShare: 0,
    shares: { healthy: 0, chlorotic: 0, necrotic: 0, powdery: 0 },
    colourSymptoms: [],
    findings: [],
    workingSize: { width, height },
    method: LEAF_COLOUR_METHOD,
    version: LEAF_COLOUR_VERSION,
  };
  if (livingCount < MIN_LEAF_SHARE * size) return empty;

  // What the plant holds: its holes, and its notches (a closing, then holes filled).
  const enclosed = fillHoles(living, width, height);
  const notch = 2 * Math.max(1, Math.round(NOTCH_SHARE * Math.max(width, height))) + 1;
  const held = fillHoles(morphMask(morphMask(living, width, height, notch, true), width, height, notch, false), width, height);
  const leaf = new Uint8Array(size);
  for (let index = 0; index < size; index += 1) {
    const colour = colours[index]!;
    if (living[index]) leaf[index] = 1;
    else if (colour === Colour.Dark) leaf[index] = enclosed[index]!;
    else if (colour === Colour.Brown || colour === Colour.White) leaf[index] = held[index]!;
  }
  // Brown or white patches touching the plant: leaf, unless larger than the living plant or reaching
  // the photo's edge (soil, a pot, a bench around the plant).
  const patches = new Uint8Array(size);
  for (let index = 0; index < size; index += 1) patches[index] = !leaf[index] && (colours[index] === Colour.Brown || colours[index] === Colour.White) ? 1 : 0;
  const components = labelComponents(patches, width, height);
  const nearPlant = morphMask(living, width, height, 3, true);
  const touchesPlant = new Uint8Array(components.count + 1);
  for (let index = 0; index < size; index += 1) if (components.labels[index] && nearPlant[index]) touchesPlant[components.labels[index]!] = 1;
  const keep = components.stats.map((stats, at) => touchesPlant[at + 1] === 1 && stats.area <= livingCount && stats.minX > 0 && stats.minY > 0 && stats.maxX < width - 1 && stats.maxY < height - 1);
  for (let index = 0; index < size; index += 1) {
    const label = components.labels[index]!;
    if (label && keep[label - 1]) leaf[index] = 1;
  }

  const tally = { healthy: 0, chlorotic: 0, necrotic: 0, powdery: 0 };
  let leafCount = 0;
  for (let index = 0; index < size; index += 1) {
    if (!leaf[index]) continue;
    leafCount += 1;
    const colour = colours[index];
    if (colour === Colour.Green) tally.healthy += 1;
    else if (colour === Colour.Yellow) tally.chlorotic += 1;
    else if (colour === Colour.White) tally.powdery += 1;
    else tally.necrotic += 1;
  }
  const shares = { healthy: tally.healthy / leafCount, chlorotic: tally.chlorotic / leafCount, necrotic: tally.necrotic / leafCount, powdery: tally.powdery / leafCount };
  const colourSymptoms = (Object.keys(LEAF_COLOUR_SYMPTOMS) as LeafColourClass[])
    .map((kind) => {
      const slug = LEAF_COLOUR_SYMPTOMS[kind];
      return { slug, label: COLOR_SYMPTOMS.find((colour) => colour.slug === slug)?.name ?? slug, share: shares[kind], confidence: confidenceOfShare(shares[kind]) };
    })
    .filter((colour) => colour.confidence > 0)
    .sort((a, b) => b.confidence - a.confidence);
  return { ...empty, leafShare: leafCount / size, shares, colourSymptoms, findings: findingsOf(colourSymptoms) };
}
