/**
 * Notification rules fired by changes (issue 16): a problem of a type recorded, a form of a category
 * submitted, a keyword in a field's answer, a task assigned or done. Each hook is one call from the
 * code that makes the change (problems/record.ts, forms/responses.ts, tasks/routes.ts and
 * tasks/automations.ts), through the change's own database handle, so each delivery is written in the
 * change's transaction (server/notifications/delivery.ts `enqueueDelivery`): it exists if and only if
 * the change commits, the change made offline notifies when it arrives, stamped with the time it was
 * made, and a change replayed (the same Idempotency-Key: its stored answer, no second run) or fired
 * twice for a rule (the same trigger key) notifies once.
 *
 * Trigger keys: `problem:<problem id>`, `response:<response id>` (form submitted and keyword alike: the
 * rule tells them apart), `task:<id>:assigned:<assignee id>`, `task:<id>:done:<when it was closed, ms>`
 * (a task reopened and done again notifies again; assigned again to the same person, not).
 *
 * Decisions (the spec shows none of this):
 * - One message per problem recorded: a form for several boxes naming a problem sends one per box.
 * - A problem matches a rule's problem_type as the reports count it (common catalogue name or slug, else
 *   the company's own type in any case: reports/problem-counts.ts `problemKeyOf`); a rule without a
 *   room matches every room.
 * - A keyword is found anywhere in the watched field's answer, in any case, as task automations find theirs.
 * - A task is "assigned" when it gets an assignee it did not have (made with one, by a member or an
 *   automation, or reassigned); "done" when its status becomes done.
 * Clock rules (template_due, weekly_report) are schedules.ts's.
 */
import type { Kysely } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { DB } from '../../db/schema';
import { type Actor, actedAtOf } from '../../db/writes';
import { enqueueDelivery, type MessageContent, type MessageLink } from '../../notifications/delivery';
import { companyWords, type Words } from '../../notifications/words';
import { problemKeyOf } from '../reports/problem-counts';
import { messageFor, type Rule, ruleQueries } from './queries';
import { personName } from '../users/queries';

/**
 * The app's address for links in messages (PUBLIC_URL), set once at start by schedules.ts
 * `startAutomationSchedules`. WARNING: one per process; until it is set, messages carry no link.
 */
let appAddress: string | null = null;

export function setAppAddress(publicUrl: string) {
  appAddress = publicUrl.replace(/\/$/, '');
}

/** A link to a page of the app, when its address is known. */
export const appLink = (path: string, label: string): MessageLink | undefined => (appAddress === null ? undefined : { url: `${appAddress}${path}`, label });

