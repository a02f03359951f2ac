/**
 * Tasks and comments on form responses (spec part 2 §3; migration 0013), and the JSON shapes answers and
 * the `form_responses` documents show them in.
 *
 * Both travel inside their response's document (forms/collection.ts), so every write of either touches
 * the response row (writes.ts `touch`): the response is pulled again, with them. A write that depends on
 * whether a response has a task (making one) locks the response row first, so two requests making a
 * task for one response run one after the other and the second finds the first's.
 */
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { TASK_CATEGORY, TASK_STATUSES, type TaskStatus, type TaskStatusFilter } from '../../../common/messages/tasks';
import { isoTime } from '../../../common/schemas/answers';
import type { ResponseCommentRecord, TaskRecord } from '../../../common/schemas/tasks';
import type { DB, ResponseCommentsTable, TasksTable } from '../../db/schema';

export type Task = Selectable<TasksTable>;
export type ResponseComment = Selectable<ResponseCommentsTable>;

/** A task row with its assignee's name (a left join: null when nobody is assigned). */
type TaskWithAssignee = Task & { assignee_first_name: string | null; assignee_last_name: string | null };

/** The column holds only what the CHECK lets through. */
const statusOf = (value: string) => value as TaskStatus;

export const taskJson = (task: TaskWithAssignee): TaskRecord => ({
  task_id: task.id,
  response_id: task.response_id,
  template_id: task.template_id,
  task_template_id: task.task_template_id,
  title: task.title,
  description: task.description,
  status: statusOf(task.status),
  assignee:
    task.assignee_user_id === null || task.assignee_first_name === null || task.assignee_last_name === null
      ? null
      : { user_id: task.assignee_user_id, first_name: task.assignee_first_name, last_name: task.assignee_last_name },
  due_at: isoTime(task.due_at),
  closed_at: isoTime(task.closed_at),
  closed_by: task.closed_by,
  created_by: task.created_by,
  automation_id: task.automation_id,
  created_at: isoTime(task.created_at),
  updated_at: isoTime(task.updated_at),
});

export const commentJson = (comment: ResponseComment): ResponseCommentRecord => ({
  CommentID: comment.id,
  ResponseID: comment.response_id,
  UserID: comment.user_id,
  CommentText: comment.comment_text,
  CreatedAt: isoTime(comment.created_at),
  EditedAt: isoTime(comment.edited_at),
});

/** Tasks with their assignee's name. */
const tasksWithAssignee = (db: Kysely<DB>) =>
  db
    .selectFrom('tasks')
    .leftJoin('users', 'users.id', 'tasks.assignee_user_id')
    .selectAll('tasks')
    .select(['users.first_name as assignee_first_name', 'users.last_name as assignee_last_name']);

/** Open tasks first, then in progress, then done; within a status, the nearest due time first, then the newest. */
const listOrder = sql`CASE tasks.status ${sql.join(
  TASK_STATUSES.map((status, rank) => sql`WHEN ${status} THEN ${rank}`),
  sql` `,
)} END, tasks.due_at ASC NULLS LAST, tasks.created_at DESC, tasks.id DESC`;

export interface TaskFilter {
  companyId?: number;
  assigneeId?: number;
  /** The response's form. */
  templateId?: number;
  status: TaskStatusFilter;
}

/** Live tasks of live responses matching the filter. */
function filtered(db: Kysely<DB>, filter: TaskFilter) {
  let query = db
    .selectFrom('tasks')
    .innerJoin('form_responses', 'form_responses.id', 'tasks.response_id')
    .where('tasks.deleted_at', 'is', null)
    .where('form_responses.deleted_at', 'is', null);
  if (filter.companyId !== undefined) query = query.where('tasks.company_id', '=', filter.companyId);
  if (filter.assigneeId !== undefined) query = query.where('tasks.assignee_user_id', '=', filter.assigneeId);
  if (filter.templateId !== undefined) query = query.where('tasks.template_id', '=', filter.templateId);
  if (filter.status !== 'all') query = query.where('tasks.status', '=', filter.status);
  return query;
}

/** The ids (and responses) of a page of the tasks matching the filter, in list order, and how many match in all. */
async function pageOf(db: Kysely<DB>, filter: TaskFilter, page: number, perPage: number) {
  const { count } = await filtered(db, filter).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const total = Number(count);
  if (total <= (page - 1) * perPage) return { rows: [], total };
  const rows = await filtered(db, filter)
    .select(['tasks.id', 'tasks.response_id'])
    .orderBy(listOrder)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { rows, total };
}

