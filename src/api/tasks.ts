/**
 * Domain functions of tasks and comments on observations (spec part 2 §3 "Comment", "Task", §4, §5, §7,
 * §8, §9; issue 16).
 *
 * A task and a response's comments travel inside the response's `form_responses` document (`task`,
 * `comments`: common/schemas/form-responses.ts), so every change here is a queued write whose
 * optimistic effect patches that document: a comment added appears at once, an edit changes its text, a
 * delete removes it (spec §4), a status or assignee change shows at once, offline too. New tasks and
 * comments get their client id here (never through `check`, which stands numbers in for client ids).
 * Responses are named by their local document's id (their client id): one named by the server's
 * integer id (as online answers name them) is changed on the server alike, without the optimistic effect.
 *
 * The local `form_responses` schema (src/db/schemas.ts) does not declare `task` and `comments`: the local
 * store runs no schema validator and keeps undeclared fields as they are (as it keeps `syncPosition`,
 * sync/pull.ts), and nothing queries by them, so the collection that tablets already hold needs no new
 * schema version (which would need a migration on every tablet).
 *
 * WARNING: an effect replaces the whole `task` or `comments` field, so while a change to a response's
 * comments waits, the pull shows them as that change left them (a comment someone else added meanwhile
 * shows once the change has reached the server and the response is pulled again).
 *
 * Lists (get_task_form_responses, get_tasks) are read from the server, page by page; with no answer
 * (offline) from the local store, in the server's order (`byTaskListOrder`).
 */
import type { z } from 'zod';
import { newClientId } from '../../common/client-ids';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import {
  commentMessages as cm,
  TASK_CATEGORY,
  TASK_PER_PAGE_MAX,
  type TaskStatus,
  type TaskStatusFilter,
  taskMessages as m,
} from '../../common/messages/tasks';
import type { FormResponseRecord, taskFormResponsesAnswer } from '../../common/schemas/form-responses';
import type { FormTemplateRecord } from '../../common/schemas/forms';
import {
  addCommentBody,
  byTaskListOrder,
  commentsQuery,
  deleteCommentBody,
  deleteTaskBody,
  editCommentBody,
  type ResponseCommentRecord,
  submitTaskAutomationBody,
  type taskAutomationAnswer,
  type TaskRecord,
  taskFormResponsesQuery,
  tasksQuery,
  taskTemplatesQuery,
  updateTaskFieldsBody,
} from '../../common/schemas/tasks';
import type { UserRecord } from '../../common/schemas/users';
import type { LocalDocument } from '../../sync/store';
import type { Effect } from '../../sync/types';
import { type ApiContext, check, formData, json, now, online, onlineOrLocal, record, ValidationError } from './context';
import { findLocal } from '../db/local-store';
import { type RecordId, sameId } from './records';

export type Task = TaskRecord;
export type ResponseComment = ResponseCommentRecord;

/** The task of a local response document (null: none, or not on this tablet yet). */
export const taskOf = (response: LocalDocument | null | undefined): Task | null => (response?.task as Task | null | undefined) ?? null;

/** The comments of a local response document, oldest first. */
export const commentsOf = (response: LocalDocument | null | undefined): ResponseComment[] => (response?.comments as ResponseComment[] | undefined) ?? [];

/** The signed-in user: a comment's author, a task's maker. */
async function signedInUser(context: ApiContext): Promise<{ userId: number; companyId: number }> {
  const session = await context.client.session.get();
  if (!session) throw new ValidationError(cm.userIdRequired);
  return { userId: session.user_id, companyId: session.company_id };
}

/** The response's local document and the effect patching it (none when the tablet does not hold it). */
async function responsePatch(context: ApiContext, responseId: RecordId) {
  const id = String(responseId);
  const response = await context.store.get('form_responses', id);
  const patch = (data: Record<string, unknown>): Effect[] => (response ? [{ op: 'patch', collection: 'form_responses', id, data }] : []);
  return { response, patch };
}

/** A user of the company as the company document lists them (for a task's assignee, offline too). */
async function companyUser(context: ApiContext, companyId: number, userId: number): Promise<UserRecord | null> {
  const company = await context.store.get('company', String(companyId));
  const users = (company?.users as UserRecord[] | undefined) ?? [];
  return users.find((user) => user.user_id === userId) ?? null;
}

// ——— Comments ———

