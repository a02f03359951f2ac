/**
 * Requests and answers of tasks, task templates, task automations and comments on form responses
 * (spec part 2 §3 "Comment", "Task", §5, §7, §9; issue 16).
 *
 * A task is made from a form response (an observation), at most one per response: the spec's calls name
 * a task by its response (update_task_fields' `response_id`, update_task_description_title's
 * `submission_id`) as well as by its own id (delete_task's `task_id`). A task and a response's comments
 * travel inside the response's synced `form_responses` document (common/schemas/form-responses.ts
 * `formResponseRecord`: `task`, `comments`), so they are on the tablets with their response, offline too.
 * get_task_form_responses' answer (responses with their task) is beside the response record there.
 */
import { z } from 'zod';
import {
  COMMENT_MAX_CHARS,
  commentMessages as cm,
  TASK_DESCRIPTION_MAX_CHARS,
  TASK_KEYWORD_MAX_CHARS,
  TASK_PAGE_DEFAULT,
  TASK_PER_PAGE_DEFAULT,
  TASK_PER_PAGE_MAX,
  TASK_STATUS_FILTER_DEFAULT,
  TASK_STATUS_FILTERS,
  TASK_STATUSES,
  TASK_TITLE_MAX_CHARS,
  taskMessages as m,
} from '../messages/tasks';
import { answer, recordRef, timestamp } from './answers';
import { formBody, optionalClientId, optionalId, optionalText, requiredId, requiredText } from './fields';
import { formTemplateRecord } from './forms';

/** Absent, blank text and null count as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** For a field that may be cleared: absent stays absent (no change); null, blank text and the text `null` (as forms send an empty value) clear it. */
const absentOrCleared = (value: unknown) => (value === undefined ? undefined : value === null || value === 'null' || (typeof value === 'string' && value.trim() === '') ? null : value);

/** 'In progress', 'in-progress' and 'IN_PROGRESS' are the same state. */
const statusSpelling = (value: unknown) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase().replace(/[\s-]+/g, '_')) : blankToUndefined(value));

const status = z.preprocess(statusSpelling, z.enum(TASK_STATUSES, { error: m.statusInvalid }).optional());

const statusFilter = z.preprocess(statusSpelling, z.enum(TASK_STATUS_FILTERS, { error: m.statusFilterInvalid }).default(TASK_STATUS_FILTER_DEFAULT));

/** Spec §9: page 1 and 50 per page by default; a larger page is cut to TASK_PER_PAGE_MAX rather than refused (the answer says which size applied). */
const paging = {
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: m.pageInvalid }).int({ error: m.pageInvalid }).min(1, { error: m.pageInvalid }).max(1_000_000, { error: m.pageInvalid }).default(TASK_PAGE_DEFAULT)),
  per_page: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: m.perPageInvalid })
      .int({ error: m.perPageInvalid })
      .min(1, { error: m.perPageInvalid })
      .default(TASK_PER_PAGE_DEFAULT)
      .transform((perPage) => Math.min(perPage, TASK_PER_PAGE_MAX)),
  ),
};

const title = z.preprocess((value) => (value === null ? undefined : value), requiredText(m.titleRequired, TASK_TITLE_MAX_CHARS).optional());
const description = z.preprocess((value) => (value === null ? '' : value), z.string({ error: m.descriptionInvalid }).trim().max(TASK_DESCRIPTION_MAX_CHARS, { error: m.descriptionInvalid }).optional());
const dueAt = z.preprocess(absentOrCleared, z.iso.datetime({ offset: true, error: m.dueAtInvalid }).nullable().optional());
/** The assignee by id; null (or blank) assigns nobody. The tenancy guard checks it is a user of the company (ownership.ts `assignee_user_id`). */
const assigneeUserId = z.preprocess(absentOrCleared, requiredId(m.assigneeInvalid).nullable().optional());
const personName = z.preprocess(blankToUndefined, z.string({ error: m.assigneeNameIncomplete }).trim().max(100, { error: m.assigneeNameIncomplete }).optional());

// ——— Requests ———

/**
 * get_task_form_responses (spec §7, §9): the responses that have a task, with their answers, photos,
 * comments and task. CompanyID: the company (the caller's by default); user_ID: only tasks assigned to
 * that user (the screen's assignee filter; left out, anyone's); TemplateID: only responses of that
 * form; status: open by default, or `all`.
 */
