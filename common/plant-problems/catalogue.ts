/** The catalogue's problems (placeholder until the content lands). */
import type { CatalogueProblem } from './types';

export const CATALOGUE: CatalogueProblem[] = [
  {
    id: 1,
    slug: 'two-spotted-spider-mite',
    name: 'Two-spotted spider mite',
    scientific_name: 'Tetranychus urticae',
    kind: 'pest',
    category: 'Mites',
    description: 'Tiny mites feeding on the undersides of leaves.',
    symptom_groups: ['leaves'],
    symptoms: ['stippling'],
    color_symptoms: ['bronze'],
    look_alikes: [],
    solutions: [{ kind: 'biological', text: 'Release predatory mites.', organisms: ['Phytoseiulus persimilis'] }],
    abbreviation: 'SM',
  },
];
