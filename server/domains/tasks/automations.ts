/**
 * Task automations (issue 16; submit_task_automation): "when field F of form T answers keyword K, make
 * a task from the Task form X assigned to U". Applied by every submission path (forms/responses.ts), in
 * the submission's transaction, to each response it makes: the task is made with its response or not
 * at all, and a submission repeated with the same Idempotency-Key (a push replayed) gets the stored
 * answer without running again, so a response gets its automation's task once. The task is made at the
 * submission's act time (its actor's `actedAt`): an observation made offline makes its task as of then.
 *
 * Decisions: the keyword matches anywhere in the answer, whatever its case ("Thrips" matches "thrips on
 * lower leaves" and a Checkbox answer "Aphids, Thrips"); a response has at most one task, so when several
 * automations match, the oldest makes it. An assignee removed from the company since the rule was made
 * leaves the task unassigned rather than failing the grower's submission.
 */
import type { Kysely, Selectable } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { isoTime } from '../../../common/schemas/answers';
import type { TaskAutomationRecord } from '../../../common/schemas/tasks';
import type { DB, TaskAutomationsTable } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { recordAudit } from '../audit/record';
import { notifyTaskChanged } from '../automations/triggers';

/** An answer as a submission sends it (forms/responses-queries.ts `Answer`). */
interface SubmittedAnswer {
  fieldID: number;
  inputData: string | null;
}

/** A rule watching a form, with the names its task is made from. */
export interface TaskAutomation {
  id: number;
  form_field_id: number;
  keyword: string;
  task_template_id: number;
  title: string | null;
  description: string | null;
  field_name: string;
  task_template_name: string;
  /** The assignee, when still a live user of the rule's company. */
  assignee_user_id: number | null;
}

/** The response a submission made, as a task made from it needs it. */
export interface MadeResponse {
  id: number;
  templateId: number;
  formName: string;
  gridBoxId: number | null;
  roomId: number | null;
  batchId: number | null;
}

const keywordIn = (answer: string | null, keyword: string) => answer !== null && answer.toLowerCase().includes(keyword.toLowerCase());

/** The first rule (oldest first) one of whose watched answers holds its keyword, with that answer. */
export function firstMatch(automations: readonly TaskAutomation[], answers: readonly SubmittedAnswer[]): { automation: TaskAutomation; answer: string } | null {
  for (const automation of automations) {
    const answer = answers.find((each) => each.fieldID === automation.form_field_id && keywordIn(each.inputData, automation.keyword));
    if (answer?.inputData) return { automation, answer: answer.inputData };
  }
  return null;
}

export const taskAutomationJson = (rule: Selectable<TaskAutomationsTable>): TaskAutomationRecord => ({
  automation_id: rule.id,
  company_id: rule.company_id,
  template_id: rule.template_id,
  form_field_id: rule.form_field_id,
  keyword: rule.keyword,
  task_template_id: rule.task_template_id,
  assignee_user_id: rule.assignee_user_id,
  title: rule.title,
  description: rule.description,
  created_at: isoTime(rule.created_at),
});

export const taskAutomationQueries = {
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('task_automations').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The live rules watching a form, oldest first (one statement per submission; most forms have none). */
  async ofTemplate(db: Kysely<DB>, templateId: number): Promise<TaskAutomation[]> {
    const rows = await db
      .selectFrom('task_automations as rule')
      .innerJoin('form_fields', 'form_fields.id', 'rule.form_field_id')
      .innerJoin('form_templates as task_template', 'task_template.id', 'rule.task_template_id')
      .leftJoin('users as assignee', (join) => join.onRef('assignee.id', '=', 'rule.assignee_user_id').on('assignee.deleted_at', 'is', null).onRef('assignee.company_id', '=', 'rule.company_id'))
      .select([
        'rule.id',
        'rule.form_field_id',
        'rule.keyword',
        'rule.task_template_id',
        'rule.title',
        'rule.description',
        'form_fields.field_name',
        'task_template.template_name as task_template_name',
        'assignee.id as assignee_user_id',
      ])
      .where('rule.template_id', '=', templateId)
      .where('rule.deleted_at', 'is', null)
      .orderBy('rule.id')
      .execute();
    return rows;
  },
};

/**
 * Makes the task the first matching rule asks for (nothing when none matches), as the submitter's act,
 * and records it in the audit trail. `response` was made by this transaction: it has no task yet, and
 * needs no touch for its document to carry the task (its row is written by the same commit).
 */
export async function applyTaskAutomations(db: Kysely<DB>, actor: Actor, automations: readonly TaskAutomation[], response: MadeResponse, answers: readonly SubmittedAnswer[]): Promise<void> {
  if (automations.length === 0) return;
  const match = firstMatch(automations, answers);
  if (!match) return;
  const { automation, answer } = match;
  const title = automation.title ?? automation.task_template_name;
  const task = await writer(db, actor).insert('tasks', {
    company_id: actor.companyId,
    response_id: response.id,
    template_id: response.templateId,
    task_template_id: automation.task_template_id,
    title,
    description: automation.description ?? `${automation.field_name} answered “${answer}” on ${response.formName}.`,
    assignee_user_id: automation.assignee_user_id,
    due_at: null,
    closed_at: null,
    closed_by: null,
    automation_id: automation.id,
  });
  await notifyTaskChanged(db, actor, undefined, task.id);
  await recordAudit(db, actor, {
    title: auditTitles.madeTaskByKeyword(title, response.id, automation.keyword),
    gridBoxId: response.gridBoxId,
    roomId: response.roomId,
    batchId: response.batchId,
    responseId: response.id,
    details: { task_id: task.id, automation_id: automation.id },
  });
}