export const taskFormResponsesQuery = z.object({
  CompanyID: optionalId(m.idInvalid('CompanyID')),
  user_ID: optionalId(m.idInvalid('user_ID')),
  TemplateID: optionalId(m.idInvalid('TemplateID')),
  status: statusFilter,
  ...paging,
});

/** get_tasks (spec §5 "Get tasks needs userId"): the tasks assigned to the user, of any status unless one is asked. */
export const tasksQuery = z.object({
  user_id: requiredId(m.userIdRequired),
  status: z.preprocess(statusSpelling, z.enum(TASK_STATUS_FILTERS, { error: m.statusFilterInvalid }).default('all')),
  ...paging,
});

/**
 * update_task_fields (spec §7: "response_id plus fields, including assignee first and last name"): sets
 * the fields given on the response's task, and makes the task when the response has none (then
 * `client_id` names it; the title defaults to the response's form's name). Absent fields are left as
 * they are; `assignee_user_id: null` (or blank) unassigns, `due_at: null` clears the due time. The
 * assignee is named by `first_name` and `last_name` (both, matched to a user of the company whatever
 * their case) or by `assignee_user_id`, which wins when both are given.
 */
export const updateTaskFieldsBody = z.preprocess(
  (value) => value ?? {},
  z
    .object({
      response_id: requiredId(m.responseIdRequired),
      title,
      description,
      status,
      assignee_user_id: assigneeUserId,
      first_name: personName,
      last_name: personName,
      due_at: dueAt,
      task_template_id: z.preprocess(absentOrCleared, requiredId(m.idInvalid('task_template_id')).nullable().optional()),
      client_id: optionalClientId(),
    })
    .superRefine((body, context) => {
      if ((body.first_name === undefined) !== (body.last_name === undefined)) context.addIssue({ code: 'custom', message: m.assigneeNameIncomplete });
    }),
);

/** update_task_description_title (spec §7): the task of the response `submission_id` gets this title and description. */
export const updateTaskDescriptionTitleBody = formBody({
  submission_id: requiredId(m.submissionIdRequired),
  title: requiredText(m.titleRequired, TASK_TITLE_MAX_CHARS),
  description: description.transform((text) => text ?? ''),
});

/** delete_task (spec §5 "Delete task needs taskId"). */
export const deleteTaskBody = formBody({ task_id: requiredId(m.taskIdRequired) });

/** get_all_task_templates: the company's form templates of category Task. */
export const taskTemplatesQuery = z.object({ company_id: requiredId(m.idInvalid('company_id')) });

/** delete_task_template (spec §7: "query made from the response id"): see server/domains/tasks/routes.ts. */
export const deleteTaskTemplateQuery = z.object({ response_id: requiredId(m.responseIdRequired) });

/**
 * submit_task_automation (multipart, Admins): "when field `form_field_id` of form `template_id` answers
 * `keyword` (any case, anywhere in the answer), make a task from the Task form `task_template_id`,
 * assigned to `assignee_user_id`" (nobody when left out). `title` and `description` are the task's (by
 * default, the Task form's name, and what was answered).
 */
export const submitTaskAutomationBody = formBody({
  template_id: requiredId(m.automationTemplateRequired),
  form_field_id: requiredId(m.automationFieldRequired),
  keyword: requiredText(m.keywordRequired, TASK_KEYWORD_MAX_CHARS),
  task_template_id: requiredId(m.taskTemplateRequired),
  assignee_user_id: z.preprocess(blankToUndefined, requiredId(m.assigneeInvalid).optional()),
  title: z.preprocess(blankToUndefined, requiredText(m.titleInvalid, TASK_TITLE_MAX_CHARS).optional()),
  description: optionalText(TASK_DESCRIPTION_MAX_CHARS),
  client_id: optionalClientId(),
});

const commentText = requiredText(cm.commentTextRequired, COMMENT_MAX_CHARS);

/** get_comments (spec §7): a response's comments, oldest first. */
export const commentsQuery = z.object({ ResponseID: requiredId(cm.responseIdRequired) });

/** add_comment (spec §7): UserID is the author, the caller. */
export const addCommentBody = formBody({
  ResponseID: requiredId(cm.responseIdRequired),
  UserID: requiredId(cm.userIdRequired),
  CommentText: commentText,
  client_id: optionalClientId(),
});

/** edit_comment (spec §7): UserID is the caller, who must be the author. */
export const editCommentBody = formBody({
  CommentID: requiredId(cm.commentIdRequired),
  UserID: requiredId(cm.userIdRequired),
  CommentText: commentText,
});

