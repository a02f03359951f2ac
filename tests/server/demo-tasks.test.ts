/**
 * The demo company's tasks, comments and automations (issue 16), on a real database over HTTP: the
 * tasks made from its observations (open, in progress and done, assigned to its grower and Admin, at
 * the story's times), the comments on them, one task automation and one notification rule of each kind
 * by e-mail, and that the rules fire for changes made after the first start only, into DATA_DIR/mail/
 * (the server runs without SMTP_URL here, as a first look does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_TRIGGERS } from '../../common/messages/automations';
import type { FormResponseRecord } from '../../common/schemas/form-responses';
import type { ResponseCommentRecord, TaskRecord } from '../../common/schemas/tasks';
import type { Session } from '../../src/api/client';
import { DEMO_ADMIN_EMAIL, DEMO_GROWER_EMAIL, seedDemoIfEmpty } from '../../server/demo/index';
import { DEMO_MANAGER_EMAIL } from '../../server/demo/tasks';
import { signIn } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

const DAY_MS = 86_400_000;
const MITE_TASK = "Release predatory mites on Bench A's door corner";

let server: TestServer;
let printed: string;
let companyId: number;
let admin: Session;
let grower: Session;

const passwordOf = (text: string, email: string) => new RegExp(`${email.replace(/\./g, '\\.')}\\s+password: (\\S+)`).exec(text)?.[1] ?? '';
const daysAgo = (value: string | Date) => (Date.now() - new Date(value).getTime()) / DAY_MS;

beforeAll(async () => {
  server = await startServer({ smtpUrl: undefined });
  printed = (await seedDemoIfEmpty(server.database.db, server.config.dataDir, server.config.publicUrl)) ?? '';
  admin = await signIn(server, DEMO_ADMIN_EMAIL, passwordOf(printed, DEMO_ADMIN_EMAIL));
  grower = await signIn(server, DEMO_GROWER_EMAIL, passwordOf(printed, DEMO_GROWER_EMAIL));
  companyId = admin.company_id;
});
afterAll(() => server.close());

async function get<T>(session: Session, path: string, query: Record<string, string | number>): Promise<T> {
  const response = await server.request<T>('GET', path, { token: session.access_token, query });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
}

/** Every task assigned to the user, whatever its status. */
const tasksOf = async (session: Session) => (await get<{ tasks: TaskRecord[] }>(session, '/get_tasks', { user_id: session.user_id, status: 'all', per_page: 100 })).tasks;

const taskResponses = (status: string, extra: Record<string, number> = {}) =>
  get<{ responses: FormResponseRecord[]; total: number }>(grower, '/get_task_form_responses', { CompanyID: companyId, status, per_page: 100, ...extra });

