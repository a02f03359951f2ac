/**
 * The sticky-trap counter (issue 17): finds a yellow or blue sticky card in a photo and counts the
 * insects stuck on it by size class, with a mark over each. Image analysis (colour, brightness and
 * shape rules), not a trained classifier: its method and version travel with every count it makes.
 *
 * Steps, and why:
 * 1. The photo is shrunk by area averaging (by whole blocks where it halves or thirds near enough) to
 *    a working size with a long side about WORKING_LONG_SIDE: a 12 MP phone photo of a card filling
 *    the frame keeps about 7 px a millimetre of card there, so a thrips (1–2 mm long, about 0.5 mm
 *    wide) is a blob of about 10 × 3 px, for a quarter of the photo's work.
 * 2. The card is found at a coarse size by colour (trap-card.ts): the largest yellow or blue region,
 *    closed and with its holes (insects, print) filled. No such region of at least 3 % of the photo:
 *    no trap, and no counts rather than invented ones.
 * 3. The card's rectangle (centre, angle, sides) comes from the region's second moments, and the card
 *    is resampled into its own frame, so printed grid lines, which run parallel to its edges, run
 *    along the frame's rows and columns at any angle of the photo.
 * 4. Darkness is measured against the card's own local brightness (a grey closing wider than any
 *    insect), so lighting gradients and shade do not read as insects (trap-insects.ts).
 * 5. Printed grid lines are told from insects by shape: a line runs on along the card's rows or
 *    columns far beyond any insect, so the darkness of each stretch of a row or column is the print
 *    there. The print is taken out as something an insect covers: a line reads as bare card, and an
 *    insect on a line as the insect it is.
 * 6. Each dark blob is sized by its dark mass (which blur does not change) in mm² of card, and read
 *    as the mix of insects whose typical areas best add up to it, its shape saying whether it can be
 *    one insect: touching insects are counted by area against the median single insect of each
 *    class on this card (trap-insects.ts, insectsOfBlob).
 *
 * Limits, by design: insects within EDGE_MARGIN_MM of the card's edge are not counted; an insect right
 * on a crossing of printed lines may be missed; a thrips lying on a much larger insect is read as part
 * of it; an insect as dark as the print it lies along is invisible; pale insects (whitefly's white
 * wings on a yellow card) count by their darker bodies. The thresholds were tuned on generated
 * photos (synthetic-trap.ts, and the 13 of sticky-trap.test.ts); tuning them on real cards changes
 * STICKY_TRAP_VERSION.
 *
 * Scale: a photo carries none, so millimetres come from the card's long side, assumed to be
 * DEFAULT_CARD_LONG_SIDE_MM (a standard 10 × 25 cm card); a card of another length passes
 * `cardLongSideMm`, or its insects are sized wrongly. The card's whole length must be in the photo.
 *
 * Speed: the goal is 1.5 s for a 12-megapixel photo on the tablet, where it runs in the scan worker
 * (workers/analysis.worker.ts; measured by `npm run bench:browser`); `BENCH_ONLY=vision npm run bench`
 * measures it on Node.
 */
import { shrinkToLongSide, type RgbaImage } from './image';
import { cardFrame, findCard } from './trap-card';
import { findInsects } from './trap-insects';
import { countsOfMarks, STICKY_TRAP_METHOD, STICKY_TRAP_VERSION, type SizeClass, type StickyTrapMark } from './trap-marks';

export { countsOfMarks, SIZE_CLASSES, STICKY_TRAP_FORM_FIELDS, STICKY_TRAP_METHOD, STICKY_TRAP_VERSION, type SizeClass, type StickyTrapMark } from './trap-marks';

/** The standard sticky card is 10 × 25 cm: its long side gives the photo's scale. */
export const DEFAULT_CARD_LONG_SIDE_MM = 250;
/** The long side a photo is analysed at (see step 1). */
export const WORKING_LONG_SIDE = 2000;
/** Insects are counted this far inside the card's found edge (plus a coarse pixel): its edge is not exact, and the background beyond it is dark. */
const EDGE_MARGIN_MM = 2;

export interface TrapBounds {
  /** Left, top, width and height of the card's bounding box, as fractions of the photo's width and height. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StickyTrapAnalysis {
  trap: {
    colour: 'yellow' | 'blue';
    bounds: TrapBounds;
    /** The card's fitted rectangle: its four corners as fractions of the photo's width and height (an outline for a card at an angle). */
    corners: Array<{ x: number; y: number }>;
  } | null;
  marks: StickyTrapMark[];
  counts: Record<SizeClass, number>;
  /** The size the photo was analysed at. */
  workingSize: { width: number; height: number };
  method: typeof STICKY_TRAP_METHOD;
  version: typeof STICKY_TRAP_VERSION;
}

export interface StickyTrapOptions {
  /** The card's long side in mm (default DEFAULT_CARD_LONG_SIDE_MM). */
  cardLongSideMm?: number;
}

/**
 * Counts the insects on the sticky trap in `image` by size class (see the module's comment for the
 * method). Pure and synchronous: on the tablet, run it in a Web Worker.
 */
export function countStickyTrap(image: RgbaImage, options: StickyTrapOptions = {}): StickyTrapAnalysis {
  const { image: working, scale: photoPxPerWorkingPx } = shrinkToLongSide(image, WORKING_LONG_SIDE);
  const answer = (trap: StickyTrapAnalysis['trap'], marks: StickyTrapMark[]): StickyTrapAnalysis => ({
    trap,
    marks,
    counts: countsOfMarks(marks),
    workingSize: { width: working.width, height: working.height },
    method: STICKY_TRAP_METHOD,
    version: STICKY_TRAP_VERSION,
  });
  const card = findCard(working);
  if (!card) return answer(null, []);

  // Coarse pixels to fractions of the photo: a coarse pixel spans card.scale working pixels, each photoPxPerWorkingPx photo pixels.
  const toPhoto = card.scale * photoPxPerWorkingPx;
  const fraction = (x: number, y: number) => ({ x: (x * toPhoto) / image.width, y: (y * toPhoto) / image.height });
  const cos = Math.cos(card.angle);
  const sin = Math.sin(card.angle);
  const corners = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ].map(([alongSign, acrossSign]) => {
    const along = (alongSign! * card.length) / 2;
    const across = (acrossSign! * card.breadth) / 2;
    return fraction(card.x + along * cos - across * sin, card.y + along * sin + across * cos);
  });
  const topLeft = fraction(card.stats.minX, card.stats.minY);
  const bottomRight = fraction(card.stats.maxX + 1, card.stats.maxY + 1);
  const trap = { colour: card.colour, bounds: { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y }, corners };

  const pxPerMm = (card.length * card.scale) / (options.cardLongSideMm ?? DEFAULT_CARD_LONG_SIDE_MM);
  const frame = cardFrame(working, card, Math.ceil(card.scale) + Math.round(EDGE_MARGIN_MM * pxPerMm));
  const marks = findInsects(frame, pxPerMm).map((insect, index): StickyTrapMark => {
    const at = frame.toWorking(insect.u, insect.v);
    return {
      id: `m${index + 1}`,
      x: (at.x * photoPxPerWorkingPx) / image.width,
      y: (at.y * photoPxPerWorkingPx) / image.height,
      radius: (insect.radius * photoPxPerWorkingPx) / image.width,
      sizeClass: insect.sizeClass,
    };
  });
  return answer(trap, marks);
}
