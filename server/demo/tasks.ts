/**
 * The demo's follow-up work (issue 16): tasks made from its observations, the team's comments on
 * them, one task automation and one notification rule of each kind. A task is written as
 * update_task_fields writes one (tasks/routes.ts: made from a response, named by it, then its status
 * changed by a later act, each write touching the response, whose `form_responses` document carries
 * the task and its comments to the tablets, and audited in that call's words at the act's time); a
 * comment as add_comment writes it (tasks/comment-routes.ts); the automation as
 * submit_task_automation; the rules as the three create calls save them (automations/routes.ts
 * `saveRule`), each checked by that call's own body schema.
 *
 * Where the spec is silent, the demo decides:
 * - The story's tasks: the mites of Bench A's door corner (found, the worst plants culled, predatory
 *   mites released twice), the gnats of the clone table (two nematode drenches), the mildew on LH-033
 *   before its harvest, all done when the treatment records say the work was; thrips in flower being
 *   checked (in progress); gnats on the new cuttings and thrips on the veg cards still open. Each is
 *   made from the observation that called for it, by the Admin (Ada) or the grower (Gus), minutes
 *   after it was filled, and closed by its assignee.
 * - Tasks and comments are made without firing notification rules: the rules are saved at the first
 *   start itself, after the story, and fire for later changes only (a grower's next observation with
 *   spider mites, the next task done, next Monday's report), as a rule saved today would.
 * - Rules send e-mail to the demo's own addresses (`@demo.growroom.local`, which reach nobody): with no
 *   SMTP_URL their deliveries are written to DATA_DIR/mail/, so a first look finds them there. No
 *   Slack or Teams rule: its deliveries would call the internet.
 */
