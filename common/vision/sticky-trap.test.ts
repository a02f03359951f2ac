/**
 * The sticky-trap counter (issue 17) on generated trap photos with known counts: yellow and blue
 * cards, photos from 1200 × 900 to 12 megapixels (one of a size the working scale cannot halve
 * evenly, and one it does not halve at all), 5 to 300 insects, printed grids, lighting gradients,
 * blur, noise and card angles.
 *
 * Touching insects grow with density as on real cards (scattered at random, about one insect in
 * seven touches another at 300 on a card, hardly any at 20), so each photo's `touching` follows its
 * count. The total must be within 10 % on every photo. Each class within 15 % (and 3 insects):
 * wider, because a thrips hidden in a whitefly's outline still makes the blob bigger than one
 * whitefly but is read as one, and an insect near a class border by size may be read in the next class.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { countsOfMarks, countStickyTrap, SIZE_CLASSES, STICKY_TRAP_METHOD, STICKY_TRAP_VERSION } from './sticky-trap';
import { syntheticTrap, type SyntheticTrapOptions } from './synthetic-trap';

const PHOTOS: Array<{ name: string; options: SyntheticTrapOptions }> = [
  { name: 'five insects on a small yellow photo', options: { width: 1200, height: 900, seed: 11, colour: 'yellow', insects: { thrips: 3, whitefly_aphid: 1, gnat_fly: 1 }, blur: 0.6, noise: 4, touching: 0 } },
  { name: 'a small blue photo with a grid', options: { width: 1200, height: 900, seed: 12, colour: 'blue', insects: { thrips: 12, whitefly_aphid: 6, gnat_fly: 4 }, grid: true, blur: 0.8, lighting: 0.2, touching: 0.01 } },
  { name: 'a yellow grid in strong side light', options: { width: 1600, height: 1200, seed: 13, colour: 'yellow', insects: { thrips: 25, whitefly_aphid: 15, gnat_fly: 10 }, grid: true, blur: 1, lighting: 0.45, touching: 0.03 } },
  { name: 'a noisy blue card', options: { width: 1600, height: 1200, seed: 14, colour: 'blue', insects: { thrips: 40, whitefly_aphid: 25, gnat_fly: 15 }, blur: 1.2, noise: 7, touching: 0.04 } },
  { name: 'a yellow grid at 12°', options: { width: 2000, height: 1500, seed: 15, colour: 'yellow', insects: { thrips: 60, whitefly_aphid: 30, gnat_fly: 10 }, grid: true, blur: 1.5, angle: 12, touching: 0.05 } },
  { name: 'mostly whitefly, half the light gone across the card', options: { width: 2000, height: 1500, seed: 16, colour: 'yellow', insects: { thrips: 20, whitefly_aphid: 60, gnat_fly: 20 }, blur: 2, lighting: 0.5, touching: 0.05 } },
  { name: 'a blue grid with 150 insects', options: { width: 2400, height: 1800, seed: 17, colour: 'blue', insects: { thrips: 80, whitefly_aphid: 40, gnat_fly: 30 }, grid: true, blur: 1.6, touching: 0.075 } },
  { name: 'a smaller card in the photo', options: { width: 3000, height: 2250, seed: 18, colour: 'yellow', insects: { thrips: 120, whitefly_aphid: 50, gnat_fly: 30 }, grid: true, blur: 2.2, cardFill: 0.75, touching: 0.1 } },
  { name: 'a 6-megapixel blue card at −15°', options: { width: 3000, height: 2000, seed: 19, colour: 'blue', insects: { thrips: 100, whitefly_aphid: 70, gnat_fly: 30 }, blur: 2.5, lighting: 0.4, angle: -15, touching: 0.1 } },
  { name: '300 insects on a 12-megapixel yellow grid', options: { width: 4000, height: 3000, seed: 20, colour: 'yellow', insects: { thrips: 150, whitefly_aphid: 100, gnat_fly: 50 }, grid: true, blur: 3, noise: 6, touching: 0.15 } },
  { name: '280 insects, mostly thrips, in dim uneven light', options: { width: 4000, height: 3000, seed: 21, colour: 'yellow', insects: { thrips: 180, whitefly_aphid: 60, gnat_fly: 40 }, blur: 2.5, lighting: 0.55, touching: 0.14 } },
  { name: 'a soft blue grid at 25°', options: { width: 4000, height: 3000, seed: 22, colour: 'blue', insects: { thrips: 90, whitefly_aphid: 60, gnat_fly: 30 }, grid: true, blur: 3.5, angle: 25, cardFill: 0.7, touching: 0.09 } },
  { name: 'an odd-sized 12-megapixel photo', options: { width: 4031, height: 3023, seed: 23, colour: 'yellow', insects: { thrips: 70, whitefly_aphid: 30, gnat_fly: 20 }, grid: true, blur: 2.4, lighting: 0.3, touching: 0.06 } },
];

// Generating and analysing a 12-megapixel photo takes up to 8 s on a quiet 2-core machine: room for a loaded one.
describe('countStickyTrap on generated trap photos with known counts', { timeout: 120_000 }, () => {
  const errors: number[] = [];
  afterAll(() => {
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    // eslint-disable-next-line no-console -- the issue asks the test to print its mean error
    console.log(`sticky-trap counter: mean absolute percentage error ${(mean * 100).toFixed(1)} % over ${errors.length} photos (worst ${(Math.max(...errors) * 100).toFixed(1)} %)`);
  });

  it.each(PHOTOS)('$name: the total within 10 %, each class within 15 %', ({ options }) => {
    const { image, truth } = syntheticTrap(options);
    const analysis = countStickyTrap(image);
    const total = truth.insects.length;
    errors.push(Math.abs(analysis.marks.length - total) / total);

    expect(analysis.trap?.colour).toBe(options.colour);
    expect(Math.abs(analysis.marks.length - total)).toBeLessThanOrEqual(0.1 * total);
    for (const sizeClass of SIZE_CLASSES) expect(Math.abs(analysis.counts[sizeClass] - truth.counts[sizeClass]), sizeClass).toBeLessThanOrEqual(Math.max(3, 0.15 * truth.counts[sizeClass]));
    expect(analysis.counts).toEqual(countsOfMarks(analysis.marks));
    expect(analysis).toMatchObject({ method: STICKY_TRAP_METHOD, version: STICKY_TRAP_VERSION });

    // Marks sit on insects: nine in ten within 2 mm of one (the marks of insects touching spread along their blob).
    const near = analysis.marks.filter((mark) =>
      truth.insects.some((insect) => Math.hypot((mark.x - insect.x) * image.width, (mark.y - insect.y) * image.height) <= 2 * truth.pixelsPerMm),
    );
    expect(near.length).toBeGreaterThanOrEqual(0.9 * analysis.marks.length);
    // The card's bounds hold every insect; fractions of the photo stay within it.
    const { bounds } = analysis.trap!;
    for (const insect of truth.insects) {
      expect(insect.x).toBeGreaterThan(bounds.x);
      expect(insect.x).toBeLessThan(bounds.x + bounds.width);
      expect(insect.y).toBeGreaterThan(bounds.y);
      expect(insect.y).toBeLessThan(bounds.y + bounds.height);
    }
    for (const mark of analysis.marks) {
      expect(mark.radius).toBeGreaterThan(0);
      expect(mark.radius).toBeLessThan(0.05);
    }
  });
});

describe('countStickyTrap, beyond counting', { timeout: 120_000 }, () => {
  it('a photo without a trap answers no trap and no counts rather than invented ones', () => {
    const { image } = syntheticTrap({ width: 1600, height: 1200, seed: 31, colour: null, lighting: 0.4 });
    const analysis = countStickyTrap(image);
    expect(analysis.trap).toBeNull();
    expect(analysis.marks).toEqual([]);
    expect(analysis.counts).toEqual({ thrips: 0, whitefly_aphid: 0, gnat_fly: 0 });
    expect(analysis.workingSize).toEqual({ width: 1600, height: 1200 });
  });

  it('a 12-megapixel photo is analysed at a working size with a long side of about 2,000 pixels, marks still in fractions of the photo', () => {
    const { image, truth } = syntheticTrap({ width: 4000, height: 3000, seed: 32, colour: 'blue', insects: { gnat_fly: 3 }, touching: 0 });
    const analysis = countStickyTrap(image);
    expect(analysis.workingSize).toEqual({ width: 2000, height: 1500 });
    expect(analysis.counts.gnat_fly).toBe(3);
    for (const insect of truth.insects) expect(analysis.marks.some((mark) => Math.hypot(mark.x - insect.x, mark.y - insect.y) < 0.005)).toBe(true);
  });

  it('sizes insects against the card: a card said to be longer makes the same insects larger', () => {
    const { image, truth } = syntheticTrap({ width: 1600, height: 1200, seed: 33, colour: 'yellow', insects: { thrips: 20 }, touching: 0 });
    expect(countStickyTrap(image).counts.thrips).toBe(truth.counts.thrips);
    // On a card taken to be 40 cm long, a 1.25–1.7 mm thrips measures 2–2.7 mm: whitefly/aphid-sized.
    const asLongCard = countStickyTrap(image, { cardLongSideMm: 400 });
    expect(asLongCard.counts.thrips).toBeLessThanOrEqual(truth.counts.thrips / 2);
    expect(asLongCard.counts.whitefly_aphid + asLongCard.counts.gnat_fly).toBeGreaterThanOrEqual(truth.counts.thrips / 2);
  });

  it('counts follow the marks as the grower taps them away and on', () => {
    const { image } = syntheticTrap({ width: 1200, height: 900, seed: 34, colour: 'yellow', insects: { thrips: 4, gnat_fly: 2 }, touching: 0 });
    const { marks } = countStickyTrap(image);
    expect(countsOfMarks(marks)).toEqual({ thrips: 4, whitefly_aphid: 0, gnat_fly: 2 });
    const edited = [...marks.filter((mark) => mark.sizeClass !== 'gnat_fly'), { id: 'added', x: 0.5, y: 0.5, radius: 0.01, sizeClass: 'whitefly_aphid' as const }];
    expect(countsOfMarks(edited)).toEqual({ thrips: 4, whitefly_aphid: 1, gnat_fly: 0 });
  });

  it('draws the same photo from the same options, so every run and machine counts the same', () => {
    const options: SyntheticTrapOptions = { width: 400, height: 300, seed: 35, colour: 'blue', insects: { thrips: 5, whitefly_aphid: 5 }, grid: true };
    const same = (a: Uint8ClampedArray, b: Uint8ClampedArray) => a.length === b.length && a.every((value, index) => value === b[index]);
    expect(same(syntheticTrap(options).image.data, syntheticTrap(options).image.data)).toBe(true);
    expect(same(syntheticTrap({ ...options, seed: 36 }).image.data, syntheticTrap(options).image.data)).toBe(false);
  });
});