/** delete_comment (spec §7: body CommentID, UserID): UserID is the caller, the author or an Admin. */
export const deleteCommentBody = formBody({
  CommentID: requiredId(cm.commentIdRequired),
  UserID: requiredId(cm.userIdRequired),
});

// ——— Answers ———

/** A user a task is assigned to, by name (spec §3 "assignee (first_name, last_name)"). */
export const taskAssigneeRecord = z.object({ user_id: z.number().int(), first_name: z.string(), last_name: z.string() });

/**
 * A task, as answers and its response's `form_responses` document show it. The assignee's name is as it
 * was when the task was last written (the company document's `users` has every user's current one).
 */
export const taskRecord = z.object({
  task_id: recordRef,
  response_id: recordRef,
  /** The response's form. */
  template_id: recordRef,
  /** The Task form the work follows, when one was chosen (an automation's). */
  task_template_id: recordRef.nullable(),
  title: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATUSES),
  assignee: taskAssigneeRecord.nullable(),
  due_at: timestamp.nullable(),
  /** When it was last set done, and by whom (null while not done). */
  closed_at: timestamp.nullable(),
  closed_by: z.number().int().nullable(),
  /** Who made it: a member, or (for a task an automation made) the submitter of the response. */
  created_by: z.number().int().nullable(),
  /** The automation that made it, if one did. */
  automation_id: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type TaskRecord = z.infer<typeof taskRecord>;

/**
 * The order lists of tasks go in: open first, then in progress, then done; within a status the nearest
 * due time first (none last), then the newest. The server sorts so in SQL (server/domains/tasks/
 * queries.ts `listOrder`); the tablet's offline lists with this.
 */
export function byTaskListOrder(a: TaskRecord, b: TaskRecord): number {
  const rank = TASK_STATUSES.indexOf(a.status) - TASK_STATUSES.indexOf(b.status);
  if (rank !== 0) return rank;
  if (a.due_at !== b.due_at) return a.due_at === null ? 1 : b.due_at === null ? -1 : Date.parse(a.due_at) - Date.parse(b.due_at);
  if (a.created_at !== b.created_at) return Date.parse(b.created_at) - Date.parse(a.created_at);
  return String(b.task_id) < String(a.task_id) ? -1 : String(b.task_id) > String(a.task_id) ? 1 : 0;
}

/** A comment on a form response (spec §3 "Comment"); `EditedAt`: when its text last changed, else null. */
export const responseCommentRecord = z.object({
  CommentID: recordRef,
  ResponseID: recordRef,
  UserID: z.number().int().nullable(),
  CommentText: z.string(),
  CreatedAt: timestamp,
  EditedAt: timestamp.nullable(),
});

export type ResponseCommentRecord = z.infer<typeof responseCommentRecord>;

/** A task automation as answers show it. */
export const taskAutomationRecord = z.object({
  automation_id: z.number().int(),
  company_id: z.number().int(),
  template_id: recordRef,
  form_field_id: recordRef,
  keyword: z.string(),
  task_template_id: recordRef,
  assignee_user_id: z.number().int().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  created_at: timestamp,
});

export type TaskAutomationRecord = z.infer<typeof taskAutomationRecord>;

/** How a page of a list was cut: the page and size that applied, and how many match in all. */
const pageOf = { page: z.number().int(), per_page: z.number().int(), total: z.number().int() };

export const tasksAnswer = answer({ tasks: z.array(taskRecord), ...pageOf });
/** update_task_fields and update_task_description_title: the task as it now is; `created`: the call made it. */
export const updateTaskAnswer = answer({ task: taskRecord, task_id: recordRef, client_id: z.string(), created: z.boolean() });
export const deleteTaskAnswer = answer({ task_id: recordRef, response_id: recordRef });
export const taskTemplatesAnswer = answer({ taskTemplates: z.array(formTemplateRecord) });
export const taskAutomationAnswer = answer({ automation: taskAutomationRecord, automation_id: z.number().int() });
export const commentsAnswer = answer({ comments: z.array(responseCommentRecord) });
export const commentAnswer = answer({ comment: responseCommentRecord, CommentID: recordRef, client_id: z.string() });
export const deleteCommentAnswer = answer({ CommentID: recordRef, ResponseID: recordRef });

/** The fields of a page of task form responses beside the responses (common/schemas/form-responses.ts `taskFormResponsesAnswer`). */
export const taskPageFields = pageOf;
