import { describe, expect, it } from 'vitest';
import { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS, catalogueProblem, catalogueProblemNamed, filterCatalogue } from './index';
import type { CatalogueProblem } from './types';

const symptomBySlug = new Map(SYMPTOMS.map((symptom) => [symptom.slug, symptom]));
const colorSlugs = new Set(COLOR_SYMPTOMS.map((color) => color.slug));
const groupSlugs = new Set(SYMPTOM_GROUPS.map((group) => group.slug));
const problemSlugs = new Set(CATALOGUE.map((problem) => problem.slug));

function duplicates(values: Array<string | number>): Array<string | number> {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function slugsOf(problems: CatalogueProblem[]): string[] {
  return problems.map((problem) => problem.slug);
}

/** Each problem's offending entries, so a failure names what is wrong instead of printing `false`. */
function offenders(check: (problem: CatalogueProblem) => string[]): string[] {
  return CATALOGUE.flatMap((problem) => check(problem).map((entry) => `${problem.slug}: ${entry}`));
}

describe('the catalogue', () => {
  it('holds at least 60 problems numbered 1..n, with unique slugs, names and 2–3 letter abbreviations', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(60);
    expect(CATALOGUE.map((problem) => problem.id)).toEqual(CATALOGUE.map((_, index) => index + 1));
    expect(duplicates(CATALOGUE.map((problem) => problem.slug))).toEqual([]);
    // catalogueProblemNamed finds a recorded problem's type by name, so names must be unique too.
    expect(duplicates(CATALOGUE.map((problem) => problem.name.toLowerCase()))).toEqual([]);
    expect(duplicates(CATALOGUE.map((problem) => problem.abbreviation))).toEqual([]);
    expect(offenders((problem) => (/^[a-z0-9]+(-[a-z0-9]+)*$/.test(problem.slug) ? [] : [problem.slug]))).toEqual([]);
    expect(offenders((problem) => (/^[A-Z]{2,3}$/.test(problem.abbreviation) ? [] : [problem.abbreviation]))).toEqual([]);
  });

  it('covers the pests, diseases and disorders the issue names', () => {
    const named = [
      'two-spotted-spider-mite', 'broad-mite', 'hemp-russet-mite', 'western-flower-thrips', 'onion-thrips', 'greenhouse-whitefly', 'silverleaf-whitefly',
      'green-peach-aphid', 'cotton-aphid', 'cannabis-aphid', 'root-aphids', 'fungus-gnats', 'shore-flies', 'mealybugs', 'root-mealybug', 'leaf-miners',
      'cabbage-looper', 'beet-armyworm', 'corn-earworm', 'scale-insects', 'slugs-and-snails',
      'powdery-mildew', 'botrytis', 'downy-mildew', 'pythium-root-rot', 'fusarium-wilt', 'verticillium-wilt', 'damping-off', 'septoria-leaf-spot', 'early-blight',
      'bacterial-leaf-spot', 'hop-latent-viroid', 'tobacco-mosaic-virus', 'tomato-spotted-wilt-virus', 'impatiens-necrotic-spot-virus', 'phytophthora-root-rot',
      'white-mould', 'rust',
      'nitrogen-deficiency', 'phosphorus-deficiency', 'potassium-deficiency', 'calcium-deficiency', 'magnesium-deficiency', 'sulfur-deficiency', 'iron-deficiency',
      'manganese-deficiency', 'zinc-deficiency', 'boron-deficiency', 'copper-deficiency', 'nitrogen-toxicity', 'salt-burn', 'nutrient-lockout',
      'light-burn', 'heat-stress', 'cold-stress', 'overwatering', 'underwatering', 'ph-too-low', 'ph-too-high', 'wind-physical-damage', 'herbicide-injury',
    ];
    expect(named.filter((slug) => !problemSlugs.has(slug))).toEqual([]);
    expect(catalogueProblem('two-spotted-spider-mite')?.kind).toBe('pest');
    expect(catalogueProblem('hop-latent-viroid')?.kind).toBe('disease');
    expect(catalogueProblem('salt-burn')?.kind).toBe('disorder');
  });

  it('gives organisms a scientific name and disorders none, and each problem a 2–4 sentence description', () => {
    expect(offenders((problem) => ((problem.kind === 'disorder') === (problem.scientific_name === null) ? [] : [`scientific_name ${problem.scientific_name}`]))).toEqual([]);
    // A sentence ends with . ! or ? followed by a space or the end ("0.5 mm" and "°C," do not end one).
    expect(
      offenders((problem) => {
        const sentences = problem.description.match(/[.!?](\s|$)/g)?.length ?? 0;
        return sentences >= 2 && sentences <= 4 ? [] : [`${sentences} sentences`];
      }),
    ).toEqual([]);
    expect(offenders((problem) => (problem.category.trim() ? [] : ['no category']))).toEqual([]);
  });
});

