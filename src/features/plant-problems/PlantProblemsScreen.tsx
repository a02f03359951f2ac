/**
 * The plant problem catalogue (issue 14, screen `plantsProblems`): search as you type by name,
 * scientific name, symptom or category, and narrow by symptom group, a symptom of it, a colour the
 * plant turns and the kind of problem. The catalogue is in the app (its own chunk, useCatalogue.ts), so
 * this screen works the same offline.
 *
 * Where the spec is silent:
 * - The filters are kept while the grower opens a problem and comes back (for this page load).
 * - A symptom is chosen within its group (102 symptoms in one list would not fit a tablet); changing the
 *   group clears it.
 * - Results: name matches first, then the rest, each by name (model.ts searchCatalogue).
 */
import { Link } from '@tanstack/react-router';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import type { ProblemKind, SymptomGroup } from '../../../common/plant-problems';
import { Field } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { ColorSwatches } from './ColorSwatches';
import { type CatalogueFilters, kindName, NO_FILTERS, searchCatalogue, symptomsOfGroup } from './model';
import { type LoadedCatalogue, useCatalogue } from './useCatalogue';
import './plant-problems.css';
import { useCatalogueWords } from './catalogue-texts';
import { plantProblemsTexts } from './texts';

/** The grower's search and filters, kept while they look at a problem and come back (not stored). */
const useFilters = create<{ filters: CatalogueFilters; set: (change: Partial<CatalogueFilters>) => void; clear: () => void }>((set) => ({
  filters: NO_FILTERS,
  set: (change) => set((state) => ({ filters: { ...state.filters, ...change } })),
  clear: () => set({ filters: NO_FILTERS }),
}));

const KINDS: ProblemKind[] = ['pest', 'disease', 'disorder'];

export function PlantProblemsScreen() {
  const { t } = useTranslation(plantProblemsTexts);
  const { catalogue, error } = useCatalogue();
  return (
    <Screen title={t('title')} loading={!catalogue && !error} error={error}>
      {catalogue && <Catalogue catalogue={catalogue} />}
    </Screen>
  );
}

function Catalogue({ catalogue }: { catalogue: LoadedCatalogue }) {
  const { t } = useTranslation(plantProblemsTexts);
  const { filters, set, clear } = useFilters();
  const words = useCatalogueWords();
  const results = useMemo(() => searchCatalogue(catalogue, filters, words), [catalogue, filters, words]);
  const symptoms = useMemo(() => symptomsOfGroup(catalogue, filters.group), [catalogue, filters.group]);
  const colorNames = useMemo(() => new Map(catalogue.colorSymptoms.map((color) => [color.slug, color])), [catalogue]);
  const filtered = filters.query.trim() !== '' || filters.group !== null || filters.symptom !== null || filters.color !== null || filters.kind !== null;
  const groupId = useId();
  const symptomId = useId();

  return (
    <>
      <form className="form card problem-filters" role="search" aria-label={t('search.label')} onSubmit={(event) => event.preventDefault()}>
        <Field label={t('search.field')} className="problem-search">
          <input
            type="search"
            value={filters.query}
            onChange={(event) => set({ query: event.target.value })}
            placeholder={t('search.placeholder')}
            autoComplete="off"
            enterKeyHint="search"
          />
        </Field>
        <div className="form-columns">
          <div className="problem-field">
            <label htmlFor={groupId}>{t('search.symptomGroup')}</label>
            <select id={groupId} value={filters.group ?? ''} onChange={(event) => set({ group: (event.target.value || null) as SymptomGroup['slug'] | null, symptom: null })}>
              <option value="">{t('search.allGroups')}</option>
              {catalogue.groups.map((group) => (
                <option key={group.slug} value={group.slug}>
                  {words.group(group)}
                </option>
              ))}
            </select>
          </div>
          <div className="problem-field">
            <label htmlFor={symptomId}>{t('search.symptom')}</label>
            <select id={symptomId} value={filters.symptom ?? ''} disabled={!filters.group} onChange={(event) => set({ symptom: event.target.value || null })}>
              <option value="">{filters.group ? t('search.anySymptom') : t('search.chooseGroupFirst')}</option>
              {symptoms.map((symptom) => (
                <option key={symptom.slug} value={symptom.slug}>
                  {words.symptom(symptom)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="choice-row">
          <legend>{t('search.kind')}</legend>
          <Choice name="kind" label={t('search.allKinds')} checked={filters.kind === null} onChoose={() => set({ kind: null })} />
          {KINDS.map((kind) => (
            <Choice key={kind} name="kind" label={t(`kindPlurals.${kind}`)} checked={filters.kind === kind} onChoose={() => set({ kind })} />
          ))}
        </fieldset>
        <fieldset className="choice-row">
          <legend>{t('search.colour')}</legend>
          <Choice name="colour" label={t('search.anyColour')} checked={filters.color === null} onChoose={() => set({ color: null })} />
          {catalogue.colorSymptoms.map((color) => (
            <Choice key={color.slug} name="colour" label={words.color(color)} swatch={color.swatch} checked={filters.color === color.slug} onChoose={() => set({ color: color.slug })} />
          ))}
        </fieldset>
        {filtered && (
          <div className="form-actions">
            <button type="button" className="button" onClick={clear}>
              {t('search.clear')}
            </button>
          </div>
        )}
      </form>

      <p className="problem-count" role="status">
        {results.length === catalogue.problems.length ? t('search.all', { total: results.length }) : t('search.some', { shown: results.length, total: catalogue.problems.length })}
      </p>
      {results.length === 0 ? (
        <p className="empty">{t('search.noMatch')}</p>
      ) : (
        <ul className="problem-list" aria-label={t('search.results')}>
          {results.map((problem) => (
            <li key={problem.slug} className="card problem-card" aria-label={words.name(problem)}>
              <h2>
                <Link to="/dashboard/plantsProblems/$problemID" params={{ problemID: problem.slug }} className="problem-link">
                  {words.name(problem)}
                </Link>
              </h2>
              {problem.scientific_name && <p className="scientific">{problem.scientific_name}</p>}
              <p className="problem-meta">
                <span className="chip kind-chip">{kindName(problem.kind)}</span>
                <span>{words.category(problem)}</span>
                <abbr className="abbreviation" title={t('search.abbreviationTitle')}>
                  {problem.abbreviation}
                </abbr>
              </p>
              {problem.color_symptoms.length > 0 && (
                <ColorSwatches slugs={problem.color_symptoms} colors={colorNames} />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** One choice of a group of radio buttons drawn as a large chip (with a colour swatch when given). */
function Choice({ name, label, swatch, checked, onChoose }: { name: string; label: string; swatch?: string; checked: boolean; onChoose: () => void }) {
  return (
    <label className={checked ? 'choice chosen' : 'choice'}>
      <input type="radio" name={name} checked={checked} onChange={onChoose} />
      {swatch && <span className="swatch" style={{ background: swatch }} aria-hidden="true" />}
      {label}
    </label>
  );
}
