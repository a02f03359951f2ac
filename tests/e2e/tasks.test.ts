/**
 * Tasks end to end, as issue 16 asks, in a real Chromium against the real server: an Admin's task
 * automation (a keyword in a form field makes a task assigned to a grower) is set up through the API; a
 * grower with no signal fills that form with the keyword; back online, the task reaches the assignee's
 * open tasks list; the assignee, offline, comments and marks it done, both shown at once and waiting to
 * sync; back online, the server holds the comment and the status, each once. And a task made from an
 * observation on the observations screen, assigned, renamed and deleted, made again from the box's
 * panel, and a task done long ago read from the server on request. Nothing is mocked.
 */
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createFormTemplate, createGrid, createRoom, createTenant, createUser } from '../support/factories';
import { AppPage } from './app-page';
import { FormsPage } from './forms-page';
import { RoomsPage } from './rooms-page';

let e2e: E2E;
const db = () => e2e.server.database.db;
const DAY_MS = 86_400_000;

/** The tasks screens, named once for this file. */
class TasksPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openList() {
    await this.open('/dashboard/tasks');
    await this.rendered('Tasks');
  }

  list() {
    return this.page.getByRole('list', { name: 'Tasks', exact: true });
  }

  item(title: string) {
    return this.list().getByRole('listitem').filter({ hasText: title });
  }

  comments() {
    return this.page.getByRole('list', { name: 'Comments' });
  }

  statusButton(status: 'Open' | 'In progress' | 'Done') {
    return this.page.getByRole('group', { name: 'Status' }).getByRole('button', { name: status, exact: true });
  }

  /** The chip saying the task has changes the server does not have yet. */
  waitingChip() {
    return this.page.locator('.task-state .chip.waiting');
  }

  /** The screen's check once the toasts have gone, so they hide nothing of the screenshot. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}

describe.skipIf(skipBrowser)('tasks', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a grower’s offline observation with the keyword makes a task for the assignee, who comments and closes it offline; the server has each once', async () => {
    const farm = await createTenant(e2e.server);
    const assignee = await createUser(e2e.server, farm.companyId, 'Regular');
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room T');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench T');
    const scouting = await createFormTemplate(e2e.server, farm.admin, farm.companyId, { name: 'Thrips check', category: 'Scouting', fields: [{ name: 'Pests seen', type: 'Text' }] });
    const taskForm = await createFormTemplate(e2e.server, farm.admin, farm.companyId, { name: 'Release predators', category: 'Task', fields: [{ name: 'Predators released', type: 'Text' }] });
    const rule = await e2e.server.request('POST', '/submit_task_automation', {
      token: farm.admin.token,
      form: { template_id: scouting.templateId, form_field_id: scouting.fieldIds[0]!, keyword: 'thrips', task_template_id: taskForm.templateId, assignee_user_id: assignee.id },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);

    // The assignee's tablet, signed in and ready to work offline: no open task yet.
    const assigneePage = await e2e.newPage();
    const tasks = new TasksPage(assigneePage.page);
    await tasks.signIn(assignee);
    await tasks.openList();
    await assigneePage.page.getByText('No open tasks.').waitFor();
    await tasks.check('tasks-empty');
    await assigneePage.page.locator('.offline-ready.ready').waitFor({ timeout: 60_000 });

    // The grower's tablet gets the form while it has signal, then loses it and fills the form with the keyword.
    const grower = await e2e.newPage();
    const forms = new FormsPage(grower.page);
    await forms.signIn(farm.regular);
    const fillFor = { boxes: [await clientIdOf(e2e.server, 'grid_boxes', grid.boxIds[0]!)], room: await clientIdOf(e2e.server, 'rooms', roomId) };
    await forms.openFill(scouting.templateId, 'Thrips check', fillFor);
    await forms.synced();
    expect(await forms.activeServiceWorker()).not.toBeNull();
    await forms.reload();
    await forms.rendered('Thrips check');
    await grower.context.setOffline(true);
    await forms.openFill(scouting.templateId, 'Thrips check', fillFor);
    await forms.answer('Pests seen', 'Thrips on the lower leaves');
    await forms.submit();
    await expect.poll(() => forms.pending()).toBe('1');
    expect(await db().selectFrom('tasks').select('id').where('company_id', '=', farm.companyId).execute()).toEqual([]);

    // Back online: the observation reaches the server, the automation makes the task, and the assignee's list shows it.
    await grower.context.setOffline(false);
    await forms.synced();
    const response = await db().selectFrom('form_responses').select(['id', 'submitted_by']).where('company_id', '=', farm.companyId).executeTakeFirstOrThrow();
    expect(response.submitted_by).toBe(farm.regular.id);
    const [made] = await db().selectFrom('tasks').select(['id', 'response_id', 'assignee_user_id', 'status', 'title']).where('company_id', '=', farm.companyId).execute();
    expect(made).toMatchObject({ response_id: response.id, assignee_user_id: assignee.id, status: 'open', title: 'Release predators' });
    const item = tasks.item('Release predators');
    await item.waitFor({ timeout: 30_000 });
    await expect.poll(() => item.innerText()).toMatch(/Open[\s\S]*Thrips check · Flower room T · Bench T · Box 1 · Assigned to Regular/);
    await assigneePage.page.getByRole('button', { name: 'Mine' }).click();
    await expect.poll(() => assigneePage.page.getByRole('button', { name: 'Mine' }).getAttribute('aria-pressed')).toBe('true');
    await item.waitFor();
    await tasks.check('tasks-list');

    // The assignee, offline, opens the task, comments and marks it done: both show at once, waiting to sync.
    await assigneePage.context.setOffline(true);
    await item.getByRole('link').click();
    await tasks.rendered('Release predators');
    await assigneePage.page.locator('.answers').getByText('Pests seen', { exact: true }).waitFor();
    await assigneePage.page.getByLabel('Add a comment').fill('Predators released on Bench T');
    await assigneePage.page.getByRole('button', { name: 'Add comment' }).click();
    const comment = tasks.comments().getByRole('listitem').filter({ hasText: 'Predators released on Bench T' });
    await comment.waitFor();
    await comment.getByText('Waiting to sync').waitFor();
    await tasks.statusButton('Done').click();
    await expect.poll(() => tasks.statusButton('Done').getAttribute('aria-pressed')).toBe('true');
    await tasks.waitingChip().waitFor();
    expect(await tasks.pending()).toBe('2');
    await tasks.check('task-offline');
    expect(await db().selectFrom('response_comments').select('id').where('response_id', '=', response.id).execute()).toEqual([]);

    // Back online: the server has the comment and the status, each once, as the assignee's acts.
    await assigneePage.context.setOffline(false);
    await tasks.synced();
    await expect.poll(() => tasks.waitingChip().count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => comment.getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    expect(await db().selectFrom('response_comments').select(['comment_text', 'user_id', 'deleted_at']).where('response_id', '=', response.id).execute()).toEqual([
      { comment_text: 'Predators released on Bench T', user_id: assignee.id, deleted_at: null },
    ]);
    expect(await db().selectFrom('tasks').select(['id', 'status', 'closed_by', 'deleted_at']).where('response_id', '=', response.id).execute()).toEqual([{ id: made!.id, status: 'done', closed_by: assignee.id, deleted_at: null }]);
    const statusEvents = await db().selectFrom('audit_events').select('user_id').where('company_id', '=', farm.companyId).where('event_title', '=', 'Updated task Release predators').execute();
    expect(statusEvents).toEqual([{ user_id: assignee.id }]);
    await tasks.check('task-done');

    // Done, it leaves the list of work not done, and shows under "Done".
    await tasks.openList();
    await assigneePage.page.getByText('No open tasks.').waitFor();
    await assigneePage.page.getByLabel('Status').selectOption('done');
    await tasks.item('Release predators').waitFor();
    expect([...assigneePage.errors, ...grower.errors]).toEqual([]);
  });

  it('a task made from an observation on the observations screen: assigned, renamed, deleted by its maker, made again from the box panel', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg room T');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 1, 1, 'Bench V');
    const scouting = await createFormTemplate(e2e.server, farm.admin, farm.companyId, { name: 'Mildew check', category: 'Scouting', fields: [{ name: 'Mildew seen', type: 'Text' }] });
    const observed = await e2e.server.request<{ response_id: number }>('POST', '/submit_form', {
      token: farm.regular.token,
      json: { GridBoxID: grid.boxIds[0], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: scouting.fieldIds[0], inputData: 'White spots on two leaves' }] },
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    // A task done long ago, on an observation last changed before the tablets' window: read from the server on request.
    const longAgo = new Date(Date.now() - 200 * DAY_MS);
    const old = await e2e.server.request<{ response_id: number }>('POST', '/submit_form', {
      token: farm.regular.token,
      json: { GridBoxID: grid.boxIds[0], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: scouting.fieldIds[0], inputData: 'Mildew last winter' }], submittedAt: longAgo.toISOString() },
    });
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    const oldTask = await e2e.server.request('POST', '/update_task_fields', { token: farm.admin.token, json: { response_id: old.body.response_id, title: 'Old mildew spray', status: 'done' } });
    expect(oldTask.status, JSON.stringify(oldTask.body)).toBe(200);
    // The database stamps every change with its time (the sync trigger): the row is aged with it off, as a row nobody touched for months is.
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`ALTER TABLE form_responses DISABLE TRIGGER form_responses_track_change`.execute(trx);
        await trx.updateTable('form_responses').set({ updated_at: longAgo }).where('id', '=', old.body.response_id).execute();
        await sql`ALTER TABLE form_responses ENABLE TRIGGER form_responses_track_change`.execute(trx);
      });

    const { page, errors } = await e2e.newPage();
    const app = new TasksPage(page);
    await app.signIn(farm.admin);
    await app.open(`/dashboard/observations?room=${await clientIdOf(e2e.server, 'rooms', roomId)}`);
    await app.rendered('Observations');
    const observation = page.getByRole('listitem').filter({ hasText: 'White spots on two leaves' });
    await observation.getByRole('button', { name: 'Make a task' }).click();
    await app.rendered('Mildew check');
    await page.getByLabel('Assigned to').selectOption({ label: `Regular ${(await db().selectFrom('users').select('last_name').where('id', '=', farm.regular.id).executeTakeFirstOrThrow()).last_name}` });
    await page.getByLabel('Title', { exact: true }).fill('Spray sulphur on Bench V');
    await page.getByLabel('Description', { exact: true }).fill('Both leaves, then check again on Friday.');
    await page.getByRole('button', { name: 'Save title and description' }).click();
    await app.rendered('Spray sulphur on Bench V');
    await app.synced();
    expect(await db().selectFrom('tasks').select(['title', 'description', 'assignee_user_id', 'created_by', 'status']).where('response_id', '=', observed.body.response_id).execute()).toEqual([
      { title: 'Spray sulphur on Bench V', description: 'Both leaves, then check again on Friday.', assignee_user_id: farm.regular.id, created_by: farm.admin.id, status: 'open' },
    ]);
    await app.check('task-made-from-observation');

    // The observation now opens its task; deleting the task leaves the observation.
    await app.open(`/dashboard/observations?room=${await clientIdOf(e2e.server, 'rooms', roomId)}`);
    await observation.getByRole('link', { name: /^Task: Spray sulphur on Bench V/ }).click();
    await app.rendered('Spray sulphur on Bench V');
    await page.getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('group', { name: 'Delete the task Spray sulphur on Bench V?' }).getByRole('button', { name: 'Delete task' }).click();
    await app.rendered('Tasks');
    await app.synced();
    expect(await db().selectFrom('tasks').select('id').where('response_id', '=', observed.body.response_id).where('deleted_at', 'is', null).execute()).toEqual([]);
    expect(await db().selectFrom('form_responses').select('id').where('id', '=', observed.body.response_id).where('deleted_at', 'is', null).execute()).toEqual([{ id: observed.body.response_id }]);

    // The box's panel shows the observation again without a task, and makes one from it.
    const rooms = new RoomsPage(page);
    await rooms.openRooms();
    await rooms.openRoom('Veg room T');
    await rooms.openBox('Bench V', 1, 1);
    await rooms.panel().getByRole('listitem').filter({ hasText: 'White spots on two leaves' }).getByRole('button', { name: 'Make a task' }).click();
    await app.rendered('Mildew check');
    await app.synced();
    expect(await db().selectFrom('tasks').select(['title', 'created_by']).where('response_id', '=', observed.body.response_id).where('deleted_at', 'is', null).execute()).toEqual([{ title: 'Mildew check', created_by: farm.admin.id }]);
    await app.openList();
    await app.item('Mildew check').waitFor();

    // Done tasks: none on the tablet; the old one from the server, on request.
    await page.getByLabel('Status').selectOption('done');
    await page.getByText('No done tasks.').waitFor();
    await page.getByRole('button', { name: 'Load older done tasks' }).click();
    await page.getByRole('list', { name: 'Older done tasks from the server' }).getByRole('listitem').filter({ hasText: 'Old mildew spray' }).waitFor();
    await app.check('tasks-older-done');
    expect(errors).toEqual([]);
  });
});
