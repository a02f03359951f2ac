/**
 * Synthetic sticky-trap photos with known counts (issue 17), for the counter's tests and bench: a
 * yellow or blue card, optionally printed with a grid of thin lines, on a muted background, with
 * insects of each size class drawn as dark bodies (a darker thorax) with translucent wings at random
 * places and angles, a share of them touching another; then a lighting gradient with a vignette, a
 * Gaussian-like blur and sensor noise. Seeded: the same options give the same photo on every machine,
 * in Node and in the browser alike (pure TypeScript).
 *
 * Sizes follow the counter's assumptions (sticky-trap.ts): the card is 10 × 25 cm, and each class's
 * insects are as long as the class says (thrips under 2 mm, whitefly/aphids 2–3 mm, gnats and flies
 * over 3 mm), drawn well inside those borders.
 */
import { seededRandom, type RgbaImage } from './image';
import { blend, blurCanvas, canvasOf, drawEllipse, finish, type Rgb } from './synthetic-render';
import { SIZE_CLASSES, type SizeClass } from './trap-marks';

const CARD_LONG_SIDE_MM = 250;
const CARD_SHORT_SIDE_MM = 100;
/** Printed grids: a line every 25 mm (about an inch), 0.35 mm wide. */
const GRID_SPACING_MM = 25;
const GRID_LINE_MM = 0.35;
/** Insects are placed this far inside the card's edge (cards are read inside their border). */
const PLACEMENT_MARGIN_MM = 6;
/** Insects not placed touching another keep this gap from every other. */
const CLEARANCE_MM = 1.2;

/** Body length (mm), width as a share of the length, body colour, and whether wings show. */
const INSECT_SHAPES: Record<SizeClass, { length: [number, number]; aspect: [number, number]; body: Rgb; wings: boolean }> = {
  thrips: { length: [1.25, 1.7], aspect: [0.32, 0.38], body: [52, 40, 24], wings: false },
  whitefly_aphid: { length: [2.2, 2.5], aspect: [0.42, 0.46], body: [44, 46, 30], wings: true },
  gnat_fly: { length: [3.4, 4.4], aspect: [0.36, 0.42], body: [30, 26, 24], wings: true },
};
const THORAX: Rgb = [18, 16, 14];
const WING: Rgb = [150, 150, 140];
const INK: Rgb = [34, 34, 30];
const CARD_COLOURS: Record<'yellow' | 'blue', Rgb> = { yellow: [236, 212, 38], blue: [28, 92, 196] };
/** The background: a grey-green bench, neither yellow nor blue. */
const BENCH: Rgb = [96, 104, 92];

export interface SyntheticTrapOptions {
  width: number;
  height: number;
  seed: number;
  /** The card's colour; null: a photo with no trap in it. */
  colour: 'yellow' | 'blue' | null;
  /** How many insects of each class to place; a card too crowded to take them all takes fewer (`truth` says how many). */
  insects?: Partial<Record<SizeClass, number>>;
  /** A printed grid of thin dark lines on the card. */
  grid?: boolean;
  /**
   * Share of insects placed touching another (0–1, default 0.1); each touches one insect, in pairs.
   * On a real card touching grows with density: scattered at random, about one insect in seven
   * touches another at 300 on a card, hardly any at 20.
   */
  touching?: number;
  /** Share of light lost from one side of the photo to the other (0–1, default 0.3). */
  lighting?: number;
  /** Standard deviation of the blur, in pixels of the photo (default 1). */
  blur?: number;
  /** Standard deviation of the sensor noise, in 8-bit levels (default 5). */
  noise?: number;
  /** The card's long side as a share of the most the photo fits at its angle (0–1, default 0.85). */
  cardFill?: number;
  /** The card's rotation in degrees (default: random within ±6°). */
  angle?: number;
}

export interface PlacedInsect {
  /** Centre, as fractions of the photo's width and height. */
  x: number;
  y: number;
  sizeClass: SizeClass;
}

export interface SyntheticTrap {
  image: RgbaImage;
  truth: {
    counts: Record<SizeClass, number>;
    insects: PlacedInsect[];
    /** Photo pixels per millimetre of card; 0 without a card. */
    pixelsPerMm: number;
  };
}

interface Insect {
  x: number;
  y: number;
  /** Semi-axes in photo pixels. */
  a: number;
  b: number;
  angle: number;
  sizeClass: SizeClass;
}

/** Distance from an ellipse's centre to its edge in direction `phi` (radians from its major axis). */
function reach(a: number, b: number, phi: number): number {
  return (a * b) / Math.hypot(b * Math.cos(phi), a * Math.sin(phi));
}

