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

/** The catalogue's entry whose name is `name` (case and spacing ignored): a recorded problem's type names it. */
export function catalogueProblemNamed(name: string): CatalogueProblem | undefined {
  const wanted = name.trim().toLowerCase();
  return CATALOGUE.find((problem) => problem.name.toLowerCase() === wanted);
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
