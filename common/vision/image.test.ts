/** The typed-array helpers the scan analyses share (issue 17; image.ts, planes.ts), against plain definitions. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downscale, seededRandom, shrinkToLongSide, type RgbaImage } from './image';
import { extremeFilter, fillHoles, labelComponents, morphMask } from './planes';

function randomImage(width: number, height: number, seed: number): RgbaImage {
  const random = seededRandom(seed);
  return { width, height, data: Uint8ClampedArray.from({ length: width * height * 4 }, () => Math.floor(random() * 256)) };
}

/** The mean of channel `channel` over the source rectangle [x0, x1) × [y0, y1), pixels cut by its edges weighed by the share inside. */
function areaMean(image: RgbaImage, channel: number, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  for (let y = Math.floor(y0); y < Math.ceil(y1); y += 1) {
    for (let x = Math.floor(x0); x < Math.ceil(x1); x += 1) {
      const weight = (Math.min(x + 1, x1) - Math.max(x, x0)) * (Math.min(y + 1, y1) - Math.max(y, y0));
      sum += weight * image.data[(y * image.width + x) * 4 + channel]!;
    }
  }
  return sum / ((x1 - x0) * (y1 - y0));
}

describe('downscale', () => {
  it('each output pixel is the mean of the area it covers, for whole and fractional factors alike', () => {
    for (const [width, height, outWidth, outHeight] of [
      [12, 8, 6, 4],
      [12, 9, 4, 3],
      [10, 7, 4, 3],
      [9, 9, 5, 5],
    ] as const) {
      const image = randomImage(width, height, width * height);
      const out = downscale(image, outWidth, outHeight);
      const sx = width / outWidth;
      const sy = height / outHeight;
      for (let y = 0; y < outHeight; y += 1) {
        for (let x = 0; x < outWidth; x += 1) {
          for (let channel = 0; channel < 4; channel += 1) {
            expect(Math.abs(out.data[(y * outWidth + x) * 4 + channel]! - areaMean(image, channel, x * sx, y * sy, (x + 1) * sx, (y + 1) * sy))).toBeLessThanOrEqual(0.51);
          }
        }
      }
    }
  });

  it('a 12-megapixel phone photo halves by whole blocks, whatever its odd size, and says by how much', () => {
    expect(shrinkToLongSide(randomImage(41, 31, 1), 20)).toMatchObject({ image: { width: 20, height: 15 }, scale: 2 });
    expect(shrinkToLongSide(randomImage(30, 20, 2), 20)).toMatchObject({ image: { width: 20, height: 13 }, scale: 1.5 });
    const small = randomImage(10, 8, 3);
    expect(shrinkToLongSide(small, 20)).toEqual({ image: small, scale: 1 });
  });
});

describe('masks and planes', () => {
  it('extremeFilter is the plain min and max over each square window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 3 }), fc.integer(), (width, height, half, seed) => {
        const random = seededRandom(seed);
        const plane = { width, height, data: Float32Array.from({ length: width * height }, () => Math.floor(random() * 100)) };
        const size = 2 * half + 1;
        for (const isMax of [true, false]) {
          const filtered = extremeFilter(plane, size, isMax);
          for (let y = 0; y < height; y += 1) {
            for (let x = 0; x < width; x += 1) {
              const window: number[] = [];
              for (let wy = Math.max(0, y - half); wy <= Math.min(height - 1, y + half); wy += 1) for (let wx = Math.max(0, x - half); wx <= Math.min(width - 1, x + half); wx += 1) window.push(plane.data[wy * width + wx]!);
              expect(filtered.data[y * width + x]).toBe(isMax ? Math.max(...window) : Math.min(...window));
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('labels 8-connected components with their areas and bounds', () => {
    // Two diagonal touches join; the lone pixel on the right is its own component.
    const rows = ['#..#.', '.#..#', '..#..', '....#'];
    const mask = Uint8Array.from(rows.join('').split(''), (cell) => (cell === '#' ? 1 : 0));
    const { count, stats, labels } = labelComponents(mask, 5, 4);
    expect(count).toBe(3);
    expect(stats.map((stat) => stat.area).sort()).toEqual([1, 2, 3]);
    expect(labels[0]).toBe(labels[12]);
    expect(labels[3]).toBe(labels[9]);
    expect(labels[19]).not.toBe(labels[9]);
  });

  it('fills holes, erodes and dilates masks', () => {
    const ring = ['#####', '#...#', '#.#.#', '#...#', '#####'].join('');
    const mask = Uint8Array.from(ring.split(''), (cell) => (cell === '#' ? 1 : 0));
    expect([...fillHoles(mask, 5, 5)].every((value) => value === 1)).toBe(true);
    const full = new Uint8Array(25).fill(1);
    // Off the image counts as set unless said otherwise: a full mask survives erosion, or loses its rim.
    expect([...morphMask(full, 5, 5, 3, false)].every((value) => value === 1)).toBe(true);
    expect([...morphMask(full, 5, 5, 3, false, true)].filter((value) => value === 1)).toHaveLength(9);
    const dot = new Uint8Array(25);
    dot[12] = 1;
    expect([...morphMask(dot, 5, 5, 3, true)].filter((value) => value === 1)).toHaveLength(9);
  });
});