/** A synthetic sticky-trap photo and what is on it. */
export function syntheticTrap(options: SyntheticTrapOptions): SyntheticTrap {
  const { width, height } = options;
  const random = seededRandom(options.seed);
  const between = (low: number, high: number) => low + (high - low) * random();
  const canvas = canvasOf(width, height);
  const { data } = canvas;

  // Background: the bench with slow blotches, sin(x)·cos(y) + sin(x + y), each factor computed once a row or column.
  const waves = [between(2, 5) / width, between(2, 5) / height, between(3, 7) / (width + height)].map((wave) => wave * 2 * Math.PI);
  const phases = [between(0, 6), between(0, 6), between(0, 6)];
  const across = Float32Array.from({ length: width }, (_, x) => Math.sin(x * waves[0]! + phases[0]!));
  const down = Float32Array.from({ length: height }, (_, y) => Math.cos(y * waves[1]! + phases[1]!));
  const diagonalSin = Float32Array.from({ length: width }, (_, x) => Math.sin(x * waves[2]! + phases[2]!));
  const diagonalCos = Float32Array.from({ length: width }, (_, x) => Math.cos(x * waves[2]! + phases[2]!));
  for (let y = 0; y < height; y += 1) {
    const sinY = Math.sin(y * waves[2]!);
    const cosY = Math.cos(y * waves[2]!);
    for (let x = 0; x < width; x += 1) {
      const shade = 0.8 + 0.12 * across[x]! * down[y]! + 0.08 * (diagonalSin[x]! * cosY + diagonalCos[x]! * sinY);
      const p = (y * width + x) * 3;
      data[p] = BENCH[0] * shade;
      data[p + 1] = BENCH[1] * shade;
      data[p + 2] = BENCH[2] * shade;
    }
  }

  const counts: Record<SizeClass, number> = { thrips: 0, whitefly_aphid: 0, gnat_fly: 0 };
  const placed: PlacedInsect[] = [];
  let pixelsPerMm = 0;
  if (options.colour) {
    const angle = ((options.angle ?? between(-6, 6)) * Math.PI) / 180;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const ratio = CARD_SHORT_SIDE_MM / CARD_LONG_SIDE_MM;
    const fill = options.cardFill ?? 0.85;
    const length = fill * Math.min(width / (Math.abs(cos) + Math.abs(sin) * ratio), height / (Math.abs(sin) + Math.abs(cos) * ratio));
    const breadth = length * ratio;
    pixelsPerMm = length / CARD_LONG_SIDE_MM;
    const spanX = length * Math.abs(cos) + breadth * Math.abs(sin);
    const spanY = length * Math.abs(sin) + breadth * Math.abs(cos);
    const cx = width / 2 + between(-0.5, 0.5) * (width - spanX);
    const cy = height / 2 + between(-0.5, 0.5) * (height - spanY);
    const card = CARD_COLOURS[options.colour];
    const spacing = GRID_SPACING_MM * pixelsPerMm;
    const lineHalf = (GRID_LINE_MM * pixelsPerMm) / 2;
    const gridOffset = [between(0, spacing), between(0, spacing)];
    // Distance past the nearest grid line's edge along one axis of the card, positive inside the line.
    const intoLine = (t: number, offset: number) => Math.abs((((t - offset) % spacing) + spacing) % spacing - spacing / 2) - (spacing / 2 - lineHalf);
    for (let y = Math.max(0, Math.floor(cy - spanY / 2) - 1); y <= Math.min(height - 1, Math.ceil(cy + spanY / 2) + 1); y += 1) {
      for (let x = Math.max(0, Math.floor(cx - spanX / 2) - 1); x <= Math.min(width - 1, Math.ceil(cx + spanX / 2) + 1); x += 1) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const u = dx * cos + dy * sin;
        const v = -dx * sin + dy * cos;
        const coverage = Math.min(1, Math.max(0, Math.min(length / 2 - Math.abs(u), breadth / 2 - Math.abs(v)) + 0.5));
        if (coverage <= 0) continue;
        const index = y * width + x;
        blend(canvas, index, card, coverage);
        if (!options.grid) continue;
        const ink = Math.min(1, Math.max(0, Math.max(intoLine(u + length / 2, gridOffset[0]!), intoLine(v + breadth / 2, gridOffset[1]!)) + 0.5));
        if (ink > 0) blend(canvas, index, INK, ink * 0.85 * coverage);
      }
    }

    // Insects: uniformly over the card inside its margin; the touching share beside an earlier one.
    const margin = PLACEMENT_MARGIN_MM * pixelsPerMm;
    const clearance = CLEARANCE_MM * pixelsPerMm;
    const insects: Insect[] = [];
    const wanted: SizeClass[] = SIZE_CLASSES.flatMap((sizeClass) => Array.from({ length: options.insects?.[sizeClass] ?? 0 }, () => sizeClass));
    for (let index = wanted.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [wanted[index], wanted[other]] = [wanted[other]!, wanted[index]!];
    }
    const fits = (candidate: Insect, partner?: Insect) => {
      const u = (candidate.x - cx) * cos + (candidate.y - cy) * sin;
      const v = -(candidate.x - cx) * sin + (candidate.y - cy) * cos;
      if (Math.abs(u) > length / 2 - margin || Math.abs(v) > breadth / 2 - margin) return false;
      return insects.every((other) => other === partner || Math.hypot(other.x - candidate.x, other.y - candidate.y) > other.a + candidate.a + clearance);
    };
    for (const sizeClass of wanted) {
      const shape = INSECT_SHAPES[sizeClass];
      const a = (between(...shape.length) * pixelsPerMm) / 2;
      const b = a * between(...shape.aspect);
      const insectAngle = between(0, Math.PI);
      const touching = insects.length > 0 && random() < (options.touching ?? 0.1);
      for (let attempt = 0; attempt < 200; attempt += 1) {
        let candidate: Insect;
        let partner: Insect | undefined;
        if (touching) {
          partner = insects[Math.floor(random() * insects.length)]!;
          const direction = between(0, 2 * Math.PI);
          // Overlapping by a tenth of the smaller one's reach: touching, as insects caught side by side are.
          const reachOfPartner = reach(partner.a, partner.b, direction - partner.angle);
          const reachOfNew = reach(a, b, direction - insectAngle);
          const distance = reachOfPartner + reachOfNew - 0.1 * Math.min(reachOfPartner, reachOfNew);
          candidate = { x: partner.x + Math.cos(direction) * distance, y: partner.y + Math.sin(direction) * distance, a, b, angle: insectAngle, sizeClass };
        } else {
          const u = between(-0.5, 0.5) * (length - 2 * margin);
          const v = between(-0.5, 0.5) * (breadth - 2 * margin);
          candidate = { x: cx + u * cos - v * sin, y: cy + u * sin + v * cos, a, b, angle: insectAngle, sizeClass };
        }
        if (fits(candidate, partner)) {
          insects.push(candidate);
          break;
        }
      }
    }
    for (const insect of insects) {
      const { x, y, a, b, angle: heading } = insect;
      if (INSECT_SHAPES[insect.sizeClass].wings) {
        // Two translucent wings folded back over the abdomen, splayed a little to each side.
        for (const side of [-1, 1]) {
          const wingAngle = heading + side * 0.35;
          const back = a * 0.35;
          const out = b * 0.4;
          const wx = x - Math.cos(heading) * back + Math.cos(wingAngle + (side * Math.PI) / 2) * out;
          const wy = y - Math.sin(heading) * back + Math.sin(wingAngle + (side * Math.PI) / 2) * out;
          drawEllipse(canvas, wx, wy, a * 0.95, b * 0.75, wingAngle, WING, 0.3);
        }
      }
      drawEllipse(canvas, x, y, a, b, heading, INSECT_SHAPES[insect.sizeClass].body, 1);
      drawEllipse(canvas, x + Math.cos(heading) * a * 0.3, y + Math.sin(heading) * a * 0.3, a * 0.45, b * 0.7, heading, THORAX, 0.7);
      counts[insect.sizeClass] += 1;
      placed.push({ x: x / width, y: y / height, sizeClass: insect.sizeClass });
    }
  }

  // Lighting: a linear fall-off across the photo in a random direction, times a mild vignette.
  const lighting = options.lighting ?? 0.3;
  const towards = between(0, 2 * Math.PI);
  const span = Math.abs(Math.cos(towards)) * width + Math.abs(Math.sin(towards)) * height;
  const corner = (width * width + height * height) / 4;
  const alongX = Float32Array.from({ length: width }, (_, x) => ((x - width / 2) * Math.cos(towards)) / span);
  const squaredX = Float32Array.from({ length: width }, (_, x) => (x - width / 2) ** 2);
  for (let y = 0; y < height; y += 1) {
    const alongY = ((y - height / 2) * Math.sin(towards)) / span + 0.5;
    const squaredY = (y - height / 2) ** 2;
    for (let x = 0; x < width; x += 1) {
      const light = (1 - lighting * (alongX[x]! + alongY)) * (1 - (0.1 * (squaredX[x]! + squaredY)) / corner);
      const p = (y * width + x) * 3;
      data[p] = data[p]! * light;
      data[p + 1] = data[p + 1]! * light;
      data[p + 2] = data[p + 2]! * light;
    }
  }
  blurCanvas(canvas, options.blur ?? 1);
  return { image: finish(canvas, options.noise ?? 5, random), truth: { counts, insects: placed, pixelsPerMm } };
}
