/**
 * Messages and decisions of plant problems (spec part 2 §3, §4, §5, §7; issue 14): the catalogue calls,
 * problems recorded on grid boxes and plants, their actions, and problem colours. The spec gives the
 * colour mapping's messages only; the others follow its batch-problem style ('Missing required fields: …').
 */
import { catalogueProblem, catalogueProblemNamed } from '../plant-problems';
import { PROBLEM_ACTION_NAMES, PROBLEM_ACTIONS, type ProblemAction } from '../problem-statuses';

export {
  ACTION_APPLIES_TO,
  applyProblemAction,
  OPEN_PROBLEM_STATUSES,
  PROBLEM_ACTION_NAMES,
  PROBLEM_ACTIONS,
  PROBLEM_STATUSES,
  type ProblemAction,
  type ProblemStatus,
} from '../problem-statuses';

/** Severity is a number from 1 (a few signs) to 5 (severe): the spec says only "a number". */
export const SEVERITY_MIN = 1;
export const SEVERITY_MAX = 5;

/** The pest-pressure map's colour of a problem the company has not mapped (a clear red). */
export const DEFAULT_PROBLEM_COLOR = '#d32f2f';

/**
 * The abbreviation of a problem type neither the company nor the catalogue abbreviates: the first
 * letters of its first three words ("Root rot" → "RR"), else its first two letters.
 */
export function defaultProblemAbbreviation(problemType: string): string {
  const words = problemType.trim().split(/[\s\-_/]+/).filter(Boolean);
  if (words.length > 1) return words.slice(0, 3).map((word) => word.charAt(0).toUpperCase()).join('');
  return (words[0] ?? '?').slice(0, 2).toUpperCase();
}

/** What a company's colour mapping says of a problem (spec problemColorMapping: Problem, Color, Abbreviation). */
export interface ColorMappingLike {
  Problem: string;
  Color: string | null;
  Abbreviation: string | null;
}

/**
 * How the pest-pressure map draws a problem type, on the server's circles and on the tablet alike: the
 * company's mapping (its problem compared without case), else the catalogue entry's abbreviation (by
 * the problem's slug, else its name) and DEFAULT_PROBLEM_COLOR, else an abbreviation made from the type.
 */
export function problemCircleStyle(problemType: string, problemSlug: string | null, mappings: readonly ColorMappingLike[]): { color: string; abbreviation: string } {
  const wanted = problemType.trim().toLowerCase();
  const mapping = mappings.find((candidate) => candidate.Problem.trim().toLowerCase() === wanted);
  const catalogued = (problemSlug === null ? undefined : catalogueProblem(problemSlug)) ?? catalogueProblemNamed(problemType);
  return {
    color: mapping?.Color ?? DEFAULT_PROBLEM_COLOR,
    abbreviation: mapping?.Abbreviation ?? catalogued?.abbreviation ?? defaultProblemAbbreviation(problemType),
  };
}

export const PROBLEM_TYPE_MAX = 200;
export const ABBREVIATION_MAX = 6;

export const problemMessages = {
  // Spec §5 (problem-colour mapping).
  companyIdRequired: 'Company ID is required',
  problemRequired: 'Problem is required',
  // Where §5 is silent, in its words.
  createFieldsMissing: 'Missing required fields: GridBoxID, problem_type, severity, user_id',
  severityRange: `Severity must be a number from ${SEVERITY_MIN} to ${SEVERITY_MAX}.`,
  unknownSlug: (slug: string) => `No plant problem "${slug}" in the catalogue.`,
  subGridboxNotInBox: 'The sub-gridbox is not in this grid box.',
  gridboxIdRequired: 'Gridbox ID is required',
  gridIdRequired: 'Grid ID is required',
  roomIdRequired: 'Room ID is required',
  problemTypeRequired: 'Problem type is required',
  roomOrGridRequired: 'Room ID or Grid ID is required',
  manageFieldsMissing: 'Missing required fields: problemID, action, userID',
  byTypeRoomFieldsMissing: 'Missing required fields: roomID, problemType, action, userID',
  byTypeGridFieldsMissing: 'Missing required fields: gridID, problemType, action, userID',
  gridActionFieldsMissing: 'Missing required fields: gridID, action, userID',
  roomActionFieldsMissing: 'Missing required fields: roomID, action, userID',
  unknownAction: `Action must be one of: ${PROBLEM_ACTION_NAMES.join(', ')}.`,
  symptomGroupRequired: 'Symptom group ID is required',
  symptomIdInvalid: 'Symptom ID must be a positive whole number.',
  colorSymptomIdInvalid: 'Color symptom ID must be a positive whole number.',
  catalogueProblemRequired: 'Problem ID is required',
  customSolutionRequired: 'Custom solution is required',
  colorInvalid: 'Color must be a hex colour (#rgb or #rrggbb) or a colour name.',
  tooManyExtras: (max: number) => `A problem colour keeps at most ${max} extra fields.`,
  abbreviationTooLong: `Abbreviation must be at most ${ABBREVIATION_MAX} characters.`,
  mappingNotFound: (problem: string) => `No colour mapping for "${problem}".`,
  mappingRaced: (problem: string) => `The colour of "${problem}" was just set by someone else. Please try again.`,
  // Answers.
  problemRecorded: 'Problem recorded.',
  problemsChanged: (count: number, action: ProblemAction) => `${count} problem(s) ${PROBLEM_ACTIONS[action]}.`,
  solutionAdded: 'Custom solution added.',
  colorMapped: 'Problem colour saved.',
  colorMappingDeleted: 'Problem colour deleted.',
  // The client's defaults when a call fails without a message (spec §8 style).
  fetchProblemsFailed: 'Failed to fetch plant problems.',
  fetchUnresolvedFailed: 'Failed to fetch unresolved problems.',
  manageFailed: 'Failed to update problems.',
  recordFailed: 'Failed to record the problem.',
  fetchMappingsFailed: 'Failed to fetch problem colours.',
  mapColorFailed: 'Failed to save the problem colour.',
  deleteMappingFailed: 'Failed to delete the problem colour.',
  addSolutionFailed: 'Failed to add the custom solution.',
} as const;