export const taskQueries = {
  /** The live tasks of these responses, with their assignees' names, by response id. */
  async ofResponses(db: Kysely<DB>, responseIds: readonly number[]): Promise<Map<number, TaskRecord>> {
    if (responseIds.length === 0) return new Map();
    const rows = await tasksWithAssignee(db).where('tasks.response_id', 'in', [...responseIds]).where('tasks.deleted_at', 'is', null).execute();
    return new Map(rows.map((row) => [row.response_id, taskJson(row)]));
  },

  /** The live comments of these responses, oldest first, by response id. */
  async commentsOf(db: Kysely<DB>, responseIds: readonly number[]): Promise<Map<number, ResponseCommentRecord[]>> {
    const byResponse = new Map<number, ResponseCommentRecord[]>();
    if (responseIds.length === 0) return byResponse;
    const rows = await db
      .selectFrom('response_comments')
      .selectAll()
      .where('response_id', 'in', [...responseIds])
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = byResponse.get(row.response_id) ?? [];
      list.push(commentJson(row));
      byResponse.set(row.response_id, list);
    }
    return byResponse;
  },

  /** The task as answers show it (after a write: the row is live). */
  async jsonById(db: Kysely<DB>, id: number): Promise<TaskRecord> {
    return taskJson(await tasksWithAssignee(db).where('tasks.id', '=', id).executeTakeFirstOrThrow());
  },

  liveById: (db: Kysely<DB>, id: number) => db.selectFrom('tasks').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  liveOfResponse: (db: Kysely<DB>, responseId: number) => db.selectFrom('tasks').selectAll().where('response_id', '=', responseId).where('deleted_at', 'is', null).executeTakeFirst(),

  /**
   * A live response with its form's name, its row locked until the transaction ends (see the header):
   * undefined when there is none (deleted since the guard looked).
   */
  lockedResponse: (db: Kysely<DB>, responseId: number) =>
    db
      .selectFrom('form_responses')
      .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
      .selectAll('form_responses')
      .select('form_templates.template_name')
      .where('form_responses.id', '=', responseId)
      .where('form_responses.deleted_at', 'is', null)
      .forUpdate('form_responses')
      .executeTakeFirst(),

  /** A page of the tasks matching the filter, in list order, and how many match in all. */
  async page(db: Kysely<DB>, filter: TaskFilter, page: number, perPage: number): Promise<{ tasks: TaskRecord[]; total: number }> {
    const { rows: ids, total } = await pageOf(db, filter, page, perPage);
    if (ids.length === 0) return { tasks: [], total };
    const rows = await tasksWithAssignee(db).where('tasks.id', 'in', ids.map((row) => row.id)).execute();
    const byId = new Map(rows.map((row) => [row.id, taskJson(row)]));
    return { tasks: ids.flatMap((row) => byId.get(row.id) ?? []), total };
  },

  /** The responses of a page of the tasks matching the filter, in list order, and how many match in all. */
  async responsePage(db: Kysely<DB>, filter: TaskFilter, page: number, perPage: number): Promise<{ responseIds: number[]; total: number }> {
    const { rows, total } = await pageOf(db, filter, page, perPage);
    return { responseIds: rows.map((row) => row.response_id), total };
  },

  /** The company's live users with this first and last name, whatever their case and surrounding spaces. */
  usersNamed: (db: Kysely<DB>, companyId: number, firstName: string, lastName: string) =>
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .where(sql`lower(trim(first_name))`, '=', firstName.trim().toLowerCase())
      .where(sql`lower(trim(last_name))`, '=', lastName.trim().toLowerCase())
      .execute(),

  /** Whether the template is a live form of the company of category Task. */
  async isTaskTemplate(db: Kysely<DB>, companyId: number, templateId: number): Promise<boolean> {
    const row = await db
      .selectFrom('form_templates')
      .select('id')
      .where('id', '=', templateId)
      .where('company_id', '=', companyId)
      .where('form_category', '=', TASK_CATEGORY)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  },

  liveCommentById: (db: Kysely<DB>, id: number) => db.selectFrom('response_comments').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),

  commentById: (db: Kysely<DB>, id: number) => db.selectFrom('response_comments').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
};

/**
 * For the `form_responses` pull (forms/collection.ts `keepBeyondWindow`): the company's responses with a
 * task not done, as an SQL condition on the pulled row (`row`). Uncorrelated, so PostgreSQL can read the
 * company's open tasks once per statement (a hashed subplan) rather than look up each row's.
 */
export const withOpenTask = (companyId: number): RawBuilder<unknown> =>
  sql`row.id IN (SELECT response_id FROM tasks WHERE company_id = ${companyId} AND status <> 'done' AND deleted_at IS NULL)`;
