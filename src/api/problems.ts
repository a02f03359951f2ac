/**
 * Domain functions of plant problems (issue 14 "Problems on plants", "Offline"; spec part 2 §3, §5, §7):
 * problems recorded on grid boxes and on their plants, the actions on them (one problem, a type in a room
 * or grid, all of a room or grid), the company's problem colours and its own solutions to catalogue
 * problems (both in the company document), and the one catalogue call that needs the server (a problem's
 * entry with the company's own solutions, read online; the tablet reads them from the company document).
 *
 * Every change is queued like every write: the local `plant_problems` documents (keyed by the problem's
 * client id) change at once, offline too, by the same rules as the server (applyProblemAction), and the
 * server's copy replaces them when the entry has been sent. A photo recorded with a problem waits as a
 * Blob in its entry; the problem shows `photo_pending` until the server's copy names the file.
 */
import type { z } from 'zod';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { httpMessages } from '../../common/messages/http';
import { type ProblemAction, problemMessages as m } from '../../common/messages/problems';
import { catalogueProblem, catalogueProblemNamed } from '../../common/plant-problems';
import {
  addCustomSolutionBody,
  createGridboxProblemBody,
  type CustomSolutionRecord,
  deleteProblemColorBody,
  type loadPlantProblemsAnswer,
  loadPlantProblemsQuery,
  manageProblemBody,
  manageProblemsByTypeGridBody,
  manageProblemsByTypeRoomBody,
  mapProblemColorBody,
  type PlantProblemRecord,
  type ProblemColorMappingRecord,
  updateGridProblemsBody,
  updateRoomProblemsBody,
} from '../../common/schemas/problems';
import { isClientId, newClientId } from '../../common/client-ids';
import type { CollectionName, LocalDocument } from '../db/schemas';
import { ApiError, type ApiContext, check, json, now, online, record, unanswered, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import { localProblemOnBox, placeOfBox, problemActionEffects } from './problem-actions';
import { filePart, multipartWithFile } from './rooms';
import type { RecordId } from './records';

type Id = RecordId;

/** A problem as the tablet holds it: the server's record, or one recorded here whose photo has not reached the server yet. */
export type PlantProblem = PlantProblemRecord & { photo_pending?: boolean };

/** A `plant_problems` document. */
export type PlantProblemDocument = PlantProblem & { id: string; serverId?: number };

/** Messages of the tablet's own (the server's are common/messages/problems.ts). */
export const problemClientMessages = {
  /** loadPlantProblem offline (the screens read the company's own solutions from the company document instead). */
  catalogueEntryOffline: 'Offline: the company’s own solutions load when the tablet is back online.',
} as const;

/** Where a bulk action reaches: a room or a grid (its client id, or the spec's integer id). */
export type ProblemPlace = { roomId: Id } | { gridId: Id };

/** The local key of a record a call names: its client id, or the document holding the spec's integer id (null when the tablet has none). */
async function localKey(context: ApiContext, collection: CollectionName, id: Id): Promise<string | null> {
  if (isClientId(id)) return id;
  const [found] = await findLocal(context, collection, { serverId: Number(id) });
  return found?.id ?? null;
}

/** A local document by the id a call names. */
async function localDocument(context: ApiContext, collection: CollectionName, id: Id): Promise<LocalDocument | null> {
  const key = await localKey(context, collection, id);
  return key === null ? null : context.store.get(collection, key);
}

/** How entries name a record: by its client id when the tablet knows it (it never changes), else as the caller did. */
const named = (key: string | null, id: Id): Id => key ?? id;

/** The catalogue entry of a problem: the slug given (which must exist, as on the server), else the entry the type names. */
function slugOf(problemType: string, problemSlug: string | undefined): string | null {
  if (problemSlug === undefined) return catalogueProblemNamed(problemType)?.slug ?? null;
  const entry = catalogueProblem(problemSlug);
  if (!entry) throw new ValidationError(m.unknownSlug(problemSlug));
  return entry.slug;
}

const photoName = (photo: Blob) => (typeof File !== 'undefined' && photo instanceof File && photo.name ? photo.name : 'problem.jpg');

/**
 * create_gridbox_problem: a problem seen on a box, or on one of its plants (`subGridboxId`), of a type
 * (a catalogue problem's name, or the company's own), severity 1–5, with optional notes and photo, by
 * the signed-in user ('Missing required fields: GridBoxID, problem_type, severity, user_id', 'Severity
 * must be a number from 1 to 5.'). The box must be one the tablet holds (it knows its room and grid).
 * Queued: the problem shows at once, unresolved, seen now, under its client id.
 */
export async function recordProblem(
  context: ApiContext,
  input: { gridBoxId: Id; subGridboxId?: Id | null; problemType: string; problemSlug?: string | null; severity: number | string; notes?: string | null; photo?: Blob | null; userId: number },
) {
  const values = check(createGridboxProblemBody, {
    GridBoxID: input.gridBoxId,
    sub_gridbox_id: input.subGridboxId ?? undefined,
    problem_type: input.problemType,
    problem_slug: input.problemSlug ?? undefined,
    severity: input.severity,
    notes: input.notes ?? undefined,
    user_id: input.userId,
  });
  const slug = slugOf(values.problem_type, values.problem_slug);
  const box = await localDocument(context, 'grid_boxes', values.GridBoxID as Id);
  if (!box) throw new ValidationError(httpMessages.recordNotFound(`grid_box ${String(values.GridBoxID)}`));
  const subGridboxId = (values.sub_gridbox_id as Id | undefined) ?? null;
  const plants = Array.isArray(box.sub_gridboxes) ? (box.sub_gridboxes as Array<{ Sub_gridboxID: unknown; IsDeleted?: boolean }>) : [];
  // A plant named by its client id is checked here; one named by the spec's integer id, by the server.
  if (isClientId(subGridboxId) && !plants.some((plant) => plant.Sub_gridboxID === subGridboxId && !plant.IsDeleted)) throw new ValidationError(m.subGridboxNotInBox);
  const problemId = newClientId();
  const at = now();
  const photo = input.photo ?? null;
  const problem: PlantProblem = {
    ...localProblemOnBox(await placeOfBox(context, box), {
      problemId,
      subGridboxId,
      problemType: values.problem_type,
      problemSlug: slug,
      severity: values.severity,
      notes: values.notes ?? null,
      source: 'manual',
      formResponseId: null,
      userId: values.user_id,
      at,
    }),
    ...(photo ? { photo_pending: true } : {}),
  };
  const fields = {
    GridBoxID: box.id,
    ...(subGridboxId !== null ? { sub_gridbox_id: subGridboxId } : {}),
    problem_type: values.problem_type,
    // The slug the tablet found goes along, so both sides file the problem under the same entry.
    ...(slug !== null ? { problem_slug: slug } : {}),
    severity: values.severity,
    ...(values.notes !== undefined ? { notes: values.notes } : {}),
    user_id: values.user_id,
    client_id: problemId,
  };
  await record(context, {
    method: 'POST',
    path: '/create_gridbox_problem',
    body: photo ? multipartWithFile(fields, filePart('image', photo, photoName(photo))) : json(fields),
    creates: [problemId],
    effects: [{ op: 'upsert', collection: 'plant_problems', id: problemId, data: { ...problem } }],
    label: (subGridboxId === null ? changeLabels.recordProblemOnBox : changeLabels.recordProblemOnPlantOfBox)(
      values.problem_type,
      values.severity,
      typeof box.CustomName === 'string' && box.CustomName ? box.CustomName : `${String(box.X)},${String(box.Y)}`,
    ),
    fallbackMessage: m.recordFailed,
  });
  return { problem_id: problemId, problem };
}

/**
 * manage_problem: an action on one problem ('Missing required fields: problemID, action, userID',
 * 'Action must be one of: …'). Queued: the local problem changes at once when the action applies to
 * it; one it does not apply to is left as it is, here as on the server (never an error).
 */
export async function manageProblem(context: ApiContext, input: { problemId: Id; action: ProblemAction | string; userId: number }) {
  const values = check(manageProblemBody, { problemID: input.problemId, action: input.action, userID: input.userId });
  const problem = await localDocument(context, 'plant_problems', values.problemID as Id);
  const problemId = named(problem?.id ?? null, values.problemID as Id);
  await record(context, {
    method: 'POST',
    path: '/manage_problem',
    body: json({ problemID: problemId, action: values.action, userID: values.userID }),
    effects: problem ? problemActionEffects([problem], values.action, values.userID) : [],
    label: labelNaming(problem?.problem_type, changeLabels.problemActions[values.action].problem, changeLabels.problemActions[values.action].aProblem),
    fallbackMessage: m.manageFailed,
  });
  return { problem_id: problemId, action: values.action };
}

/** The place's local selector (by its link key), how entries name it and the name labels show (changeLabels). */
async function placeOf(context: ApiContext, place: ProblemPlace) {
  if ('gridId' in place) {
    const key = await localKey(context, 'grids', place.gridId);
    const grid = key === null ? null : await context.store.get('grids', key);
    return { kind: 'grid' as const, id: named(key, place.gridId), selector: key === null ? null : { gridId: key }, name: typeof grid?.Name === 'string' ? grid.Name : String(place.gridId) };
  }
  const key = await localKey(context, 'rooms', place.roomId);
  const room = key === null ? null : await context.store.get('rooms', key);
  return { kind: 'room' as const, id: named(key, place.roomId), selector: key === null ? null : { roomId: key }, name: typeof room?.Name === 'string' ? room.Name : String(place.roomId) };
}

/** The raw id a place names, for checking (undefined when missing, so the schema's message shows). */
const placeId = (place: ProblemPlace | undefined, kind: 'roomId' | 'gridId') => (place && kind in place ? (place as Record<string, Id>)[kind] : undefined);

/**
 * manage_problems_by_type_room / _grid: an action on the problems of a type (without case) in a room or
 * a grid ('Missing required fields: roomID, problemType, action, userID' / gridID …). Queued: the local
 * problems it applies to change at once.
 */
export async function manageProblemsByType(context: ApiContext, place: ProblemPlace, input: { problemType: string; action: ProblemAction | string; userId: number }) {
  const inGrid = 'gridId' in place;
  const values = inGrid
    ? check(manageProblemsByTypeGridBody, { gridID: placeId(place, 'gridId'), problemType: input.problemType, action: input.action, userID: input.userId })
    : check(manageProblemsByTypeRoomBody, { roomID: placeId(place, 'roomId'), problemType: input.problemType, action: input.action, userID: input.userId });
  const where = await placeOf(context, place);
  const wanted = values.problemType.toLowerCase();
  const problems = where.selector ? (await findLocal(context, 'plant_problems', where.selector)).filter((problem) => String(problem.problem_type).toLowerCase() === wanted) : [];
  await record(context, {
    method: 'POST',
    path: inGrid ? '/manage_problems_by_type_grid' : '/manage_problems_by_type_room',
    body: json({ [inGrid ? 'gridID' : 'roomID']: where.id, problemType: values.problemType, action: values.action, userID: values.userID }),
    effects: problemActionEffects(problems, values.action, values.userID),
    label: where.kind === 'grid' ? changeLabels.problemActions[values.action].typeInGrid(values.problemType, where.name) : changeLabels.problemActions[values.action].typeInRoom(values.problemType, where.name),
    fallbackMessage: m.manageFailed,
  });
  return { action: values.action };
}

/**
 * update_unresolved_problems_for_room / _grid: an action on all the problems of a room or a grid it
 * applies to ('Missing required fields: roomID, action, userID' / gridID …). Queued: the local problems
 * change at once.
 */
export async function updateUnresolvedProblems(context: ApiContext, place: ProblemPlace, input: { action: ProblemAction | string; userId: number }) {
  const inGrid = 'gridId' in place;
  const values = inGrid
    ? check(updateGridProblemsBody, { gridID: placeId(place, 'gridId'), action: input.action, userID: input.userId })
    : check(updateRoomProblemsBody, { roomID: placeId(place, 'roomId'), action: input.action, userID: input.userId });
  const where = await placeOf(context, place);
  const problems = where.selector ? await findLocal(context, 'plant_problems', where.selector) : [];
  await record(context, {
    method: 'POST',
    path: inGrid ? '/update_unresolved_problems_for_grid' : '/update_unresolved_problems_for_room',
    body: json({ [inGrid ? 'gridID' : 'roomID']: where.id, action: values.action, userID: values.userID }),
    effects: problemActionEffects(problems, values.action, values.userID),
    label: where.kind === 'grid' ? changeLabels.problemActions[values.action].allInGrid(where.name) : changeLabels.problemActions[values.action].allInRoom(where.name),
    fallbackMessage: m.manageFailed,
  });
  return { action: values.action };
}

// ——— Problem colours (Admins; they travel in the company document) ———

const sameProblem = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

async function companyMappings(context: ApiContext, companyId: number) {
  const company = await context.store.get('company', String(companyId));
  return { company, mappings: Array.isArray(company?.problem_color_mappings) ? (company.problem_color_mappings as ProblemColorMappingRecord[]) : [] };
}

/**
 * map_problem_color: the company's colour and abbreviation of a problem type ('Company ID is required',
 * 'Problem is required', 'Color must be …', 'Abbreviation must be at most 6 characters.'). As on the
 * server, a mapping of the same problem (without case) is updated, keeping what is not given, and takes
 * the spelling given. Queued: the company's mappings change at once. Admin-only on the server.
 */
export async function mapProblemColor(context: ApiContext, input: { companyId: number; problem: string; color?: string | null; abbreviation?: string | null }) {
  const values = check(mapProblemColorBody, { company_id: input.companyId, problem: input.problem, Color: input.color ?? undefined, Abbreviation: input.abbreviation ?? undefined });
  const { company, mappings } = await companyMappings(context, values.company_id);
  const existing = mappings.find((mapping) => sameProblem(mapping.Problem, values.problem));
  const mappingId = existing ? existing.id : newClientId();
  const mapping: ProblemColorMappingRecord = existing
    ? { ...existing, Problem: values.problem, Color: values.Color ?? existing.Color, Abbreviation: values.Abbreviation ?? existing.Abbreviation }
    : { id: mappingId, CompanyID: values.company_id, Problem: values.problem, Color: values.Color ?? null, Abbreviation: values.Abbreviation ?? null, extras: {} };
  const next = existing ? mappings.map((each) => (each === existing ? mapping : each)) : [...mappings, mapping];
  await record(context, {
    method: 'POST',
    path: '/map_problem_color',
    body: json({
      company_id: values.company_id,
      problem: values.problem,
      ...(values.Color !== undefined ? { Color: values.Color } : {}),
      ...(values.Abbreviation !== undefined ? { Abbreviation: values.Abbreviation } : {}),
      ...(existing ? {} : { client_id: mappingId }),
    }),
    ...(existing ? {} : { creates: [mappingId as string] }),
    effects: company ? [{ op: 'patch', collection: 'company', id: company.id, data: { problem_color_mappings: next } }] : [],
    label: changeLabels.setProblemColour(values.problem),
    fallbackMessage: m.mapColorFailed,
  });
  return { mapping };
}

/**
 * delete_problem_color_mapping: the company's mapping of a problem ('Company ID is required', 'Problem
 * is required'); a problem the tablet has no mapping of is refused here as the server would ('No colour
 * mapping for "…".'). Queued: the mapping leaves the company's list at once. Admin-only on the server.
 */
export async function deleteProblemColorMapping(context: ApiContext, input: { companyId: number; problem: string }) {
  const values = check(deleteProblemColorBody, { company_id: input.companyId, problem: input.problem });
  const { company, mappings } = await companyMappings(context, values.company_id);
  const existing = mappings.find((mapping) => sameProblem(mapping.Problem, values.problem));
  if (company && !existing) throw new ValidationError(m.mappingNotFound(values.problem));
  await record(context, {
    method: 'DELETE',
    path: '/delete_problem_color_mapping',
    body: json({ company_id: values.company_id, problem: values.problem }),
    effects: company && existing ? [{ op: 'patch', collection: 'company', id: company.id, data: { problem_color_mappings: mappings.filter((mapping) => mapping !== existing) } }] : [],
    label: changeLabels.deleteProblemColour(existing?.Problem ?? values.problem),
    fallbackMessage: m.deleteMappingFailed,
  });
  return { Problem: existing?.Problem ?? values.problem };
}

// ——— The company's own solutions (they travel in the company document, as the colours do) ———

/**
 * plant_problems/add_custom_solution: the company's own solution to a catalogue problem (its slug or
 * id; 'Company ID is required', 'Problem ID is required', 'Custom solution is required', and a problem
 * the catalogue does not hold is refused here as the server would). Queued, offline too: the solution
 * joins the company document's `custom_solutions` at once under its client id, and the server's record
 * (its integer `id`) replaces it when the entry has been sent. Any member adds them.
 */
export async function addCustomSolution(context: ApiContext, input: { companyId: number; problemId: string | number; solution: string }): Promise<{ custom_solution: CustomSolutionRecord }> {
  const values = check(addCustomSolutionBody, { company_id: input.companyId, problem_id: input.problemId, custom_solution: input.solution });
  const problem = catalogueProblem(values.problem_id);
  if (!problem) throw new ValidationError(m.unknownSlug(values.problem_id));
  const company = await context.store.get('company', String(values.company_id));
  const solutions = Array.isArray(company?.custom_solutions) ? (company.custom_solutions as CustomSolutionRecord[]) : [];
  const solutionId = newClientId();
  const solution: CustomSolutionRecord = {
    id: solutionId,
    client_id: solutionId,
    problem_slug: problem.slug,
    solution: values.custom_solution,
    user_id: (await context.client.session.get())?.user_id ?? null,
    created_at: now(),
  };
  await record(context, {
    method: 'POST',
    path: '/plant_problems/add_custom_solution',
    // The slug: both sides file the solution under the same catalogue entry.
    body: json({ company_id: values.company_id, problem_id: problem.slug, custom_solution: values.custom_solution, client_id: solutionId }),
    creates: [solutionId],
    effects: company ? [{ op: 'patch', collection: 'company', id: company.id, data: { custom_solutions: [...solutions, solution] } }] : [],
    label: changeLabels.addSolution(problem.name),
    fallbackMessage: m.addSolutionFailed,
  });
  return { custom_solution: solution };
}

// ——— The catalogue call that needs the server ———

export type CatalogueProblemWithSolutions = NonNullable<z.infer<typeof loadPlantProblemsAnswer>['problem']>;

/**
 * plant_problems/load_plant_problems with a slug: the catalogue entry with the company's own solutions.
 * Online; offline it fails with a clear message (the screen still shows the catalogue's text, which is
 * in the app: common/plant-problems).
 */
export async function loadPlantProblem(context: ApiContext, input: { companyId: number; slug: string }): Promise<CatalogueProblemWithSolutions> {
  const query = check(loadPlantProblemsQuery, { company_id: input.companyId, slug: input.slug });
  if (query.slug === undefined) throw new ValidationError(m.catalogueProblemRequired);
  try {
    const answer = await online<z.infer<typeof loadPlantProblemsAnswer>>(context, { path: '/plant_problems/load_plant_problems', query }, m.fetchProblemsFailed);
    if (!answer.problem) throw new ApiError(m.fetchProblemsFailed, 200);
    return answer.problem;
  } catch (error) {
    if (unanswered(error)) throw new ApiError(problemClientMessages.catalogueEntryOffline, null);
    throw error;
  }
}

export { problemMessages } from '../../common/messages/problems';
