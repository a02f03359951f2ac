/** The plant problem screens' pure logic: searching and filtering the real catalogue, and where a problem is open now. */
import { describe, expect, it } from 'vitest';
import { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS, catalogueProblemNamed } from '../../../common/plant-problems';
import { type CatalogueContent, type CatalogueFilters, NO_FILTERS, openProblemsByRoom, searchCatalogue, symptomsByGroup, symptomsOfGroup } from '../../../src/features/plant-problems/model';

const content: CatalogueContent = { problems: CATALOGUE, groups: SYMPTOM_GROUPS, symptoms: SYMPTOMS, colorSymptoms: COLOR_SYMPTOMS };
const search = (filters: Partial<CatalogueFilters>) => searchCatalogue(content, { ...NO_FILTERS, ...filters }).map((problem) => problem.slug);
const entry = (slug: string) => CATALOGUE.find((problem) => problem.slug === slug)!;

describe('searching the catalogue as the grower types', () => {
  it('lists every problem, by name, with nothing typed or chosen', () => {
    const all = search({});
    expect(all).toHaveLength(CATALOGUE.length);
    expect(all).toEqual([...CATALOGUE].sort((a, b) => a.name.localeCompare(b.name)).map((problem) => problem.slug));
  });

  it('finds a problem by a word of its name, its name matches first', () => {
    const found = search({ query: 'spider' });
    expect(found[0]).toBe('two-spotted-spider-mite');
    // Any case, extra spaces and accents typed are ignored.
    expect(search({ query: '  SPÍDER  ' })[0]).toBe('two-spotted-spider-mite');
    // Problems found by a word elsewhere (their symptoms) come after those named by it.
    const mites = search({ query: 'mite' });
    const named = mites.filter((slug) => entry(slug).name.toLowerCase().includes('mite'));
    expect(mites.slice(0, named.length)).toEqual(named);
    expect(named).toEqual(expect.arrayContaining(['two-spotted-spider-mite', 'broad-mite', 'hemp-russet-mite']));
  });

  it('puts names that start with the first word before names that only contain it', () => {
    const found = search({ query: 'broad' });
    expect(found[0]).toBe('broad-mite');
  });

  it('finds by scientific name, category, symptom and colour symptom', () => {
    expect(search({ query: 'tetranychus urticae' })).toEqual(['two-spotted-spider-mite']);
    const byCategory = search({ query: 'Mites' });
    expect(byCategory).toEqual(expect.arrayContaining(CATALOGUE.filter((problem) => problem.category === 'Mites').map((problem) => problem.slug)));
    // "webbing" is a symptom's words, not in the mite's name.
    expect(search({ query: 'webbing' })).toContain('two-spotted-spider-mite');
    const bronze = search({ query: 'bronze' });
    expect(bronze).toEqual(expect.arrayContaining(CATALOGUE.filter((problem) => problem.color_symptoms.includes('bronze')).map((problem) => problem.slug)));
  });

  it('needs every word typed, in any order and field', () => {
    expect(search({ query: 'urticae webbing' })).toEqual(['two-spotted-spider-mite']);
    expect(search({ query: 'spider zzzz' })).toEqual([]);
  });

  it('narrows by symptom group, a symptom of it, colour and kind, together with the words', () => {
    const leaves = search({ group: 'leaves' });
    expect(leaves.length).toBeGreaterThan(0);
    expect(leaves.length).toBeLessThan(CATALOGUE.length);
    expect(leaves.every((slug) => entry(slug).symptom_groups.includes('leaves'))).toBe(true);

    const stippling = search({ group: 'leaves', symptom: 'stippling' });
    expect(stippling).toContain('two-spotted-spider-mite');
    expect(stippling.length).toBeLessThan(leaves.length);
    expect(stippling.every((slug) => entry(slug).symptoms.includes('stippling'))).toBe(true);

    const whitePowder = search({ color: 'white-powder' });
    expect(whitePowder).toContain('powdery-mildew');
    expect(whitePowder.every((slug) => entry(slug).color_symptoms.includes('white-powder'))).toBe(true);

    const pests = search({ kind: 'pest' });
    expect(pests.every((slug) => entry(slug).kind === 'pest')).toBe(true);
    expect(search({ kind: 'disease', query: 'spider' })).not.toContain('two-spotted-spider-mite');
    expect(search({ kind: 'pest', group: 'roots', query: 'spider' })).toEqual([]);
  });

  it('offers the symptoms of the chosen group only, none before one is chosen', () => {
    expect(symptomsOfGroup(content, null)).toEqual([]);
    const roots = symptomsOfGroup(content, 'roots');
    expect(roots.length).toBeGreaterThan(0);
    expect(roots.every((symptom) => symptom.group === 'roots')).toBe(true);
  });

  it('shows a problem’s symptoms under the groups it shows in, in the catalogue’s order', () => {
    const groups = symptomsByGroup(content, entry('two-spotted-spider-mite'));
    expect(groups.map(({ group }) => group.slug)).toEqual(['leaves', 'whole-plant']);
    expect(groups[0]!.symptoms.map((symptom) => symptom.slug)).toEqual(['stippling', 'webbing', 'dull-russeted-leaves']);
    expect(groups[1]!.symptoms.map((symptom) => symptom.slug)).toEqual(['stunted-growth', 'leaf-drop']);
  });
});

describe('where a problem is open now', () => {
  const problem = (roomId: string, status: string, problem_type: string, problem_slug: string | null = null) => ({ roomId, status, problem_type, problem_slug });

  it('counts open problems of this type per room, most first; closed ones and other types are left out', () => {
    const recorded = [
      problem('room-a', 'unresolved', 'Two-spotted spider mite', 'two-spotted-spider-mite'),
      problem('room-b', 'unresolved', 'Two-spotted spider mite', 'two-spotted-spider-mite'),
      problem('room-b', 'treated', 'Two-spotted spider mite', 'two-spotted-spider-mite'),
      // By its type's name when no slug was kept (any case, a bracketed aside ignored).
      problem('room-b', 'unresolved', 'two-spotted SPIDER mite'),
      problem('room-a', 'resolved', 'Two-spotted spider mite', 'two-spotted-spider-mite'),
      problem('room-c', 'dismissed', 'Two-spotted spider mite', 'two-spotted-spider-mite'),
      problem('room-c', 'unresolved', 'Broad mite', 'broad-mite'),
      problem('room-c', 'unresolved', 'Something of our own'),
    ];
    expect(openProblemsByRoom(recorded, 'two-spotted-spider-mite', catalogueProblemNamed)).toEqual([
      { roomId: 'room-b', count: 3 },
      { roomId: 'room-a', count: 1 },
    ]);
    expect(openProblemsByRoom(recorded, 'broad-mite', catalogueProblemNamed)).toEqual([{ roomId: 'room-c', count: 1 }]);
    expect(openProblemsByRoom(recorded, 'powdery-mildew', catalogueProblemNamed)).toEqual([]);
  });

  it('trusts a kept slug over the type’s words', () => {
    expect(openProblemsByRoom([problem('room-a', 'unresolved', 'Broad mite', 'two-spotted-spider-mite')], 'broad-mite', catalogueProblemNamed)).toEqual([]);
  });
});
