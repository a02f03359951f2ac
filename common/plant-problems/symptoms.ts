/** Symptom groups, symptoms and colour symptoms of the catalogue (placeholder until the content lands). */
import type { ColorSymptom, Symptom, SymptomGroup } from './types';

export const SYMPTOM_GROUPS: SymptomGroup[] = [
  { id: 1, slug: 'leaves', name: 'Leaves' },
  { id: 2, slug: 'stems', name: 'Stems' },
  { id: 3, slug: 'roots', name: 'Roots' },
  { id: 4, slug: 'flowers', name: 'Flowers' },
  { id: 5, slug: 'whole-plant', name: 'Whole plant' },
];

export const SYMPTOMS: Symptom[] = [{ id: 1, slug: 'stippling', name: 'Fine pale stippling on the upper leaf surface', group: 'leaves' }];

export const COLOR_SYMPTOMS: ColorSymptom[] = [{ id: 1, slug: 'bronze', name: 'Bronze', swatch: '#a0652b' }];
