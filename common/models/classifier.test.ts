import { describe, expect, it } from 'vitest';
import type { AiModelInput } from '../schemas/models';
import { findingsOf, imageTensor, probabilitiesOf, tensorShape } from './classifier';
import { modelKeyOf } from './catalogue';

/** An RGBA image from rows of [r, g, b] pixels. */
function image(rows: Array<Array<[number, number, number]>>) {
  const height = rows.length;
  const width = rows[0]?.length ?? 0;
  const data = new Uint8ClampedArray(width * height * 4);
  rows.forEach((row, y) => row.forEach(([r, g, b], x) => data.set([r, g, b, 255], (y * width + x) * 4)));
  return { width, height, data };
}

const input = (width: number, height: number, layout: AiModelInput['layout'] = 'NCHW', mean = [0, 0, 0], std = [1, 1, 1]): AiModelInput => ({ width, height, layout, mean, std });

describe('imageTensor', () => {
  it('lays channels out as NCHW (planes) or NHWC (interleaved), scaled to 0..1', () => {
    const photo = image([[[255, 0, 0], [0, 0, 255]]]);
    expect(Array.from(imageTensor(photo, input(2, 1, 'NCHW')))).toEqual([1, 0, 0, 0, 0, 1]);
    expect(Array.from(imageTensor(photo, input(2, 1, 'NHWC')))).toEqual([1, 0, 0, 0, 0, 1]);
    expect(tensorShape(input(2, 1, 'NCHW'))).toEqual([1, 3, 1, 2]);
    expect(tensorShape(input(2, 1, 'NHWC'))).toEqual([1, 1, 2, 3]);
  });

  it('applies mean and std per channel: (v / 255 − mean) / std', () => {
    const photo = image([[[255, 51, 0]]]);
    const tensor = Array.from(imageTensor(photo, input(1, 1, 'NCHW', [0.5, 0.2, 0], [0.25, 0.5, 2])));
    expect(tensor.map((value) => Number(value.toFixed(5)))).toEqual([2, 0, 0]);
  });

  it('shrinks by the area each output pixel covers, fractions of pixels included', () => {
    const halves = image(Array.from({ length: 4 }, () => [[0, 0, 0], [0, 0, 0], [255, 255, 255], [255, 255, 255]] as Array<[number, number, number]>));
    expect(Array.from(imageTensor(halves, input(2, 2, 'NHWC'))).filter((_, index) => index % 3 === 0)).toEqual([0, 1, 0, 1]);
    // Three pixels into two: the first covers pixel 0 and half of pixel 1.
    const stripe = image([[[0, 0, 0], [255, 255, 255], [0, 0, 0]]]);
    const red = Array.from(imageTensor(stripe, input(2, 1, 'NCHW'))).slice(0, 2);
    expect(red.map((value) => Number(value.toFixed(5)))).toEqual([0.33333, 0.33333]);
  });

  it('enlarges bilinearly between pixel centres', () => {
    const ramp = image([[[0, 0, 0], [255, 255, 255]]]);
    const red = Array.from(imageTensor(ramp, input(4, 1, 'NCHW'))).slice(0, 4);
    expect(red.map((value) => Number(value.toFixed(5)))).toEqual([0, 0.25, 0.75, 1]);
  });

  it('refuses an image without pixels', () => {
    expect(() => imageTensor({ width: 0, height: 0, data: new Uint8ClampedArray() }, input(2, 2))).toThrow();
  });
});

describe('probabilitiesOf and findingsOf', () => {
  it('keeps scores that already are probabilities, and softmaxes anything else', () => {
    expect(probabilitiesOf([0.2, 0.7, 0.1])).toEqual([0.2, 0.7, 0.1]);
    const softened = probabilitiesOf([0, Math.log(3)]);
    expect(softened[0]).toBeCloseTo(0.25, 10);
    expect(softened[1]).toBeCloseTo(0.75, 10);
    // Large logits do not overflow.
    expect(probabilitiesOf([1000, 1000])).toEqual([0.5, 0.5]);
  });

  it('answers the most confident labels first, with their problems, at most top-k', () => {
    const labels = ['a', 'b', 'c', 'd'].map((label) => ({ label, problem_slug: label === 'c' ? 'botrytis' : null }));
    const findings = findingsOf([0.1, 0.2, 0.6, 0.1], labels, 3);
    expect(findings).toEqual([
      { label: 'c', problem_slug: 'botrytis', confidence: 0.6 },
      { label: 'b', problem_slug: null, confidence: 0.2 },
      { label: 'a', problem_slug: null, confidence: 0.1 },
    ]);
    expect(() => findingsOf([0.5, 0.5], labels)).toThrow(/2 scores for 4 labels/);
  });
});

describe('modelKeyOf', () => {
  it('makes a key of the name’s letters and digits; names that differ only in case or punctuation share it', () => {
    expect(modelKeyOf('Leaf Spot v2!')).toBe('custom-leaf-spot-v2');
    expect(modelKeyOf('  leaf-spot   V2 ')).toBe('custom-leaf-spot-v2');
    expect(modelKeyOf('Pétale')).toBe('custom-petale');
    expect(modelKeyOf('!!!')).toBeNull();
    expect(modelKeyOf('x'.repeat(200))?.length).toBe('custom-'.length + 60);
  });
});
