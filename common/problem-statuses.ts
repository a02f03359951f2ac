/**
 * A plant problem's statuses and the actions on them (issue 14), apart from the messages and the
 * catalogue they use (common/messages/problems.ts re-exports them): the tablet's batch and room code
 * acts on problems without loading the catalogue's text.
 */
/**
 * A problem's statuses. Open problems are `unresolved` and `treated`: treated means sprayed (or
 * otherwise acted on) but not yet confirmed gone, so it still shows on the pest-pressure map.
 * `resolved` (gone) and `dismissed` (a false alarm) are closed.
 */
export const PROBLEM_STATUSES = ['unresolved', 'treated', 'resolved', 'dismissed'] as const;
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];

/** The statuses the readers of unresolved problems list (and the partial index of migration 0008 covers). */
export const OPEN_PROBLEM_STATUSES = ['unresolved', 'treated'] as const satisfies readonly ProblemStatus[];

/**
 * The action values of the manage and update calls (the spec does not name them: "The action names
 * are not shown"), each with the status it sets. One set for every call, single or bulk.
 */
export const PROBLEM_ACTIONS = {
  resolve: 'resolved',
  /** A false alarm: nothing was there. */
  dismiss: 'dismissed',
  /** Sprayed or otherwise treated, to be confirmed gone later (stays open). */
  treat: 'treated',
  reopen: 'unresolved',
} as const satisfies Record<string, ProblemStatus>;
export type ProblemAction = keyof typeof PROBLEM_ACTIONS;
export const PROBLEM_ACTION_NAMES = Object.keys(PROBLEM_ACTIONS) as ProblemAction[];

/**
 * The statuses each action applies to; a problem in any other status is left as it is (counted as
 * not changed, never an error: two tablets resolving the same problem offline both succeed).
 * Resolve and dismiss close open problems; treat marks unresolved ones (a treated one keeps the time
 * it was first treated); reopen applies to closed ones only (resolved or dismissed), in bulk too: all
 * of a room's or grid's closed problems of the call's reach.
 */
export const ACTION_APPLIES_TO: Record<ProblemAction, readonly ProblemStatus[]> = {
  resolve: OPEN_PROBLEM_STATUSES,
  dismiss: OPEN_PROBLEM_STATUSES,
  treat: ['unresolved'],
  reopen: ['resolved', 'dismissed'],
};

/**
 * What an action makes of a problem, as the server's setStatus does (ACTION_APPLIES_TO): resolve and
 * dismiss close open problems, treat marks unresolved ones, reopen reopens closed ones; the status's
 * time and author are the act's. A problem the action does not apply to is answered as it is (the same
 * object), so `applyProblemAction(p, …) !== p` tells whether it changed.
 */
export function applyProblemAction<T extends { status: ProblemStatus; status_at: string | null; status_by: number | null; updated_at: string }>(problem: T, action: ProblemAction, at: string, userId: number | null): T {
  if (!ACTION_APPLIES_TO[action].includes(problem.status)) return problem;
  return { ...problem, status: PROBLEM_ACTIONS[action], status_at: at, status_by: userId, updated_at: at };
}
