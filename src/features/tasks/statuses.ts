/**
 * A task's statuses as the screens name them, and the list's status filter. Only constants: the list's
 * route checks its address with them (validateSearch runs in the first load, before the screen's code).
 */
import { TASK_STATUSES, type TaskStatus, type TaskStatusFilter } from '../../../common/messages/tasks';

export const STATUS_LABELS: Record<TaskStatus, string> = { open: 'Open', in_progress: 'In progress', done: 'Done' };

/**
 * The status filter's choices. Decision: besides the spec's (one status, or all), the screen's own
 * "open and in progress" (`active`) is its default: the work not done yet, so a task someone has
 * started stays in the list the grower opens (the spec's calls default to open alone).
 */
export type StatusChoice = 'active' | TaskStatusFilter;
export const DEFAULT_STATUS_CHOICE: StatusChoice = 'active';
export const STATUS_CHOICES: ReadonlyArray<{ value: StatusChoice; label: string }> = [
  { value: 'active', label: 'Open and in progress' },
  ...TASK_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
  { value: 'all', label: 'Any status' },
];
export const isStatusChoice = (value: unknown): value is StatusChoice => STATUS_CHOICES.some((choice) => choice.value === value);
