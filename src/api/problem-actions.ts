/**
 * The local side of plant problems, as the server will make them: a problem seen on a box (the box
 * panel's and a form's, src/api/problems.ts and src/api/form-responses.ts) and the patches of an action
 * (common/problem-statuses.ts). Apart from src/api/problems.ts so that forms and batches (resolving a
 * batch resolves the problems on its boxes) use them without the catalogue.
 */
import { applyProblemAction, type ProblemAction } from '../../common/problem-statuses';
import type { PlantProblemRecord } from '../../common/schemas/problems';
import type { RecordId as Id } from './records';
import type { Effect } from '../../sync/types';
import type { LocalDocument } from '../db/schemas';
import { type ApiContext, now } from './context';

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

/** A problem seen on a box: what the caller knows of it (its place comes from the box). */
export interface SeenOnBox {
  problemId: string;
  subGridboxId: Id | null;
  problemType: string;
  problemSlug: string | null;
  severity: number;
  notes: string | null;
  source: PlantProblemRecord['source'];
  formResponseId: Id | null;
  userId: number;
  /** When it was seen: the act's time, or the form's filled-in time. */
  at: string;
}

/** Where a box is, as a problem on it records it: its company, room (from its grid), grid and itself. */
export type BoxPlace = Pick<PlantProblemRecord, 'company_id' | 'room_id' | 'grid_id' | 'grid_box_id'>;

/** The place of a box the tablet holds, as the server places a problem on it. */
export async function placeOfBox(context: ApiContext, box: LocalDocument): Promise<BoxPlace> {
  const grid = await context.store.get('grids', String(box.GridID));
  return {
    company_id: typeof box.CompanyID === 'number' ? box.CompanyID : ((await context.client.session.get())?.company_id ?? 0),
    room_id: (grid?.RoomID as Id | undefined) ?? '',
    grid_id: box.GridID as Id,
    grid_box_id: box.id,
  };
}

/** The local record of a problem seen at a box's place, unresolved, as the server will record it. */
export function localProblemOnBox(place: BoxPlace, seen: SeenOnBox): PlantProblemRecord {
  return {
    problem_id: seen.problemId,
    ...place,
    sub_gridbox_id: seen.subGridboxId,
    problem_type: seen.problemType,
    problem_slug: seen.problemSlug,
    severity: seen.severity,
    notes: seen.notes,
    image: null,
    source: seen.source,
    form_response_id: seen.formResponseId,
    user_id: seen.userId,
    observed_at: seen.at,
    status: 'unresolved',
    status_at: null,
    status_by: null,
    created_at: seen.at,
    updated_at: seen.at,
  };
}
