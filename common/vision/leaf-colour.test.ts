/**
 * The leaf-colour analysis (issue 17) on generated leaf photos with known shares of chlorotic,
 * necrotic and powdery leaf area, on backgrounds that share those colours (brown soil, a white pot).
 * Shares within 3 points of the leaf's area: the blur mixes colours along every patch's edge.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseLeafColour, COLOUR_CONFIDENCE, confidenceOfShare, LEAF_COLOUR_METHOD, MIN_PROBLEM_CONFIDENCE } from './leaf-colour';
import { syntheticLeaf, type SyntheticLeafOptions } from './synthetic-leaf';
import { syntheticTrap } from './synthetic-trap';

const TOLERANCE = 0.03;

function analysed(options: SyntheticLeafOptions) {
  const { image, truth } = syntheticLeaf(options);
  const analysis = analyseLeafColour(image);
  for (const kind of ['healthy', 'chlorotic', 'necrotic', 'powdery'] as const) expect(Math.abs(analysis.shares[kind] - truth.shares[kind]), kind).toBeLessThanOrEqual(TOLERANCE);
  // The background (soil, bench, pot) is not leaf.
  expect(Math.abs(analysis.leafShare - truth.leafShare)).toBeLessThanOrEqual(0.02);
  expect(analysis.method).toBe(LEAF_COLOUR_METHOD);
  return { analysis, truth };
}

describe('analyseLeafColour on generated leaves with known shares', { timeout: 60_000 }, () => {
  it('a healthy leaf on soil: all healthy green, nothing found', () => {
    const { analysis } = analysed({ width: 800, height: 600, seed: 1, background: 'soil' });
    expect(analysis.shares.healthy).toBeGreaterThan(0.97);
    expect(analysis.findings).toEqual([]);
  });

  it('a yellowing leaf: the share of chlorosis, reported as the colour itself, since forty problems yellow leaves', () => {
    const { analysis } = analysed({ width: 800, height: 600, seed: 2, chlorotic: 0.3, background: 'bench' });
    expect(analysis.findings[0]).toMatchObject({ label: 'Yellow (chlorosis)', problemSlug: null, symptom: 'yellowing' });
    expect(analysis.findings[0]!.confidence).toBeCloseTo(confidenceOfShare(analysis.shares.chlorotic));
    expect(analysis.findings.every((finding) => finding.problemSlug === null)).toBe(true);
  });

  it('dead patches and scorched margins on a leaf over brown soil: necrosis counted, the soil not', () => {
    const { analysis } = analysed({ width: 1200, height: 900, seed: 3, necrotic: 0.2, background: 'soil' });
    expect(analysis.findings[0]).toMatchObject({ problemSlug: null, symptom: 'brown-necrotic' });
  });

  it('a leaf mostly dusted white, beside a white pot: powdery mildew first, the pot not leaf', () => {
    const { analysis } = analysed({ width: 800, height: 600, seed: 4, powdery: 0.4, chlorotic: 0.05, background: 'pot' });
    expect(analysis.findings[0]).toMatchObject({ label: 'Powdery mildew', problemSlug: 'powdery-mildew', symptom: 'white-powder' });
    // Spray residue is white too: listed, after the disease that spreads.
    expect(analysis.findings.map((finding) => finding.problemSlug)).toContain('spray-residue');
    expect(analysis.findings.findIndex((finding) => finding.problemSlug === 'spray-residue')).toBeGreaterThan(0);
  });

  it('yellowing, necrosis and a little mildew together, on a soft 2-megapixel photo', () => {
    const { analysis } = analysed({ width: 1600, height: 1200, seed: 5, chlorotic: 0.15, necrotic: 0.1, powdery: 0.05, background: 'soil', blur: 2 });
    const symptoms = analysis.colourSymptoms.map((colour) => colour.slug);
    expect(symptoms).toEqual(['yellowing', 'brown-necrotic', 'white-powder']);
    // The more of the leaf a colour covers, the surer the finding; all sorted most confident first.
    expect(analysis.findings.map((finding) => finding.confidence)).toEqual([...analysis.findings.map((finding) => finding.confidence)].sort((a, b) => b - a));
    expect(analysis.findings.every((finding) => finding.problemSlug === null || finding.confidence >= MIN_PROBLEM_CONFIDENCE)).toBe(true);
  });

  it('a photo with no leaf in it finds nothing', () => {
    const { image } = syntheticTrap({ width: 800, height: 600, seed: 6, colour: null });
    const analysis = analyseLeafColour(image);
    expect(analysis.leafShare).toBe(0);
    expect(analysis.findings).toEqual([]);
  });
});

describe('confidence from a share of the leaf', () => {
  it('is none below 2 %, 0.2 at 2 %, rising to 0.95 at a quarter of the leaf and no higher', () => {
    expect(confidenceOfShare(0.019)).toBe(0);
    expect(confidenceOfShare(COLOUR_CONFIDENCE.from)).toBeCloseTo(0.2);
    expect(confidenceOfShare(0.1)).toBeGreaterThan(confidenceOfShare(0.05));
    expect(confidenceOfShare(COLOUR_CONFIDENCE.full)).toBeCloseTo(0.95);
    expect(confidenceOfShare(0.9)).toBeCloseTo(0.95);
  });
});

describe('the catalogue stays out of the tablet’s main chunk', () => {
  it('only leaf-colour.ts of common/vision imports the plant-problem catalogue (the scan screen loads it lazily)', () => {
    const folder = import.meta.dirname;
    const importers = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /from '\.\.\/plant-problems/.test(readFileSync(join(folder, file), 'utf8')));
    expect(importers).toEqual(['leaf-colour.ts']);
  });
});
