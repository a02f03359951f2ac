/**
 * Tasks made from form responses, task templates and task automations (issue 16; spec part 2 §3, §5,
 * §7, §9), over HTTP on a real database: every call with its messages, another company's records
 * refused, who may delete, the list's paging defaults, a keyword automation that makes one task per
 * response however often its submission is replayed, and the task reaching tablets inside its
 * response's form_responses document (beyond the sync window while it is open).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { FORM_RESPONSES_WINDOW_DAYS } from '../../common/messages/forms';
import { httpMessages } from '../../common/messages/http';
import { TASK_PER_PAGE_MAX, taskMessages as m } from '../../common/messages/tasks';
import type { FormResponseRecord } from '../../common/schemas/form-responses';
import type { PushAnswer } from '../../common/schemas/sync';
import type { TaskAutomationRecord, TaskRecord } from '../../common/schemas/tasks';
import { addUser } from '../../server/companies';
import { clientIdsOf, createGrid, createRoom, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil, serverDocuments } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
/** A second grower of the farm: not the maker of the first's tasks. */
let grower: SignedInUser;
let roomId: number;
let boxIds: number[];
let otherBoxId: number;
let scouting: Form;
let taskForm: Form;
let otherScouting: Form;
let otherTaskForm: Form;

interface Form {
  id: number;
  name: string;
  fields: number[];
}

/** Tasks and responses as these calls answer them: named by the server's integer ids. */
type Task = Omit<TaskRecord, 'task_id' | 'response_id' | 'template_id' | 'task_template_id'> & { task_id: number; response_id: number; template_id: number; task_template_id: number | null };
type Response = FormResponseRecord & { ResponseID: number; task: Task | null };
type TaskPage = { status: string; responses: Response[]; page: number; per_page: number; total: number };
/** A response as tablets pull it: named by client ids. */
type PulledResponse = PulledDocument & FormResponseRecord & { task: (TaskRecord & { task_id: string }) | null };

const error = (message: string) => ({ status: 'error', message });
const forbidden = error(httpMessages.otherCompany);

const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const post = (path: string, token: string, json: Record<string, unknown>, headers?: Record<string, string>) => call('POST', path, token, { json, ...(headers ? { headers } : {}) });

async function saveForm(tenant: Tenant, formCategory: string, name = `${formCategory} ${randomUUID().slice(0, 8)}`): Promise<Form> {
  const response = await post('/save_form_template', tenant.admin.token, {
    templateName: name,
    companyID: tenant.companyId,
    formCategory,
    fields: [
      { fieldName: 'Pests seen', fieldType: 'Text', fieldOptions: [], isRequired: 0 },
      { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
    ],
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const body = response.body as { template_id: number; field_ids: number[] };
  return { id: body.template_id, name, fields: body.field_ids };
}

/** A response of `form` for a box, answering its first field with `pests`. */
async function observe(user: SignedInUser, form: Form, pests = 'none', box = boxIds[0]!): Promise<number> {
  const response = await post('/submit_form', user.token, { GridBoxID: box, submittedBy: user.id, fieldResponses: [{ fieldID: form.fields[0], inputData: pests }] });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { response_id: number }).response_id;
}

async function makeTask(user: SignedInUser, responseId: number, fields: Record<string, unknown> = {}): Promise<Task> {
  const response = await post('/update_task_fields', user.token, { response_id: responseId, ...fields });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { task: Task }).task;
}

const liveTasksOf = (responseId: number) => server.database.db.selectFrom('tasks').selectAll().where('response_id', '=', responseId).where('deleted_at', 'is', null).execute();
const auditTitles = (companyId: number, like: string) =>
  server.database.db.selectFrom('audit_events').select(['event_title', 'response_id', 'user_id']).where('company_id', '=', companyId).where('event_title', 'like', like).orderBy('id').execute();

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  grower = await createUser(server, farm.companyId, 'Regular');
  roomId = await createRoom(server, farm.companyId);
  boxIds = (await createGrid(server, farm.companyId, roomId, 3, 1)).boxIds;
  otherBoxId = (await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1)).boxIds[0]!;
  scouting = await saveForm(farm, 'Scouting');
  taskForm = await saveForm(farm, 'Task', `Spray ${randomUUID().slice(0, 8)}`);
  otherScouting = await saveForm(other, 'Scouting');
  otherTaskForm = await saveForm(other, 'Task');
});
afterAll(() => server.close());

