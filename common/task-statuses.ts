/**
 * A task's statuses and the list's filter of them (issue 16), apart from the tasks' messages
 * (common/messages/tasks.ts re-exports them): the tasks list's route checks its address with them in
 * the app's first load (its validateSearch), which then carries no message text.
 */
/** A task's states (issue 16: open, in progress, done). A new task is open. */
export const TASK_STATUSES = ['open', 'in_progress', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const DEFAULT_TASK_STATUS: TaskStatus = 'open';

/** What a list of tasks may be filtered by: one state, or `all` (ours: the screen's "any status"). */
export const TASK_STATUS_FILTERS = [...TASK_STATUSES, 'all'] as const;
export type TaskStatusFilter = (typeof TASK_STATUS_FILTERS)[number];