/** POST /add_comment, queued: the comment appends to the response's at once (spec §4). Returns its client id. */
export async function addComment(context: ApiContext, input: { responseId: RecordId; text: string }): Promise<string> {
  const { userId } = await signedInUser(context);
  const checked = check(addCommentBody, { ResponseID: input.responseId, UserID: userId, CommentText: input.text });
  const commentId = newClientId();
  const { response, patch } = await responsePatch(context, input.responseId);
  const comment: ResponseComment = { CommentID: commentId, ResponseID: input.responseId, UserID: userId, CommentText: checked.CommentText, CreatedAt: now(), EditedAt: null };
  await record(context, {
    method: 'POST',
    path: '/add_comment',
    body: json({ ResponseID: input.responseId, UserID: userId, CommentText: checked.CommentText, client_id: commentId }),
    creates: [commentId],
    effects: patch({ comments: [...commentsOf(response), comment] }),
    label: changeLabels.commentOnObservation,
    fallbackMessage: cm.addFailed,
  });
  return commentId;
}

/** PUT /edit_comment, queued: the text changes at once (spec §4). Only the author (the server answers 403 to others). */
export async function editComment(context: ApiContext, input: { responseId: RecordId; commentId: RecordId; text: string }) {
  const { userId } = await signedInUser(context);
  const checked = check(editCommentBody, { CommentID: input.commentId, UserID: userId, CommentText: input.text });
  const { response, patch } = await responsePatch(context, input.responseId);
  const at = now();
  await record(context, {
    method: 'PUT',
    path: '/edit_comment',
    body: json({ CommentID: input.commentId, UserID: userId, CommentText: checked.CommentText }),
    effects: patch({ comments: commentsOf(response).map((comment) => (sameId(comment.CommentID, input.commentId) ? { ...comment, CommentText: checked.CommentText, EditedAt: at } : comment)) }),
    label: changeLabels.editComment,
    fallbackMessage: cm.editFailed,
  });
}

/** DELETE /delete_comment, queued: the comment leaves the response's at once (spec §4). Its author or an Admin. */
export async function deleteComment(context: ApiContext, input: { responseId: RecordId; commentId: RecordId }) {
  const { userId } = await signedInUser(context);
  check(deleteCommentBody, { CommentID: input.commentId, UserID: userId });
  const { response, patch } = await responsePatch(context, input.responseId);
  await record(context, {
    method: 'DELETE',
    path: '/delete_comment',
    body: json({ CommentID: input.commentId, UserID: userId }),
    effects: patch({ comments: commentsOf(response).filter((comment) => !sameId(comment.CommentID, input.commentId)) }),
    label: changeLabels.deleteComment,
    fallbackMessage: cm.deleteFailed,
  });
}

/** GET /get_comments: the response's comments, oldest first; offline, the local document's. */
export async function getComments(context: ApiContext, input: { responseId: RecordId }): Promise<ResponseComment[]> {
  check(commentsQuery, { ResponseID: input.responseId });
  const answer = await onlineOrLocal<{ comments: ResponseComment[] }>(context, { path: '/get_comments', query: { ResponseID: input.responseId } }, cm.fetchFailed, async () => ({
    comments: commentsOf(await context.store.get('form_responses', String(input.responseId))),
  }));
  return answer.comments;
}

// ——— Tasks ———

/** What a task change sets; absent fields stay. `assigneeUserId: null` assigns nobody, `dueAt: null` clears the due time. */
export interface TaskChanges {
  title?: string;
  description?: string;
  status?: TaskStatus;
  assigneeUserId?: number | null;
  dueAt?: string | null;
  taskTemplateId?: RecordId | null;
}

const changeFields = (changes: TaskChanges) => ({
  ...(changes.title === undefined ? {} : { title: changes.title }),
  ...(changes.description === undefined ? {} : { description: changes.description }),
  ...(changes.status === undefined ? {} : { status: changes.status }),
  ...(changes.assigneeUserId === undefined ? {} : { assignee_user_id: changes.assigneeUserId }),
  ...(changes.dueAt === undefined ? {} : { due_at: changes.dueAt }),
  ...(changes.taskTemplateId === undefined ? {} : { task_template_id: changes.taskTemplateId }),
});

/** The task as the server will make it of `changes` (its rules: server/domains/tasks/routes.ts). */
async function changedTask(context: ApiContext, task: Task, changes: TaskChanges, checked: z.output<typeof updateTaskFieldsBody>, actor: { userId: number; companyId: number }, at: string): Promise<Task> {
  const next: Task = { ...task, updated_at: at };
  if (checked.title !== undefined) next.title = checked.title;
  if (checked.description !== undefined) next.description = checked.description;
  if (checked.due_at !== undefined) next.due_at = checked.due_at === null ? null : new Date(checked.due_at).toISOString();
  if (changes.taskTemplateId !== undefined) next.task_template_id = changes.taskTemplateId;
  if (changes.assigneeUserId !== undefined) {
    const user = changes.assigneeUserId === null ? null : await companyUser(context, actor.companyId, changes.assigneeUserId);
    next.assignee = user ? { user_id: user.user_id, first_name: user.first_name, last_name: user.last_name } : null;
  }
  if (checked.status !== undefined && checked.status !== task.status) {
    next.status = checked.status;
    next.closed_at = checked.status === 'done' ? at : null;
    next.closed_by = checked.status === 'done' ? actor.userId : null;
  }
  return next;
}