describe('update_task_fields', () => {
  it('makes a task from a response (titled as its form, open, nobody assigned); audited', async () => {
    const responseId = await observe(farm.regular, scouting);
    const clientId = newClientId();
    const response = await post('/update_task_fields', farm.regular.token, { response_id: responseId, client_id: clientId });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.taskCreated,
      created: true,
      client_id: clientId,
      task: { response_id: responseId, template_id: scouting.id, title: scouting.name, description: '', status: 'open', assignee: null, created_by: farm.regular.id, closed_at: null, automation_id: null },
    });
    const task = (response.body as { task: Task }).task;
    expect((response.body as { task_id: number }).task_id).toBe(task.task_id);
    expect(await auditTitles(farm.companyId, `Made task ${scouting.name} from form response ${responseId}`)).toEqual([
      { event_title: `Made task ${scouting.name} from form response ${responseId}`, response_id: responseId, user_id: farm.regular.id },
    ]);
    // The responses' readers show it too.
    const read = await call('GET', '/get_field_responses_by_gridbox', farm.admin.token, { query: { GridBoxID: boxIds[0]! } });
    expect((read.body as { responses: Response[] }).responses.find((each) => each.ResponseID === responseId)?.task).toMatchObject({ task_id: task.task_id, status: 'open' });
  });

  it('changes the fields given on the response’s task, and no other: assignee by first and last name, status, due time', async () => {
    const responseId = await observe(farm.regular, scouting);
    await makeTask(farm.regular, responseId, { title: 'Check thrips', description: 'Lower leaves' });
    const [first, last] = ['Regular', (await server.database.db.selectFrom('users').select('last_name').where('id', '=', grower.id).executeTakeFirstOrThrow()).last_name];
    const assigned = await post('/update_task_fields', farm.admin.token, { response_id: responseId, first_name: ` ${first.toUpperCase()}`, last_name: last.toLowerCase(), status: 'In progress', due_at: '2026-05-04T08:00:00+02:00' });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({
      message: m.taskUpdated,
      created: false,
      task: { title: 'Check thrips', description: 'Lower leaves', status: 'in_progress', assignee: { user_id: grower.id, first_name: first, last_name: last }, due_at: '2026-05-04T06:00:00.000Z', closed_at: null },
    });
    const done = await makeTask(grower, responseId, { status: 'done' });
    expect(done).toMatchObject({ status: 'done', closed_by: grower.id, assignee: { user_id: grower.id } });
    expect(Date.parse(done.closed_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Done again keeps when it was closed; reopened, it is no longer closed.
    expect((await makeTask(farm.admin, responseId, { status: 'done' })).closed_at).toBe(done.closed_at);
    const reopened = await makeTask(farm.admin, responseId, { status: 'open', assignee_user_id: farm.admin.id, first_name: first, last_name: last, due_at: null });
    expect(reopened).toMatchObject({ status: 'open', closed_at: null, closed_by: null, due_at: null, assignee: { user_id: farm.admin.id } });
    expect((await makeTask(farm.admin, responseId, { assignee_user_id: null })).assignee).toBeNull();
    // One response, one task, however often it is made.
    expect(await liveTasksOf(responseId)).toHaveLength(1);
  });

  it('answers each message', async () => {
    const responseId = await observe(farm.regular, scouting);
    const update = (json: Record<string, unknown>) => post('/update_task_fields', farm.regular.token, json);
    expect((await update({ title: 'x' })).body).toEqual(error(m.responseIdRequired));
    expect((await update({ response_id: responseId, status: 'later' })).body).toEqual(error(m.statusInvalid));
    expect((await update({ response_id: responseId, title: '  ' })).body).toEqual(error(m.titleRequired));
    expect((await update({ response_id: responseId, description: 'x'.repeat(5001) })).body).toEqual(error(m.descriptionInvalid));
    expect((await update({ response_id: responseId, due_at: 'next week' })).body).toEqual(error(m.dueAtInvalid));
    expect((await update({ response_id: responseId, first_name: 'Sam' })).body).toEqual(error(m.assigneeNameIncomplete));
    expect((await update({ response_id: responseId, assignee_user_id: 'someone' })).body).toEqual(error(m.assigneeInvalid));
    const unknown = await update({ response_id: responseId, first_name: 'Nobody', last_name: 'Here' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(error(m.assigneeUnknown('Nobody', 'Here')));
    for (const email of [`twin-a-${randomUUID()}@example.test`, `twin-b-${randomUUID()}@example.test`]) await addUser(server.database.db, farm.companyId, { email, password: 'pw-twin-1234', role: 'Regular', name: ['Sam', 'Twin'] });
    expect((await update({ response_id: responseId, first_name: 'sam', last_name: 'twin' })).body).toEqual(error(m.assigneeAmbiguous('sam', 'twin')));
    // A user of the other company is not found by name here.
    expect((await update({ response_id: responseId, first_name: 'Regular', last_name: other.regular.email.split('@')[0]! })).status).toBe(400);
    expect((await update({ response_id: responseId, task_template_id: scouting.id })).body).toEqual(error(m.notTaskTemplate));
    // Nothing was made by the refused calls.
    expect(await liveTasksOf(responseId)).toHaveLength(0);
    expect((await update({ response_id: responseId, task_template_id: taskForm.id })).body).toMatchObject({ created: true, task: { task_template_id: taskForm.id } });
  });

  it('refuses another company’s response, assignee and task form (403)', async () => {
    const theirs = await observe(other.regular, otherScouting, 'none', otherBoxId);
    const mine = await observe(farm.regular, scouting);
    expect(await post('/update_task_fields', farm.regular.token, { response_id: theirs, title: 'Mine now' }).then((r) => [r.status, r.body])).toEqual([403, forbidden]);
    expect((await post('/update_task_fields', farm.regular.token, { response_id: mine, assignee_user_id: other.regular.id })).body).toEqual(forbidden);
    expect((await post('/update_task_fields', farm.regular.token, { response_id: mine, task_template_id: otherTaskForm.id })).body).toEqual(forbidden);
    expect(await liveTasksOf(theirs)).toHaveLength(0);
    expect(await liveTasksOf(mine)).toHaveLength(0);
  });
});

describe('update_task_description_title', () => {
  it('changes the title and description of the response’s task', async () => {
    const responseId = await observe(farm.regular, scouting);
    const task = await makeTask(farm.regular, responseId, { title: 'Old', description: 'Old text' });
    const response = await post('/update_task_description_title', grower.token, { submission_id: responseId, title: 'Release predators', description: '' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ message: m.taskUpdated, created: false, task_id: task.task_id, task: { title: 'Release predators', description: '', status: 'open' } });
    expect(await auditTitles(farm.companyId, 'Renamed task Old to Release predators')).toHaveLength(1);
  });

  it('answers each message; a response without a task is not changed (404)', async () => {
    const responseId = await observe(farm.regular, scouting);
    const update = (json: Record<string, unknown>) => post('/update_task_description_title', farm.regular.token, json);
    expect((await update({ title: 'x', description: 'y' })).body).toEqual(error(m.submissionIdRequired));
    expect((await update({ submission_id: responseId, description: 'y' })).body).toEqual(error(m.titleRequired));
    const none = await update({ submission_id: responseId, title: 'x', description: 'y' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual(error(m.noTask));
    expect(await liveTasksOf(responseId)).toHaveLength(0);
    const theirs = await observe(other.regular, otherScouting, 'none', otherBoxId);
    await makeTask(other.regular, theirs);
    expect((await update({ submission_id: theirs, title: 'x', description: 'y' })).body).toEqual(forbidden);
  });
});

describe('delete_task and delete_task_template', () => {
  it('lets the task’s maker and Admins delete it, not another grower; it leaves its response', async () => {
    const responseId = await observe(farm.regular, scouting);
    const task = await makeTask(farm.regular, responseId);
    const refused = await call('DELETE', '/delete_task', grower.token, { json: { task_id: task.task_id } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(error(m.notTaskMaker));
    const deleted = await call('DELETE', '/delete_task', farm.regular.token, { json: { task_id: task.task_id } });
    expect(deleted.body).toEqual({ status: 'success', message: m.taskDeleted, task_id: task.task_id, response_id: responseId });
    expect(await liveTasksOf(responseId)).toHaveLength(0);
    expect(await auditTitles(farm.companyId, `Deleted task ${scouting.name}`)).not.toHaveLength(0);
    // Gone: the guard finds no task (404); the response can have a new one.
    expect((await call('DELETE', '/delete_task', farm.admin.token, { query: { task_id: task.task_id } })).body).toEqual(error(httpMessages.recordNotFound(`task ${task.task_id}`)));
    const again = await makeTask(grower, responseId);
    expect(again.task_id).not.toBe(task.task_id);
    expect((await call('DELETE', '/delete_task', farm.admin.token, { query: { task_id: again.task_id } })).status).toBe(200);
  });

  it('answers each message and refuses another company’s task', async () => {
    expect((await call('DELETE', '/delete_task', farm.admin.token, { json: {} })).body).toEqual(error(m.taskIdRequired));
    expect((await call('DELETE', '/delete_task', farm.admin.token)).body).toEqual(error(m.taskIdRequired));
    const theirs = await makeTask(other.regular, await observe(other.regular, otherScouting, 'none', otherBoxId));
    expect(await call('DELETE', '/delete_task', farm.admin.token, { json: { task_id: theirs.task_id } }).then((r) => [r.status, r.body])).toEqual([403, forbidden]);
  });

  it('delete_task_template deletes the task of the response it names, as GET (the spec’s) or DELETE (a tablet’s queued write)', async () => {
    const first = await observe(farm.regular, scouting);
    const second = await observe(farm.regular, scouting);
    await makeTask(farm.regular, first);
    await makeTask(farm.regular, second);
    const byGet = await call('GET', '/delete_task_template', farm.regular.token, { query: { response_id: first } });
    expect(byGet.body).toMatchObject({ status: 'success', message: m.taskDeleted, response_id: first });
    expect(await liveTasksOf(first)).toHaveLength(0);
    expect((await call('DELETE', '/delete_task_template', grower.token, { query: { response_id: second } })).body).toEqual(error(m.notTaskMaker));
    expect((await call('DELETE', '/delete_task_template', farm.admin.token, { query: { response_id: second } })).status).toBe(200);
    expect(await liveTasksOf(second)).toHaveLength(0);
    expect((await call('GET', '/delete_task_template', farm.admin.token, { query: { response_id: second } })).body).toEqual(error(m.noTask));
    expect((await call('GET', '/delete_task_template', farm.admin.token)).body).toEqual(error(m.responseIdRequired));
    const theirs = await observe(other.regular, otherScouting, 'none', otherBoxId);
    expect((await call('GET', '/delete_task_template', farm.admin.token, { query: { response_id: theirs } })).body).toEqual(forbidden);
  });
});

describe('get_task_form_responses', () => {
  it('answers open tasks, page 1 of 50, by default (spec §9), each response with its answers and task', async () => {
    const tenant = await createTenant(server);
    const box = (await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 1, 1)).boxIds[0]!;
    const form = await saveForm(tenant, 'Scouting');
    // 52 observations made into tasks on a tablet, pushed at once: 51 open, 1 done.
    const responseIds = Array.from({ length: 52 }, () => newClientId());
    const entries = responseIds.flatMap((clientId, index) => [
      { id: randomUUID(), method: 'POST', path: '/submit_form', body: { kind: 'json', data: { GridBoxID: box, submittedBy: tenant.regular.id, fieldResponses: [{ fieldID: form.fields[0], inputData: `count ${index}` }], client_id: clientId } } },
      { id: randomUUID(), method: 'POST', path: '/update_task_fields', body: { kind: 'json', data: { response_id: clientId, title: `Task ${index}`, status: index === 51 ? 'done' : 'open' } } },
    ]);
    const pushed = await server.request<PushAnswer>('POST', '/sync/push', { token: tenant.regular.token, json: { entries } });
    expect(pushed.body.results.filter((result) => result.status !== 200)).toEqual([]);
    const list = (query: Record<string, string | number> = {}) => call('GET', '/get_task_form_responses', tenant.admin.token, { query }).then((r) => r.body as TaskPage);
    const first = await list();
    expect(first).toMatchObject({ status: 'success', page: 1, per_page: 50, total: 51 });
    expect(first.responses).toHaveLength(50);
    expect(first.responses.every((response) => response.task?.status === 'open' && response.fieldResponses.length === 1 && response.TemplateID === form.id)).toBe(true);
    // Newest first within open; the second page has the last one.
    expect(first.responses[0]!.task!.title).toBe('Task 50');
    const second = await list({ page: 2 });
    expect(second.responses.map((response) => response.task!.title)).toEqual(['Task 0']);
    const done = await list({ status: 'done' });
    expect(done.responses.map((response) => response.task!.title)).toEqual(['Task 51']);
    expect((await list({ status: 'all', per_page: 10, page: 6 })).responses.map((response) => response.task!.title)).toEqual(['Task 0', 'Task 51']);
    // A page larger than the most answered is cut to it.
    expect((await list({ per_page: 100_000 })).per_page).toBe(TASK_PER_PAGE_MAX);
    expect((await list({ page: 9 })).responses).toEqual([]);
  });

  it('narrows by form (TemplateID) and assignee (user_ID); answers each message; refuses another company', async () => {
    const tenant = await createTenant(server);
    const box = (await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 1, 1)).boxIds[0]!;
    const [formA, formB] = [await saveForm(tenant, 'Scouting'), await saveForm(tenant, 'General')];
    const submit = async (form: Form) => {
      const response = await post('/submit_form', tenant.regular.token, { GridBoxID: box, submittedBy: tenant.regular.id, fieldResponses: [{ fieldID: form.fields[0], inputData: 'x' }] });
      return (response.body as { response_id: number }).response_id;
    };
    await makeTask(tenant.regular, await submit(formA), { title: 'A for admin', assignee_user_id: tenant.admin.id });
    await makeTask(tenant.regular, await submit(formB), { title: 'B for grower', assignee_user_id: tenant.regular.id });
    await submit(formA); // no task: never listed
    const titles = async (query: Record<string, string | number>) =>
      ((await call('GET', '/get_task_form_responses', tenant.regular.token, { query })).body as TaskPage).responses.map((response) => response.task!.title).sort();
    expect(await titles({ CompanyID: tenant.companyId })).toEqual(['A for admin', 'B for grower']);
    expect(await titles({ TemplateID: formA.id })).toEqual(['A for admin']);
    expect(await titles({ user_ID: tenant.regular.id })).toEqual(['B for grower']);
    expect(await titles({ user_ID: tenant.admin.id, TemplateID: formB.id })).toEqual([]);
    const get = (query: Record<string, string | number>) => call('GET', '/get_task_form_responses', tenant.regular.token, { query }).then((r) => r.body);
    expect(await get({ status: 'someday' })).toEqual(error(m.statusFilterInvalid));
    expect(await get({ page: 0 })).toEqual(error(m.pageInvalid));
    expect(await get({ per_page: -1 })).toEqual(error(m.perPageInvalid));
    expect(await get({ CompanyID: other.companyId })).toEqual(forbidden);
    expect(await get({ TemplateID: otherScouting.id })).toEqual(forbidden);
    expect(await get({ user_ID: other.regular.id })).toEqual(forbidden);
  });
});

describe('get_tasks', () => {
  it('answers the tasks assigned to the user, open first', async () => {
    const tenant = await createTenant(server);
    const box = (await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 1, 1)).boxIds[0]!;
    const form = await saveForm(tenant, 'Scouting');
    const responseOf = async () => ((await post('/submit_form', tenant.regular.token, { GridBoxID: box, submittedBy: tenant.regular.id, fieldResponses: [{ fieldID: form.fields[0], inputData: 'x' }] })).body as { response_id: number }).response_id;
    await makeTask(tenant.admin, await responseOf(), { title: 'Done one', status: 'done', assignee_user_id: tenant.regular.id });
    await makeTask(tenant.admin, await responseOf(), { title: 'Open one', assignee_user_id: tenant.regular.id });
    await makeTask(tenant.admin, await responseOf(), { title: 'Busy one', status: 'in_progress', assignee_user_id: tenant.regular.id });
    await makeTask(tenant.admin, await responseOf(), { title: 'Not mine', assignee_user_id: tenant.admin.id });
    const mine = await call('GET', '/get_tasks', tenant.regular.token, { query: { user_id: tenant.regular.id } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: 'success', page: 1, per_page: 50, total: 3 });
    expect((mine.body as { tasks: Task[] }).tasks.map((task) => task.title)).toEqual(['Open one', 'Busy one', 'Done one']);
    const open = await call('GET', '/get_tasks', tenant.regular.token, { query: { user_id: tenant.regular.id, status: 'open' } });
    expect((open.body as { tasks: Task[] }).tasks.map((task) => task.title)).toEqual(['Open one']);
  });

  it('needs userId (spec §5) and refuses another company’s user', async () => {
    expect((await call('GET', '/get_tasks', farm.regular.token)).body).toEqual(error(m.userIdRequired));
    expect((await call('GET', '/get_tasks', farm.regular.token, { query: { user_id: 'me' } })).body).toEqual(error(m.userIdRequired));
    expect((await call('GET', '/get_tasks', farm.regular.token, { query: { user_id: other.regular.id } })).body).toEqual(forbidden);
  });
});

describe('get_all_task_templates', () => {
  it('answers the company’s forms of category Task, with their fields', async () => {
    const response = await call('GET', '/get_all_task_templates', farm.regular.token, { query: { company_id: farm.companyId } });
    expect(response.status).toBe(200);
    const templates = (response.body as { taskTemplates: Array<{ TemplateID: number; FormCategory: string; fields: unknown[] }> }).taskTemplates;
    expect(templates.map((template) => template.TemplateID)).toEqual([taskForm.id]);
    expect(templates[0]).toMatchObject({ FormCategory: 'Task', fields: [{ FieldName: 'Pests seen' }, { FieldName: 'Notes' }] });
    expect((await call('GET', '/get_all_task_templates', farm.regular.token)).body).toEqual(error(m.idInvalid('company_id')));
    expect((await call('GET', '/get_all_task_templates', farm.regular.token, { query: { company_id: other.companyId } })).body).toEqual(forbidden);
  });
});

describe('submit_task_automation', () => {
  let watched: Form;
  let automation: TaskAutomationRecord;

  /** The rule form as the automations screen sends it (multipart). */
  const ruleFields = (fields: Record<string, string | number> = {}) => ({
    template_id: watched.id,
    form_field_id: watched.fields[0]!,
    keyword: 'Thrips',
    task_template_id: taskForm.id,
    assignee_user_id: grower.id,
    ...fields,
  });

  beforeAll(async () => {
    watched = await saveForm(farm, 'Scouting');
  });

  it('is for Admins; answers each message', async () => {
    const submit = (form: Record<string, string | number>, user = farm.admin) => call('POST', '/submit_task_automation', user.token, { form });
    const byGrower = await submit(ruleFields(), farm.regular);
    expect(byGrower.status).toBe(403);
    expect(byGrower.body).toEqual(error(httpMessages.roleForbidden));
    const { keyword: _k, ...noKeyword } = ruleFields();
    expect((await submit(noKeyword)).body).toEqual(error(m.keywordRequired));
    const { template_id: _t, ...noTemplate } = ruleFields();
    expect((await submit(noTemplate)).body).toEqual(error(m.automationTemplateRequired));
    const { form_field_id: _f, ...noField } = ruleFields();
    expect((await submit(noField)).body).toEqual(error(m.automationFieldRequired));
    const { task_template_id: _x, ...noTaskForm } = ruleFields();
    expect((await submit(noTaskForm)).body).toEqual(error(m.taskTemplateRequired));
    expect((await submit(ruleFields({ form_field_id: scouting.fields[0]! }))).body).toEqual(error(m.fieldNotInTemplate));
    expect((await submit(ruleFields({ task_template_id: scouting.id }))).body).toEqual(error(m.notTaskTemplate));
    expect((await submit(ruleFields({ task_template_id: otherTaskForm.id }))).body).toEqual(forbidden);
    expect((await submit(ruleFields({ assignee_user_id: other.admin.id }))).body).toEqual(forbidden);
    expect(await server.database.db.selectFrom('task_automations').select('id').where('company_id', '=', farm.companyId).execute()).toEqual([]);
  });

  it('stores the rule', async () => {
    const response = await call('POST', '/submit_task_automation', farm.admin.token, { form: ruleFields() });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.automationCreated,
      automation: { company_id: farm.companyId, template_id: watched.id, form_field_id: watched.fields[0], keyword: 'Thrips', task_template_id: taskForm.id, assignee_user_id: grower.id, title: null, description: null },
    });
    automation = (response.body as { automation: TaskAutomationRecord }).automation;
  });

  it('makes a task from a response whose watched answer holds the keyword, in any case, assigned as the rule says', async () => {
    const matching = await observe(farm.regular, watched, 'Some THRIPS on lower leaves');
    const [task] = await liveTasksOf(matching);
    expect(task).toMatchObject({ title: taskForm.name, task_template_id: taskForm.id, assignee_user_id: grower.id, status: 'open', automation_id: automation.automation_id, created_by: farm.regular.id, template_id: watched.id });
    expect(task!.description).toBe('Pests seen answered “Some THRIPS on lower leaves” on ' + watched.name + '.');
    expect(await auditTitles(farm.companyId, `Made task ${taskForm.name} from form response ${matching} (keyword “Thrips”)`)).toHaveLength(1);
    // The assignee sees it in their tasks.
    const assigned = (await call('GET', '/get_tasks', grower.token, { query: { user_id: grower.id } })).body as { tasks: Task[] };
    expect(assigned.tasks.map((each) => each.response_id)).toContain(matching);
    // Another answer, or the keyword in another field, makes none.
    expect(await liveTasksOf(await observe(farm.regular, watched, 'aphids only'))).toEqual([]);
    const elsewhere = await post('/submit_form', farm.regular.token, { GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: watched.fields[1], inputData: 'thrips' }] });
    expect(await liveTasksOf((elsewhere.body as { response_id: number }).response_id)).toEqual([]);
  });

  it('makes one task per response of a submission for several boxes', async () => {
    const response = await post('/submit_form_boxes', farm.regular.token, { GridBoxIDs: boxIds.slice(0, 2).map(String), submittedBy: farm.regular.id, fieldResponses: [{ fieldID: watched.fields[0], inputData: 'thrips' }] });
    const { response_ids } = response.body as { response_ids: number[] };
    expect(response_ids).toHaveLength(2);
    for (const id of response_ids) expect(await liveTasksOf(id)).toHaveLength(1);
  });

  it('makes exactly one task when the same submission is replayed with its Idempotency-Key, alone or in a push', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = { GridBoxID: boxIds[2], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: watched.fields[0], inputData: 'thrips' }] };
    const first = await post('/submit_form', farm.regular.token, json, headers);
    const again = await post('/submit_form', farm.regular.token, json, headers);
    expect(again.body).toEqual(first.body);
    expect(await liveTasksOf((first.body as { response_id: number }).response_id)).toHaveLength(1);

    // A tablet's offline observation, pushed, then pushed again (its answer was lost).
    const clientId = newClientId();
    const entry = { id: randomUUID(), method: 'POST', path: '/submit_form', actedAt: new Date(Date.now() - 3_600_000).toISOString(), body: { kind: 'json', data: { ...json, client_id: clientId } } };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const pushed = await server.request<PushAnswer>('POST', '/sync/push', { token: farm.regular.token, json: { entries: [entry] } });
      expect(pushed.body.results.map((result) => result.status)).toEqual([200]);
    }
    const tasks = await server.database.db
      .selectFrom('tasks')
      .innerJoin('form_responses', 'form_responses.id', 'tasks.response_id')
      .select(['tasks.id', 'tasks.created_at'])
      .where('form_responses.client_id', '=', clientId)
      .execute();
    expect(tasks).toHaveLength(1);
    // Made as of the observation, not of its arrival.
    expect(tasks[0]!.created_at.getTime()).toBeLessThan(Date.now() - 3_000_000);
  });
});

