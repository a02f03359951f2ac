/**
 * The plant problem screens' pure logic: searching and filtering the catalogue as the grower types, and
 * counting where a problem is open now in the company's rooms. Only the catalogue's types are imported
 * here: its content arrives as its own chunk (useCatalogue.ts) and is passed in.
 */
import type { CatalogueProblem, ColorSymptom, ProblemKind, Symptom, SymptomGroup } from '../../../common/plant-problems';
import { i18next } from '../../i18n/i18n';
import { type CatalogueWords, catalogueWords } from './catalogue-texts';
import { plantProblemsTexts } from './texts';

/** What the screens use of the catalogue module (common/plant-problems), once it has loaded. */
export interface CatalogueContent {
  problems: readonly CatalogueProblem[];
  groups: readonly SymptomGroup[];
  symptoms: readonly Symptom[];
  colorSymptoms: readonly ColorSymptom[];
}

export interface CatalogueFilters {
  /** Words typed in the search field ('' for none). */
  query: string;
  /** Slugs; null for any. */
  group: SymptomGroup['slug'] | null;
  symptom: string | null;
  color: string | null;
  kind: ProblemKind | null;
}

export const NO_FILTERS: CatalogueFilters = { query: '', group: null, symptom: null, color: null, kind: null };

/** A kind of problem as the reader reads it ("Pest", "Plaga", "Plaag"). */
export const kindName = (kind: ProblemKind): string => i18next.t(`kinds.${kind}`, { ns: plantProblemsTexts });

/** Lower case without accents, so "Fusarium" finds "fusarium" and "mildiou" finds "mildíou". */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

/** Each typed word, plain; hyphens and punctuation separate words as spaces do. */
const wordsOf = (query: string) => plain(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * The problems matching every filter and every typed word, best first. A word matches a problem's name
 * (in English and in the reader's language, `said`),
 * scientific name, category, kind (its English word or the reader's), abbreviation or the name of one of its symptoms or colour symptoms
 * (a grower searches by what they see as often as by name). Problems whose name holds the words come
 * first (those whose name starts with the first word before the others), then the rest, each part in
 * name order.
 */
export function searchCatalogue(content: CatalogueContent, filters: CatalogueFilters, said: CatalogueWords = catalogueWords(null)): CatalogueProblem[] {
  const symptomNames = new Map(content.symptoms.map((symptom) => [symptom.slug, `${symptom.name} ${said.symptom(symptom)}`]));
  const colorNames = new Map(content.colorSymptoms.map((color) => [color.slug, `${color.name} ${said.color(color)}`]));
  const words = wordsOf(filters.query);
  const ranked: Array<{ problem: CatalogueProblem; rank: number }> = [];
  for (const problem of content.problems) {
    if (filters.kind && problem.kind !== filters.kind) continue;
    if (filters.group && !problem.symptom_groups.includes(filters.group)) continue;
    if (filters.symptom && !problem.symptoms.includes(filters.symptom)) continue;
    if (filters.color && !problem.color_symptoms.includes(filters.color)) continue;
    if (words.length === 0) {
      ranked.push({ problem, rank: 0 });
      continue;
    }
    const name = plain(`${said.name(problem)} \u0000 ${problem.name}`);
    const everything = plain(
      [
        problem.name,
        said.name(problem),
        said.category(problem),
        problem.scientific_name ?? '',
        problem.category,
        problem.kind,
        kindName(problem.kind),
        problem.abbreviation,
        ...problem.symptoms.map((slug) => symptomNames.get(slug) ?? ''),
        ...problem.color_symptoms.map((slug) => colorNames.get(slug) ?? ''),
      ].join(' \u0000 '),
    );
    if (!words.every((word) => everything.includes(word))) continue;
    const rank = name.startsWith(words[0]!) ? 0 : words.every((word) => name.includes(word)) ? 1 : 2;
    ranked.push({ problem, rank });
  }
  return ranked.sort((a, b) => a.rank - b.rank || a.problem.name.localeCompare(b.problem.name)).map(({ problem }) => problem);
}

/** The symptoms a symptom filter offers: those of the chosen group, or none until a group is chosen. */
export function symptomsOfGroup(content: CatalogueContent, group: SymptomGroup['slug'] | null): Symptom[] {
  return group ? content.symptoms.filter((symptom) => symptom.group === group) : [];
}

/** A problem's symptoms by the groups it shows in, in the catalogue's group order. */
export function symptomsByGroup(content: CatalogueContent, problem: CatalogueProblem): Array<{ group: SymptomGroup; symptoms: Symptom[] }> {
  return content.groups
    .map((group) => ({ group, symptoms: content.symptoms.filter((symptom) => symptom.group === group.slug && problem.symptoms.includes(symptom.slug)) }))
    .filter(({ group, symptoms }) => symptoms.length > 0 || problem.symptom_groups.includes(group.slug));
}

/** What "where it is now" reads of a recorded problem (common/schemas/problems.ts `plantProblemRecord` in the local store). */
export interface RecordedProblem {
  roomId: string;
  problem_type: string;
  problem_slug: string | null;
  status: string;
}

/** Open: still on the pest-pressure map (common/messages/problems.ts OPEN_PROBLEM_STATUSES). */
const OPEN = new Set(['unresolved', 'treated']);

/**
 * The rooms where a catalogue problem is open now, with how many open problems of it each has, most
 * first. A recorded problem is this one by its slug, else (recorded before slugs, or typed by hand) by
 * the catalogue entry its type names (`named`, the catalogue's catalogueProblemNamed).
 */
export function openProblemsByRoom(recorded: readonly RecordedProblem[], slug: string, named: (problemType: string) => { slug: string } | undefined): Array<{ roomId: string; count: number }> {
  const counts = new Map<string, number>();
  for (const problem of recorded) {
    if (!OPEN.has(problem.status)) continue;
    const isThis = problem.problem_slug ? problem.problem_slug === slug : named(problem.problem_type)?.slug === slug;
    if (isThis) counts.set(problem.roomId, (counts.get(problem.roomId) ?? 0) + 1);
  }
  return [...counts].map(([roomId, count]) => ({ roomId, count })).sort((a, b) => b.count - a.count || a.roomId.localeCompare(b.roomId));
}
