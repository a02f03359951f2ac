/**
 * Finding a sticky card in a photo, and resampling it into its own frame (issue 17; the counter's
 * steps 2 and 3, see sticky-trap.ts).
 */
import { hsvOf, shrinkToLongSide, valuePlane, type RgbaImage } from './image';
import { ellipseOf, fillHoles, labelComponents, morphMask, type ComponentStats } from './planes';

/** The card is found at this long side: a card is hundreds of pixels long there, and finding it costs little. */
const COARSE_LONG_SIDE = 400;
/** The smallest card worth counting, as a share of the photo's area. */
const MIN_CARD_SHARE = 0.03;

export interface Card {
  colour: 'yellow' | 'blue';
  /** The filled card region at the coarse size, 1 on the card. */
  region: Uint8Array;
  coarse: { width: number; height: number };
  /** Working pixels a coarse pixel spans. */
  scale: number;
  /** Centre of the fitted rectangle, in coarse pixels (pixel centres at +0.5). */
  x: number;
  y: number;
  /** Angle of the card's long side, radians. */
  angle: number;
  /** Sides of the fitted rectangle, in coarse pixels. */
  length: number;
  breadth: number;
  /** The region's bounds. */
  stats: ComponentStats;
}

/**
 * The largest yellow or blue region of the photo (at a coarse size), closed and with its holes
 * filled, and the rectangle its second moments fit; undefined when no region is card-sized.
 */
export function findCard(working: RgbaImage): Card | undefined {
  const { image: coarse, scale } = shrinkToLongSide(working, COARSE_LONG_SIDE);
  const { width, height, data } = coarse;
  const yellow = new Uint8Array(width * height);
  const blue = new Uint8Array(width * height);
  const hsv = { h: 0, s: 0, v: 0 };
  for (let index = 0; index < width * height; index += 1) {
    hsvOf(data[index * 4]!, data[index * 4 + 1]!, data[index * 4 + 2]!, hsv);
    if (hsv.s < 0.35) continue;
    // Yellow cards sit at hues 45–65°, blue ones at 200–230°; the ranges allow for white balance and shade.
    if (hsv.h >= 35 && hsv.h <= 75 && hsv.v >= 0.25) yellow[index] = 1;
    else if (hsv.h >= 185 && hsv.h <= 255 && hsv.v >= 0.15) blue[index] = 1;
  }
  let best: { colour: 'yellow' | 'blue'; labels: Int32Array; label: number; area: number } | undefined;
  for (const [colour, mask] of [['yellow', yellow], ['blue', blue]] as const) {
    const components = labelComponents(mask, width, height);
    components.stats.forEach((stat, index) => {
      if (!best || stat.area > best.area) best = { colour, labels: components.labels, label: index + 1, area: stat.area };
    });
  }
  if (!best || best.area < MIN_CARD_SHARE * width * height) return undefined;
  const chosen = best;
  const own = new Uint8Array(width * height);
  for (let index = 0; index < own.length; index += 1) own[index] = chosen.labels[index] === chosen.label ? 1 : 0;
  // Close notches (insects and print on the edge), then fill the holes insects and print leave inside.
  const closed = morphMask(morphMask(own, width, height, 5, true), width, height, 5, false);
  const region = fillHoles(closed, width, height);
  const stats = labelComponents(region, width, height).stats.reduce((largest, stat) => (stat.area > largest.area ? stat : largest));
  const ellipse = ellipseOf(stats);
  // A uniform rectangle of side L has variance L²/12 along it, and ellipseOf's semi-axis is 2·√variance = L/√3.
  return {
    colour: chosen.colour,
    region,
    coarse: { width, height },
    scale,
    x: ellipse.x + 0.5,
    y: ellipse.y + 0.5,
    angle: ellipse.angle,
    length: ellipse.major * Math.sqrt(3),
    breadth: ellipse.minor * Math.sqrt(3),
    stats,
  };
}

/** The card resampled at the working scale into its own frame: u (columns) along its long side, v (rows) along its short side. */
export interface CardFrame {
  width: number;
  height: number;
  /** Brightness (HSV value, 0–255). */
  value: Float32Array;
  /** 1 where the frame pixel lies on the card's region. */
  onCard: Uint8Array;
  /** 1 where the frame pixel lies on the card and `margin` pixels inside its edge: where insects are counted. */
  inside: Uint8Array;
  /** A point of the frame (pixel centres at +0.5) in working pixel coordinates. */
  toWorking: (u: number, v: number) => { x: number; y: number };
}

/** The card's frame: brightness sampled bilinearly from the working image, and where the card is. */
export function cardFrame(working: RgbaImage, card: Card, margin: number): CardFrame {
  const { scale } = card;
  const width = Math.max(1, Math.round(card.length * scale));
  const height = Math.max(1, Math.round(card.breadth * scale));
  const cos = Math.cos(card.angle);
  const sin = Math.sin(card.angle);
  // Frame point (u, v) lies at origin + u·(cos, sin) + v·(−sin, cos) in working coordinates.
  const originX = card.x * scale - (width / 2) * cos + (height / 2) * sin;
  const originY = card.y * scale - (width / 2) * sin - (height / 2) * cos;
  const toWorking = (u: number, v: number) => ({ x: originX + u * cos - v * sin, y: originY + u * sin + v * cos });
  // Brightness of each working pixel once, rather than of four for every frame pixel.
  const brightness = valuePlane(working).data;
  const ww = working.width;
  const wh = working.height;
  const cw = card.coarse.width;
  const ch = card.coarse.height;
  const value = new Float32Array(width * height);
  const onCard = new Uint8Array(width * height);
  for (let v = 0; v < height; v += 1) {
    // Working coordinates of this row's first pixel centre, stepping (cos, sin) a pixel.
    let x = originX + 0.5 * cos - (v + 0.5) * sin;
    let y = originY + 0.5 * sin + (v + 0.5) * cos;
    for (let u = 0; u < width; u += 1, x += cos, y += sin) {
      const gx = Math.floor(x / scale);
      const gy = Math.floor(y / scale);
      if (gx < 0 || gy < 0 || gx >= cw || gy >= ch || !card.region[gy * cw + gx]) continue;
      // Bilinear sample at (x, y); working pixel centres are at +0.5.
      const fx = Math.min(ww - 1.001, Math.max(0, x - 0.5));
      const fy = Math.min(wh - 1.001, Math.max(0, y - 0.5));
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const tx = fx - x0;
      const ty = fy - y0;
      const at = y0 * ww + x0;
      const top = brightness[at]! * (1 - tx) + brightness[at + 1]! * tx;
      const bottom = brightness[at + ww]! * (1 - tx) + brightness[at + ww + 1]! * tx;
      const index = v * width + u;
      value[index] = top * (1 - ty) + bottom * ty;
      onCard[index] = 1;
    }
  }
  const inside = margin > 0 ? morphMask(onCard, width, height, 2 * margin + 1, false, true) : onCard;
  return { width, height, value, onCard, inside, toWorking };
}
