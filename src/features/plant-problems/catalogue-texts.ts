/**
 * The catalogue's content in the reader's language (issue 18): the catalogue (common/plant-problems)
 * is written in English, and catalogue/{es,nl}.json give each entry's words in Spanish and Dutch, by
 * slug: names, categories, descriptions, how to tell look-alikes apart, solutions, and the symptom,
 * group and colour names. Loaded as a chunk of its own, only for a Spanish or Dutch reader.
 *
 * Only what a reader sees is translated: a company's colour mapping and a recorded problem name the
 * problem by its English name, as the server and other tablets know it.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueProblem, ColorSymptom, Symptom, SymptomGroup } from '../../../common/plant-problems';

/** One language's words for the catalogue (the shape of catalogue/*.json). */
export interface CatalogueTranslation {
  problems: Record<string, { name: string; category: string; description: string; look_alikes: Record<string, string>; solutions: string[] }>;
  symptoms: Record<string, string>;
  symptom_groups: Record<string, string>;
  color_symptoms: Record<string, string>;
}

const translations = import.meta.glob<CatalogueTranslation>('./catalogue/*.json', { import: 'default' });
const loaded = new Map<string, CatalogueTranslation>();

/** What a screen shows of the catalogue, in the reader's language (English where a word is missing). */
export interface CatalogueWords {
  name(problem: CatalogueProblem): string;
  category(problem: CatalogueProblem): string;
  description(problem: CatalogueProblem): string;
  howToTell(problem: CatalogueProblem, lookAlike: { slug: string; how_to_tell: string }): string;
  solution(problem: CatalogueProblem, index: number): string;
  symptom(symptom: Symptom): string;
  group(group: SymptomGroup): string;
  color(color: ColorSymptom): string;
}

export function catalogueWords(translation: CatalogueTranslation | null): CatalogueWords {
  const of = (problem: CatalogueProblem) => translation?.problems[problem.slug];
  return {
    name: (problem) => of(problem)?.name ?? problem.name,
    category: (problem) => of(problem)?.category ?? problem.category,
    description: (problem) => of(problem)?.description ?? problem.description,
    howToTell: (problem, lookAlike) => of(problem)?.look_alikes[lookAlike.slug] ?? lookAlike.how_to_tell,
    solution: (problem, index) => of(problem)?.solutions[index] ?? problem.solutions[index]?.text ?? '',
    symptom: (symptom) => translation?.symptoms[symptom.slug] ?? symptom.name,
    group: (group) => translation?.symptom_groups[group.slug] ?? group.name,
    color: (color) => translation?.color_symptoms[color.slug] ?? color.name,
  };
}

/** The catalogue's words for the reader; English until (and unless) a translation has loaded. */
export function useCatalogueWords(): CatalogueWords {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const [translation, setTranslation] = useState<{ language: string; words: CatalogueTranslation } | null>(null);
  useEffect(() => {
    const load = translations[`./catalogue/${language}.json`];
    if (!load) return undefined;
    let alive = true;
    const kept = loaded.get(language);
    const got = kept ? Promise.resolve(kept) : load();
    got.then(
      (words) => {
        loaded.set(language, words);
        if (alive) setTranslation({ language, words });
      },
      // Not saved on this tablet yet (offline before the chunk was kept): English meanwhile.
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [language]);
  const words = translation?.language === language ? translation.words : (loaded.get(language) ?? null);
  // One object per translation, so a screen's memoised search reruns only when the language changes.
  return useMemo(() => catalogueWords(words), [words]);
}
