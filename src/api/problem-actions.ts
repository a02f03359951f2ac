/**
 * The local side of an action on plant problems (common/problem-statuses.ts): the patches that change
 * the tablet's problems at once, as the server will. Apart from src/api/problems.ts so that batches
 * (resolving a batch resolves the problems on its boxes) act on problems without the catalogue.
 */
import { applyProblemAction, type ProblemAction } from '../../common/problem-statuses';
import type { PlantProblemRecord } from '../../common/schemas/problems';
import type { Effect } from '../../sync/types';
import type { LocalDocument } from '../db/schemas';
import { now } from './context';

/** Patches of the problems an action changes, at the act's time (those it does not apply to: none). */
export function problemActionEffects(problems: readonly LocalDocument[], action: ProblemAction, userId: number): Effect[] {
  const at = now();
  return problems.flatMap((document) => {
    const problem = document as unknown as PlantProblemRecord & { id: string };
    const after = applyProblemAction(problem, action, at, userId);
    if (after === problem) return [];
    return [{ op: 'patch' as const, collection: 'plant_problems', id: problem.id, data: { status: after.status, status_at: after.status_at, status_by: after.status_by, updated_at: after.updated_at } }];
  });
}
