/**
 * The plant problem catalogue, loaded as its own chunk: it is global content shipped with the app (so it
 * searches offline, the service worker caching the chunk with the rest of the build), but at about 140 kB it
 * stays out of the bundle every page loads until a screen asks for it.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueProblem } from '../../../common/plant-problems';
import type { CatalogueContent } from './model';
import { plantProblemsTexts } from './texts';

export interface LoadedCatalogue extends CatalogueContent {
  /** The entry a slug or id (as a string of digits) names (catalogueProblem). */
  problem: (slugOrId: string) => CatalogueProblem | undefined;
  /** The entry a recorded problem's type names (catalogueProblemNamed). */
  named: (problemType: string) => CatalogueProblem | undefined;
}

let loading: Promise<LoadedCatalogue> | null = null;

function loadCatalogue(): Promise<LoadedCatalogue> {
  loading ??= import('../../../common/plant-problems').then((module) => ({
    problems: module.CATALOGUE,
    groups: module.SYMPTOM_GROUPS,
    symptoms: module.SYMPTOMS,
    colorSymptoms: module.COLOR_SYMPTOMS,
    problem: module.catalogueProblem,
    named: module.catalogueProblemNamed,
  }));
  // A failed load (a build replaced while the page was open) is tried again next time.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The catalogue once loaded (null while it loads), or the error that stopped it (in the reader's language). */
export function useCatalogue(): { catalogue: LoadedCatalogue | null; error: string | null } {
  const { t } = useTranslation(plantProblemsTexts);
  const [state, setState] = useState<{ catalogue: LoadedCatalogue | null; failed: boolean }>({ catalogue: null, failed: false });
  useEffect(() => {
    let alive = true;
    loadCatalogue().then(
      (catalogue) => alive && setState({ catalogue, failed: false }),
      () => alive && setState({ catalogue: null, failed: true }),
    );
    return () => {
      alive = false;
    };
  }, []);
  return { catalogue: state.catalogue, error: state.failed ? t('catalogueError') : null };
}