describe('the form_responses documents tablets pull', () => {
  it('carry the task, named by client ids', async () => {
    const responseId = await observe(farm.regular, scouting);
    const clientId = newClientId();
    await post('/update_task_fields', farm.regular.token, { response_id: responseId, client_id: clientId, task_template_id: taskForm.id, assignee_user_id: grower.id });
    const responseClientId = (await server.database.db.selectFrom('form_responses').select('client_id').where('id', '=', responseId).executeTakeFirstOrThrow()).client_id;
    const taskFormClientId = (await server.database.db.selectFrom('form_templates').select('client_id').where('id', '=', taskForm.id).executeTakeFirstOrThrow()).client_id;
    const pulled = await pullUntil<PulledResponse>(server, farm.regular.token, 'form_responses', (documents) => documents.get(responseClientId)?.task?.task_id === clientId, 'client');
    expect(pulled.get(responseClientId)?.task).toMatchObject({ task_id: clientId, response_id: responseClientId, task_template_id: taskFormClientId, assignee: { user_id: grower.id }, status: 'open' });
    expect(pulled.get(responseClientId)?.comments).toEqual([]);
    // Deleted, the document is pulled again without it.
    await call('DELETE', '/delete_task', farm.admin.token, { json: { task_id: clientId } });
    const after = await pullUntil<PulledResponse>(server, farm.regular.token, 'form_responses', (documents) => documents.get(responseClientId)?.task === null, 'client');
    expect(after.get(responseClientId)?.task).toBeNull();
  });

  it('reach a new tablet beyond the sync window while their task is not done', async () => {
    const [openOld, doneOld, plainOld] = [await observe(farm.regular, scouting), await observe(farm.regular, scouting), await observe(farm.regular, scouting)];
    await makeTask(farm.regular, openOld, { title: 'Still open' });
    await makeTask(farm.regular, doneOld, { title: 'Finished', status: 'done' });
    // Last changed long ago: written past the change trigger, which would stamp now.
    const db = server.database.db;
    const ago = new Date(Date.now() - (FORM_RESPONSES_WINDOW_DAYS + 10) * 86_400_000);
    await db.transaction().execute(async (trx) => {
      await sql`ALTER TABLE form_responses DISABLE TRIGGER form_responses_track_change`.execute(trx);
      await trx.updateTable('form_responses').set({ updated_at: ago }).where('id', 'in', [openOld, doneOld, plainOld]).execute();
      await sql`ALTER TABLE form_responses ENABLE TRIGGER form_responses_track_change`.execute(trx);
    });
    const [openId, doneId, plainId] = await clientIdsOf(server, 'form_responses', [openOld, doneOld, plainOld]);
    // As a new tablet pulls: from the start, until nothing is held back.
    const pulled = await serverDocuments(server, farm.regular.token, 'form_responses');
    expect(pulled.get(openId!)?.task).toMatchObject({ title: 'Still open' });
    expect(pulled.has(doneId!)).toBe(false);
    expect(pulled.has(plainId!)).toBe(false);
  });
});
