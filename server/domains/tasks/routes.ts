/**
 * Tasks made from form responses, task templates and task automations (spec part 2 §3 "Task", §5, §7,
 * §8, §9; issue 16). Comments are in comment-routes.ts.
 *
 * - A task is made from a response (an observation) and named by it: at most one live task per
 *   response. Any member makes and updates tasks (floor work: README "Roles"); the one who made a task
 *   or an Admin deletes it. Every write touches the response, whose `form_responses` document carries
 *   the task to the tablets, and is audited at the act's time.
 * - update_task_fields sets the fields given and makes the task when the response has none (decision:
 *   no call of its own makes a task; a tablet's "make a task" is this call with the task's client id).
 *   The assignee is named by first and last name (spec §7), matched to one live user of the company
 *   whatever the case; an unknown or ambiguous name is refused with a message saying so. Or by
 *   `assignee_user_id`, which wins.
 * - update_task_description_title changes the title and description of a response's existing task
 *   (404 when it has none: a change queued after the task was deleted elsewhere must not bring it back).
 * - delete_task_template (GET, spec §7 "query made from the response id"): decision: it deletes the
 *   task of that response (the spec's browser removes the task shown with an observation by the
 *   observation's id), by the rules of delete_task. It is also answered as DELETE, the method a tablet's
 *   queued write uses (sync pushes carry writes only); either way it runs in a transaction of its own
 *   with its Idempotency-Key, as every write does.
 * - get_all_task_templates: the company's form templates of category Task.
 * - submit_task_automation (Admins): a rule that makes a task when a field's answer holds a keyword
 *   (tasks/automations.ts applies it to every submission).
 */
