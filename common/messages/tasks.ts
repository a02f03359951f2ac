/**
 * Messages and fixed lists of tasks, task automations and comments on form responses (spec part 2 §3
 * "Comment", "Task", §5 "Tasks, comments, notifications", §7, §8, §9). Where §5 states a rule without
 * its words, the message says the rule in the call's field names.
 */
import type { FormCategory } from './forms';
import { thousands } from './numbers';
import { type TaskStatusFilter, TASK_STATUSES } from '../task-statuses';

/** The category of the forms tasks follow: the task templates (spec §3 taskTemplates). */
export const TASK_CATEGORY: FormCategory = 'Task';

export { DEFAULT_TASK_STATUS, TASK_STATUS_FILTERS, TASK_STATUSES, type TaskStatus, type TaskStatusFilter } from '../task-statuses';

/** Spec §9: task form responses default to page 1, 50 per page, status open. */
export const TASK_PAGE_DEFAULT = 1;
export const TASK_PER_PAGE_DEFAULT = 50;
export const TASK_STATUS_FILTER_DEFAULT: TaskStatusFilter = 'open';
/** Larger pages are cut to this (the answer says which size applied): a page is read on a tablet. */
export const TASK_PER_PAGE_MAX = 200;

export const TASK_TITLE_MAX_CHARS = 200;
export const TASK_DESCRIPTION_MAX_CHARS = 5_000;
export const TASK_KEYWORD_MAX_CHARS = 200;
export const COMMENT_MAX_CHARS = 5_000;

const statuses = TASK_STATUSES.join(', ');

export const taskMessages = {
  // Spec §5, its words.
  userIdRequired: 'Get tasks needs userId.',
  taskIdRequired: 'Delete task needs taskId.',
  // Spec §5 rules and §7 fields, in the calls' field names.
  idInvalid: (field: string) => `${field} must be a positive whole number.`,
  responseIdRequired: 'response_id is required.',
  submissionIdRequired: 'submission_id is required.',
  statusInvalid: `status must be one of ${statuses}.`,
  statusFilterInvalid: `status must be one of ${statuses} or all.`,
  pageInvalid: 'page must be a whole number from 1.',
  perPageInvalid: `per_page must be a whole number from 1 (at most ${TASK_PER_PAGE_MAX} are answered).`,
  titleRequired: `title is required (at most ${TASK_TITLE_MAX_CHARS} characters).`,
  titleInvalid: `title must be a text of at most ${TASK_TITLE_MAX_CHARS} characters.`,
  descriptionInvalid: `description must be a text of at most ${thousands(TASK_DESCRIPTION_MAX_CHARS)} characters.`,
  dueAtInvalid: 'due_at must be a date-time (ISO 8601) or empty.',
  assigneeInvalid: 'assignee_user_id must be a user id, or empty for nobody.',
  assigneeNameIncomplete: 'Give both first_name and last_name of the assignee.',
  assigneeUnknown: (firstName: string, lastName: string) => `No user of this company is named ${firstName} ${lastName}.`,
  assigneeAmbiguous: (firstName: string, lastName: string) => `Several users of this company are named ${firstName} ${lastName}: choose one by assignee_user_id.`,
  noTask: 'This form response has no task.',
  notTaskMaker: 'Only the person who made this task or an Admin may delete it.',
  // submit_task_automation (spec §5: "further rules are not shown"; these are ours).
  automationTemplateRequired: 'template_id is required: the form whose answer is watched.',
  automationFieldRequired: 'form_field_id is required: the field whose answer is watched.',
  keywordRequired: `keyword is required (at most ${TASK_KEYWORD_MAX_CHARS} characters).`,
  taskTemplateRequired: 'task_template_id is required: the Task form the task follows.',
  fieldNotInTemplate: 'form_field_id must be a field of the form template_id.',
  notTaskTemplate: 'task_template_id must be a form template of category Task.',
  // Answers.
  taskCreated: 'Task created.',
  taskUpdated: 'Task updated.',
  taskDeleted: 'Task deleted.',
  automationCreated: 'Task automation created.',
  // The client's defaults when a call fails without a message (spec §8).
  updateFailed: 'Failed to update task fields.',
  deleteFailed: 'Failed to delete task.',
  fetchFailed: 'Failed to fetch tasks.',
  createAutomationFailed: 'Failed to create task automation.',
  // Ours (the spec names no message for the task templates' list).
  fetchTemplatesFailed: 'Failed to fetch task templates.',
} as const;

export const commentMessages = {
  // Spec §3 "Comment" fields, in their names.
  responseIdRequired: 'ResponseID is required.',
  userIdRequired: 'UserID is required.',
  commentIdRequired: 'CommentID is required.',
  commentTextRequired: `CommentText is required (at most ${thousands(COMMENT_MAX_CHARS)} characters).`,
  // Issue 16: only the author edits or deletes a comment; Admins may delete any.
  notAuthorEdit: 'Only the author of a comment may edit it.',
  notAuthorDelete: 'Only the author of a comment or an Admin may delete it.',
  // Answers.
  commentAdded: 'Comment added.',
  commentEdited: 'Comment edited.',
  commentDeleted: 'Comment deleted.',
  // The client's defaults when a call fails without a message (spec §8).
  fetchFailed: 'Failed to fetch comments.',
  addFailed: 'Failed to add comment.',
  deleteFailed: 'Failed to delete comment.',
  editFailed: 'Failed to edit comment.',
} as const;