/** A moment as messages write it: "2026-03-02 08:00 UTC". */
export const utcText = (moment: Date) => `${isoTime(moment).slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A company's live rules, read once per transaction (a submission for 100 boxes fires its hooks 100
 * times): cached on the transaction's handle, which dies with it. Outside a transaction, read each time.
 */
const rulesOfTransaction = new WeakMap<Kysely<DB>, Map<number, Promise<Rule[]>>>();

function liveRules(db: Kysely<DB>, companyId: number): Promise<Rule[]> {
  if (!db.isTransaction) return ruleQueries.ofCompany(db, companyId);
  let byCompany = rulesOfTransaction.get(db);
  if (!byCompany) rulesOfTransaction.set(db, (byCompany = new Map()));
  let rules = byCompany.get(companyId);
  if (!rules) byCompany.set(companyId, (rules = ruleQueries.ofCompany(db, companyId)));
  return rules;
}

async function rulesFiring(db: Kysely<DB>, companyId: number, trigger: Rule['trigger']): Promise<Rule[]> {
  return (await liveRules(db, companyId)).filter((rule) => rule.trigger === trigger);
}

/** Writes the rule's delivery of `content` for this change (nothing when the rule already delivered for it). */
export async function fire(db: Kysely<DB>, rule: Rule, triggerKey: string, actedAt: Date, content: MessageContent): Promise<void> {
  await enqueueDelivery(db, { companyId: rule.company_id, notificationId: rule.id, triggerKey, actedAt, message: messageFor(rule, content) });
}

async function userName(db: Kysely<DB>, userId: number | null, words: Words): Promise<string> {
  if (userId === null) return words.notice.theSystem;
  const user = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
  return (user && personName(user)) ?? words.notice.someone;
}

/** Where a change happened, as messages name it. */
interface Place {
  room: { name: string; clientId: string } | null;
  /** "box B3 of grid Bench 1", in the company's words */
  box: string | null;
}

async function placeOf(db: Kysely<DB>, roomId: number | null, gridBoxId: number | null, words: Words): Promise<Place> {
  const room = roomId === null ? undefined : await db.selectFrom('rooms').select(['name', 'client_id']).where('id', '=', roomId).executeTakeFirst();
  const box =
    gridBoxId === null
      ? undefined
      : await db.selectFrom('grid_boxes').innerJoin('grids', 'grids.id', 'grid_boxes.grid_id').select(['grid_boxes.custom_name', 'grid_boxes.x', 'grid_boxes.y', 'grids.name']).where('grid_boxes.id', '=', gridBoxId).executeTakeFirst();
  return {
    room: room ? { name: room.name, clientId: room.client_id } : null,
    box: box ? words.notice.box(box.custom_name ?? `${box.x},${box.y}`, box.name) : null,
  };
}

/** "for box B3 of grid Bench 1 in room Flower 1", "in room Flower 1"…; null: nowhere known. */
function whereOf(place: Place, words: Words): string | null {
  const { where } = words.notice;
  if (place.box && place.room) return where.boxInRoom(place.box, place.room.name);
  if (place.box) return where.box(place.box);
  return place.room ? where.room(place.room.name) : null;
}

const roomLink = (place: Place, words: Words) =>
  place.room ? appLink(`/dashboard/rooms/${place.room.clientId}`, words.notice.open.room(place.room.name)) : appLink('/dashboard/rooms', words.notice.open.rooms);

// ——— Problems ———

/** A problem row as recorded (problems/record.ts). */
interface RecordedProblem {
  id: number;
  company_id: number;
  room_id: number;
  grid_box_id: number;
  problem_type: string;
  problem_slug: string | null;
  severity: number;
  notes: string | null;
  user_id: number | null;
  observed_at: Date;
}

const problemMatches = (rule: Rule, problem: RecordedProblem) =>
  rule.problem_type !== null && problemKeyOf(rule.problem_type) === (problem.problem_slug ?? problemKeyOf(problem.problem_type)) && (rule.room_id === null || rule.room_id === problem.room_id);

/** Hook of problems/record.ts `recordBoxProblems`: the problem_recorded rules each problem matches, as of when it was seen. */
export async function notifyProblemsRecorded(db: Kysely<DB>, problems: readonly RecordedProblem[]): Promise<void> {
  // Read each company's rules once for the call: a form over a hundred boxes records a hundred problems.
  const rulesOf = new Map<number, Rule[]>();
  for (const companyId of new Set(problems.map((problem) => problem.company_id))) rulesOf.set(companyId, await rulesFiring(db, companyId, 'problem_recorded'));
  const wordsOf = new Map<number, Words>();
  for (const problem of problems) {
    const matching = (rulesOf.get(problem.company_id) ?? []).filter((rule) => problemMatches(rule, problem));
    if (matching.length === 0) continue;
    let words = wordsOf.get(problem.company_id);
    if (!words) wordsOf.set(problem.company_id, (words = await companyWords(db, problem.company_id)));
    const said = words.notice.problem;
    const place = await placeOf(db, problem.room_id, problem.grid_box_id, words);
    const who = await userName(db, problem.user_id, words);
    const box = place.box ?? words.notice.aBox;
    const at = utcText(problem.observed_at);
    const content: MessageContent = {
      subject: place.room ? said.subjectInRoom(problem.problem_type, place.room.name) : said.subject(problem.problem_type),
      text: [
        place.room ? said.textInRoom(problem.problem_type, problem.severity, box, place.room.name, who, at) : said.text(problem.problem_type, problem.severity, box, who, at),
        ...(problem.notes ? [said.notes(problem.notes)] : []),
      ].join('\n'),
      link: roomLink(place, words),
    };
    for (const rule of matching) await fire(db, rule, `problem:${problem.id}`, problem.observed_at, content);
  }
}

// ——— Form submissions ———

/** A response a submission made (forms/responses.ts), with when it was filled. */
interface SubmittedResponse {
  id: number;
  templateId: number;
  roomId: number | null;
  gridBoxId: number | null;
  submittedAt: Date;
}

interface SubmittedAnswer {
  fieldID: number;
  inputData: string | null;
}

const holdsKeyword = (answer: string | null, keyword: string) => answer !== null && answer.toLowerCase().includes(keyword.toLowerCase());

/** How many answers a message lists: a long form is read in the app. */
const ANSWERS_IN_MESSAGE = 20;

/**
 * Hook of forms/responses.ts, for each response a submission makes: the form_submitted rules of its
 * form's category, and the keyword rules of its form whose watched answer holds their keyword.
 */
export async function notifyResponseSubmitted(db: Kysely<DB>, actor: Actor, response: SubmittedResponse, answers: readonly SubmittedAnswer[]): Promise<void> {
  const rules = (await liveRules(db, actor.companyId)).filter((rule) => rule.trigger === 'form_submitted' || (rule.trigger === 'keyword' && rule.template_id === response.templateId));
  if (rules.length === 0) return;
  const form = await db.selectFrom('form_templates').select(['template_name', 'form_category']).where('id', '=', response.templateId).executeTakeFirstOrThrow();
  /** A keyword rule's watched answer, when it holds the keyword. */
  const watchedAnswer = (rule: Rule) => answers.find((answer) => answer.fieldID === rule.form_field_id && rule.keyword !== null && holdsKeyword(answer.inputData, rule.keyword))?.inputData ?? null;
  const firing = rules.filter((rule) => (rule.trigger === 'form_submitted' ? rule.form_category === form.form_category : watchedAnswer(rule) !== null));
  if (firing.length === 0) return;
  const words = await companyWords(db, actor.companyId);
  const { form: formSaid, keyword: keywordSaid } = words.notice;
  const place = await placeOf(db, response.roomId, response.gridBoxId, words);
  const where = whereOf(place, words);
  const who = await userName(db, actor.userId, words);
  const at = utcText(response.submittedAt);
  const fields = new Map(
    (await db.selectFrom('form_fields').select(['id', 'field_name']).where('template_id', '=', response.templateId).execute()).map((field) => [field.id, field.field_name]),
  );
  const answered = answers.filter((answer) => answer.inputData !== null && answer.inputData.trim() !== '');
  const answerLines = [
    ...answered.slice(0, ANSWERS_IN_MESSAGE).map((answer) => formSaid.answer(fields.get(answer.fieldID) ?? formSaid.fieldNumbered(answer.fieldID), answer.inputData ?? '')),
    ...(answered.length > ANSWERS_IN_MESSAGE ? [formSaid.moreAnswers(answered.length - ANSWERS_IN_MESSAGE)] : []),
  ];
  const link = appLink('/dashboard/observations', words.notice.open.observations);
  const formName = form.template_name;
  for (const rule of firing) {
    let content: MessageContent;
    if (rule.trigger === 'form_submitted') {
      content = {
        subject: place.room ? formSaid.subjectInRoom(formName, place.room.name) : formSaid.subject(formName),
        text: [where ? formSaid.textWhere(who, formName, form.form_category, where, at) : formSaid.text(who, formName, form.form_category, at), ...answerLines].join('\n'),
        link,
      };
    } else {
      const keyword = rule.keyword ?? '';
      const field = fields.get(rule.form_field_id ?? 0);
      const answer = watchedAnswer(rule) ?? '';
      const subjectField = field ?? keywordSaid.anAnswer;
      const textField = field ?? keywordSaid.aField;
      content = {
        subject: place.room ? keywordSaid.subjectInRoom(keyword, subjectField, formName, place.room.name) : keywordSaid.subject(keyword, subjectField, formName),
        text: [where ? keywordSaid.textWhere(textField, answer, formName, where, who, at) : keywordSaid.text(textField, answer, formName, who, at), ...answerLines].join('\n'),
        link,
      };
    }
    await fire(db, rule, `response:${response.id}`, response.submittedAt, content);
  }
}

// ——— Tasks ———

/** A task as it was before the change (undefined: the change made it). */
interface TaskBefore {
  assignee_user_id: number | null;
  status: string;
}

/**
 * Hook of the task writes (tasks/routes.ts update_task_fields, tasks/automations.ts): task_assigned
 * rules when the task got an assignee it did not have, task_done rules when it became done, as of the
 * act's time.
 */
export async function notifyTaskChanged(db: Kysely<DB>, actor: Actor, before: TaskBefore | undefined, taskId: number): Promise<void> {
  const rules = (await liveRules(db, actor.companyId)).filter((rule) => rule.trigger === 'task_assigned' || rule.trigger === 'task_done');
  if (rules.length === 0) return;
  const task = await db
    .selectFrom('tasks')
    .innerJoin('form_responses', 'form_responses.id', 'tasks.response_id')
    .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assignee_user_id')
    .select([
      'tasks.id',
      'tasks.title',
      'tasks.description',
      'tasks.status',
      'tasks.assignee_user_id',
      'tasks.due_at',
      'tasks.closed_at',
      'form_templates.template_name',
      'form_responses.room_id',
      'form_responses.grid_box_id',
      'assignee.first_name',
      'assignee.last_name',
    ])
    .where('tasks.id', '=', taskId)
    .executeTakeFirstOrThrow();
  const assigned = task.assignee_user_id !== null && task.assignee_user_id !== before?.assignee_user_id;
  const done = task.status === 'done' && before?.status !== 'done';
  if (!assigned && !done) return;
  const at = actedAtOf(actor);
  const words = await companyWords(db, actor.companyId);
  const said = words.notice.task;
  const who = await userName(db, actor.userId, words);
  const assignee = personName(task) ?? words.notice.nobody;
  const place = await placeOf(db, task.room_id, task.grid_box_id, words);
  const where = whereOf(place, words);
  const about = [
    where ? said.fromWhere(task.template_name, where) : said.from(task.template_name),
    ...(task.description.trim() ? [task.description] : []),
    ...(task.due_at ? [said.due(utcText(task.due_at))] : []),
  ];
  const link = appLink('/dashboard/tasks', words.notice.open.tasks);
  for (const rule of rules) {
    if (rule.trigger === 'task_assigned' && assigned) {
      await fire(db, rule, `task:${task.id}:assigned:${task.assignee_user_id}`, at, {
        subject: said.assignedSubject(assignee, task.title),
        text: [said.assignedText(who, task.title, assignee, utcText(at)), ...about].join('\n'),
        link,
      });
    }
    if (rule.trigger === 'task_done' && done) {
      const closedAt = task.closed_at ?? at;
      await fire(db, rule, `task:${task.id}:done:${closedAt.getTime()}`, at, {
        subject: said.doneSubject(task.title),
        text: [said.doneText(who, task.title, assignee, utcText(closedAt)), ...about].join('\n'),
        link,
      });
    }
  }
}