describe('the demo company’s tasks', () => {
  it('were made from its observations in the eight weeks, open, in progress and done, for its grower and its Admin', async () => {
    const growerTasks = await tasksOf(grower);
    const adminTasks = await tasksOf(admin);
    const tasks = [...growerTasks, ...adminTasks];
    expect(tasks.length).toBeGreaterThanOrEqual(6);
    expect(tasks.length).toBeLessThanOrEqual(10);
    expect(printed).toContain(`${tasks.length} tasks from observations`);
    for (const [session, mine] of [[grower, growerTasks], [admin, adminTasks]] as const) {
      expect(mine.length).toBeGreaterThan(0);
      for (const task of mine) expect(task.assignee?.user_id).toBe(session.user_id);
    }
    expect(new Set(tasks.map((task) => task.status))).toEqual(new Set(['open', 'in_progress', 'done']));
    const responses = await taskResponses('all');
    const responseOf = new Map(responses.responses.map((response) => [response.ResponseID, response]));
    for (const task of tasks) {
      const response = responseOf.get(task.response_id)!;
      expect(response.task?.task_id, task.title).toBe(task.task_id);
      expect([admin.user_id, grower.user_id]).toContain(task.created_by);
      expect(daysAgo(task.created_at)).toBeLessThan(57);
      expect(new Date(task.created_at).getTime()).toBeGreaterThan(new Date(response.SubmittedAt).getTime());
      if (task.status === 'done') {
        // Closed by its assignee, after it was made, inside the story.
        expect(task.closed_by, task.title).toBe(task.assignee?.user_id);
        expect(new Date(task.closed_at!).getTime()).toBeGreaterThan(new Date(task.created_at).getTime());
        expect(daysAgo(task.closed_at!)).toBeGreaterThan(0);
      } else {
        expect([task.closed_at, task.closed_by]).toEqual([null, null]);
      }
    }
    // The mites found on Bench A: the Admin released predatory mites on the day the treatment record says.
    const mites = tasks.find((task) => task.title === MITE_TASK)!;
    expect([mites.status, mites.assignee?.user_id]).toEqual(['done', admin.user_id]);
    const found = responseOf.get(mites.response_id)!;
    expect(found.TemplateName).toBe('Scouting');
    expect(found.fieldResponses.map((answer) => answer.InputData)).toContain('Spider mites');
    const release = await server.database.db
      .selectFrom('form_field_responses')
      .innerJoin('form_responses', 'form_responses.id', 'form_field_responses.response_id')
      .select('form_responses.submitted_at')
      .where('form_field_responses.company_id', '=', companyId)
      .where('form_field_responses.input_data', 'like', '%rows 9 to 12%')
      .executeTakeFirstOrThrow();
    expect(new Date(mites.closed_at!).toDateString()).toBe(new Date(release.submitted_at).toDateString());
  });

  it('answers get_task_form_responses with the open ones by default, and by status and assignee', async () => {
    const db = server.database.db;
    const live = await db.selectFrom('tasks').select(['response_id', 'status', 'assignee_user_id']).where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    const open = live.filter((task) => task.status === 'open');
    expect(open.length).toBeGreaterThan(0);

    const byDefault = await get<{ responses: FormResponseRecord[]; total: number }>(grower, '/get_task_form_responses', { CompanyID: companyId });
    expect(byDefault.total).toBe(open.length);
    expect(byDefault.responses.map((response) => response.ResponseID).sort()).toEqual(open.map((task) => task.response_id).sort());
    for (const response of byDefault.responses) expect(response.task?.status).toBe('open');

    for (const status of ['open', 'in_progress', 'done'] as const) {
      const answered = await taskResponses(status);
      expect(answered.total, status).toBe(live.filter((task) => task.status === status).length);
      expect(answered.total, status).toBeGreaterThan(0);
    }
    const growersOpen = await taskResponses('open', { user_ID: grower.user_id });
    expect(growersOpen.responses.map((response) => response.ResponseID).sort()).toEqual(open.filter((task) => task.assignee_user_id === grower.user_id).map((task) => task.response_id).sort());
  });

  it('carry comments by the grower and the Admin, each after its observation and audited as add_comment audits', async () => {
    const { responses } = await taskResponses('all');
    const comments: ResponseCommentRecord[] = [];
    for (const response of responses) {
      const { comments: listed } = await get<{ comments: ResponseCommentRecord[] }>(grower, '/get_comments', { ResponseID: response.ResponseID });
      expect(listed).toEqual(response.comments);
      for (const comment of listed) {
        expect(new Date(comment.CreatedAt).getTime()).toBeGreaterThan(new Date(response.SubmittedAt).getTime());
        expect(daysAgo(comment.CreatedAt)).toBeGreaterThan(0);
        expect(comment.EditedAt).toBeNull();
      }
      comments.push(...listed);
    }
    expect(new Set(comments.map((comment) => comment.UserID))).toEqual(new Set([admin.user_id, grower.user_id]));
    expect(printed).toContain(`with ${comments.length} comments`);

    const events = await server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', 'like', 'Commented on form response %').execute();
    const eventOf = new Map(events.map((event) => [String((event.details as { comment_id: number }).comment_id), event]));
    expect(events).toHaveLength(comments.length);
    for (const comment of comments) {
      const event = eventOf.get(String(comment.CommentID))!;
      expect([event.event_title, event.user_id, event.response_id]).toEqual([`Commented on form response ${comment.ResponseID}`, comment.UserID, comment.ResponseID]);
      expect(new Date(event.created_at).getTime()).toBe(new Date(comment.CreatedAt).getTime());
    }
  });

  it('were made and closed as update_task_fields audits it, at the acts’ times', async () => {
    const db = server.database.db;
    const tasks = await db.selectFrom('tasks').selectAll().where('company_id', '=', companyId).execute();
    const events = await db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', 'like', '%task %').execute();
    for (const task of tasks) {
      const mine = events.filter((event) => (event.details as { task_id?: number }).task_id === task.id);
      expect(mine[0]!.event_title).toBe(`Made task ${task.title} from form response ${task.response_id}`);
      expect([mine[0]!.user_id, new Date(mine[0]!.created_at).getTime()]).toEqual([task.created_by, new Date(task.created_at).getTime()]);
      if (task.status === 'open') expect(mine).toHaveLength(1);
      else expect(mine.at(-1)!.event_title).toBe(`Updated task ${task.title}`);
      if (task.status === 'done') expect([mine.at(-1)!.user_id, new Date(mine.at(-1)!.created_at).getTime()]).toEqual([task.closed_by, new Date(task.closed_at!).getTime()]);
    }
  });
});

