/**
 * The plant problem catalogue (issue 14): its content (catalogue.ts, symptoms.ts) and the lookups the
 * server's calls and the tablet's screens make on it.
 */
import { CATALOGUE } from './catalogue';
import { COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS } from './symptoms';
import type { CatalogueProblem } from './types';

export type * from './types';
export { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS };

const bySlug = new Map(CATALOGUE.map((problem) => [problem.slug, problem]));
const byId = new Map(CATALOGUE.map((problem) => [problem.id, problem]));

export function catalogueProblem(slugOrId: string | number): CatalogueProblem | undefined {
  return typeof slugOrId === 'number' ? byId.get(slugOrId) : (bySlug.get(slugOrId) ?? (/^\d+$/.test(slugOrId) ? byId.get(Number(slugOrId)) : undefined));
}

/** A name as growers write it: case, spacing and a bracketed aside ignored ("Botrytis (grey mould)" → "botrytis"). */
const plainName = (name: string) => name.replace(/\([^)]*\)/g, ' ').trim().replace(/\s+/g, ' ').toLowerCase();
const byPlainName = new Map(CATALOGUE.map((problem) => [plainName(problem.name), problem]));

/** The catalogue's entry a recorded problem's type names: its name (see plainName) or its slug. */
export function catalogueProblemNamed(name: string): CatalogueProblem | undefined {
  return bySlug.get(name.trim().toLowerCase()) ?? byPlainName.get(plainName(name));
}

/** The problems showing a symptom group and, when given, one symptom of it (ids as the spec's filter sends them). */
export function filterCatalogue(filter: { symptomGroupId?: number | null; symptomId?: number | null; colorSymptomId?: number | null }): CatalogueProblem[] {
  const group = filter.symptomGroupId == null ? undefined : SYMPTOM_GROUPS.find((candidate) => candidate.id === filter.symptomGroupId);
  const symptom = filter.symptomId == null ? undefined : SYMPTOMS.find((candidate) => candidate.id === filter.symptomId);
  const color = filter.colorSymptomId == null ? undefined : COLOR_SYMPTOMS.find((candidate) => candidate.id === filter.colorSymptomId);
  if ((filter.symptomGroupId != null && !group) || (filter.symptomId != null && !symptom) || (filter.colorSymptomId != null && !color)) return [];
  return CATALOGUE.filter(
    (problem) =>
      (!group || problem.symptom_groups.includes(group.slug)) && (!symptom || problem.symptoms.includes(symptom.slug)) && (!color || problem.color_symptoms.includes(color.slug)),
  );
}
