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
import { create } from 'zustand';
import type { ProblemKind, SymptomGroup } from '../../../common/plant-problems';
import { Field } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { ColorSwatches } from './ColorSwatches';
import { type CatalogueFilters, KIND_NAMES, NO_FILTERS, searchCatalogue, symptomsOfGroup } from './model';
import { type LoadedCatalogue, useCatalogue } from './useCatalogue';
import './plant-problems.css';

/** The grower's search and filters, kept while they look at a problem and come back (not stored). */
const useFilters = create<{ filters: CatalogueFilters; set: (change: Partial<CatalogueFilters>) => void; clear: () => void }>((set) => ({
  filters: NO_FILTERS,
  set: (change) => set((state) => ({ filters: { ...state.filters, ...change } })),
  clear: () => set({ filters: NO_FILTERS }),
}));

const KINDS: ProblemKind[] = ['pest', 'disease', 'disorder'];
const KIND_PLURALS: Record<ProblemKind, string> = { pest: 'Pests', disease: 'Diseases', disorder: 'Disorders' };

export function PlantProblemsScreen() {
  const { catalogue, error } = useCatalogue();
  return (
    <Screen title="Plant problems" loading={!catalogue && !error} error={error}>
      {catalogue && <Catalogue catalogue={catalogue} />}
    </Screen>
  );
}

function Catalogue({ catalogue }: { catalogue: LoadedCatalogue }) {
  const { filters, set, clear } = useFilters();
  const results = useMemo(() => searchCatalogue(catalogue, filters), [catalogue, filters]);
  const symptoms = useMemo(() => symptomsOfGroup(catalogue, filters.group), [catalogue, filters.group]);
  const colorNames = useMemo(() => new Map(catalogue.colorSymptoms.map((color) => [color.slug, color])), [catalogue]);
  const filtered = filters.query.trim() !== '' || filters.group !== null || filters.symptom !== null || filters.color !== null || filters.kind !== null;
  const groupId = useId();
  const symptomId = useId();

  return (
    <>
      <form className="form card problem-filters" role="search" aria-label="Search plant problems" onSubmit={(event) => event.preventDefault()}>
        <Field label="Search" className="problem-search">
          <input
            type="search"
            value={filters.query}
            onChange={(event) => set({ query: event.target.value })}
            placeholder="Name, scientific name, symptom or category"
            autoComplete="off"
            enterKeyHint="search"
          />
        </Field>
        <div className="form-columns">
          <div className="problem-field">
            <label htmlFor={groupId}>Symptom group</label>
            <select id={groupId} value={filters.group ?? ''} onChange={(event) => set({ group: (event.target.value || null) as SymptomGroup['slug'] | null, symptom: null })}>
              <option value="">All groups</option>
              {catalogue.groups.map((group) => (
                <option key={group.slug} value={group.slug}>
                  {group.name}
                </option>
              ))}
            </select>
          </div>
          <div className="problem-field">
            <label htmlFor={symptomId}>Symptom</label>
            <select id={symptomId} value={filters.symptom ?? ''} disabled={!filters.group} onChange={(event) => set({ symptom: event.target.value || null })}>
              <option value="">{filters.group ? 'Any symptom' : 'Choose a symptom group first'}</option>
              {symptoms.map((symptom) => (
                <option key={symptom.slug} value={symptom.slug}>
                  {symptom.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="choice-row">
          <legend>Kind</legend>
          <Choice name="kind" label="All kinds" checked={filters.kind === null} onChoose={() => set({ kind: null })} />
          {KINDS.map((kind) => (
            <Choice key={kind} name="kind" label={KIND_PLURALS[kind]} checked={filters.kind === kind} onChoose={() => set({ kind })} />
          ))}
        </fieldset>
        <fieldset className="choice-row">
          <legend>Colour</legend>
          <Choice name="colour" label="Any colour" checked={filters.color === null} onChoose={() => set({ color: null })} />
          {catalogue.colorSymptoms.map((color) => (
            <Choice key={color.slug} name="colour" label={color.name} swatch={color.swatch} checked={filters.color === color.slug} onChoose={() => set({ color: color.slug })} />
          ))}
        </fieldset>
        {filtered && (
          <div className="form-actions">
            <button type="button" className="button" onClick={clear}>
              Clear search and filters
            </button>
          </div>
        )}
      </form>

      <p className="problem-count" role="status">
        {results.length === catalogue.problems.length ? `All ${results.length} problems` : `${results.length} of ${catalogue.problems.length} problems`}
      </p>
      {results.length === 0 ? (
        <p className="empty">No plant problem matches this search and these filters. Try fewer words or clear a filter.</p>
      ) : (
        <ul className="problem-list" aria-label="Plant problems found">
          {results.map((problem) => (
            <li key={problem.slug} className="card problem-card" aria-label={problem.name}>
              <h2>
                <Link to="/dashboard/plantsProblems/$problemID" params={{ problemID: problem.slug }} className="problem-link">
                  {problem.name}
                </Link>
              </h2>
              {problem.scientific_name && <p className="scientific">{problem.scientific_name}</p>}
              <p className="problem-meta">
                <span className="chip kind-chip">{KIND_NAMES[problem.kind]}</span>
                <span>{problem.category}</span>
                <abbr className="abbreviation" title="Abbreviation on the pest-pressure map">
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