describe('the demo company’s automations', () => {
  type Rule = { id: number; trigger: string; method: string; email_recipient: string | null; slack_webhook_url: string | null; teams_webhook_url: string | null };

  it('has one e-mail notification rule of each kind, to the demo’s addresses, and a task automation, none fired yet', async () => {
    const { notifications } = await get<{ notifications: Rule[] }>(admin, '/get_notifications', { user_id: admin.user_id });
    expect(notifications.map((rule) => rule.trigger).sort()).toEqual([...NOTIFICATION_TRIGGERS].sort());
    for (const rule of notifications) {
      expect([rule.method, rule.slack_webhook_url, rule.teams_webhook_url]).toEqual(['email', null, null]);
      for (const address of rule.email_recipient!.split(';')) expect(address).toMatch(/@demo\.growroom\.local$/);
    }
    expect(notifications.find((rule) => rule.trigger === 'weekly_report')!.email_recipient).toBe(DEMO_MANAGER_EMAIL);

    const automations = await server.database.db.selectFrom('task_automations').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    expect(automations.map((automation) => [automation.keyword, automation.assignee_user_id])).toEqual([['spider mite', admin.user_id]]);

    // Saved at the first start, after the story: nothing of the story notified.
    const { deliveries } = await get<{ deliveries: unknown[] }>(admin, '/get_notification_deliveries', { company_id: companyId });
    expect(deliveries).toEqual([]);
  });

  it('fire for a later change: spider mites with webbing make a task for the Admin, and the mail is in DATA_DIR/mail/', async () => {
    const db = server.database.db;
    const scouting = await db.selectFrom('form_templates').select('id').where('company_id', '=', companyId).where('template_name', '=', 'Scouting').executeTakeFirstOrThrow();
    const fields = await db.selectFrom('form_fields').select(['id', 'field_name']).where('template_id', '=', scouting.id).execute();
    const fieldId = (name: string) => fields.find((field) => field.field_name === name)!.id;
    const box = await db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select('grid_boxes.id')
      .where('grids.company_id', '=', companyId)
      .where('grids.name', '=', 'Bench B')
      .where('grid_boxes.culled', '=', false)
      .executeTakeFirstOrThrow();
    const submitted = await server.request<{ response_id: number }>('POST', '/submit_form', {
      token: grower.access_token,
      json: {
        GridBoxID: box.id,
        submittedBy: grower.user_id,
        fieldResponses: [
          { fieldID: fieldId('Pest pressure'), inputData: 'High' },
          { fieldID: fieldId('Pests seen'), inputData: 'Spider mites' },
          { fieldID: fieldId('Notes'), inputData: 'Webbing between two plants' },
        ],
      },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

    const open = await taskResponses('open', { user_ID: admin.user_id });
    const made = open.responses.find((response) => response.ResponseID === submitted.body.response_id)?.task;
    expect(made?.automation_id).not.toBeNull();
    expect(made?.assignee?.user_id).toBe(admin.user_id);

    const mail = await mailWith((text) => text.includes('Subject: “webbing” in Notes of Scouting'), (text) => text.includes('Subject: Task assigned to Ada Admin'));
    expect(mail[0]).toContain(`To: ${DEMO_MANAGER_EMAIL}\n`);
    expect(mail[1]).toContain('To: grower@demo.growroom.local, admin@demo.growroom.local\n');
  });
});

/** The mail files (DATA_DIR/mail/*.txt), once one matches each test; fails when they do not come. */
async function mailWith(...tests: Array<(text: string) => boolean>): Promise<string[]> {
  const folder = join(server.config.dataDir, 'mail');
  const deadline = Date.now() + 30_000;
  for (;;) {
    let texts: string[] = [];
    try {
      texts = readdirSync(folder).filter((name) => name.endsWith('.txt')).map((name) => readFileSync(join(folder, name), 'utf8'));
    } catch {
      // No mail written yet: the folder is made with the first.
    }
    const found = tests.map((test) => texts.find(test));
    if (found.every((text) => text !== undefined)) return found as string[];
    if (Date.now() > deadline) throw new Error(`Mail not written: ${JSON.stringify(texts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
