/**
 * The plant problem catalogue (issue 14): global content shipped with the server and the app, the same
 * for every company. Its entries live by kind in pests.ts, diseases.ts and disorders.ts; ids run 1..n in
 * this order.
 */
import { DISEASES } from './diseases';
import { DISORDERS } from './disorders';
import { PESTS } from './pests';
import type { CatalogueProblem } from './types';

export const CATALOGUE: CatalogueProblem[] = [...PESTS, ...DISEASES, ...DISORDERS];
