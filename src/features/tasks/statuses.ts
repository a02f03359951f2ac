/**
 * The list's status filter. Only constants: the list's route checks its address with them
 * (validateSearch runs in the first load, before the screen's code). Their names are the screens'
 * texts (locales/*.json `status`, `statusChoice`), looked up at render.
 */
import { TASK_STATUSES, type TaskStatusFilter } from '../../../common/task-statuses';

/**
 * The status filter's choices. Decision: besides the spec's (one status, or all), the screen's own
 * "open and in progress" (`active`) is its default: the work not done yet, so a task someone has
 * started stays in the list the grower opens (the spec's calls default to open alone).
 */
export type StatusChoice = 'active' | TaskStatusFilter;
export const DEFAULT_STATUS_CHOICE: StatusChoice = 'active';
export const STATUS_CHOICES: readonly StatusChoice[] = ['active', ...TASK_STATUSES, 'all'];
export const isStatusChoice = (value: unknown): value is StatusChoice => STATUS_CHOICES.some((choice) => choice === value);