describe('symptoms, colours and groups', () => {
  it('keeps the five symptom groups and numbers symptoms and colours 1..n with unique slugs and real swatches', () => {
    expect(SYMPTOM_GROUPS.map((group) => [group.id, group.slug])).toEqual([
      [1, 'leaves'],
      [2, 'stems'],
      [3, 'roots'],
      [4, 'flowers'],
      [5, 'whole-plant'],
    ]);
    expect(SYMPTOMS.map((symptom) => symptom.id)).toEqual(SYMPTOMS.map((_, index) => index + 1));
    expect(COLOR_SYMPTOMS.map((color) => color.id)).toEqual(COLOR_SYMPTOMS.map((_, index) => index + 1));
    expect(duplicates(SYMPTOMS.map((symptom) => symptom.slug))).toEqual([]);
    expect(duplicates(SYMPTOMS.map((symptom) => symptom.name))).toEqual([]);
    expect(duplicates(COLOR_SYMPTOMS.map((color) => color.slug))).toEqual([]);
    expect(COLOR_SYMPTOMS.filter((color) => !/^#[0-9a-f]{6}$/i.test(color.swatch))).toEqual([]);
    expect(SYMPTOMS.filter((symptom) => !groupSlugs.has(symptom.group))).toEqual([]);
    for (const group of SYMPTOM_GROUPS) expect(SYMPTOMS.some((symptom) => symptom.group === group.slug), group.slug).toBe(true);
  });

  it('every symptom, colour and group a problem names exists', () => {
    expect(offenders((problem) => problem.symptoms.filter((slug) => !symptomBySlug.has(slug)))).toEqual([]);
    expect(offenders((problem) => problem.color_symptoms.filter((slug) => !colorSlugs.has(slug)))).toEqual([]);
    expect(offenders((problem) => problem.symptom_groups.filter((slug) => !groupSlugs.has(slug)))).toEqual([]);
    expect(offenders((problem) => [...duplicates(problem.symptoms), ...duplicates(problem.color_symptoms), ...duplicates(problem.symptom_groups)].map(String))).toEqual([]);
    expect(offenders((problem) => (problem.symptoms.length && problem.color_symptoms.length && problem.symptom_groups.length ? [] : ['an empty list']))).toEqual([]);
  });

  it('a problem names a group exactly when it names a symptom of that group, so filtering by both agrees', () => {
    expect(
      offenders((problem) =>
        problem.symptoms.filter((slug) => {
          const group = symptomBySlug.get(slug)?.group;
          return !group || !problem.symptom_groups.includes(group);
        }),
      ),
    ).toEqual([]);
    expect(offenders((problem) => problem.symptom_groups.filter((group) => !problem.symptoms.some((slug) => symptomBySlug.get(slug)?.group === group)))).toEqual([]);
  });

  it('every symptom and colour is shown by at least one problem (none is a dead filter)', () => {
    const usedSymptoms = new Set(CATALOGUE.flatMap((problem) => problem.symptoms));
    const usedColors = new Set(CATALOGUE.flatMap((problem) => problem.color_symptoms));
    expect(SYMPTOMS.filter((symptom) => !usedSymptoms.has(symptom.slug)).map((symptom) => symptom.slug)).toEqual([]);
    expect(COLOR_SYMPTOMS.filter((color) => !usedColors.has(color.slug)).map((color) => color.slug)).toEqual([]);
  });
});

describe('look-alikes and solutions', () => {
  it('every look-alike is another catalogue entry, once, with how to tell them apart', () => {
    expect(offenders((problem) => problem.look_alikes.filter((alike) => !problemSlugs.has(alike.slug)).map((alike) => `unknown ${alike.slug}`))).toEqual([]);
    expect(offenders((problem) => problem.look_alikes.filter((alike) => alike.slug === problem.slug).map(() => 'itself'))).toEqual([]);
    expect(offenders((problem) => duplicates(problem.look_alikes.map((alike) => alike.slug)).map(String))).toEqual([]);
    expect(offenders((problem) => problem.look_alikes.filter((alike) => alike.how_to_tell.trim().length < 20).map((alike) => `no how_to_tell for ${alike.slug}`))).toEqual([]);
    expect(offenders((problem) => (problem.look_alikes.length ? [] : ['no look-alike']))).toEqual([]);
  });

  it('lists the look-alikes growers confuse most, both ways', () => {
    const pairs: Array<[string, string]> = [
      ['broad-mite', 'calcium-deficiency'],
      ['broad-mite', 'heat-stress'],
      ['western-flower-thrips', 'two-spotted-spider-mite'],
      ['fungus-gnats', 'shore-flies'],
      ['powdery-mildew', 'spray-residue'],
      ['overwatering', 'underwatering'],
      ['fusarium-wilt', 'verticillium-wilt'],
      ['greenhouse-whitefly', 'silverleaf-whitefly'],
    ];
    const missing = pairs.flatMap(([one, other]) =>
      [
        [one, other],
        [other, one],
      ]
        .filter(([from, to]) => !catalogueProblem(from ?? '')?.look_alikes.some((alike) => alike.slug === to))
        .map(([from, to]) => `${from} → ${to}`),
    );
    expect(missing).toEqual([]);
  });

  it('every problem has a cultural solution; every pest a biological one naming its organisms', () => {
    expect(offenders((problem) => (problem.solutions.some((solution) => solution.kind === 'cultural') ? [] : ['no cultural solution']))).toEqual([]);
    const pests = CATALOGUE.filter((problem) => problem.kind === 'pest');
    expect(pests.length).toBeGreaterThanOrEqual(19);
    expect(
      pests.filter((pest) => !pest.solutions.some((solution) => solution.kind === 'biological' && (solution.organisms?.length ?? 0) > 0)).map((pest) => pest.slug),
    ).toEqual([]);
    // Any biological solution names what to release or apply; the others name no organisms.
    expect(
      offenders((problem) =>
        problem.solutions
          .filter((solution) => (solution.kind === 'biological') !== (solution.organisms !== undefined && solution.organisms.length > 0))
          .map((solution) => `${solution.kind} solution with organisms ${JSON.stringify(solution.organisms)}`),
      ),
    ).toEqual([]);
    expect(offenders((problem) => problem.solutions.filter((solution) => solution.text.trim().length < 30).map((solution) => `short ${solution.kind} solution`))).toEqual([]);
    expect(offenders((problem) => duplicates(problem.solutions.map((solution) => solution.kind)).map(String))).toEqual([]);
  });

  it('names the real beneficial organisms against the main pests', () => {
    const organismsAgainst = (slug: string) => catalogueProblem(slug)?.solutions.flatMap((solution) => solution.organisms ?? []) ?? [];
    expect(organismsAgainst('two-spotted-spider-mite')).toContain('Phytoseiulus persimilis');
    expect(organismsAgainst('western-flower-thrips')).toEqual(expect.arrayContaining(['Neoseiulus cucumeris', 'Orius insidiosus']));
    expect(organismsAgainst('greenhouse-whitefly')).toContain('Encarsia formosa');
    expect(organismsAgainst('green-peach-aphid')).toContain('Aphidius colemani');
    expect(organismsAgainst('fungus-gnats')).toEqual(expect.arrayContaining(['Steinernema feltiae', 'Bacillus thuringiensis subsp. israelensis']));
    expect(organismsAgainst('leaf-miners')).toContain('Diglyphus isaea');
    expect(organismsAgainst('mealybugs')).toContain('Cryptolaemus montrouzieri');
  });
});

describe('lookups', () => {
  it('filterCatalogue by a symptom group and a symptom returns exactly the problems naming both', () => {
    const leaves = SYMPTOM_GROUPS.find((group) => group.slug === 'leaves');
    const stippling = SYMPTOMS.find((symptom) => symptom.slug === 'stippling');
    expect(slugsOf(filterCatalogue({ symptomGroupId: leaves?.id, symptomId: stippling?.id }))).toEqual(['two-spotted-spider-mite', 'leafhoppers']);

    for (const group of SYMPTOM_GROUPS) {
      const expected = CATALOGUE.filter((problem) => problem.symptom_groups.includes(group.slug));
      expect(slugsOf(filterCatalogue({ symptomGroupId: group.id })), group.slug).toEqual(slugsOf(expected));
      expect(expected.length, group.slug).toBeGreaterThan(0);
    }
    for (const symptom of SYMPTOMS) {
      const group = SYMPTOM_GROUPS.find((candidate) => candidate.slug === symptom.group);
      const expected = CATALOGUE.filter((problem) => problem.symptoms.includes(symptom.slug));
      expect(slugsOf(filterCatalogue({ symptomGroupId: group?.id, symptomId: symptom.id })), symptom.slug).toEqual(slugsOf(expected));
    }
  });

  it('filterCatalogue by colour, and by ids that do not exist', () => {
    const orange = COLOR_SYMPTOMS.find((color) => color.slug === 'orange-pustules');
    expect(slugsOf(filterCatalogue({ colorSymptomId: orange?.id }))).toEqual(['rust']);
    expect(filterCatalogue({ symptomGroupId: 999 })).toEqual([]);
    expect(filterCatalogue({ symptomId: 999 })).toEqual([]);
    expect(filterCatalogue({})).toHaveLength(CATALOGUE.length);
  });

  it('catalogueProblem finds an entry by slug, by id and by id as text; catalogueProblemNamed by name', () => {
    expect(catalogueProblem('powdery-mildew')?.abbreviation).toBe('PM');
    expect(catalogueProblem(1)?.slug).toBe('two-spotted-spider-mite');
    expect(catalogueProblem('2')?.slug).toBe('broad-mite');
    expect(catalogueProblem(CATALOGUE.length + 1)).toBeUndefined();
    expect(catalogueProblem('no-such-problem')).toBeUndefined();
    expect(catalogueProblemNamed('  botrytis (GREY mould, bud rot) ')?.slug).toBe('botrytis');
    // As growers write a type: without the bracketed aside, with another one, or by slug.
    expect(catalogueProblemNamed('Botrytis')?.slug).toBe('botrytis');
    expect(catalogueProblemNamed('Botrytis (grey mould)')?.slug).toBe('botrytis');
    expect(catalogueProblemNamed('western-flower-thrips')?.name).toBe(catalogueProblem('western-flower-thrips')?.name);
    expect(catalogueProblemNamed('Mites')).toBeUndefined();
  });
});