import type { Kysely } from 'kysely';
import { newClientId } from '../../common/client-ids';
import { auditTitles } from '../../common/messages/audit-titles';
import type { TaskStatus } from '../../common/messages/tasks';
import { type NotificationRule, notificationBody, taskNotificationBody, templateNotificationBody } from '../../common/schemas/automations';
import { submitTaskAutomationBody } from '../../common/schemas/tasks';
import type { DB } from '../db/schema';
import { type Actor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { ruleColumnsOf } from '../domains/automations/queries';
import { describeRule, recipientText } from '../domains/automations/routes';
import { formQueries } from '../domains/forms/queries';
import { statusChange } from '../domains/tasks/routes';
import type { Calendar } from './dice';
import { type DemoBox, type GridKey, MITE_CORNER, type Operation, type RoomKey } from './operation';

const MINUTE_MS = 60_000;

/** Where the rules send their mail: the demo's grower manager, and its two users. */
export const DEMO_MANAGER_EMAIL = 'manager@demo.growroom.local';

/** An observation of the story, with its answers by field name. */
interface Observation {
  id: number;
  templateId: number;
  form: string;
  box: DemoBox | null;
  roomId: number | null;
  gridBoxId: number | null;
  batchId: number | null;
  batchNumber: string | null;
  at: Date;
  answers: Map<string, string>;
}

type Person = 'admin' | 'grower';

/** A later act on a task: its status changed by someone, at a time. */
interface StatusAct {
  status: TaskStatus;
  by: Person;
  at: Date;
}

interface StoryComment {
  by: Person;
  at: Date;
  text: string;
}

interface StoryTask {
  title: string;
  description: string;
  from: Observation;
  madeBy: Person;
  /** Minutes after the observation the task was made. */
  madeAfter: number;
  assignee: Person;
  due: Date | null;
  acts: StatusAct[];
  comments: StoryComment[];
}

export interface TaskStory {
  tasks: number;
  /** Tasks not done yet (open or in progress). */
  notDone: number;
  comments: number;
  taskAutomations: number;
  rules: number;
}

export async function seedTasks(db: Kysely<DB>, op: Operation, cal: Calendar, now: Date): Promise<TaskStory> {
  const observations = await observationsOf(db, op);
  const story = storyTasks(op, cal, observations);
  let comments = 0;
  for (const task of story) comments += await writeTask(db, op, task);
  const forms = await formsOf(db, op.companyId);
  const admin: Actor = { userId: op.adminId, companyId: op.companyId, actedAt: now };
  await writeTaskAutomation(db, admin, forms, op.adminId);
  const rules = await writeRules(db, admin, op, forms, cal);
  return { tasks: story.length, notDone: story.filter((task) => task.acts.at(-1)?.status !== 'done').length, comments, taskAutomations: 1, rules };
}

// ——— The observations ———

/** Every response of the company, oldest first, with its non-blank answers (a few thousand rows: one read). */
async function observationsOf(db: Kysely<DB>, op: Operation): Promise<Observation[]> {
  const boxes = new Map(op.grids.flatMap((grid) => grid.boxes.map((box) => [box.id, box] as const)));
  const responses = await db
    .selectFrom('form_responses')
    .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
    .leftJoin('batches', 'batches.id', 'form_responses.batch_id')
    .select([
      'form_responses.id',
      'form_responses.template_id',
      'form_responses.grid_box_id',
      'form_responses.room_id',
      'form_responses.batch_id',
      'form_responses.submitted_at',
      'form_templates.template_name',
      'batches.batch_number',
    ])
    .where('form_responses.company_id', '=', op.companyId)
    .where('form_responses.deleted_at', 'is', null)
    .orderBy('form_responses.submitted_at')
    .orderBy('form_responses.id')
    .execute();
  const answers = await db
    .selectFrom('form_field_responses')
    .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
    .select(['form_field_responses.response_id', 'form_fields.field_name', 'form_field_responses.input_data'])
    .where('form_field_responses.company_id', '=', op.companyId)
    .where('form_field_responses.input_data', 'is not', null)
    .execute();
  const answersOf = new Map<number, Map<string, string>>();
  for (const answer of answers) {
    const map = answersOf.get(answer.response_id) ?? new Map<string, string>();
    map.set(answer.field_name, answer.input_data ?? '');
    answersOf.set(answer.response_id, map);
  }
  return responses.map((response) => ({
    id: response.id,
    templateId: response.template_id,
    form: response.template_name,
    box: response.grid_box_id === null ? null : (boxes.get(response.grid_box_id) ?? null),
    roomId: response.room_id,
    gridBoxId: response.grid_box_id,
    batchId: response.batch_id,
    batchNumber: response.batch_number,
    at: new Date(response.submitted_at),
    answers: answersOf.get(response.id) ?? new Map(),
  }));
}

const pestsOf = (observation: Observation) => (observation.answers.get('Pests seen') ?? '').split(', ');
const sees = (pest: string) => (observation: Observation) => observation.form === 'Scouting' && pestsOf(observation).includes(pest);
const onGrid = (grid: GridKey) => (observation: Observation) => observation.box?.grid === grid;
const inRoom = (room: RoomKey) => (observation: Observation) => observation.box?.room === room;
const count = (observation: Observation, field: string) => Number(observation.answers.get(field) ?? 0);

// ——— The story ———

function storyTasks(op: Operation, cal: Calendar, observations: readonly Observation[]): StoryTask[] {
  /** The first (or last) observation filled in [from, until) that `matches`; the story needs it. */
  const find = (what: string, which: 'first' | 'last', from: Date, until: Date, ...matches: Array<(observation: Observation) => boolean>): Observation => {
    const found = observations.filter((observation) => observation.at >= from && observation.at < until && matches.every((match) => match(observation)));
    const one = which === 'first' ? found[0] : found.at(-1);
    if (!one) throw new Error(`The demo has no observation of ${what}.`);
    return one;
  };
  const day = (daysAgo: number) => cal.at(daysAgo, 0);
  const after = (observation: Observation, minutes: number) => new Date(observation.at.getTime() + minutes * MINUTE_MS);
  const scouting = (observation: Observation) => observation.form === 'Scouting';
  const traps = (observation: Observation) => observation.form === 'Sticky trap count';
  const bench = op.grid(MITE_CORNER.grid).name;
  const notes = (observation: Observation) => observation.answers.get('Notes') ?? 'no notes';

  const miteFind = find('the first spider mites', 'first', day(40), day(24), sees('Spider mites'), onGrid(MITE_CORNER.grid));
  const webbing = find('the mites at their worst', 'last', day(26), cal.at(22, 11), sees('Spider mites'), onGrid(MITE_CORNER.grid), (observation) => observation.answers.get('Pest pressure') === 'High');
  const lingering = find('the mites before the second release', 'last', day(21), cal.at(15, 15), sees('Spider mites'), onGrid(MITE_CORNER.grid));
  const cloneGnats = find('gnats on the clone table', 'last', day(48), cal.at(40, 15), sees('Fungus gnats'), onGrid('clone'));
  const cloneCards = find('the clone table’s cards', 'last', day(26), cal.at(19, 15), traps, onGrid('clone'));
  const mildew = find('mildew on LH-033', 'first', day(25), day(10), scouting, (observation) => (observation.answers.get('Disease signs') ?? '').includes('Powdery mildew'));
  const flowerThrips = find('thrips in flower', 'last', day(10), day(0), sees('Thrips'), inRoom('flower'));
  const newCuttings = find('gnats on the new cuttings', 'last', day(8), day(0), sees('Fungus gnats'), onGrid('clone'));
  const vegCards = [...observations.filter((observation) => traps(observation) && inRoom('veg')(observation) && observation.at >= day(7))].sort((a, b) => count(b, 'Thrips') - count(a, 'Thrips'))[0];
  if (!vegCards) throw new Error('The demo has no sticky-card read in veg this week.');

  const boxName = (observation: Observation) => observation.box?.name ?? 'the room';
  const batch = (observation: Observation) => observation.batchNumber ?? 'the batch';
  return [
    {
      title: `Release predatory mites on ${bench}'s door corner`,
      description: `Spider mites on ${boxName(miteFind)} (${notes(miteFind)}). Follow up the corner's plants at each walk; release Phytoseiulus persimilis on the hot spots when they spread.`,
      from: miteFind,
      madeBy: 'grower',
      madeAfter: 25,
      assignee: 'admin',
      due: cal.at(22, 17),
      acts: [
        { status: 'in_progress', by: 'admin', at: cal.at(24, 10, 30) },
        { status: 'done', by: 'admin', at: cal.at(22, 15, 40) },
      ],
      comments: [
        { by: 'grower', at: after(miteFind, 30), text: `Stippling on a few fan leaves at ${boxName(miteFind)}; the plants around it look clean so far.` },
        { by: 'admin', at: after(miteFind, 95), text: 'Thanks. Keep scouting the door corner at every walk; mites come in on the draught from the door.' },
        { by: 'admin', at: cal.at(22, 15, 45), text: 'Released 20 per m² on rows 9 to 12 of the corner. Leave the fans low for a few days.' },
      ],
    },
    {
      title: `Cull the two worst plants in ${bench}'s door corner`,
      description: `${boxName(webbing)}: ${notes(webbing)}. Bag the plants before carrying them past the other benches.`,
      from: webbing,
      madeBy: 'admin',
      madeAfter: 40,
      assignee: 'grower',
      due: cal.at(22, 12),
      acts: [{ status: 'done', by: 'grower', at: cal.at(22, 11, 15) }],
      comments: [{ by: 'grower', at: cal.at(22, 11, 20), text: 'Both plants culled and bagged at the door; the bench wiped down.' }],
    },
    {
      title: `Follow-up release of predatory mites on ${bench}`,
      description: `Mites still seen at ${boxName(lingering)} after the first release: a second, lighter release on the corner.`,
      from: lingering,
      madeBy: 'admin',
      madeAfter: 60,
      assignee: 'admin',
      due: cal.at(15, 17),
      acts: [{ status: 'done', by: 'admin', at: cal.at(15, 15, 30) }],
      comments: [{ by: 'admin', at: cal.at(15, 15, 35), text: 'Released 10 per m². No webbing left; stippling only on old leaves.' }],
    },
    {
      title: 'Drench the clone table with beneficial nematodes',
      description: `Fungus gnats at ${boxName(cloneGnats)} (${notes(cloneGnats)}). Steinernema feltiae, 0.5 million per m², on every tray.`,
      from: cloneGnats,
      madeBy: 'admin',
      madeAfter: 45,
      assignee: 'grower',
      due: cal.at(40, 17),
      acts: [{ status: 'done', by: 'grower', at: cal.at(40, 15, 50) }],
      comments: [{ by: 'grower', at: cal.at(40, 16), text: 'All trays drenched, and the mother bench too.' }],
    },
    {
      title: 'Second nematode drench on the clone table',
      description: `${count(cloneCards, 'Fungus gnats')} fungus gnats on the card at ${boxName(cloneCards)} this week: drench again.`,
      from: cloneCards,
      madeBy: 'grower',
      madeAfter: 10,
      assignee: 'grower',
      due: cal.at(19, 17),
      acts: [{ status: 'done', by: 'grower', at: cal.at(19, 15, 40) }],
      comments: [],
    },
    {
      title: `Check ${batch(mildew)} for powdery mildew before harvest`,
      description: `White specks on a few lower leaves at ${boxName(mildew)}. Strip the affected leaves; harvest as planned if the buds are clean.`,
      from: mildew,
      madeBy: 'grower',
      madeAfter: 15,
      assignee: 'admin',
      due: cal.at(10, 8),
      acts: [{ status: 'done', by: 'admin', at: cal.at(11, 16, 10) }],
      comments: [{ by: 'admin', at: cal.at(11, 16, 15), text: 'Only on lower leaves, buds clean. Leaves stripped; harvest tomorrow as planned.' }],
    },
    {
      title: `Check thrips on ${batch(flowerThrips)} in flower`,
      description: `${notes(flowerThrips)} at ${boxName(flowerThrips)}. Look under the upper leaves of the neighbouring plants and count the blue cards.`,
      from: flowerThrips,
      madeBy: 'admin',
      madeAfter: 50,
      assignee: 'grower',
      due: null,
      acts: [{ status: 'in_progress', by: 'grower', at: after(flowerThrips, 22 * 60) }],
      comments: [{ by: 'grower', at: after(flowerThrips, 22 * 60 + 5), text: 'A few thrips on the upper leaves of two plants; extra blue cards hung by the bench.' }],
    },
    {
      title: 'Check the new cuttings for fungus gnat larvae',
      description: `Gnats at ${boxName(newCuttings)} (${notes(newCuttings)}). Check the plugs for larvae and let the media dry between waterings.`,
      from: newCuttings,
      madeBy: 'admin',
      madeAfter: 35,
      assignee: 'grower',
      due: cal.at(-1, 12),
      acts: [],
      comments: [
        { by: 'admin', at: after(newCuttings, 40), text: 'The yellow cards on the clone table caught more gnats again this week.' },
        { by: 'grower', at: after(newCuttings, 75), text: 'I will check the plugs first thing tomorrow.' },
      ],
    },
    {
      title: 'Hang extra sticky cards on the veg benches',
      description: `${count(vegCards, 'Thrips')} thrips on the card at ${boxName(vegCards)} this week. More blue cards over the benches before the plants go to flower.`,
      from: vegCards,
      madeBy: 'admin',
      madeAfter: 120,
      assignee: 'admin',
      due: null,
      acts: [],
      comments: [],
    },
  ];
}

// ——— Writes ———

/**
 * The task as update_task_fields makes it (then changes its status, one act each), with its comments
 * as add_comment adds them; answers how many comments. Acts and comments are written in time order.
 */
async function writeTask(db: Kysely<DB>, op: Operation, task: StoryTask): Promise<number> {
  const userOf = (person: Person) => (person === 'admin' ? op.adminId : op.growerId);
  const as = (person: Person, at: Date): Actor => ({ userId: userOf(person), companyId: op.companyId, actedAt: at });
  const response = task.from;
  const place = { gridBoxId: response.gridBoxId, roomId: response.roomId, batchId: response.batchId, responseId: response.id };

  const made = as(task.madeBy, new Date(response.at.getTime() + task.madeAfter * MINUTE_MS));
  const values = { title: task.title, description: task.description, assignee_user_id: userOf(task.assignee), ...(task.due ? { due_at: task.due } : {}) };
  const created = await writer(db, made).insert('tasks', {
    client_id: newClientId(),
    company_id: op.companyId,
    response_id: response.id,
    template_id: response.templateId,
    task_template_id: null,
    due_at: null,
    closed_at: null,
    closed_by: null,
    automation_id: null,
    ...values,
  });
  await writer(db, made).touch('form_responses', response.id);
  await recordAudit(db, made, { title: auditTitles.madeTask(task.title, response.id), ...place, details: { task_id: created.id, changed: Object.keys(values) } });

  type Step = { at: Date; write: () => Promise<void> };
  const steps: Step[] = [
    ...task.acts.map((act) => ({
      at: act.at,
      write: async () => {
        const actor = as(act.by, act.at);
        // No task of the story is set done twice: each change is made as to a task not done before.
        const change = statusChange(act.status, undefined, act.at, actor.userId);
        await writer(db, actor).update('tasks', created.id, change);
        await writer(db, actor).touch('form_responses', response.id);
        await recordAudit(db, actor, { title: auditTitles.updatedTask(task.title), ...place, details: { task_id: created.id, changed: Object.keys(change) } });
      },
    })),
    ...task.comments.map((comment) => ({
      at: comment.at,
      write: async () => {
        const actor = as(comment.by, comment.at);
        const { id } = await writer(db, actor).insert('response_comments', {
          client_id: newClientId(),
          company_id: op.companyId,
          response_id: response.id,
          user_id: actor.userId,
          comment_text: comment.text,
          edited_at: null,
        });
        await writer(db, actor).touch('form_responses', response.id);
        await recordAudit(db, actor, { title: auditTitles.commentedOn(response.id), ...place, details: { comment_id: id } });
      },
    })),
  ];
  for (const step of steps.sort((a, b) => a.at.getTime() - b.at.getTime())) await step.write();
  return task.comments.length;
}

interface Forms {
  scouting: { id: number; fields: Map<string, number> };
  traps: { id: number };
  task: { id: number };
}

async function formsOf(db: Kysely<DB>, companyId: number): Promise<Forms> {
  const templates = await db.selectFrom('form_templates').select(['id', 'template_name']).where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
  const idOf = (name: string) => {
    const template = templates.find((candidate) => candidate.template_name === name);
    if (!template) throw new Error(`The demo has no ${name} form.`);
    return template.id;
  };
  const scouting = idOf('Scouting');
  const fields = new Map((await formQueries.liveFieldsOf(db, scouting)).map((field) => [field.field_name, field.id]));
  return { scouting: { id: scouting, fields }, traps: { id: idOf('Sticky trap count') }, task: { id: idOf('Task') } };
}

const fieldOf = (forms: Forms, name: string) => {
  const id = forms.scouting.fields.get(name);
  if (id === undefined) throw new Error(`The demo's Scouting form has no ${name} field.`);
  return id;
};

/** As submit_task_automation: spider mites checked on a scouting form make a task for the Admin. */
async function writeTaskAutomation(db: Kysely<DB>, actor: Actor, forms: Forms, assigneeId: number) {
  const body = submitTaskAutomationBody.parse({
    template_id: forms.scouting.id,
    form_field_id: fieldOf(forms, 'Pests seen'),
    keyword: 'spider mite',
    task_template_id: forms.task.id,
    assignee_user_id: assigneeId,
    title: 'Spider mites found: check the plants around and plan a release',
    client_id: newClientId(),
  });
  const created = await writer(db, actor).insert('task_automations', {
    client_id: body.client_id,
    company_id: actor.companyId,
    template_id: body.template_id,
    form_field_id: body.form_field_id,
    keyword: body.keyword,
    task_template_id: body.task_template_id,
    assignee_user_id: body.assignee_user_id ?? null,
    title: body.title ?? null,
    description: body.description ?? null,
  });
  await recordAudit(db, actor, {
    title: auditTitles.createdTaskAutomation('Scouting', body.keyword, 'Pests seen'),
    details: { automation_id: created.id, task_template_id: body.task_template_id, assignee_user_id: body.assignee_user_id ?? null },
  });
}

/**
 * One rule of each kind, saved by the Admin, by e-mail. The sticky-trap reminder is due the day after
 * the weekly trap round at 12:00 UTC: after the round (filled early afternoon, local time) in every
 * time zone, so it stays quiet in a week the cards were read.
 */
async function writeRules(db: Kysely<DB>, actor: Actor, op: Operation, forms: Forms, cal: Calendar): Promise<number> {
  const userId = op.adminId;
  const email = { method: 'email', email_recipient: DEMO_MANAGER_EMAIL };
  const team = 'grower@demo.growroom.local;admin@demo.growroom.local';
  const isoWeekday = (date: Date) => ((date.getDay() + 6) % 7) + 1;
  const rules: NotificationRule[] = [
    notificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), problem_type: 'Two-spotted spider mite', room_id: op.rooms.flower.id }),
    notificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), form_category: 'Treatment' }),
    notificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), is_automation: 1, template_id: forms.scouting.id, form_field_id: fieldOf(forms, 'Notes'), keyword: 'webbing' }),
    taskNotificationBody.parse({ user_id: userId, method: 'email', email_recipient: team, triggered_by: 'assigned', client_id: newClientId() }),
    taskNotificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), triggered_by: 'done' }),
    templateNotificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), template_id: forms.traps.id, frequency: 'weekly', weekday: (isoWeekday(cal.at(3, 12)) % 7) + 1, notification_time: '12:00' }),
    notificationBody.parse({ user_id: userId, ...email, client_id: newClientId(), weekly_report: 1, report_duration_weeks: 4, weekday: 1, notification_time: '07:00' }),
  ];
  for (const rule of rules) {
    const columns = ruleColumnsOf(rule);
    const created = await writer(db, actor).insert('notifications', { client_id: rule.client_id, company_id: actor.companyId, ...columns });
    await recordAudit(db, actor, { title: auditTitles.createdNotification(await describeRule(db, columns), recipientText(rule)), roomId: rule.room_id, details: { notification_id: created.id } });
  }
  return rules.length;
}