/**
 * POST /update_task_fields, queued: makes a task from the response (open unless `status` says else;
 * titled as its form unless `title` is given), shown with the response at once. When the response
 * already has a task, this changes it instead (as the server does). Returns the task's id.
 */
export async function createTask(context: ApiContext, input: { responseId: RecordId } & TaskChanges): Promise<string> {
  const { response } = await responsePatch(context, input.responseId);
  const existing = taskOf(response);
  if (existing) {
    await updateTask(context, input);
    return String(existing.task_id);
  }
  const actor = await signedInUser(context);
  const fields = { response_id: input.responseId, ...changeFields(input) };
  const checked = check(updateTaskFieldsBody, fields);
  const taskId = newClientId();
  const at = now();
  const blank: Task = {
    task_id: taskId,
    response_id: input.responseId,
    template_id: (response?.TemplateID as RecordId | undefined) ?? '',
    task_template_id: null,
    title: (response?.TemplateName as string | undefined) ?? '',
    description: '',
    status: 'open',
    assignee: null,
    due_at: null,
    closed_at: null,
    closed_by: null,
    created_by: actor.userId,
    automation_id: null,
    created_at: at,
    updated_at: at,
  };
  const task = await changedTask(context, blank, input, checked, actor, at);
  await record(context, {
    method: 'POST',
    path: '/update_task_fields',
    body: json({ ...fields, client_id: taskId }),
    creates: [taskId],
    effects: response ? [{ op: 'patch', collection: 'form_responses', id: String(input.responseId), data: { task } }] : [],
    label: labelNaming(task.title, changeLabels.makeTask, changeLabels.makeATask),
    fallbackMessage: m.updateFailed,
  });
  return taskId;
}

/**
 * POST /update_task_fields, queued: the status, assignee, title, description or due time of the
 * response's task, shown at once. Setting it done closes it now, by the signed-in user; any other
 * status reopens it.
 */
export async function updateTask(context: ApiContext, input: { responseId: RecordId } & TaskChanges) {
  const actor = await signedInUser(context);
  const fields = { response_id: input.responseId, ...changeFields(input) };
  const checked = check(updateTaskFieldsBody, fields);
  const { response, patch } = await responsePatch(context, input.responseId);
  const task = taskOf(response);
  const next = task ? await changedTask(context, task, input, checked, actor, now()) : null;
  await record(context, {
    method: 'POST',
    path: '/update_task_fields',
    body: json(fields),
    effects: next ? patch({ task: next }) : [],
    label: labelNaming(next?.title, changeLabels.updateTask, changeLabels.updateATask),
    fallbackMessage: m.updateFailed,
  });
}

/** DELETE /delete_task, queued: the task leaves its response at once. Its maker or an Admin (the server answers 403 to others). */
export async function deleteTask(context: ApiContext, input: { responseId: RecordId; taskId: RecordId }) {
  check(deleteTaskBody, { task_id: input.taskId });
  const { response, patch } = await responsePatch(context, input.responseId);
  await record(context, {
    method: 'DELETE',
    path: '/delete_task',
    body: json({ task_id: input.taskId }),
    effects: patch({ task: null }),
    label: labelNaming(taskOf(response)?.title, changeLabels.deleteTask, changeLabels.deleteATask),
    fallbackMessage: m.deleteFailed,
  });
}

export interface TaskListFilter {
  status?: TaskStatusFilter;
  page?: number;
  perPage?: number;
}

/** A page of a list, as the server cuts it (and the local store alike, offline). */
function pageOfList<T>(items: T[], page: number, perPage: number) {
  const size = Math.min(perPage, TASK_PER_PAGE_MAX);
  return { items: items.slice((page - 1) * size, page * size), page, per_page: size, total: items.length };
}

/** The local responses that have a task, with their tasks. */
async function localTasks(context: ApiContext): Promise<Array<{ response: LocalDocument; task: Task }>> {
  return (await findLocal(context, 'form_responses')).flatMap((response) => {
    const task = taskOf(response);
    return task ? [{ response, task }] : [];
  });
}