import type { FastifyRequest } from 'fastify';
import type { Updateable } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { TASK_CATEGORY, taskMessages as m } from '../../../common/messages/tasks';
import { taskFormResponsesAnswer } from '../../../common/schemas/form-responses';
import {
  deleteTaskAnswer,
  deleteTaskBody,
  deleteTaskTemplateQuery,
  submitTaskAutomationBody,
  taskAutomationAnswer,
  taskFormResponsesQuery,
  tasksAnswer,
  tasksQuery,
  taskTemplatesAnswer,
  taskTemplatesQuery,
  updateTaskAnswer,
  updateTaskDescriptionTitleBody,
  updateTaskFieldsBody,
} from '../../../common/schemas/tasks';
import type { TasksTable } from '../../db/schema';
import { actedAtOf, writer } from '../../db/writes';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { actingCompany, assertLinkedWithin, caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { notifyTaskChanged } from '../automations/triggers';
import { formQueries } from '../forms/queries';
import { responseQueries } from '../forms/responses-queries';
import { taskAutomationJson, taskAutomationQueries } from './automations';
import { commentRoutes } from './comment-routes';
import { type Task, taskQueries as q } from './queries';

const taskFormResponsesSchema = { querystring: taskFormResponsesQuery, response: { 200: taskFormResponsesAnswer } };
const tasksSchema = { querystring: tasksQuery, response: { 200: tasksAnswer } };
const updateFieldsSchema = { body: updateTaskFieldsBody, response: { 200: updateTaskAnswer } };
const updateTitleSchema = { body: updateTaskDescriptionTitleBody, response: { 200: updateTaskAnswer } };
const deleteSchema = { body: deleteTaskBody, response: { 200: deleteTaskAnswer } };
const templatesSchema = { querystring: taskTemplatesQuery, response: { 200: taskTemplatesAnswer } };
const deleteTemplateSchema = { querystring: deleteTaskTemplateQuery, response: { 200: deleteTaskAnswer } };
const automationSchema = { body: submitTaskAutomationBody, response: { 200: taskAutomationAnswer } };

/** The response a call names, locked for the call's transaction (queries.ts); 404 when deleted since the guard looked. */
async function lockedResponse(request: FastifyRequest, responseId: number) {
  const response = await q.lockedResponse(request.db, responseId);
  if (!response) throw notFound(httpMessages.recordNotFound(`form_response ${responseId}`));
  return response;
}

/** The one who made a task, or an Admin (or SuperAdmin), deletes it. */
function assertMayDelete(request: FastifyRequest, task: Task) {
  const claims = caller(request);
  if (claims.user_role === 'Regular' && task.created_by !== claims.user_id) throw forbidden(m.notTaskMaker);
}

/**
 * The assignee a call names: undefined when it names none (no change), null for nobody, else a live
 * user of the company. By id, the tenancy guard found the user live and the caller's to name (a
 * SuperAdmin's must also be of the task's company); by name, one user of the company must have it.
 */
async function assigneeOf(request: FastifyRequest, companyId: number, named: { assignee_user_id?: number | null; first_name?: string; last_name?: string }): Promise<number | null | undefined> {
  if (named.assignee_user_id !== undefined) {
    if (named.assignee_user_id !== null) await assertLinkedWithin(request, companyId, { user: named.assignee_user_id });
    return named.assignee_user_id;
  }
  if (named.first_name === undefined || named.last_name === undefined) return undefined;
  const users = await q.usersNamed(request.db, companyId, named.first_name, named.last_name);
  if (users.length === 0) throw badRequest(m.assigneeUnknown(named.first_name, named.last_name));
  if (users.length > 1) throw badRequest(m.assigneeAmbiguous(named.first_name, named.last_name));
  return users[0]!.id;
}

/** A status change with the closing it means: set done, the task is closed now by the caller (kept when it already was done); any other status reopens it. */
export function statusChange(status: Task['status'] | undefined, task: Task | undefined, at: Date, by: number | null): Updateable<TasksTable> {
  if (status === undefined) return {};
  if (status !== 'done') return { status, closed_at: null, closed_by: null };
  if (task?.status === 'done') return { status };
  return { status, closed_at: at, closed_by: by };
}

async function getTaskFormResponses(request: RequestOf<typeof taskFormResponsesSchema>) {
  const { CompanyID, user_ID, TemplateID, status, page, per_page } = request.query;
  const companyId = actingCompany(request, CompanyID);
  const { responseIds, total } = await q.responsePage(request.db, { companyId, assigneeId: user_ID, templateId: TemplateID, status }, page, per_page);
  const responses = new Map((await responseQueries.responsesWithAnswers(request.db, { ids: responseIds })).map((response) => [response.ResponseID, response]));
  return success({ responses: responseIds.flatMap((id) => responses.get(id) ?? []), page, per_page, total });
}

/** The tasks assigned to a user (of any company a SuperAdmin names: a user has one). */
async function getTasks(request: RequestOf<typeof tasksSchema>) {
  const { user_id, status, page, per_page } = request.query;
  const { tasks, total } = await q.page(request.db, { assigneeId: user_id, status }, page, per_page);
  return success({ tasks, page, per_page, total });
}

async function updateTaskFields(request: RequestOf<typeof updateFieldsSchema>) {
  const { response_id, title, description, status, due_at, task_template_id, client_id } = request.body;
  const response = await lockedResponse(request, response_id);
  const actor = actorOfRequest(request, response.company_id);
  const assignee = await assigneeOf(request, response.company_id, request.body);
  if (task_template_id !== undefined && task_template_id !== null && !(await q.isTaskTemplate(request.db, response.company_id, task_template_id))) throw badRequest(m.notTaskTemplate);
  const existing = await q.liveOfResponse(request.db, response.id);
  const values: Updateable<TasksTable> = {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(assignee === undefined ? {} : { assignee_user_id: assignee }),
    ...(due_at === undefined ? {} : { due_at }),
    ...(task_template_id === undefined ? {} : { task_template_id }),
    ...statusChange(status, existing, actedAtOf(actor), actor.userId),
  };
  // Nothing given to change: the task as it is, without a write or an audit event.
  if (existing && Object.keys(values).length === 0) return success({ task: await q.jsonById(request.db, existing.id), task_id: existing.id, client_id: existing.client_id, created: false }, m.taskUpdated);
  const write = writer(request.db, actor);
  let task: { id: number; client_id: string };
  if (existing) {
    await write.update('tasks', existing.id, values);
    task = existing;
  } else {
    task = await write.insert('tasks', {
      client_id,
      company_id: response.company_id,
      response_id: response.id,
      template_id: response.template_id,
      task_template_id: null,
      title: response.template_name,
      assignee_user_id: null,
      due_at: null,
      closed_at: null,
      closed_by: null,
      automation_id: null,
      ...values,
    });
  }
  // The task travels inside its response's document.
  await write.touch('form_responses', response.id);
  await notifyTaskChanged(request.db, actor, existing, task.id);
  const json = await q.jsonById(request.db, task.id);
  await recordAudit(request.db, actor, {
    title: existing ? auditTitles.updatedTask(json.title) : auditTitles.madeTask(json.title, response.id),
    gridBoxId: response.grid_box_id,
    roomId: response.room_id,
    batchId: response.batch_id,
    responseId: response.id,
    details: { task_id: task.id, changed: Object.keys(values) },
  });
  return success({ task: json, task_id: task.id, client_id: task.client_id, created: !existing }, existing ? m.taskUpdated : m.taskCreated);
}

async function updateTaskDescriptionTitle(request: RequestOf<typeof updateTitleSchema>) {
  const { submission_id, title, description } = request.body;
  const response = await lockedResponse(request, submission_id);
  const task = await q.liveOfResponse(request.db, response.id);
  if (!task) throw notFound(m.noTask);
  const actor = actorOfRequest(request, response.company_id);
  const write = writer(request.db, actor);
  await write.update('tasks', task.id, { title, description });
  await write.touch('form_responses', response.id);
  await recordAudit(request.db, actor, {
    title: task.title === title ? auditTitles.updatedTask(title) : auditTitles.renamedTask(task.title, title),
    gridBoxId: response.grid_box_id,
    roomId: response.room_id,
    batchId: response.batch_id,
    responseId: response.id,
    details: { task_id: task.id, changed: ['title', 'description'] },
  });
  return success({ task: await q.jsonById(request.db, task.id), task_id: task.id, client_id: task.client_id, created: false }, m.taskUpdated);
}

/** Tombstones a task and touches its response (its document then carries no task); audited. */
async function deleteTheTask(request: FastifyRequest, task: Task) {
  assertMayDelete(request, task);
  const actor = actorOfRequest(request, task.company_id);
  const write = writer(request.db, actor);
  await write.softDelete('tasks', task.id);
  await write.touch('form_responses', task.response_id);
  const response = await responseQueries.byId(request.db, task.response_id);
  await recordAudit(request.db, actor, {
    title: auditTitles.deletedTask(task.title),
    gridBoxId: response?.grid_box_id ?? null,
    roomId: response?.room_id ?? null,
    batchId: response?.batch_id ?? null,
    responseId: task.response_id,
    details: { task_id: task.id },
  });
  return success({ task_id: task.id, response_id: task.response_id }, m.taskDeleted);
}

async function deleteTask(request: RequestOf<typeof deleteSchema>) {
  const task = await q.liveById(request.db, request.body.task_id);
  if (!task) throw notFound(httpMessages.recordNotFound(`task ${request.body.task_id}`));
  return deleteTheTask(request, task);
}

async function deleteTaskTemplate(request: RequestOf<typeof deleteTemplateSchema>) {
  const response = await lockedResponse(request, request.query.response_id);
  const task = await q.liveOfResponse(request.db, response.id);
  if (!task) throw notFound(m.noTask);
  return deleteTheTask(request, task);
}

async function getAllTaskTemplates(request: RequestOf<typeof templatesSchema>) {
  const templates = (await formQueries.templatesOf(request.db, request.query.company_id)).filter((template) => template.form_category === TASK_CATEGORY);
  return success({ taskTemplates: await formQueries.withChildren(request.db, templates) });
}

/**
 * A new rule of the company whose form it watches: the field must be that form's, the task form a Task
 * form of the same company, the assignee one of its users (a SuperAdmin may name any company's, all of
 * one company).
 */
async function submitTaskAutomation(request: RequestOf<typeof automationSchema>) {
  const { template_id, form_field_id, keyword, task_template_id, assignee_user_id, title, description, client_id } = request.body;
  const template = await formQueries.byId(request.db, template_id);
  const field = await formQueries.fieldById(request.db, form_field_id);
  if (field.template_id !== template.id) throw badRequest(m.fieldNotInTemplate);
  if (!(await q.isTaskTemplate(request.db, template.company_id, task_template_id))) throw badRequest(m.notTaskTemplate);
  if (assignee_user_id !== undefined) await assertLinkedWithin(request, template.company_id, { user: assignee_user_id });
  const actor = actorOfRequest(request, template.company_id);
  const created = await writer(request.db, actor).insert('task_automations', {
    client_id,
    company_id: template.company_id,
    template_id: template.id,
    form_field_id: field.id,
    keyword,
    task_template_id,
    assignee_user_id: assignee_user_id ?? null,
    title: title ?? null,
    description: description ?? null,
  });
  await recordAudit(request.db, actor, {
    title: auditTitles.createdTaskAutomation(template.template_name, keyword, field.field_name),
    details: { automation_id: created.id, task_template_id, assignee_user_id: assignee_user_id ?? null },
  });
  const automation = taskAutomationJson(await taskAutomationQueries.byId(request.db, created.id));
  return success({ automation, automation_id: created.id }, m.automationCreated);
}

export async function taskRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  // Names only these routes give records (ownership.ts keeps the names every route shares).
  const ownsFormFilter = { TemplateID: 'form_template' as const, task_template_id: 'form_template' as const };
  app.get('/get_task_form_responses', { schema: taskFormResponsesSchema, config: { owns: ownsFormFilter } }, getTaskFormResponses);
  app.get('/get_tasks', { schema: tasksSchema }, getTasks);
  app.post('/update_task_fields', { schema: updateFieldsSchema, config: { owns: ownsFormFilter }, ...fields }, updateTaskFields);
  app.post('/update_task_description_title', { schema: updateTitleSchema, config: { owns: { submission_id: 'form_response' } }, ...fields }, updateTaskDescriptionTitle);
  app.delete('/delete_task', { schema: deleteSchema, ...fields }, deleteTask);
  app.get('/get_all_task_templates', { schema: templatesSchema }, getAllTaskTemplates);
  // A GET that deletes: refused to an outside consultant, who only reads (http/guards.ts).
  app.route({ method: ['GET', 'DELETE'], url: '/delete_task_template', schema: deleteTemplateSchema, config: { consultant: 'refused' }, handler: deleteTaskTemplate });
  app.post(
    '/submit_task_automation',
    { schema: automationSchema, config: { access: 'admin', owns: { template_id: 'form_template', form_field_id: 'form_field', task_template_id: 'form_template' } } },
    submitTaskAutomation,
  );
  await commentRoutes(app);
}