const matchesStatus = (task: Task, status: TaskStatusFilter) => status === 'all' || task.status === status;

export type TaskFormResponses = z.infer<typeof taskFormResponsesAnswer> & { offline?: true };

/**
 * GET /get_task_form_responses: a page of the responses that have a task (open by default, page 1, 50
 * per page: spec §9), each with its answers, photos, comments and task; `assigneeUserId` and
 * `templateId` narrow it. Offline, from the local store ('Failed to fetch tasks.' when the server
 * answers an error without a message).
 */
export async function getTaskFormResponses(
  context: ApiContext,
  input: TaskListFilter & { companyId?: number; assigneeUserId?: number; templateId?: RecordId } = {},
): Promise<TaskFormResponses> {
  const query = { CompanyID: input.companyId, user_ID: input.assigneeUserId, TemplateID: input.templateId, status: input.status, page: input.page, per_page: input.perPage };
  const checked = check(taskFormResponsesQuery, query);
  return onlineOrLocal<TaskFormResponses>(context, { path: '/get_task_form_responses', query: definedOnly(query) }, m.fetchFailed, async () => {
    const found = (await localTasks(context))
      .filter(({ task }) => matchesStatus(task, checked.status))
      .filter(({ task }) => input.assigneeUserId === undefined || task.assignee?.user_id === input.assigneeUserId)
      .filter(({ task }) => input.templateId === undefined || sameId(task.template_id, input.templateId))
      .sort((a, b) => byTaskListOrder(a.task, b.task));
    const { items, ...page } = pageOfList(found, checked.page, checked.per_page);
    return { status: 'success', responses: items.map(({ response }) => response as unknown as FormResponseRecord), ...page, offline: true };
  });
}

export interface AssignedTasks {
  tasks: Task[];
  page: number;
  per_page: number;
  total: number;
  offline?: true;
}

/** GET /get_tasks (spec §5 "Get tasks needs userId"): a page of the tasks assigned to the user, open first; offline, from the local store. */
export async function getTasks(context: ApiContext, input: TaskListFilter & { userId: number }): Promise<AssignedTasks> {
  const query = { user_id: input.userId, status: input.status, page: input.page, per_page: input.perPage };
  const checked = check(tasksQuery, query);
  return onlineOrLocal<AssignedTasks>(context, { path: '/get_tasks', query: definedOnly(query) }, m.fetchFailed, async () => {
    const found = (await localTasks(context))
      .map(({ task }) => task)
      .filter((task) => task.assignee?.user_id === input.userId && matchesStatus(task, checked.status))
      .sort(byTaskListOrder);
    const { items, ...page } = pageOfList(found, checked.page, checked.per_page);
    return { tasks: items, ...page, offline: true };
  });
}

/** GET /get_all_task_templates: the company's forms of category Task; offline, the local templates. */
export async function getTaskTemplates(context: ApiContext, input: { companyId: number }): Promise<FormTemplateRecord[]> {
  const query = check(taskTemplatesQuery, { company_id: input.companyId });
  const answer = await onlineOrLocal<{ taskTemplates: FormTemplateRecord[] }>(context, { path: '/get_all_task_templates', query }, m.fetchTemplatesFailed, async () => ({
    taskTemplates: (await findLocal(context, 'form_templates', { category: TASK_CATEGORY })) as unknown as FormTemplateRecord[],
  }));
  return answer.taskTemplates;
}

/**
 * POST /submit_task_automation (Admins, online, multipart): "when `fieldId` of form `templateId`
 * answers `keyword`, make a task from the Task form `taskTemplateId` for `assigneeUserId`". The
 * server's message, or 'Failed to create task automation.'.
 */
export async function submitTaskAutomation(
  context: Pick<ApiContext, 'client'>,
  input: { templateId: number; fieldId: number; keyword: string; taskTemplateId: number; assigneeUserId?: number; title?: string; description?: string },
): Promise<z.infer<typeof taskAutomationAnswer>['automation']> {
  const checked = check(submitTaskAutomationBody, {
    template_id: input.templateId,
    form_field_id: input.fieldId,
    keyword: input.keyword,
    task_template_id: input.taskTemplateId,
    assignee_user_id: input.assigneeUserId,
    title: input.title,
    description: input.description,
  });
  const { client_id: _none, ...fields } = checked;
  const answer = await online<z.infer<typeof taskAutomationAnswer>>(context, { method: 'POST', path: '/submit_task_automation', body: formData(fields) }, m.createAutomationFailed);
  return answer.automation;
}

/** A query without the parameters left out (the server applies its defaults: spec §9). */
const definedOnly = (query: Record<string, unknown>) => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
